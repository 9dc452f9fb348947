/**
 * The snapshot of a cluster the renderers work on, built from the objects as read (files or LISTs). An object
 * enters its typed list only once its fields have been checked against the schema of its kind
 * (validate-input.ts), so the renderers can trust the types; objects that fail are left out here and reported by
 * findInvalidObjects for the parts a command reads.
 */
import type {
  ClusterRole,
  ClusterRoleBinding,
  ClusterSnapshot,
  ConfigMap,
  Deployment,
  KubeObject,
  Namespace,
  ProviderRevision,
  RoleBinding,
  Xrd,
} from '../kube/types.js';
import { checkedAs, snapshotPartOf } from './validate-input.js';

const isXrd = checkedAs('xrds');
const isProviderRevision = checkedAs('providerRevisions');
const isDeployment = checkedAs('deployments');
const isNamespace = checkedAs('namespaces');
const isClusterRole = checkedAs('clusterRoles');
const isClusterRoleBinding = checkedAs('clusterRoleBindings');
const isRoleBinding = checkedAs('roleBindings');
const isConfigMap = checkedAs('configMaps');

/** Sorts a list of objects into a snapshot by kind; objects of other kinds are kept in `others`. */
export function snapshotFromObjects(objects: readonly KubeObject[]): ClusterSnapshot {
  const s = {
    xrds: [] as Xrd[],
    providerRevisions: [] as ProviderRevision[],
    deployments: [] as Deployment[],
    namespaces: [] as Namespace[],
    clusterRoles: [] as ClusterRole[],
    clusterRoleBindings: [] as ClusterRoleBinding[],
    roleBindings: [] as RoleBinding[],
    configMaps: [] as ConfigMap[],
    others: [] as KubeObject[],
  };
  for (const obj of objects) {
    if (snapshotPartOf(obj) === undefined) s.others.push(obj);
    else if (isXrd(obj)) s.xrds.push(obj);
    else if (isProviderRevision(obj)) s.providerRevisions.push(obj);
    else if (isDeployment(obj)) s.deployments.push(obj);
    else if (isNamespace(obj)) s.namespaces.push(obj);
    else if (isClusterRole(obj)) s.clusterRoles.push(obj);
    else if (isClusterRoleBinding(obj)) s.clusterRoleBindings.push(obj);
    else if (isRoleBinding(obj)) s.roleBindings.push(obj);
    else if (isConfigMap(obj)) s.configMaps.push(obj);
  }
  return s;
}
