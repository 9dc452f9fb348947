import type { KubeObject } from '../kube/types.js';
import type { SnapshotPart } from '../crossplane/validate-input.js';
import { Kinds, type Cluster, type ListOptions, type ResourceKind } from '../port/cluster.js';
import { translateError } from '../port/translate-error.js';

const PARTS: Readonly<Record<SnapshotPart, { kind: ResourceKind; what: string; opts?: ListOptions }>> = {
  xrds: { kind: Kinds.xrd, what: 'listing CompositeResourceDefinitions', opts: { optional: true } },
  providerRevisions: {
    kind: Kinds.providerRevision,
    what: 'listing ProviderRevisions',
    opts: { optional: true },
  },
  deployments: { kind: Kinds.deployment, what: 'listing Deployments' },
  namespaces: { kind: Kinds.namespace, what: 'listing Namespaces' },
  clusterRoles: { kind: Kinds.clusterRole, what: 'listing ClusterRoles' },
  clusterRoleBindings: { kind: Kinds.clusterRoleBinding, what: 'listing ClusterRoleBindings' },
  roleBindings: { kind: Kinds.roleBinding, what: 'listing RoleBindings' },
  configMaps: {
    kind: Kinds.configMap,
    what: 'listing the crossplane-rbac ConfigMap',
    opts: { fieldSelector: 'metadata.name=crossplane-rbac' },
  },
  compositions: { kind: Kinds.composition, what: 'listing Compositions', opts: { optional: true } },
  watchOperations: { kind: Kinds.watchOperation, what: 'listing WatchOperations', opts: { optional: true } },
  events: { kind: Kinds.event, what: 'listing Events' },
  rootSyncs: { kind: Kinds.rootSync, what: 'listing RootSyncs', opts: { optional: true } },
  roles: { kind: Kinds.role, what: 'listing Roles' },
  crds: { kind: Kinds.customResourceDefinition, what: 'listing CustomResourceDefinitions' },
  // Names and owner references only: a provider family's CRDs hold megabytes of schemas sync never reads.
  crdOwners: {
    kind: Kinds.customResourceDefinition,
    what: 'listing CustomResourceDefinitions',
    opts: { metadataOnly: true },
  },
};

/** The objects read so far of each kind being listed, for a progress line: `listing ClusterRoles: 2,874`. */
export type ReadProgress = (text: string) => void;

/** `ClusterRoles` from `listing ClusterRoles` (what the spinner names). */
function shortWhat(what: string): string {
  return what.replace(/^listing (the )?/, '');
}

/**
 * Reads the parts of the cluster a command needs: one LIST per kind, all in parallel, never a GET per object.
 * PROGRESS hears, after every page, each kind's count so far.
 */
export async function readClusterObjects(
  cluster: Cluster,
  parts: readonly SnapshotPart[],
  progress?: ReadProgress,
): Promise<KubeObject[]> {
  const counts = new Map<string, number>();
  const report = (): void => {
    const shown = [...counts].map(([what, n]) => `${what}: ${n.toLocaleString('en-US')}`);
    progress?.(`listing ${shown.join(', ')}`);
  };
  const lists = await Promise.all(
    parts.map(async (part): Promise<KubeObject[]> => {
      const spec = PARTS[part];
      const what = shortWhat(spec.what);
      if (progress !== undefined && !counts.has(what)) counts.set(what, 0);
      const onPage = (n: number): void => {
        counts.set(what, n);
        report();
      };
      try {
        return await cluster.list(spec.kind, progress !== undefined ? { ...spec.opts, onPage } : spec.opts);
      } catch (err) {
        throw translateError(err, spec.what, cluster.describe);
      }
    }),
  );
  return lists.flat();
}
