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
import { checkedAs, findInvalidField, snapshotPartOf, type FieldCheck } from './validate-input.js';

/**
 * Sorts a list of objects into a snapshot by kind; objects of other kinds are kept in `others`. CHECK finds an
 * object's first invalid field (default: findInvalidField; sync --watch gives one that remembers each object's
 * answer, so an object is checked once however many reconciles read it).
 */
export function snapshotFromObjects(
  objects: readonly KubeObject[],
  check: FieldCheck = findInvalidField,
): ClusterSnapshot {
  const isXrd = checkedAs('xrds', check);
  const isProviderRevision = checkedAs('providerRevisions', check);
  const isDeployment = checkedAs('deployments', check);
  const isNamespace = checkedAs('namespaces', check);
  const isClusterRole = checkedAs('clusterRoles', check);
  const isClusterRoleBinding = checkedAs('clusterRoleBindings', check);
  const isRoleBinding = checkedAs('roleBindings', check);
  const isConfigMap = checkedAs('configMaps', check);
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
