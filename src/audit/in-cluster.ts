/**
 * The providers whose managed resources act on their own cluster (provider-kubernetes, provider-helm), as the audit
 * finds them: by their active ProviderRevisions' status.objectRefs, else by their package (spec.image), which a
 * writer of the revisions' status cannot change; with their accounts and the ProviderConfigs read of their kinds.
 */
import type { Deployment, KubeObject, ProviderRevision } from '../kube/types.js';
import type { Identity } from './rights.js';
import type { ConfigKind, InClusterConfig, InClusterProvider } from './steps.js';

/** What finding them takes: the revisions, the Deployments (whose account runs each), the ProviderConfigs read. */
export interface InClusterInput {
  readonly providerRevisions: readonly ProviderRevision[];
  readonly deployments: readonly Deployment[];
  readonly providerConfigs?: readonly KubeObject[] | undefined;
  readonly providerConfigsUnread?: readonly string[] | undefined;
}

/**
 * The ProviderConfig kinds of the in-cluster providers (provider-kubernetes, provider-helm), as `plural.group`:
 * cluster-scoped ProviderConfig in the legacy group, namespaced ProviderConfig and cluster-scoped
 * ClusterProviderConfig in the `.m.` group (Crossplane v2). Not the ProviderConfigUsages.
 */
export const IN_CLUSTER_CONFIG_CRDS: readonly string[] = ['kubernetes', 'helm'].flatMap((family) =>
  familyConfigKinds(family).map((k) => `${k.resource}.${k.group}`),
);

/**
 * A family's ProviderConfig kinds with their scope (provider-kubernetes package/crds: the legacy group's is
 * cluster-scoped; in the `.m.` group ProviderConfig is namespaced, ClusterProviderConfig cluster-scoped).
 */
function familyConfigKinds(family: string): ConfigKind[] {
  const legacy = `${family}.crossplane.io`;
  const m = `${family}.m.crossplane.io`;
  return [
    { group: legacy, resource: 'providerconfigs', kind: 'ProviderConfig', namespaced: false },
    { group: m, resource: 'providerconfigs', kind: 'ProviderConfig', namespaced: true },
    { group: m, resource: 'clusterproviderconfigs', kind: 'ClusterProviderConfig', namespaced: false },
  ];
}

/** The managed-resource CRDs of the providers that act on their own cluster (provider-kubernetes, provider-helm). */
const IN_CLUSTER_KINDS = [
  'objects.kubernetes.crossplane.io',
  'objects.kubernetes.m.crossplane.io',
  'releases.helm.crossplane.io',
  'releases.helm.m.crossplane.io',
];
/** The package repository (its last path segment) of each in-cluster provider's family. */
const IN_CLUSTER_PACKAGES: Readonly<Record<string, string>> = {
  'provider-kubernetes': 'kubernetes',
  'provider-helm': 'helm',
};

const isActive = (rev: ProviderRevision): boolean => (rev.spec.desiredState ?? 'Active') === 'Active';

/** The CRD names (`plural.group`) an active ProviderRevision's objectRefs name. */
function crdsOf(rev: ProviderRevision): string[] {
  if (!isActive(rev)) return [];
  return (rev.status?.objectRefs ?? [])
    .filter((r) => r.kind === 'CustomResourceDefinition')
    .map((r) => r.name ?? '');
}

/**
 * The in-cluster family (kubernetes, helm) an active revision's package is, by its spec.image's repository
 * (`REGISTRY/ORG/provider-kubernetes:TAG` or `@DIGEST`): the spec is written by whoever may update ProviderRevisions
 * (Crossplane's package manager), not by a writer of their status (crossplane apis/pkg/v1/revision_types.go
 * @07b8dfc66a53814fe9ff3e3d17735928a8d45064: spec.image is the package; status.objectRefs, the objects it made).
 */
function packageFamily(rev: ProviderRevision): string | undefined {
  const image = isActive(rev) ? rev.spec.image : undefined;
  if (typeof image !== 'string') return undefined;
  const path = image.split('@')[0] ?? '';
  const last = path.slice(path.lastIndexOf('/') + 1);
  const repository = last.includes(':') ? last.slice(0, last.indexOf(':')) : last;
  return IN_CLUSTER_PACKAGES[repository];
}

/**
 * The in-cluster kinds a revision is known to serve, and its family: its status.objectRefs name them, else its package
 * is provider-kubernetes or provider-helm (then all of the family's kinds, and a doubt: its status says otherwise).
 */
function evidenceOf(rev: ProviderRevision): { crds: string[]; family: string; doubt?: string } | undefined {
  const crds = crdsOf(rev).filter((n) => IN_CLUSTER_KINDS.includes(n));
  const [first] = crds;
  if (first !== undefined) return { crds, family: first.split('.')[1] ?? '' };
  const family = packageFamily(rev);
  if (family === undefined) return undefined;
  return {
    crds: IN_CLUSTER_KINDS.filter((k) => k.split('.')[1] === family),
    family,
    doubt: `ProviderRevision ${rev.metadata.name}'s package is provider-${family} (spec.image ${rev.spec.image ?? ''}), but its status.objectRefs name none of its kinds; status is written by whoever may update providerrevisions/status, so its kinds are taken from the package`,
  };
}

/**
 * The ProviderConfig CRDs (`plural.group`) of the in-cluster providers whose active revisions are read (by their
 * objectRefs or their package): what a live audit lists to decide their provider-identity steps.
 */
export function inClusterConfigCrds(revisions: readonly ProviderRevision[]): string[] {
  const crds = revisions.flatMap((rev) => {
    const family = evidenceOf(rev)?.family;
    return family === undefined ? [] : familyConfigKinds(family).map((k) => `${k.resource}.${k.group}`);
  });
  return [...new Set(crds)].sort();
}

/** A ProviderConfig read: its kind, group, namespace (namespaced kinds) and name, and whether it is InjectedIdentity. */
function configRead(c: KubeObject): InClusterConfig {
  return {
    group: c.apiVersion.includes('/') ? c.apiVersion.slice(0, c.apiVersion.indexOf('/')) : '',
    kind: c.kind,
    name: c.metadata.name,
    ...(c.metadata.namespace !== undefined ? { namespace: c.metadata.namespace } : {}),
    injected: credentialsSource(c) === 'InjectedIdentity',
  };
}

/** The providers whose managed resources act as their own account, each with its account and kinds. */
export function inClusterProviders(input: InClusterInput, crossplaneNamespace: string): InClusterProvider[] {
  const out: InClusterProvider[] = [];
  for (const rev of input.providerRevisions) {
    const evidence = evidenceOf(rev);
    if (evidence === undefined) continue;
    const deployment = input.deployments.find((d) =>
      (d.metadata.ownerReferences ?? []).some(
        (o) => o.kind === 'ProviderRevision' && o.name === rev.metadata.name,
      ),
    );
    const account: Identity =
      deployment !== undefined
        ? {
            kind: 'ServiceAccount',
            name: deployment.spec?.template?.spec?.serviceAccountName ?? 'default',
            namespace: deployment.metadata.namespace ?? crossplaneNamespace,
          }
        : { kind: 'ServiceAccount', name: rev.metadata.name, namespace: crossplaneNamespace };
    const split = (n: string): { group: string; resource: string } => {
      const dot = n.indexOf('.');
      return { group: n.slice(dot + 1), resource: n.slice(0, dot) };
    };
    const kinds = evidence.crds.map(split);
    // provider-kubernetes or provider-helm: their ProviderConfigs are in the kinds' group (and its .m. twin), each
    // kind as the family's CRDs define it, whatever the revision's status names.
    const { family } = evidence;
    const configKinds = familyConfigKinds(family);
    const groups = [`${family}.crossplane.io`, `${family}.m.crossplane.io`];
    const configs =
      input.providerConfigs === undefined
        ? undefined
        : input.providerConfigs.map(configRead).filter((c) => groups.includes(c.group));
    const unread = (input.providerConfigsUnread ?? []).filter((g) => groups.includes(g));
    out.push({
      account,
      kinds,
      configKinds,
      configs,
      unread,
      ...(evidence.doubt !== undefined ? { doubt: evidence.doubt } : {}),
    });
  }
  return out;
}

function credentialsSource(config: KubeObject): unknown {
  const spec = (config as { spec?: unknown }).spec;
  if (typeof spec !== 'object' || spec === null) return undefined;
  const credentials = (spec as { credentials?: unknown }).credentials;
  if (typeof credentials !== 'object' || credentials === null) return undefined;
  return (credentials as { source?: unknown }).source;
}
