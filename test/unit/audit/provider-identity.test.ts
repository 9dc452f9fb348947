/**
 * audit's provider-identity step against hostile evidence: a ProviderRevision whose status a less trusted user
 * emptied, ProviderConfigs a managed resource cannot name, and write rights on ProviderConfig kinds by scope.
 */
import { describe, expect, it } from 'vitest';
import { audit } from '../../../src/audit/audit.js';
import { inClusterProviders } from '../../../src/audit/in-cluster.js';
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

/**
 * A CRD as Crossplane's package manager leaves it: owned by its ManagedResourceDefinition and controlled by the
 * ProviderRevision that serves it (crossplane internal/controller/apiextensions/managed/crd_test.go
 * @2d040d2daf4e001799c4154a4a09b9e1f40d7fde, MRDWithControllerOwner: the MRD's controller reference copied with
 * controller and blockOwnerDeletion true; internal/controller/pkg/revision/establisher.go, create: the revision as
 * controller of a CRD it makes without MRDs). Only who may write CRDs (administrators) sets these.
 */
function crd(name: string, controller: string, uid = `uid-${controller}`): KubeObject {
  const dot = name.indexOf('.');
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name,
      ownerReferences: [
        {
          apiVersion: 'apiextensions.crossplane.io/v1alpha1',
          kind: 'ManagedResourceDefinition',
          name,
          uid: `mrd-${name}`,
        },
        {
          apiVersion: 'pkg.crossplane.io/v1',
          kind: 'ProviderRevision',
          name: controller,
          uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { group: name.slice(dot + 1), names: { plural: name.slice(0, dot), kind: 'Object' } },
  };
}

/** provider-kubernetes-abc's revision as kubernetesProvider makes it, with IMAGE, REFS of KIND and its uid. */
function revisionWith(tc: AuditInput, image: string, refs: { kind: string; name: string }[]): AuditInput {
  const [rev] = tc.providerRevisions;
  if (rev === undefined) throw new Error('no revision');
  const apiVersion = (kind: string): string =>
    kind === 'ManagedResourceDefinition' ? 'apiextensions.crossplane.io/v1alpha1' : 'apiextensions.k8s.io/v1';
  return {
    ...tc,
    providerRevisions: [
      {
        ...rev,
        metadata: { ...rev.metadata, uid: 'uid-provider-kubernetes-abc' },
        spec: { ...rev.spec, image },
        status: { objectRefs: refs.map((r) => ({ apiVersion: apiVersion(r.kind), ...r })) },
      },
    ],
  };
}

const LEGACY = 'kubernetes.crossplane.io';
const MIRROR = 'mirror.example.com/platform/k8s-provider:v1.2.1';

describe('provider-identity by the CRDs’ owner references', () => {
  const base = kubernetesProvider({
    refs: [],
    rules: [createIn(['objects'], LEGACY)],
    configs: [pc('ProviderConfig', 'default', 'InjectedIdentity', undefined, LEGACY)],
  });

  it('a renamed package with emptied objectRefs is found by the CRD it controls: "may", naming the CRD', () => {
    const hidden = revisionWith(base, MIRROR, []);
    // Without the CRDs nothing names it: the package is not provider-kubernetes by name, the status is empty.
    expect(identityWhy(hidden)).toStrictEqual([]);
    const crds = [crd(`objects.${LEGACY}`, 'provider-kubernetes-abc')];
    const [why, ...more] = identityWhy({ ...hidden, inClusterCrds: crds });
    expect(more).toStrictEqual([]);
    expect(why).toMatch(
      new RegExp(
        `^may create objects\\.kubernetes\\.crossplane\\.io, which the provider applies to this cluster as its own account, ServiceAccount/${NS}/provider-kubernetes-abc \\(may: CustomResourceDefinition objects\\.kubernetes\\.crossplane\\.io's controller is ProviderRevision provider-kubernetes-abc, but its status\\.objectRefs do not name it`,
      ),
    );
    expect(why).toContain('ProviderConfig default (kubernetes.crossplane.io) uses InjectedIdentity');
    // A CRD controlled by a revision of the same name but another uid (one deleted and made again) is no evidence.
    const stale = [crd(`objects.${LEGACY}`, 'provider-kubernetes-abc', 'uid-gone')];
    expect(identityWhy({ ...hidden, inClusterCrds: stale })).toStrictEqual([]);
    // Nor is an object of another group that calls itself a CustomResourceDefinition.
    const forged = crds.map((c) => ({ ...c, apiVersion: 'crds.example.com/v1' }));
    expect(identityWhy({ ...hidden, inClusterCrds: forged })).toStrictEqual([]);
  });

  it('status and the CRDs agree (objectRefs naming ManagedResourceDefinitions, as Crossplane v2 reports them): certain, whatever the image', () => {
    // crossplane internal/controller/pkg/revision/reconciler.go@2d040d2daf4e001799c4154a4a09b9e1f40d7fde: a provider's
    // managed-resource CRDs are converted to MRDs of the same name (internal/converter/custom_to_managed.go), and the
    // objectRefs are what was established, so they name ManagedResourceDefinitions.
    const v2 = revisionWith(base, MIRROR, [{ kind: 'ManagedResourceDefinition', name: `objects.${LEGACY}` }]);
    const [alone] = identityWhy(v2);
    expect(alone).toContain('(ProviderConfig default (kubernetes.crossplane.io) uses InjectedIdentity)');
    expect(alone).not.toContain('may:');
    const crds = [crd(`objects.${LEGACY}`, 'provider-kubernetes-abc')];
    expect(identityWhy({ ...v2, inClusterCrds: crds })).toStrictEqual([alone]);
  });

  it('a status writer adds objectRefs naming kinds another revision serves: its account is not taken for them, and the step says so', () => {
    const real = revisionWith(base, MIRROR, [
      { kind: 'CustomResourceDefinition', name: `objects.${LEGACY}` },
    ]);
    const nop: ProviderRevision = {
      apiVersion: 'pkg.crossplane.io/v1',
      kind: 'ProviderRevision',
      metadata: { name: 'provider-nop-123', uid: 'uid-provider-nop-123' },
      spec: { desiredState: 'Active', image: 'xpkg.crossplane.io/crossplane-contrib/provider-nop:v0.4.0' },
      status: {
        objectRefs: [
          {
            apiVersion: 'apiextensions.k8s.io/v1',
            kind: 'CustomResourceDefinition',
            name: `objects.${LEGACY}`,
          },
        ],
      },
    };
    const tc: AuditInput = {
      ...real,
      clusterRoleBindings: [
        ...real.clusterRoleBindings,
        crb('provider-nop-admin', 'cluster-admin', [sa(NS, 'provider-nop-123')]),
      ],
      providerRevisions: [...real.providerRevisions, nop],
    };
    // Trusting the status, provider-nop's account is taken as acting for Objects too.
    const accounts = (t: AuditInput): string[] =>
      inClusterProviders(t, NS).map((p) => `${p.account.name}: ${p.kinds.map((k) => k.resource).join(',')}`);
    expect(accounts(tc)).toStrictEqual(['provider-kubernetes-abc: objects', 'provider-nop-123: objects']);
    const crds = [crd(`objects.${LEGACY}`, 'provider-kubernetes-abc')];
    const withCrds = { ...tc, inClusterCrds: crds };
    expect(accounts(withCrds)).toStrictEqual(['provider-kubernetes-abc: objects']);
    const [why] = identityWhy(withCrds);
    expect(why).toContain(
      `ProviderRevision provider-nop-123's status.objectRefs name CustomResourceDefinition objects.kubernetes.crossplane.io, but its controller is ProviderRevision provider-kubernetes-abc`,
    );
    expect(why).not.toContain('(may:');
  });
});

describe('ProviderConfigs that could not be read, per kind', () => {
  // The reader could list team-a's namespaced ProviderConfigs only (forbidden cluster-wide, read in team-a) and
  // every ClusterProviderConfig: for an Object made in team-a every ProviderConfig it may name was read.
  const tc = (readIn: string[] | undefined): AuditInput => ({
    ...kubernetesProvider({
      refs: M_KINDS,
      rules: [createIn(['objects'])],
      namespace: 'team-a',
      configs: [pc('ProviderConfig', 'remote', 'Secret', 'team-a')],
    }),
    providerConfigsUnread: [{ crd: `providerconfigs.${M}`, ...(readIn !== undefined ? { readIn } : {}) }],
  });

  it('a namespaced kind read in the managed resource’s namespace is known there: every config uses a Secret, no step', () => {
    expect(identityWhy(tc(['team-a']))).toStrictEqual([]);
  });

  it('read elsewhere or nowhere, or the cluster-scoped kind unread: "may"', () => {
    for (const t of [
      tc(['team-b']),
      tc(undefined),
      { ...tc(undefined), providerConfigsUnread: [{ crd: `clusterproviderconfigs.${M}` }] },
    ]) {
      const [why, ...more] = identityWhy(t);
      expect(more).toStrictEqual([]);
      expect(why).toContain('may: its ProviderConfigs could not all be read');
    }
  });

  it('a kind of the other group unread decides nothing for this one', () => {
    const legacy = {
      ...tc(undefined),
      providerConfigsUnread: [{ crd: 'providerconfigs.kubernetes.crossplane.io' }],
    };
    expect(identityWhy(legacy)).toStrictEqual([]);
  });
});
