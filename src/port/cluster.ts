import type { DiscoveredResource, KubeObject, PolicyRule } from '../kube/types.js';

/** A served resource: enough to build its REST path. */
export interface ResourceKind {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

export const Kinds = {
  namespace: { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false },
  configMap: { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true },
  serviceAccount: {
    group: '',
    version: 'v1',
    plural: 'serviceaccounts',
    kind: 'ServiceAccount',
    namespaced: true,
  },
  deployment: { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true },
  clusterRole: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'clusterroles',
    kind: 'ClusterRole',
    namespaced: false,
  },
  clusterRoleBinding: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'clusterrolebindings',
    kind: 'ClusterRoleBinding',
    namespaced: false,
  },
  role: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'roles',
    kind: 'Role',
    namespaced: true,
  },
  roleBinding: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'rolebindings',
    kind: 'RoleBinding',
    namespaced: true,
  },
  xrd: {
    group: 'apiextensions.crossplane.io',
    version: 'v1',
    plural: 'compositeresourcedefinitions',
    kind: 'CompositeResourceDefinition',
    namespaced: false,
  },
  providerRevision: {
    group: 'pkg.crossplane.io',
    version: 'v1',
    plural: 'providerrevisions',
    kind: 'ProviderRevision',
    namespaced: false,
  },
  customResourceDefinition: {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
  },
  composition: {
    group: 'apiextensions.crossplane.io',
    version: 'v1',
    plural: 'compositions',
    kind: 'Composition',
    namespaced: false,
  },
  compositionRevision: {
    group: 'apiextensions.crossplane.io',
    version: 'v1',
    plural: 'compositionrevisions',
    kind: 'CompositionRevision',
    namespaced: false,
  },
  operation: {
    group: 'ops.crossplane.io',
    version: 'v1alpha1',
    plural: 'operations',
    kind: 'Operation',
    namespaced: false,
  },
  cronOperation: {
    group: 'ops.crossplane.io',
    version: 'v1alpha1',
    plural: 'cronoperations',
    kind: 'CronOperation',
    namespaced: false,
  },
  watchOperation: {
    group: 'ops.crossplane.io',
    version: 'v1alpha1',
    plural: 'watchoperations',
    kind: 'WatchOperation',
    namespaced: false,
  },
  event: { group: '', version: 'v1', plural: 'events', kind: 'Event', namespaced: true },
  rootSync: {
    group: 'configsync.gke.io',
    version: 'v1beta1',
    plural: 'rootsyncs',
    kind: 'RootSync',
    namespaced: true,
  },
} as const satisfies Record<string, ResourceKind>;

/** Looks up the kind of a built-in or known object by its kind name. */
export function kindOf(obj: Pick<KubeObject, 'kind'>): ResourceKind | undefined {
  return Object.values(Kinds).find((k) => k.kind === obj.kind);
}

export interface WriteOptions {
  /** Send the write with dryRun=All: the server validates and authorizes, persists nothing. */
  readonly dryRun?: boolean;
}

export interface DeleteOptions extends WriteOptions {
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
}

export interface ListOptions {
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** A missing resource type (CRD not installed) lists as empty instead of failing. */
  readonly optional?: boolean;
  /**
   * Only the objects' metadata (`as=PartialObjectMetadataList`): for reads that need names, uids and owners, not
   * specs (a provider family's CRDs hold megabytes of schemas).
   */
  readonly metadataOnly?: boolean;
  /** Called after each page with the number of objects read so far (for progress on a terminal). */
  readonly onPage?: (itemsSoFar: number) => void;
}

/** What a watch reads: ListOptions' filters, and how long the server keeps each watch request open. */
export interface WatchOptions {
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /**
   * How long the server holds each watch request before ending it (the watch then resumes from the last
   * resourceVersion). Unset: a random 300-600s, as client-go's reflector spreads its watches.
   */
  readonly timeoutSeconds?: number;
}

/**
 * What a watch yields. `SYNCED` carries the whole state after each full list: the first, and every relist after the
 * server forgot the watch's resourceVersion (410 Gone); it replaces whatever the consumer held. The other events
 * change that state one object at a time, in the server's order, each exactly once.
 */
export type WatchEvent =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: KubeObject }
  | { readonly type: 'SYNCED'; readonly objects: KubeObject[]; readonly resourceVersion: string };

export interface AccessCheck {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly name?: string;
  readonly namespace?: string;
}

export interface RulesReview {
  readonly resourceRules: readonly PolicyRule[];
  readonly nonResourceRules: readonly PolicyRule[];
  readonly incomplete: boolean;
}

/**
 * A Role or ClusterRole read but not decoded yet (the answer's bytes are kept): a question about one resource request
 * decodes only the roles whose rules may allow it.
 */
export interface UndecodedRole {
  /**
   * False only when no rule of the role can allow a resource request of API group GROUP (no rule's apiGroups holds it
   * or "*"), as its undecoded answer shows; true when one may, or when the answer cannot tell without being decoded.
   */
  mayAllowGroup(group: string): boolean;
  /** The role, decoded as get() decodes it (an answer that is not JSON throws get()'s error). */
  decode(): KubeObject;
}

/** Everything the plugin needs from the API server; the one seam tests replace. */
export interface Cluster {
  /** The server URL and context, for messages. */
  readonly describe: string;
  /** The namespace a namespaced command uses when none is given: -n, else the context's, else "default". */
  readonly defaultNamespace: string;
  /** Where defaultNamespace came from: -n, the kubeconfig context, or neither ("default"); undefined if unknown. */
  readonly namespaceSource?: 'flag' | 'context' | 'default' | undefined;
  list(kind: ResourceKind, opts?: ListOptions): Promise<KubeObject[]>;
  get(kind: ResourceKind, name: string, namespace?: string): Promise<KubeObject | undefined>;
  /**
   * get() of a Role or ClusterRole, the answer checked (status, content type) but decoded only on demand. Optional: a
   * Cluster without it is read with get().
   */
  getUndecoded?(kind: ResourceKind, name: string, namespace?: string): Promise<UndecodedRole | undefined>;
  /**
   * How many objects of KIND exist (cluster-wide), from a one-item page's remainingItemCount; undefined when the
   * server does not say. Optional: a Cluster without it makes callers assume the worst case.
   */
  count?(kind: ResourceKind): Promise<number | undefined>;
  /** Creates OBJ; what the server stored is not read back (nothing needs it). */
  create(kind: ResourceKind, obj: KubeObject, opts?: WriteOptions): Promise<void>;
  /** Replaces OBJ (a PUT with its resourceVersion, if it carries one); what the server stored is not read back. */
  replace(kind: ResourceKind, obj: KubeObject, opts?: WriteOptions): Promise<void>;
  mergePatch(
    kind: ResourceKind,
    name: string,
    namespace: string | undefined,
    patch: object,
    opts?: WriteOptions,
  ): Promise<KubeObject>;
  delete(
    kind: ResourceKind,
    name: string,
    namespace: string | undefined,
    opts?: DeleteOptions,
  ): Promise<void>;
  /**
   * Lists, then watches from the list's resourceVersion, as client-go's reflector does (tools/cache/reflector.go):
   * bookmarks and the server ending a watch resume from the last resourceVersion; a 410 Gone relists. It ends when
   * SIGNAL aborts (quietly: no error, no open request), and throws what no retry can mend (403, 404, the server gone).
   */
  watch(kind: ResourceKind, opts: WatchOptions, signal: AbortSignal): AsyncIterable<WatchEvent>;
  canI(check: AccessCheck): Promise<boolean>;
  /** Closes the pooled connections (idle keep-alive sockets would otherwise hold a server's shutdown). */
  close?(): void;
  rulesReview(namespace: string): Promise<RulesReview>;
  /** Discovery: the resources of /api/v1 and of the preferred version of every group (reads nothing else). */
  discoverResources(): Promise<DiscoveredResource[]>;
}
