/**
 * audit's provider-identity step against hostile evidence: a ProviderRevision whose status a less trusted user
 * emptied, ProviderConfigs a managed resource cannot name, and write rights on ProviderConfig kinds by scope.
 */
import { describe, expect, it } from 'vitest';
import { audit } from '../../../src/audit/audit.js';
import type { AuditInput } from '../../../src/audit/cluster-context.js';
import type { KubeObject, PolicyRule, ProviderRevision } from '../../../src/kube/types.js';
import { NS, crb, input, rb, role, sa, user } from './audit-fixtures.js';

/**
 * provider-kubernetes' active revision (its package, and status.objectRefs naming REFS), its account bound to
 * cluster-admin, RULES bound to oli (by a RoleBinding in NAMESPACE, else a ClusterRoleBinding), and CONFIGS read.
 */
function kubernetesProvider(opts: {
  refs: string[];
  rules: PolicyRule[];
  namespace?: string;
  configs?: KubeObject[];
}): AuditInput {
  const revision: ProviderRevision = {
    apiVersion: 'pkg.crossplane.io/v1',
    kind: 'ProviderRevision',
    metadata: { name: 'provider-kubernetes-abc' },
    spec: {
      desiredState: 'Active',
      image: 'xpkg.crossplane.io/crossplane-contrib/provider-kubernetes:v1.2.1',
    },
    status: {
      objectRefs: opts.refs.map((name) => ({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name,
      })),
    },
  };
  const grant =
    opts.namespace === undefined
      ? { crbs: [crb('oli', 'oli', [user('oli')])] }
      : { rbs: [rb(opts.namespace, 'oli', 'oli', [user('oli')])] };
  return {
    ...input({ roles: [role('oli', opts.rules)], ...grant }),
    clusterRoleBindings: [
      crb('provider-kubernetes-admin', 'cluster-admin', [sa(NS, 'provider-kubernetes-abc')]),
      ...(grant.crbs ?? []),
    ],
    providerRevisions: [revision],
    providerConfigs: opts.configs ?? [],
  };
}

const M = 'kubernetes.m.crossplane.io';
const M_KINDS = [`objects.${M}`, `providerconfigs.${M}`, `clusterproviderconfigs.${M}`];
const pc = (kind: string, name: string, source: string, namespace?: string, group = M): KubeObject => {
  const config = {
    apiVersion: `${group}/v1alpha1`,
    kind,
    metadata: { name, ...(namespace !== undefined ? { namespace } : {}) },
    spec: { credentials: { source } },
  };
  return config;
};
const createIn = (resources: string[], group = M): PolicyRule => ({
  apiGroups: [group],
  resources,
  verbs: ['create'],
});
const identityWhy = (tc: AuditInput): string[] =>
  audit(tc)
    .findings.flatMap((f) => f.steps)
    .filter((s) => s.mechanism === 'provider-identity')
    .map((s) => s.why);

describe('provider-identity against hostile evidence', () => {
  it('a revision whose status.objectRefs were emptied (a status writer) is still provider-kubernetes by its package: "may", with the reason', () => {
    // crossplane apis/pkg/v1/revision_types.go@07b8dfc66a53814fe9ff3e3d17735928a8d45064: spec.image is the package,
    // status.objectRefs only what the package manager reports (writable through providerrevisions/status).
    const tc = kubernetesProvider({
      refs: [],
      rules: [createIn(['objects'], 'kubernetes.crossplane.io')],
      configs: [pc('ProviderConfig', 'default', 'InjectedIdentity', undefined, 'kubernetes.crossplane.io')],
    });
    const [why, ...more] = identityWhy(tc);
    expect(more).toStrictEqual([]);
    expect(why).toMatch(
      /^may create objects\.kubernetes\.crossplane\.io, which the provider applies .*\(may: ProviderRevision provider-kubernetes-abc's package is provider-kubernetes \(spec\.image [^)]*\), but its status\.objectRefs name none of its kinds/,
    );
    expect(why).toContain('ProviderConfig default (kubernetes.crossplane.io) uses InjectedIdentity');
    // Another package with emptied objectRefs is no in-cluster provider.
    const other = kubernetesProvider({
      refs: [],
      rules: [createIn(['objects'], 'kubernetes.crossplane.io')],
    });
    const [rev] = other.providerRevisions;
    const nop = {
      ...other,
      providerRevisions: [{ ...rev, spec: { image: 'example.org/acme/provider-nop:v1' } }],
    };
    expect(identityWhy(nop as AuditInput)).toStrictEqual([]);
  });

  it('a namespaced ProviderConfig serves its own namespace only: one in team-b does not act for Objects made in team-a', () => {
    // provider-kubernetes internal/controller/namespaced/object/object.go@0be8ca79d8b89cb665a02e1f5d7650c9bb005840
    // resolveProviderConfig: a ProviderConfig in the Object's namespace, or a ClusterProviderConfig.
    const base = { refs: M_KINDS, rules: [createIn(['objects'])], namespace: 'team-a' };
    const elsewhere = identityWhy(
      kubernetesProvider({ ...base, configs: [pc('ProviderConfig', 'local', 'InjectedIdentity', 'team-b')] }),
    );
    expect(elsewhere).toHaveLength(1);
    expect(elsewhere[0]).toContain('may: no ProviderConfig exists');
    const here = identityWhy(
      kubernetesProvider({ ...base, configs: [pc('ProviderConfig', 'local', 'InjectedIdentity', 'team-a')] }),
    );
    expect(here[0]).toContain(
      `may create objects.${M} in team-a, which the provider applies to this cluster as its own account, ServiceAccount/${NS}/provider-kubernetes-abc (ProviderConfig team-a/local (${M}) uses InjectedIdentity)`,
    );
    const cluster = identityWhy(
      kubernetesProvider({
        ...base,
        configs: [pc('ClusterProviderConfig', 'in-cluster', 'InjectedIdentity')],
      }),
    );
    expect(cluster[0]).toContain(`(ClusterProviderConfig in-cluster (${M}) uses InjectedIdentity)`);
  });

  it('a kind of the same group that is no ProviderConfig kind, or the other group’s, decides nothing', () => {
    const rules = [createIn(['objects'], 'kubernetes.crossplane.io')];
    const refs = ['objects.kubernetes.crossplane.io', 'providerconfigs.kubernetes.crossplane.io'];
    // A cluster-scoped Object names a ProviderConfig of kubernetes.crossplane.io: the .m. group's do not serve it.
    const configs = [
      pc('ObservedProviderConfig', 'x', 'InjectedIdentity', undefined, 'kubernetes.crossplane.io'),
      pc('ClusterProviderConfig', 'in-cluster', 'InjectedIdentity'),
    ];
    const [why] = identityWhy(kubernetesProvider({ refs, rules, configs }));
    expect(why).toContain('may: no ProviderConfig exists');
  });

  it('a RoleBinding grants nothing on cluster-scoped ProviderConfig kinds: no step; namespaced ones in its namespace do', () => {
    const secret = [pc('ProviderConfig', 'remote', 'Secret', 'team-a')];
    const clusterScoped = kubernetesProvider({
      refs: M_KINDS,
      rules: [createIn(['objects', 'clusterproviderconfigs'])],
      namespace: 'team-a',
      configs: secret,
    });
    expect(identityWhy(clusterScoped)).toStrictEqual([]);
    const namespaced = kubernetesProvider({
      refs: M_KINDS,
      rules: [createIn(['objects', 'providerconfigs'])],
      namespace: 'team-a',
      configs: secret,
    });
    expect(identityWhy(namespaced)[0]).toContain(
      `every ProviderConfig uses another credentials source, but it may create providerconfigs.${M} in team-a with credentials source InjectedIdentity`,
    );
  });
});
