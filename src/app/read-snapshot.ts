import { thousands } from '../kube/thousands.js';
import type { KubeObject } from '../kube/types.js';
import type { SnapshotPart } from '../crossplane/validate-input.js';
import { Kinds, type Cluster, type ListOptions, type ResourceKind } from '../port/cluster.js';
import { ApiError, translateError } from '../port/translate-error.js';

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
  compositionRevisions: {
    kind: Kinds.compositionRevision,
    what: 'listing CompositionRevisions',
    opts: { optional: true },
  },
  operations: { kind: Kinds.operation, what: 'listing Operations', opts: { optional: true } },
  cronOperations: { kind: Kinds.cronOperation, what: 'listing CronOperations', opts: { optional: true } },
  watchOperations: { kind: Kinds.watchOperation, what: 'listing WatchOperations', opts: { optional: true } },
  events: { kind: Kinds.event, what: 'listing Events' },
  // provider-kubernetes' cluster ProviderConfig: audit lists each in-cluster provider's ProviderConfig kinds as
  // discovery serves them (audit-read.ts), this one among them.
  providerConfigs: {
    kind: {
      group: 'kubernetes.crossplane.io',
      version: 'v1alpha1',
      plural: 'providerconfigs',
      kind: 'ProviderConfig',
      namespaced: false,
    },
    what: 'listing ProviderConfigs',
    opts: { optional: true },
  },
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

/** What a part lists: its kind, a phrase for messages, and its list options (sync --watch watches the same). */
export function partList(part: SnapshotPart): {
  readonly kind: ResourceKind;
  readonly what: string;
  readonly opts?: ListOptions;
} {
  return PARTS[part];
}

/** The objects read so far of each kind being listed, for a progress line: `listing ClusterRoles: 2,874`. */
export type ReadProgress = (text: string) => void;

/** `ClusterRoles` from `listing ClusterRoles` (what the spinner names). */
function shortWhat(what: string): string {
  return what.replace(/^listing (the )?/, '');
}

/**
 * A part a read-only command could not list (403), and what it read instead: with namespace-only rights, RoleBindings
 * and Roles are listed in the command's namespace.
 */
export interface Unseen {
  readonly part: SnapshotPart;
  /** `ClusterRoleBindings`, as the progress line names the part. */
  readonly what: string;
  /** Where it was read instead (its namespace), or undefined: not at all. */
  readonly readIn?: string | undefined;
  /** The server's message. */
  readonly reason: string;
  /** How it was read: `get` when one object at a time (who-can's bound ClusterRoles); absent: listed. */
  readonly verb?: 'get' | undefined;
}

/** How a read-only command may answer when some of what it reads is forbidden: NAMESPACE is where it asks. */
export interface PartialRead {
  readonly namespace: string;
  /** Parts without which there is no answer: their 403 still fails the command. */
  readonly required?: readonly SnapshotPart[] | undefined;
}

/** The parts a partial answer can do without (the RBAC objects, the Crossplane types RESOURCE may name, the Compositions). */
const MAY_BE_UNSEEN: ReadonlySet<SnapshotPart> = new Set<SnapshotPart>([
  'clusterRoles',
  'clusterRoleBindings',
  'roleBindings',
  'roles',
  'xrds',
  'providerRevisions',
  'namespaces',
  'compositions',
  'compositionRevisions',
]);

/** The resources PARTS list, as RBAC names them: what a role must let its holder `list` for these reads. */
export function partResources(parts: readonly SnapshotPart[]): { group: string; resource: string }[] {
  const seen = new Map<string, { group: string; resource: string }>();
  for (const part of parts) {
    const { group, plural } = PARTS[part].kind;
    seen.set(`${group}/${plural}`, { group, resource: plural });
  }
  return [...seen.values()];
}

/**
 * Reads the parts of the cluster a command needs: one LIST per kind, all in parallel, never a GET per object.
 * PROGRESS hears, after every page, each kind's count so far. With PARTIAL (read-only commands), a part the caller
 * may not list is left out and named in `unseen` instead of failing the command; RoleBindings and Roles are then
 * read in PARTIAL's namespace. With BINDINGS_IN, RoleBindings and Roles are listed in that namespace only.
 */
export async function readClusterObjects(
  cluster: Cluster,
  parts: readonly SnapshotPart[],
  progress?: ReadProgress,
  partial?: PartialRead,
  bindingsIn?: string,
): Promise<{ objects: KubeObject[]; unseen: Unseen[] }> {
  const counts = new Map<string, number>();
  const unseen: Unseen[] = [];
  let firstRefusal: Error | undefined;
  const report = (): void => {
    const shown = [...counts].map(([what, n]) => `${what}: ${thousands(n)}`);
    progress?.(`listing ${shown.join(', ')}`);
  };
  const mayBeUnseen = (part: SnapshotPart, err: unknown): err is ApiError =>
    partial !== undefined &&
    err instanceof ApiError &&
    err.code === 403 &&
    MAY_BE_UNSEEN.has(part) &&
    partial.required?.includes(part) !== true;
  const lists = await Promise.all(
    parts.map(async (part): Promise<KubeObject[]> => {
      const spec = PARTS[part];
      const what = shortWhat(spec.what);
      if (progress !== undefined && !counts.has(what)) counts.set(what, 0);
      const onPage = (n: number): void => {
        counts.set(what, n);
        report();
      };
      const inOne = bindingsIn !== undefined && IN_ONE_NAMESPACE.has(part);
      const opts = {
        ...spec.opts,
        ...(progress !== undefined ? { onPage } : {}),
        ...(inOne ? { namespace: bindingsIn } : {}),
      };
      try {
        return await cluster.list(spec.kind, opts);
      } catch (err) {
        if (!mayBeUnseen(part, err)) throw translateError(err, spec.what, cluster.describe);
        const reason = err.status?.message ?? 'forbidden';
        // Already read in one namespace: nowhere narrower to fall back to.
        if (!inOne && spec.kind.namespaced && partial !== undefined) {
          try {
            const inNamespace = await cluster.list(spec.kind, { ...opts, namespace: partial.namespace });
            unseen.push({ part, what, readIn: partial.namespace, reason });
            return inNamespace;
          } catch (again) {
            if (!mayBeUnseen(part, again)) throw translateError(again, spec.what, cluster.describe);
          }
        }
        unseen.push({ part, what, reason });
        firstRefusal ??= translateError(err, spec.what, cluster.describe);
        return [];
      }
    }),
  );
  // An answer from no RBAC object at all is no answer: then the caller lacks even namespace rights.
  const rbac = parts.filter((p) => RBAC_PARTS.has(p));
  if (
    firstRefusal !== undefined &&
    rbac.every((p) => unseen.some((u) => u.part === p && u.readIn === undefined))
  ) {
    throw firstRefusal;
  }
  return {
    objects: lists.flat(),
    unseen: unseen.sort((a, b) => parts.indexOf(a.part) - parts.indexOf(b.part)),
  };
}

/** The parts a command may ask for in one namespace only (readClusterObjects' BINDINGS_IN). */
const IN_ONE_NAMESPACE: ReadonlySet<SnapshotPart> = new Set<SnapshotPart>(['roleBindings', 'roles']);

const RBAC_PARTS: ReadonlySet<SnapshotPart> = new Set<SnapshotPart>([
  'clusterRoles',
  'clusterRoleBindings',
  'roleBindings',
  'roles',
]);
