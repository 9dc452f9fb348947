/**
 * The built-in resources the server serves, with the short names, categories, verbs and subresources Kubernetes
 * 1.32's discovery gives them: every core (v1) resource, as kubernetes/kubernetes lists them in
 * api/discovery/api__v1.json@7c554ea1d91eddac32fcd89f37d7ed0347e1f311 (no pods/resize, which 1.33 added); the apps
 * workloads, whose short names, categories and subresources are those of api/discovery/apis__apps__v1.json
 * @7c66d0f84a20136b37a301223c7a3b42f1133ac9; and the kinds the plugin reads or writes or the examples compose.
 * Subresources other than `status` are listed in discovery only: a request to one is answered 404.
 */

/** A subresource as discovery lists it (`pods/log`); GROUP/VERSION when its kind is another group's. */
export interface SubresourceInfo {
  readonly name: string;
  readonly kind: string;
  readonly verbs: readonly string[];
  readonly group?: string;
  readonly version?: string;
}

export interface ResourceInfo {
  readonly group: string;
  readonly version: string;
  /** Every version served for this group/resource; all share one storage. */
  readonly versions: readonly string[];
  readonly resource: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  /** Served: the status subresource (get, patch, update). */
  readonly status: boolean;
  /** Listed in discovery only, besides status. */
  readonly subresources: readonly SubresourceInfo[];
  /** Create-only review resources that persist nothing. */
  readonly review: boolean;
  readonly custom: boolean;
  /** A CRD version marked deprecated: the warning every request it serves answers with. */
  readonly deprecationWarning?: string;
}

const CRUD = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;
const GET_PATCH_UPDATE = ['get', 'patch', 'update'] as const;
const PROXY = ['create', 'delete', 'get', 'patch', 'update'] as const;
const CREATE = ['create'] as const;
const CREATE_GET = ['create', 'get'] as const;

function builtin(
  group: string,
  version: string,
  resource: string,
  kind: string,
  namespaced: boolean,
  extra: {
    shortNames?: string[];
    status?: boolean;
    verbs?: readonly string[];
    categories?: string[];
    review?: boolean;
    subresources?: SubresourceInfo[];
    singular?: string;
  } = {},
): ResourceInfo {
  return {
    group,
    version,
    versions: [version],
    resource,
    singular: extra.singular ?? kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced,
    verbs: extra.verbs ?? CRUD,
    shortNames: extra.shortNames ?? [],
    categories: extra.categories ?? [],
    status: extra.status ?? false,
    subresources: extra.subresources ?? [],
    review: extra.review ?? false,
    custom: false,
  };
}

const scale: SubresourceInfo = {
  name: 'scale',
  kind: 'Scale',
  verbs: GET_PATCH_UPDATE,
  group: 'autoscaling',
  version: 'v1',
};
const RBAC = 'rbac.authorization.k8s.io';
const AUTHZ = 'authorization.k8s.io';
const ALL = ['all'];

export const BUILTIN_RESOURCES: readonly ResourceInfo[] = [
  builtin('', 'v1', 'bindings', 'Binding', true, { verbs: CREATE }),
  builtin('', 'v1', 'componentstatuses', 'ComponentStatus', false, {
    shortNames: ['cs'],
    verbs: ['get', 'list'],
  }),
  builtin('', 'v1', 'configmaps', 'ConfigMap', true, { shortNames: ['cm'] }),
  builtin('', 'v1', 'endpoints', 'Endpoints', true, { shortNames: ['ep'], singular: 'endpoints' }),
  builtin('', 'v1', 'events', 'Event', true, { shortNames: ['ev'] }),
  builtin('', 'v1', 'limitranges', 'LimitRange', true, { shortNames: ['limits'] }),
  builtin('', 'v1', 'namespaces', 'Namespace', false, {
    shortNames: ['ns'],
    status: true,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: [{ name: 'finalize', kind: 'Namespace', verbs: ['update'] }],
  }),
  builtin('', 'v1', 'nodes', 'Node', false, {
    shortNames: ['no'],
    status: true,
    subresources: [{ name: 'proxy', kind: 'NodeProxyOptions', verbs: PROXY }],
  }),
  builtin('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, {
    shortNames: ['pvc'],
    status: true,
  }),
  builtin('', 'v1', 'persistentvolumes', 'PersistentVolume', false, { shortNames: ['pv'], status: true }),
  builtin('', 'v1', 'pods', 'Pod', true, {
    shortNames: ['po'],
    categories: ALL,
    status: true,
    subresources: [
      { name: 'attach', kind: 'PodAttachOptions', verbs: CREATE_GET },
      { name: 'binding', kind: 'Binding', verbs: CREATE },
      { name: 'ephemeralcontainers', kind: 'Pod', verbs: GET_PATCH_UPDATE },
      { name: 'eviction', kind: 'Eviction', verbs: CREATE, group: 'policy', version: 'v1' },
      { name: 'exec', kind: 'PodExecOptions', verbs: CREATE_GET },
      { name: 'log', kind: 'Pod', verbs: ['get'] },
      { name: 'portforward', kind: 'PodPortForwardOptions', verbs: CREATE_GET },
      { name: 'proxy', kind: 'PodProxyOptions', verbs: PROXY },
    ],
  }),
  builtin('', 'v1', 'podtemplates', 'PodTemplate', true),
  builtin('', 'v1', 'replicationcontrollers', 'ReplicationController', true, {
    shortNames: ['rc'],
    categories: ALL,
    status: true,
    subresources: [scale],
  }),
  builtin('', 'v1', 'resourcequotas', 'ResourceQuota', true, { shortNames: ['quota'], status: true }),
  builtin('', 'v1', 'secrets', 'Secret', true),
  builtin('', 'v1', 'serviceaccounts', 'ServiceAccount', true, {
    shortNames: ['sa'],
    subresources: [
      { name: 'token', kind: 'TokenRequest', verbs: CREATE, group: 'authentication.k8s.io', version: 'v1' },
    ],
  }),
  builtin('', 'v1', 'services', 'Service', true, {
    shortNames: ['svc'],
    status: true,
    categories: ALL,
    subresources: [{ name: 'proxy', kind: 'ServiceProxyOptions', verbs: PROXY }],
  }),
  builtin('apps', 'v1', 'controllerrevisions', 'ControllerRevision', true),
  builtin('apps', 'v1', 'daemonsets', 'DaemonSet', true, {
    shortNames: ['ds'],
    status: true,
    categories: ALL,
  }),
  builtin('apps', 'v1', 'deployments', 'Deployment', true, {
    shortNames: ['deploy'],
    status: true,
    categories: ALL,
    subresources: [scale],
  }),
  builtin('apps', 'v1', 'replicasets', 'ReplicaSet', true, {
    shortNames: ['rs'],
    status: true,
    categories: ALL,
    subresources: [scale],
  }),
  builtin('apps', 'v1', 'statefulsets', 'StatefulSet', true, {
    shortNames: ['sts'],
    status: true,
    categories: ALL,
    subresources: [scale],
  }),
  builtin('batch', 'v1', 'cronjobs', 'CronJob', true, {
    shortNames: ['cj'],
    status: true,
    categories: ALL,
  }),
  builtin('batch', 'v1', 'jobs', 'Job', true, { status: true, categories: ALL }),
  builtin('networking.k8s.io', 'v1', 'ingresses', 'Ingress', true, { shortNames: ['ing'], status: true }),
  builtin('networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy', true, { shortNames: ['netpol'] }),
  builtin('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget', true, {
    shortNames: ['pdb'],
    status: true,
  }),
  // Admission webhooks: cluster-scoped, category api-extensions (pkg/registry/admissionregistration/
  // mutatingwebhookconfiguration/storage/storage.go, Categories). audit's `webhook` step asks kubectl auth can-i.
  builtin(
    'admissionregistration.k8s.io',
    'v1',
    'mutatingwebhookconfigurations',
    'MutatingWebhookConfiguration',
    false,
    {
      categories: ['api-extensions'],
    },
  ),
  builtin(
    'admissionregistration.k8s.io',
    'v1',
    'validatingwebhookconfigurations',
    'ValidatingWebhookConfiguration',
    false,
    {
      categories: ['api-extensions'],
    },
  ),
  builtin(RBAC, 'v1', 'clusterroles', 'ClusterRole', false),
  builtin(RBAC, 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false),
  builtin(RBAC, 'v1', 'roles', 'Role', true),
  builtin(RBAC, 'v1', 'rolebindings', 'RoleBinding', true),
  builtin('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false, {
    shortNames: ['crd', 'crds'],
    status: true,
    categories: ['api-extensions'],
  }),
  builtin(AUTHZ, 'v1', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview', false, {
    verbs: CREATE,
    review: true,
  }),
  builtin(AUTHZ, 'v1', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview', false, {
    verbs: CREATE,
    review: true,
  }),
  builtin(AUTHZ, 'v1', 'subjectaccessreviews', 'SubjectAccessReview', false, {
    verbs: CREATE,
    review: true,
  }),
  builtin(AUTHZ, 'v1', 'localsubjectaccessreviews', 'LocalSubjectAccessReview', true, {
    verbs: CREATE,
    review: true,
  }),
];
