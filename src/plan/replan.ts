import { isRbacObject, type KubeObject, type RbacObject } from '../kube/types.js';
import { planChanges, type OwnershipRule } from './plan.js';

/**
 * What to do about one object after a write raced with another writer: update it, delete and create it again (a
 * binding whose roleRef differs: a roleRef cannot be updated), nothing, or leave it (not the caller's).
 */
export type Replanned =
  | { readonly action: 'update' | 'recreate'; readonly object: RbacObject }
  | { readonly action: 'none' }
  | { readonly action: 'refused'; readonly reason: string };

/**
 * Plans one desired object again against its freshly read live version, with the same ownership rule as the
 * first plan (default: the plugin's).
 */
export function replanOne(
  desired: KubeObject,
  live: KubeObject,
  adopt: boolean,
  ownership?: OwnershipRule,
): Replanned {
  if (!isRbacObject(desired) || !isRbacObject(live)) return { action: 'none' };
  const plan = planChanges(
    [desired],
    {
      clusterRoles: live.kind === 'ClusterRole' ? [live] : [],
      roles: live.kind === 'Role' ? [live] : [],
      clusterRoleBindings: live.kind === 'ClusterRoleBinding' ? [live] : [],
      roleBindings: live.kind === 'RoleBinding' ? [live] : [],
    },
    { prune: false, adopt, ...(ownership !== undefined ? { ownership } : {}) },
  );
  const entry = plan.entries[0];
  if (entry?.action === 'refused') return { action: 'refused', reason: entry.reason ?? "not the plugin's" };
  if (entry?.action === 'update' && entry.object !== undefined)
    return { action: entry.recreate === true ? 'recreate' : 'update', object: entry.object };
  return { action: 'none' };
}
