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
import { findInvalidField, snapshotPartOf, type FieldCheck } from './validate-input.js';

/**
 * Sorts a list of objects into a snapshot by kind; objects of other kinds are kept in `others`. CHECK finds an
 * object's first invalid field (default: findInvalidField; sync --watch gives one that remembers each object's
 * answer, so an object is checked once however many reconciles read it).
 */
export function snapshotFromObjects(
  objects: readonly KubeObject[],
  check: FieldCheck = findInvalidField,
): ClusterSnapshot {
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
  // Each object's part found once, then checked once: the object enters that part's list only when the part's
  // group and kind are its own (snapshotPartOf) and it passed the kind's schema, which is what the list's type says.
  for (const obj of objects) {
    const part = snapshotPartOf(obj);
    if (part === undefined) s.others.push(obj);
    else if (check(obj) === undefined) (s[part] as KubeObject[]).push(obj);
  }
  return s;
}
