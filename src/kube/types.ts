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

export interface ClusterRole {
  readonly apiVersion: 'rbac.authorization.k8s.io/v1';
  readonly kind: 'ClusterRole';
  readonly metadata: ObjectMeta;
  readonly rules?: readonly PolicyRule[];
  readonly aggregationRule?: AggregationRule;
}

export interface Role {
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

export interface ClusterRoleBinding {
  readonly apiVersion: 'rbac.authorization.k8s.io/v1';
  readonly kind: 'ClusterRoleBinding';
  readonly metadata: ObjectMeta;
  readonly subjects?: readonly Subject[];
  readonly roleRef: RoleRef;
}

export interface RoleBinding {
  readonly apiVersion: 'rbac.authorization.k8s.io/v1';
  readonly kind: 'RoleBinding';
  readonly metadata: ObjectMeta;
  readonly subjects?: readonly Subject[];
  readonly roleRef: RoleRef;
}

export type RbacObject = ClusterRole | Role | ClusterRoleBinding | RoleBinding;

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
export interface Xrd {
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

export interface ProviderRevision {
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

export interface Deployment {
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

export interface Namespace {
  readonly apiVersion: 'v1';
  readonly kind: 'Namespace';
  readonly metadata: ObjectMeta;
}

export interface ConfigMap {
  readonly apiVersion: 'v1';
  readonly kind: 'ConfigMap';
  readonly metadata: ObjectMeta;
  readonly data?: Readonly<Record<string, string>>;
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
