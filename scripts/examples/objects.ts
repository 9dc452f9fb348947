// The objects of the example clusters as the API server stores them: uid and creationTimestamp in metadata, keys in
// the order of the committed files. Rules, selectors, role references and subjects go through the product's own
// builders (src/crossplane/object-builders.ts); only the object's outer key order is the examples' own.
import { buildClusterRole, buildClusterRoleBinding } from '../../src/crossplane/object-builders.js';
import type {
  AggregationRule,
  ClusterRole,
  ClusterRoleBinding,
  KubeObject,
  Labels,
  PolicyRule,
  Subject,
} from '../../src/kube/types.js';
import { CLUSTER_CREATED, CROSSPLANE_INSTALLED, uid } from './ids.js';


export const R = (apiGroups: readonly string[], resources: readonly string[], verbs: readonly string[]): PolicyRule => ({
  apiGroups,
  resources,
  verbs,
});

export interface RoleInput {
  readonly labels?: Labels | undefined;
  readonly annotations?: Labels | undefined;
  readonly rules?: readonly PolicyRule[] | undefined;
  readonly aggregationRule?: AggregationRule | undefined;
}

/** A ClusterRole as the API server stores it: created with the cluster, or with Crossplane for crossplane* roles. */
export function clusterRole(name: string, { labels, annotations, rules, aggregationRule }: RoleInput): ClusterRole {
  const built = buildClusterRole({
    name,
    ...(rules !== undefined ? { rules } : {}),
    ...(aggregationRule !== undefined ? { aggregationRule } : {}),
  });
  return {
    apiVersion: built.apiVersion,
    kind: built.kind,
    metadata: {
      name,
      uid: uid('ClusterRole', name),
      creationTimestamp: name.startsWith('crossplane') ? CROSSPLANE_INSTALLED : CLUSTER_CREATED,
      ...(labels !== undefined ? { labels } : {}),
      ...(annotations !== undefined ? { annotations } : {}),
    },
    ...(built.aggregationRule !== undefined ? { aggregationRule: built.aggregationRule } : {}),
    ...(built.rules !== undefined ? { rules: built.rules } : {}),
  };
}

export function clusterRoleBinding(
  name: string,
  roleName: string,
  subjects: readonly Subject[],
  labels: Labels | undefined,
  created: string,
): ClusterRoleBinding {
  const built = buildClusterRoleBinding({ name, roleName, subjects });
  return {
    ...built,
    metadata: {
      name,
      uid: uid('ClusterRoleBinding', name),
      creationTimestamp: created,
      ...(labels !== undefined ? { labels } : {}),
    },
  };
}

export function serviceAccount(
  namespace: string,
  name: string,
  labels: Labels | undefined,
  created: string,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: {
      name,
      namespace,
      uid: uid('ServiceAccount', namespace, name),
      creationTimestamp: created,
      ...(labels !== undefined ? { labels } : {}),
    },
  };
}

export function namespace(
  name: string,
  {
    labels,
    annotations,
    created = CLUSTER_CREATED,
  }: { labels?: Labels; annotations?: Labels; created?: string } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      uid: uid('Namespace', name),
      creationTimestamp: created,
      labels: { 'kubernetes.io/metadata.name': name, ...(labels ?? {}) },
      ...(annotations !== undefined && Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

export const ACCEPTED = 'xrd-claim-accepted';

/** The annotations by which a namespace accepts XRDS. */
export const accept = (...xrdNames: readonly string[]): Labels =>
  Object.fromEntries(xrdNames.map((n) => [`rbac.crossplane.io/${n}`, ACCEPTED]));

/** A document of an example file. */
export type Doc = KubeObject | ClusterRole | ClusterRoleBinding;
