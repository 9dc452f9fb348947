// Blast radius: an XRD or ProviderRevision the plugin refuses holds only its own roles (and, for a provider, its
// family's); Kubernetes' own API groups and privileged rules never reach the roles an XRD or provider gets.
import { describe, expect, it } from 'vitest';
import { renderSync } from '../../../src/sync/render.js';
import { findInvalidField } from '../../../src/crossplane/validate-input.js';
import { isInPruneScope } from '../../../src/crossplane/owned-objects.js';
import { isKubernetesGroup } from '../../../src/kube/api-names.js';
import { objectKey } from '../../../src/kube/meta.js';
import type { ClusterRole, KubeObject, PolicyRule, ProviderRevision } from '../../../src/kube/types.js';
import { deployment, namespace, rev, snapshot, xrd } from './sync-fixtures.js';

describe("Kubernetes' own API groups", () => {
  // kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apihelpers/helpers.go@aa84028119251b93042a1fc24ca6ebf13299ad29
  // IsProtectedCommunityGroup: k8s.io, kubernetes.io and their subdomains need api-approved.kubernetes.io; the
  // others are the groups every API server serves itself without that suffix (kubectl api-versions).
  const cases: Record<string, { group: string; want: boolean; reason: string }> = {
    Core: { group: '', want: true, reason: 'the legacy core group (pods, secrets, serviceaccounts)' },
    Apps: { group: 'apps', want: true, reason: 'a built-in group without the suffix' },
    Batch: { group: 'batch', want: true, reason: 'a built-in group without the suffix' },
    Policy: { group: 'policy', want: true, reason: 'a built-in group without the suffix' },
    Autoscaling: { group: 'autoscaling', want: true, reason: 'a built-in group without the suffix' },
    Extensions: { group: 'extensions', want: true, reason: 'a built-in group without the suffix' },
    Rbac: { group: 'rbac.authorization.k8s.io', want: true, reason: 'ends in .k8s.io' },
    Certificates: { group: 'certificates.k8s.io', want: true, reason: 'ends in .k8s.io' },
    Admission: { group: 'admissionregistration.k8s.io', want: true, reason: 'ends in .k8s.io' },
    K8sIo: { group: 'k8s.io', want: true, reason: 'IsProtectedCommunityGroup: group == "k8s.io"' },
    KubernetesIo: { group: 'kubernetes.io', want: true, reason: 'group == "kubernetes.io"' },
    SubKubernetesIo: { group: 'x.kubernetes.io', want: true, reason: 'ends in .kubernetes.io' },
    LookAlike: { group: 'notk8s.io', want: false, reason: 'only the suffix ".k8s.io" is protected' },
    Crossplane: { group: 'aws.upbound.io', want: false, reason: "a provider's group" },
    SuffixInside: { group: 'k8s.io.example.org', want: false, reason: 'the suffix must be at the end' },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(isKubernetesGroup(tc.group), tc.reason).toBe(tc.want);
  });
});

/** The attack: an XRD that would make Crossplane's roles grant * on clusterroles and clusterrolebindings. */
function rbacXrd(): KubeObject {
  return xrd('clusterroles.rbac.authorization.k8s.io', {
    group: 'rbac.authorization.k8s.io',
    names: { kind: 'ClusterRole', plural: 'clusterroles' },
    claimNames: { kind: 'ClusterRoleBinding', plural: 'clusterrolebindings' },
  });
}

describe('XRDs and revisions are refused for what they could grant', () => {
  const cases: Record<string, { object: KubeObject; field: string; reason: string }> = {
    XrdInTheRbacGroup: {
      object: rbacXrd(),
      field: 'spec.group',
      reason: 'aggregated into crossplane-edit, its roles would grant * (escalate, bind) on clusterroles',
    },
    XrdInTheCoreGroupByName: {
      object: xrd('secrets.k8s.io', { group: 'k8s.io', names: { kind: 'Secret', plural: 'secrets' } }),
      field: 'spec.group',
      reason: 'k8s.io is protected',
    },
    XrdNameIsNotPluralDotGroup: {
      object: xrd('anything.example.org', { group: 'example.org', names: { kind: 'X', plural: 'xs' } }),
      field: 'metadata.name',
      reason:
        'crossplane/crossplane apis/apiextensions/v1/xrd_types.go@9efe8f2f916fdc2af127d82a31785e8869b824ce: the group must match the name, `<names.plural>.<group>`',
    },
    XrdHugeName: {
      object: xrd(`${'x'.repeat(1_000_000)}.example.org`, {
        group: 'example.org',
        names: { kind: 'X', plural: 'xs' },
      }),
      field: 'metadata.name',
      reason: 'no 1 MB names: the name must be the plural and the group',
    },
    RevisionDefinesClusterRoleBindings: {
      object: rev('provider-evil-1', ['clusterrolebindings.rbac.authorization.k8s.io']),
      field: 'status.objectRefs[0].name',
      reason: 'the system role would grant the provider * on clusterrolebindings',
    },
    RevisionDefinesSigners: {
      object: rev('provider-evil-1', ['ok.example.org', 'signers.certificates.k8s.io']),
      field: 'status.objectRefs[1].name',
      reason: 'approving certificates for any identity',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(findInvalidField(tc.object)?.field, tc.reason).toBe(tc.field);
  });

  it('a valid XRD and revision pass', () => {
    expect(findInvalidField(xrd('xs.example.org', {}))).toBeUndefined();
    expect(findInvalidField(rev('provider-a-1', ['things.a.io']))).toBeUndefined();
  });
});

const keys = (objs: readonly KubeObject[]): string[] => objs.map(objectKey);

describe('held owners', () => {
  const good = xrd('xs.a.io', { group: 'a.io', names: { kind: 'X', plural: 'xs' } });
  const bad = rbacXrd();
  const revA = rev('provider-aws-s3-1', ['buckets.s3.aws.io'], {
    family: 'provider-family-aws',
    image: 'xpkg.upbound.io/upbound/provider-aws-s3:v1',
  });
  const revB = rev('provider-aws-ec2-1', ['instances.ec2.aws.io'], {
    family: 'provider-family-aws',
    image: 'xpkg.upbound.io/upbound/provider-aws-ec2:v1',
  });
  const loner = rev('provider-helm-1', ['releases.helm.io'], {
    image: 'xpkg.upbound.io/crossplane-contrib/provider-helm:v1',
  });
  const deployments = [revA, revB, loner].map((r) =>
    deployment(r.metadata.name, 'crossplane-system', r.metadata.uid ?? '', `sa-${r.metadata.name}`),
  );
  const snap = snapshot({ xrds: [good], providerRevisions: [revA, revB, loner], deployments });
  const plain = renderSync(snap);

  it('an invalid XRD changes nothing else: every other object is rendered exactly as without it', () => {
    const out = renderSync(snap, { hold: [{ object: bad, reason: 'bad group', origin: 'f.yaml' }] });
    expect(keys(out.objects)).toStrictEqual(keys(plain.objects));
    expect(out.objects).toStrictEqual(plain.objects);
    expect(out.held).toStrictEqual([
      {
        kind: 'CompositeResourceDefinition',
        name: 'clusterroles.rbac.authorization.k8s.io',
        reason: 'bad group',
        origin: 'f.yaml',
      },
    ]);
  });

  it('one invalid member of a provider family holds the whole family (their rules are shared), nothing else', () => {
    const broken = { ...revB, status: { objectRefs: 'not a list' } } as unknown as KubeObject;
    const out = renderSync(snapshot({ xrds: [good], providerRevisions: [revA, loner], deployments }), {
      hold: [{ object: broken, reason: 'status.objectRefs must be a list' }],
    });
    const rendered = keys(out.objects);
    expect(
      rendered.some((k) => k.includes('provider-aws-s3-1')),
      'the family is held',
    ).toBe(false);
    expect(
      rendered.some((k) => k.includes('provider-helm-1')),
      'another provider is synced',
    ).toBe(true);
    expect(rendered.filter((k) => k.includes('xs.a.io'))).toHaveLength(4);
    expect(out.held.map((h) => [h.name, h.reason])).toStrictEqual([
      ['provider-aws-ec2-1', 'status.objectRefs must be a list'],
      ['provider-aws-s3-1', 'held with its provider family: ProviderRevision "provider-aws-ec2-1" is held'],
    ]);
    expect(out.scope.held?.providers).toStrictEqual(['provider-aws-ec2-1', 'provider-aws-s3-1']);
  });

  it("a held provider's namespace-scoped RoleBindings are out of the prune scope", () => {
    const binding = (name: string): KubeObject => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: `crossplane:provider:${name}:system`, namespace: 'crossplane-system' },
    });
    const scope = {
      groups: ['provider-bindings' as const],
      held: { providers: ['provider-aws-s3-1'], xrds: [], namespaces: [] },
    };
    expect(isInPruneScope(binding('provider-aws-s3-1'), scope)).toBe(false);
    expect(isInPruneScope(binding('provider-helm-1'), scope)).toBe(true);
  });

  it('a namespace that enables a held XRD keeps its roles untouched (not rendered, not pruned)', () => {
    const claimable = xrd('xs.a.io', { claimNames: { kind: 'C', plural: 'cs' } });
    const withNs = snapshot({
      xrds: [claimable],
      namespaces: [
        namespace('team-a', { 'rbac.crossplane.io/enabled-xrds': 'xs.a.io' }),
        namespace('team-b', { 'rbac.crossplane.io/enabled-xrds': `xs.a.io,${bad.metadata.name}` }),
      ],
    });
    const out = renderSync(withNs, { hold: [{ object: bad, reason: 'bad group' }] });
    const rendered = keys(out.objects);
    expect(rendered.some((k) => k.includes('crossplane-ns-team-a-'))).toBe(true);
    expect(rendered.some((k) => k.includes('crossplane-ns-team-b-'))).toBe(false);
    expect(out.scope.held?.namespaces).toStrictEqual(['team-b']);
    expect(out.warnings.join('\n')).toContain('namespace "team-b"');
  });
});

describe('privileged rules from a provider are held without --allow-privileged', () => {
  // Crossplane v1 appends a revision's permissionRequests verbatim (provider/roles RenderClusterRoles) once the
  // --provider-clusterrole allows them; an administrator's broad allow-list must not let a package mint tokens.
  const allowAll: ClusterRole = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'crossplane:allowed-provider-permissions' },
    rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
  };
  const token: PolicyRule = { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] };
  const requesting: ProviderRevision = {
    ...rev('provider-x-1', ['things.x.io'], { image: 'xpkg.upbound.io/x/provider-x:v1' }),
    status: {
      objectRefs: [
        { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'things.x.io' },
      ],
      permissionRequests: [token],
    },
  };
  const other = rev('provider-y-1', ['things.y.io'], { image: 'xpkg.upbound.io/y/provider-y:v1' });
  const snap = snapshot({ providerRevisions: [requesting, other], clusterRoles: [allowAll] });
  const opts = { crossplaneVersion: 'v1' as const, providerClusterRole: allowAll.metadata.name };

  it('holds the revision and names the rule', () => {
    const out = renderSync(snap, opts);
    expect(keys(out.objects).some((k) => k.includes('provider-x-1'))).toBe(false);
    expect(keys(out.objects).some((k) => k.includes('provider-y-1'))).toBe(true);
    expect(out.held).toHaveLength(1);
    expect(out.held[0]?.reason).toMatch(/serviceaccounts\/token .*--allow-privileged/);
  });

  it('--allow-privileged writes it', () => {
    const out = renderSync(snap, { ...opts, allowPrivileged: true });
    const system = out.objects.find((o) => o.metadata.name === 'crossplane:provider:provider-x-1:system');
    expect((system as ClusterRole | undefined)?.rules).toContainEqual(token);
    expect(out.held).toStrictEqual([]);
  });
});
