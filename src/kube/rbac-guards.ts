/**
 * Type guards for RBAC objects read as plain `KubeObject`s (from a file, or one GET): the kind and API group, and the
 * field each kind cannot be without. Snapshots sort the listed ones by the same test (`snapshotFromObjects`).
 */
import { RBAC_API_GROUP } from './api-names.js';
import type { ClusterRoleBinding, KubeObject, Role, RoleBinding } from './types.js';

function isRbac(o: KubeObject): boolean {
  return o.apiVersion.startsWith(`${RBAC_API_GROUP}/`);
}

/** A Role: kind Role in the RBAC group, its rules a list when set. */
export function isRoleObject(o: KubeObject): o is KubeObject & Role {
  const rules = o['rules'];
  return o.kind === 'Role' && isRbac(o) && (rules === undefined || Array.isArray(rules));
}

/** A ClusterRoleBinding or RoleBinding: the kind in the RBAC group, with a roleRef naming a role. */
export function isBindingObject(o: KubeObject): o is KubeObject & (ClusterRoleBinding | RoleBinding) {
  const roleRef = o['roleRef'];
  return (
    (o.kind === 'ClusterRoleBinding' || o.kind === 'RoleBinding') &&
    isRbac(o) &&
    typeof roleRef === 'object' &&
    roleRef !== null &&
    'name' in roleRef &&
    typeof roleRef.name === 'string'
  );
}
