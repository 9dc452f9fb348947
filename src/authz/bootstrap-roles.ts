/**
 * Kubernetes' bootstrap ClusterRoles (admin, edit, view, cluster-admin, the system: roles), as the API server creates
 * them at every start (the rbac/bootstrap-roles post-start hook reconciles them: pkg/registry/rbac/rest/storage_rbac.go).
 * A copy of the rules kubernetes/kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go defines
 * (ClusterRoles), as its golden file plugin/pkg/auth/authorizer/rbac/bootstrappolicy/testdata/cluster-roles.yaml
 * @ 025f2834a128798cef30018a5e6a6ae82b5ad885 lists them: labels, aggregation selectors and rules, in its order
 * (annotations and empty fields left out). test/unit/authz/bootstrap-roles.test.ts compares this copy with that
 * file, so the two cannot drift.
 *
 * Every cluster has these roles, so a command that reads -f files without them judges a roleRef to one by these
 * rules, as it would live (bind's privileged check: `admin` and `edit` may impersonate service accounts).
 */
import { RBAC_API_VERSION } from '../kube/api-names.js';
import type { ClusterRole, Labels, PolicyRule } from '../kube/types.js';

interface BootstrapRole {
  readonly name: string;
  readonly labels: Labels;
  /** The matchLabels of each aggregation selector (the bootstrap roles use no matchExpressions). */
  readonly aggregateFrom?: readonly Labels[];
  readonly rules: readonly PolicyRule[];
}

// prettier-ignore
const ROLES: readonly BootstrapRole[] = [
  {
    name: 'admin',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    aggregateFrom: [{ 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' }],
    rules: [],
  },
  {
    name: 'cluster-admin',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ],
  },
  {
    name: 'edit',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' },
    aggregateFrom: [{ 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' }],
    rules: [],
  },
  {
    name: 'system:aggregate-to-admin',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' },
    rules: [
      { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings', 'roles'], verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] },
    ],
  },
  {
    name: 'system:aggregate-to-edit',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' },
    rules: [
      { apiGroups: [''], resources: ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] },
      { apiGroups: [''], resources: ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'], verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'] },
      { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
      { apiGroups: [''], resources: ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy'], verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'] },
      { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
      { apiGroups: ['apps'], resources: ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'], verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'] },
      { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'] },
      { apiGroups: ['batch'], resources: ['cronjobs', 'jobs'], verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'] },
      { apiGroups: ['extensions'], resources: ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale'], verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'] },
      { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'] },
      { apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'networkpolicies'], verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] },
    ],
  },
  {
    name: 'system:aggregate-to-view',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', 'rbac.authorization.k8s.io/aggregate-to-view': 'true' },
    rules: [
      { apiGroups: [''], resources: ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['apps'], resources: ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['batch'], resources: ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['extensions'], resources: ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['policy'], resources: ['poddisruptionbudgets', 'poddisruptionbudgets/status'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'ingresses/status', 'networkpolicies'], verbs: ['get', 'list', 'watch'] },
    ],
  },
  {
    name: 'system:auth-delegator',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ],
  },
  {
    name: 'system:basic-user',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], verbs: ['create'] },
      { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] },
    ],
  },
  {
    name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/nodeclient'], verbs: ['create'] },
    ],
  },
  {
    name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/selfnodeclient'], verbs: ['create'] },
    ],
  },
  {
    name: 'system:certificates.k8s.io:kube-apiserver-client-approver',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['kubernetes.io/kube-apiserver-client'], verbs: ['approve'] },
    ],
  },
  {
    name: 'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['kubernetes.io/kube-apiserver-client-kubelet'], verbs: ['approve'] },
    ],
  },
  {
    name: 'system:certificates.k8s.io:kubelet-serving-approver',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['kubernetes.io/kubelet-serving'], verbs: ['approve'] },
    ],
  },
  {
    name: 'system:certificates.k8s.io:legacy-unknown-approver',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['kubernetes.io/legacy-unknown'], verbs: ['approve'] },
    ],
  },
  {
    name: 'system:discovery',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'], verbs: ['get'] },
    ],
  },
  {
    name: 'system:heapster',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: [''], resources: ['events', 'namespaces', 'nodes', 'pods'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['extensions'], resources: ['deployments'], verbs: ['get', 'list', 'watch'] },
    ],
  },
  {
    name: 'system:kube-aggregator',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: [''], resources: ['endpoints', 'services'], verbs: ['get', 'list', 'watch'] },
    ],
  },
  {
    name: 'system:kube-controller-manager',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['kube-controller-manager'], verbs: ['get', 'update'] },
      { apiGroups: [''], resources: ['secrets', 'serviceaccounts'], verbs: ['create'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['delete'] },
      { apiGroups: [''], resources: ['configmaps', 'namespaces', 'secrets', 'serviceaccounts'], verbs: ['get'] },
      { apiGroups: [''], resources: ['secrets', 'serviceaccounts'], verbs: ['update'] },
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
      { apiGroups: ['*'], resources: ['*'], verbs: ['list', 'watch'] },
      { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
    ],
  },
  {
    name: 'system:kube-dns',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: [''], resources: ['endpoints', 'services'], verbs: ['list', 'watch'] },
    ],
  },
  {
    name: 'system:kube-scheduler',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['kube-scheduler'], verbs: ['get', 'update'] },
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['delete', 'get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['bindings', 'pods/binding'], verbs: ['create'] },
      { apiGroups: [''], resources: ['pods/status'], verbs: ['patch', 'update'] },
      { apiGroups: [''], resources: ['replicationcontrollers', 'services'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['apps', 'extensions'], resources: ['replicasets'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['persistentvolumeclaims', 'persistentvolumes'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
      { apiGroups: ['storage.k8s.io'], resources: ['csinodes'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['storage.k8s.io'], resources: ['csidrivers'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['storage.k8s.io'], resources: ['csistoragecapacities'], verbs: ['get', 'list', 'watch'] },
    ],
  },
  {
    name: 'system:kubelet-api-admin',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['nodes'], verbs: ['proxy'] },
      { apiGroups: [''], resources: ['nodes/log', 'nodes/metrics', 'nodes/proxy', 'nodes/stats'], verbs: ['*'] },
    ],
  },
  {
    name: 'system:monitoring',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { nonResourceURLs: ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'], verbs: ['get'] },
    ],
  },
  {
    name: 'system:node',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews', 'subjectaccessreviews'], verbs: ['create'] },
      { apiGroups: [''], resources: ['services'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['nodes'], verbs: ['create', 'get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch', 'update'] },
      { apiGroups: [''], resources: ['nodes'], verbs: ['patch', 'update'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['create', 'delete'] },
      { apiGroups: [''], resources: ['pods/status'], verbs: ['patch', 'update'] },
      { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
      { apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['persistentvolumeclaims', 'persistentvolumes'], verbs: ['get'] },
      { apiGroups: [''], resources: ['endpoints'], verbs: ['get'] },
      { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create', 'get', 'list', 'watch'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'delete', 'get', 'patch', 'update'] },
      { apiGroups: ['storage.k8s.io'], resources: ['volumeattachments'], verbs: ['get'] },
      { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
      { apiGroups: [''], resources: ['persistentvolumeclaims/status'], verbs: ['get', 'patch', 'update'] },
      { apiGroups: ['storage.k8s.io'], resources: ['csidrivers'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['storage.k8s.io'], resources: ['csinodes'], verbs: ['create', 'delete', 'get', 'patch', 'update'] },
      { apiGroups: ['node.k8s.io'], resources: ['runtimeclasses'], verbs: ['get', 'list', 'watch'] },
    ],
  },
  {
    name: 'system:node-bootstrapper',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create', 'get', 'list', 'watch'] },
    ],
  },
  {
    name: 'system:node-problem-detector',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
      { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] },
    ],
  },
  {
    name: 'system:node-proxier',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: [''], resources: ['endpoints', 'services'], verbs: ['list', 'watch'] },
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] },
      { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
    ],
  },
  {
    name: 'system:persistent-volume-provisioner',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['create', 'delete', 'get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['get', 'list', 'update', 'watch'] },
      { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['events'], verbs: ['watch'] },
      { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] },
    ],
  },
  {
    name: 'system:public-info-viewer',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'], verbs: ['get'] },
    ],
  },
  {
    name: 'system:service-account-issuer-discovery',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { nonResourceURLs: ['/.well-known/openid-configuration', '/openid/v1/jwks'], verbs: ['get'] },
    ],
  },
  {
    name: 'system:volume-scheduler',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    rules: [
      { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['get', 'list', 'patch', 'update', 'watch'] },
      { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['get', 'list', 'patch', 'update', 'watch'] },
    ],
  },
  {
    name: 'view',
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' },
    aggregateFrom: [{ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }],
    rules: [],
  },
];

/** The bootstrap ClusterRoles, as ClusterRole objects. */
export function bootstrapClusterRoles(): ClusterRole[] {
  return ROLES.map((r) => ({
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRole',
    metadata: { name: r.name, labels: r.labels },
    ...(r.aggregateFrom !== undefined
      ? { aggregationRule: { clusterRoleSelectors: r.aggregateFrom.map((matchLabels) => ({ matchLabels })) } }
      : {}),
    rules: r.rules,
  }));
}

/**
 * ROLES (as read from a cluster or -f files) and every bootstrap ClusterRole they lack by name: the API server
 * recreates a deleted one at its next start, so a binding to it grants its bootstrap rules sooner or later.
 */
export function withBootstrapRoles(roles: readonly ClusterRole[]): ClusterRole[] {
  const have = new Set(roles.map((r) => r.metadata.name));
  return [...roles, ...bootstrapClusterRoles().filter((r) => !have.has(r.metadata.name))];
}
