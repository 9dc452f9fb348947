/**
 * compose-through-xr: whoever may create an XR (or a claim) has Crossplane create what the XRD's Compositions
 * compose, with Crossplane's account. What Crossplane does, read at crossplane/crossplane@2d040d2daf4e001799c4154a4a09b9e1f40d7fde:
 * - internal/controller/apiextensions/composite/api.go, APILabelSelectorResolver.SelectComposition: an XR takes any
 *   Composition whose spec.compositeTypeRef is the XR's apiVersion and kind (the XRD's referenceable version);
 * - internal/controller/apiextensions/composite/composition_render.go, RenderComposedResourceMetadata: "If the XR is
 *   namespaced it can only create composed resources in its own namespace" (the namespace is overwritten), a cluster
 *   scoped XR's go wherever the template says;
 * - apis/apiextensions/v1/xrd_types.go: a v1 XRD's scope defaults to LegacyCluster, the only scope with claims.
 */
import { describe, expect, it } from 'vitest';
import { audit } from '../../../src/audit/audit.js';
import type { AuditInput, CompositionKinds } from '../../../src/audit/cluster-context.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  PolicyRule,
  RoleBinding,
  Subject,
  Xrd,
} from '../../../src/kube/types.js';

const RBAC = 'rbac.authorization.k8s.io';
const NS = 'crossplane-system';

const role = (name: string, rules: PolicyRule[]): ClusterRole => ({
  apiVersion: `${RBAC}/v1`,
  kind: 'ClusterRole',
  metadata: { name },
  rules,
});
const crb = (name: string, roleName: string, subjects: Subject[]): ClusterRoleBinding => ({
  apiVersion: `${RBAC}/v1`,
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName },
  subjects,
});
const rb = (namespace: string, name: string, roleName: string, subjects: Subject[]): RoleBinding => ({
  apiVersion: `${RBAC}/v1`,
  kind: 'RoleBinding',
  metadata: { name, namespace },
  roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName },
  subjects,
});
const user = (name: string): Subject => ({ kind: 'User', name });

/** A v1 XRD (LegacyCluster unless SCOPE says otherwise), version v1alpha1 referenceable. */
function xrd(scope: string | undefined, claims: boolean): Xrd {
  return {
    apiVersion: 'apiextensions.crossplane.io/v1',
    kind: 'CompositeResourceDefinition',
    metadata: { name: 'xapps.platform.acme.io' },
    spec: {
      group: 'platform.acme.io',
      names: { kind: 'XApp', plural: 'xapps' },
      ...(claims ? { claimNames: { kind: 'App', plural: 'apps' } } : {}),
      ...(scope !== undefined ? { scope } : {}),
      versions: [{ name: 'v1alpha1', served: true, referenceable: true }],
    },
  };
}

const DEPLOYMENTS = { group: 'apps', resource: 'deployments', kind: 'Deployment', namespaced: true };
const CONFIGMAPS = { group: '', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };
const WEBHOOKS = {
  group: 'admissionregistration.k8s.io',
  resource: 'mutatingwebhookconfigurations',
  kind: 'MutatingWebhookConfiguration',
  namespaced: false,
};

function composition(composes: CompositionKinds['composes'], kind = 'XApp'): CompositionKinds {
  return {
    name: 'app-web',
    revision: false,
    compositeApiVersion: 'platform.acme.io/v1alpha1',
    compositeKind: kind,
    composes,
  };
}

const CROSSPLANE_RULES: PolicyRule[] = [
  { apiGroups: ['', 'apps'], resources: ['deployments', 'configmaps'], verbs: ['*'] },
  { apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingwebhookconfigurations'], verbs: ['*'] },
];

function input(parts: {
  xrd: Xrd;
  compositions: CompositionKinds[];
  roles?: ClusterRole[];
  crbs?: ClusterRoleBinding[];
  rbs?: RoleBinding[];
  crossplaneRules?: PolicyRule[];
}): AuditInput {
  return {
    clusterRoles: [
      role('cluster-admin', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]),
      role('crossplane', parts.crossplaneRules ?? CROSSPLANE_RULES),
      ...(parts.roles ?? []),
    ],
    clusterRoleBindings: [
      crb('crossplane', 'crossplane', [{ kind: 'ServiceAccount', name: 'crossplane', namespace: NS }]),
      ...(parts.crbs ?? []),
    ],
    roleBindings: parts.rbs ?? [],
    roles: [],
    deployments: [],
    providerRevisions: [],
    xrds: [parts.xrd],
    compositions: parts.compositions,
  };
}

const CREATE_XAPPS = role('create-xapps', [
  { apiGroups: ['platform.acme.io'], resources: ['xapps'], verbs: ['create'] },
]);
const CREATE_CLAIMS = role('create-apps', [
  { apiGroups: ['platform.acme.io'], resources: ['apps'], verbs: ['create'] },
]);

const firstSteps = (r: ReturnType<typeof audit>, name: string): string[] =>
  r.findings.filter((f) => f.subject.name === name).map((f) => `${f.capability}:${f.steps[0]?.mechanism}`);

describe('audit: compose-through-xr', () => {
  it('a namespaced XR in kube-system has Crossplane create the Deployments its author may not: run-anywhere', () => {
    const r = audit(
      input({
        xrd: xrd('Namespaced', false),
        compositions: [composition([DEPLOYMENTS, CONFIGMAPS])],
        roles: [
          CREATE_XAPPS,
          role('configmaps', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }]),
        ],
        rbs: [
          rb('kube-system', 'xapps', 'create-xapps', [user('dev')]),
          rb('kube-system', 'configmaps', 'configmaps', [user('dev')]),
        ],
      }),
    );
    const f = r.findings.find((x) => x.subject.name === 'dev');
    expect(f?.capability).toBe('run-anywhere');
    expect(f?.severity).toBe('high');
    expect(f?.steps).toHaveLength(1);
    const step = f?.steps[0];
    expect(step?.mechanism).toBe('compose-through-xr');
    expect(step?.trigger).toStrictEqual({
      verb: 'create',
      resource: 'xapps.platform.acme.io',
      namespace: 'kube-system',
    });
    expect(step?.via).toStrictEqual(['RoleBinding/kube-system/xapps', 'ClusterRole/create-xapps']);
    // Limited to what the author lacks (ConfigMaps it may create itself), in the XR's namespace.
    expect(step?.actsAs).toStrictEqual({
      kind: 'ClusterRole',
      name: 'crossplane:composing:<deployments.apps>',
      namespace: 'kube-system',
    });
    expect(step?.why).toContain('app-web');
    expect(step?.source).toMatch(/composition_render\.go/);
    expect(f?.fix).toBe(
      'remove "create platform.acme.io/xapps" from ClusterRole/create-xapps, or remove User/dev from RoleBinding/kube-system/xapps, or have the XRD\'s Compositions compose nothing its XRs\' authors may not create themselves',
    );
  });

  it('continues through the pods: a Deployment in the XR’s namespace runs as any account there', () => {
    const r = audit(
      input({
        xrd: xrd('Namespaced', false),
        compositions: [composition([DEPLOYMENTS])],
        roles: [CREATE_XAPPS],
        rbs: [rb('team-a', 'xapps', 'create-xapps', [user('dev')])],
        crbs: [
          crb('robot', 'cluster-admin', [{ kind: 'ServiceAccount', name: 'robot', namespace: 'team-a' }]),
        ],
      }),
    );
    const f = r.findings.find((x) => x.subject.name === 'dev' && x.capability === 'cluster-admin');
    expect(f?.steps.map((s) => s.mechanism)).toStrictEqual(['compose-through-xr', 'run-as']);
    expect(f?.steps[1]?.actsAs).toStrictEqual({ kind: 'ServiceAccount', name: 'robot', namespace: 'team-a' });
    expect(f?.steps[1]?.trigger).toStrictEqual({
      verb: 'create',
      resource: 'deployments.apps',
      namespace: 'team-a',
    });
  });

  it('a claim of a legacy XRD composes in any namespace, cluster-scoped kinds included: webhooks are cluster-admin', () => {
    const r = audit(
      input({
        xrd: xrd(undefined, true),
        compositions: [composition([WEBHOOKS])],
        roles: [CREATE_CLAIMS],
        rbs: [rb('team-a', 'apps', 'create-apps', [user('dev')])],
      }),
    );
    const f = r.findings.find((x) => x.subject.name === 'dev');
    expect(f?.capability).toBe('cluster-admin');
    expect(f?.steps.map((s) => [s.mechanism, s.actsAs.name, s.actsAs.namespace])).toStrictEqual([
      [
        'compose-through-xr',
        'crossplane:composing:<mutatingwebhookconfigurations.admissionregistration.k8s.io>',
        undefined,
      ],
      ['webhook', 'cluster-admin', undefined],
    ]);
  });

  it('a namespaced XR composes no cluster-scoped kind (Crossplane sets the namespace)', () => {
    const r = audit(
      input({
        xrd: xrd('Namespaced', false),
        compositions: [composition([WEBHOOKS])],
        roles: [CREATE_XAPPS],
        crbs: [crb('xapps', 'create-xapps', [user('dev')])],
      }),
    );
    expect(firstSteps(r, 'dev')).toStrictEqual([]);
  });

  it('negative controls: no finding without the trigger, for kinds the author may write, or Crossplane may not', () => {
    const base = {
      xrd: xrd('Namespaced', false),
      compositions: [composition([DEPLOYMENTS])],
      rbs: [rb('kube-system', 'xapps', 'create-xapps', [user('dev')])],
    };
    const reader = role('create-xapps', [
      { apiGroups: ['platform.acme.io'], resources: ['xapps'], verbs: ['get', 'list', 'update'] },
    ]);
    expect(firstSteps(audit(input({ ...base, roles: [reader] })), 'dev')).toStrictEqual([]);
    const deployer = role('deployments', [
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] },
    ]);
    const both = audit(
      input({
        ...base,
        roles: [CREATE_XAPPS, deployer],
        rbs: [...base.rbs, rb('kube-system', 'deploy', 'deployments', [user('dev')])],
      }),
    );
    expect(firstSteps(both, 'dev').filter((s) => s.endsWith('compose-through-xr'))).toStrictEqual([]);
    const weak = audit(input({ ...base, roles: [CREATE_XAPPS], crossplaneRules: [] }));
    expect(firstSteps(weak, 'dev')).toStrictEqual([]);
    // A Composition for another kind, or none at all (an XR's own references are never read as evidence).
    const other = audit(
      input({ ...base, roles: [CREATE_XAPPS], compositions: [composition([DEPLOYMENTS], 'XDb')] }),
    );
    expect(firstSteps(other, 'dev')).toStrictEqual([]);
    expect(
      firstSteps(audit(input({ ...base, roles: [CREATE_XAPPS], compositions: [] })), 'dev'),
    ).toStrictEqual([]);
  });

  it("only the XRD's enforcedCompositionRef is chosen when it has one", () => {
    const base = xrd('Namespaced', false);
    const enforced: Xrd = {
      ...base,
      spec: { ...base.spec, enforcedCompositionRef: { name: 'app-safe' } } as Xrd['spec'],
    };
    const run = (compositions: CompositionKinds[]) =>
      firstSteps(
        audit(
          input({
            xrd: enforced,
            compositions,
            roles: [CREATE_XAPPS],
            rbs: [rb('kube-system', 'xapps', 'create-xapps', [user('dev')])],
          }),
        ),
        'dev',
      );
    const web = composition([DEPLOYMENTS]);
    expect(run([web, { ...web, name: 'app-safe-v2' }])).toStrictEqual([]);
    expect(run([{ ...web, name: 'app-safe' }])).toStrictEqual(['run-anywhere:compose-through-xr']);
    expect(run([{ ...web, name: 'app-safe-v2-1a2b3c4', revision: true }])).toStrictEqual([]);
    expect(run([{ ...web, name: 'app-safe-1a2b3c4', revision: true }])).toStrictEqual([
      'run-anywhere:compose-through-xr',
    ]);
  });

  it('a Composition for another version of the XR (not the referenceable one) is not chosen', () => {
    const c = { ...composition([DEPLOYMENTS]), compositeApiVersion: 'platform.acme.io/v1beta9' };
    const r = audit(
      input({
        xrd: xrd('Namespaced', false),
        compositions: [c],
        roles: [CREATE_XAPPS],
        rbs: [rb('kube-system', 'xapps', 'create-xapps', [user('dev')])],
      }),
    );
    expect(firstSteps(r, 'dev')).toStrictEqual([]);
  });
});
