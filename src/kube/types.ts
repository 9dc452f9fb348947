/**
 * Plain, readonly shapes of the Kubernetes objects the plugin reads and writes.
 * They mirror the API's JSON exactly (field names and optionality), so that an
 * object parsed from YAML or received from the API server is usable as is.
 */

export type Labels = Readonly<Record<string, string>>;

export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly labels?: Labels;
  readonly annotations?: Labels;
  readonly ownerReferences?: readonly OwnerReference[];
  readonly deletionTimestamp?: string;
  readonly creationTimestamp?: string;
  readonly generateName?: string;
}

/** Any object with apiVersion/kind/metadata; the rest is kept as it came. */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: ObjectMeta;
  readonly [key: string]: unknown;
}

/**
 * The shape every object has: a non-empty string apiVersion and kind, and a metadata object with a non-empty name.
 * The rest of the metadata, and the fields of each kind, are checked where a kind is read
 * (crossplane/validate-input.ts).
 */
export function isKubeObject(v: unknown): v is KubeObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const { apiVersion, kind, metadata } = v as Record<string, unknown>;
  if (typeof apiVersion !== 'string' || apiVersion === '' || typeof kind !== 'string' || kind === '')
    return false;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return false;
  const { name } = metadata as Record<string, unknown>;
  return typeof name === 'string' && name !== '';
}

export interface PolicyRule {
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly verbs: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

export interface LabelSelectorRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

export interface LabelSelector {
  readonly matchLabels?: Labels;
  readonly matchExpressions?: readonly LabelSelectorRequirement[];
}

export interface AggregationRule {
  readonly clusterRoleSelectors?: readonly LabelSelector[];
}

export interface ClusterRole extends KubeObject {
  readonly apiVersion: 'rbac.authorization.k8s.io/v1';
  readonly kind: 'ClusterRole';
  readonly metadata: ObjectMeta;
  readonly rules?: readonly PolicyRule[];
  readonly aggregationRule?: AggregationRule;
}

export interface Role extends KubeObject {
  readonly apiVersion: 'rbac.authorization.k8s.io/v1';
  readonly kind: 'Role';
  readonly metadata: ObjectMeta;
  readonly rules?: readonly PolicyRule[];
}

export interface Subject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly apiGroup?: string;
}

export interface RoleRef {
  readonly apiGroup: string;
  readonly kind: string;
  readonly name: string;
}

export interface ClusterRoleBinding extends KubeObject {
  readonly apiVersion: 'rbac.authorization.k8s.io/v1';
  readonly kind: 'ClusterRoleBinding';
  readonly metadata: ObjectMeta;
  readonly subjects?: readonly Subject[];
  readonly roleRef: RoleRef;
}

export interface RoleBinding extends KubeObject {
  readonly apiVersion: 'rbac.authorization.k8s.io/v1';
  readonly kind: 'RoleBinding';
  readonly metadata: ObjectMeta;
  readonly subjects?: readonly Subject[];
  readonly roleRef: RoleRef;
}

export type RbacObject = ClusterRole | Role | ClusterRoleBinding | RoleBinding;

const RBAC_KINDS: ReadonlySet<string> = new Set(['ClusterRole', 'Role', 'ClusterRoleBinding', 'RoleBinding']);

/** An object of the RBAC API, by its apiVersion and kind (as the API server returns them for those kinds). */
export function isRbacObject(o: KubeObject): o is RbacObject {
  return o.apiVersion === 'rbac.authorization.k8s.io/v1' && RBAC_KINDS.has(o.kind);
}

export interface XrdVersion {
  readonly name: string;
  readonly served?: boolean;
  readonly referenceable?: boolean;
}

export interface XrdNames {
  readonly kind?: string;
  readonly plural?: string;
  readonly singular?: string;
  readonly listKind?: string;
}

/** A CompositeResourceDefinition (apiextensions.crossplane.io v1 or v2). */
export interface Xrd extends KubeObject {
  readonly apiVersion: string;
  readonly kind: 'CompositeResourceDefinition';
  readonly metadata: ObjectMeta;
  readonly spec: {
    readonly group: string;
    readonly names: XrdNames;
    readonly claimNames?: XrdNames;
    /** v2 only: Namespaced (default in v2), Cluster, or LegacyCluster. */
    readonly scope?: string;
    readonly versions?: readonly XrdVersion[];
  };
}

export interface ObjectRef {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly uid?: string;
}

export interface ProviderRevision extends KubeObject {
  readonly apiVersion: string;
  readonly kind: 'ProviderRevision';
  readonly metadata: ObjectMeta;
  readonly spec: {
    readonly image?: string;
    readonly desiredState?: string;
    readonly revision?: number;
  };
  readonly status?: {
    readonly objectRefs?: readonly ObjectRef[];
    readonly capabilities?: readonly string[];
    /** Crossplane v1.x only: the RBAC rules the package asks for its controller. */
    readonly permissionRequests?: readonly PolicyRule[];
  };
}

export interface Deployment extends KubeObject {
  readonly apiVersion: 'apps/v1';
  readonly kind: 'Deployment';
  readonly metadata: ObjectMeta;
  readonly spec?: {
    readonly template?: {
      readonly spec?: {
        readonly serviceAccountName?: string;
        readonly containers?: readonly { readonly name: string; readonly image?: string }[];
      };
    };
  };
}

export interface Namespace extends KubeObject {
  readonly apiVersion: 'v1';
  readonly kind: 'Namespace';
  readonly metadata: ObjectMeta;
}

export interface ConfigMap extends KubeObject {
  readonly apiVersion: 'v1';
  readonly kind: 'ConfigMap';
  readonly metadata: ObjectMeta;
  readonly data?: Readonly<Record<string, string>>;
}

/** One entry of discovery: a resource (or `resource/subresource`) of one group version. */
export interface DiscoveredResource {
  readonly group: string;
  readonly version: string;
  /** The plural, or `plural/subresource`. */
  readonly name: string;
  readonly singularName: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  /** The verbs discovery lists for it (absent when the server lists none). */
  readonly verbs?: readonly string[];
}

/** Everything `sync`, `enable-xrd`, `explain` and `bind` read, as one consistent snapshot. */
export interface ClusterSnapshot {
  readonly xrds: readonly Xrd[];
  readonly providerRevisions: readonly ProviderRevision[];
  readonly deployments: readonly Deployment[];
  readonly namespaces: readonly Namespace[];
  readonly clusterRoles: readonly ClusterRole[];
  readonly clusterRoleBindings: readonly ClusterRoleBinding[];
  readonly roleBindings: readonly RoleBinding[];
  readonly configMaps: readonly ConfigMap[];
  /** Any other objects read from a file (RootSyncs, Roles, ServiceAccounts...). */
  readonly others: readonly KubeObject[];
}
