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
      // Stryker disable next-line ConditionalExpression: made true, the live object is listed under a kind it is not too; the planner finds live objects by kind and name, so only the list of its kind counts
      clusterRoles: live.kind === 'ClusterRole' ? [live] : [],
      // Stryker disable next-line ConditionalExpression: made true, the live object is also listed under a kind it is not, under its own key: the plan is the same
      roles: live.kind === 'Role' ? [live] : [],
      // Stryker disable next-line ConditionalExpression: made true, the live object is also listed under a kind it is not, under its own key: the plan is the same
      clusterRoleBindings: live.kind === 'ClusterRoleBinding' ? [live] : [],
      // Stryker disable next-line ConditionalExpression: made true, the live object is also listed under a kind it is not, under its own key: the plan is the same
      roleBindings: live.kind === 'RoleBinding' ? [live] : [],
    },
    // Stryker disable next-line BooleanLiteral,ConditionalExpression: the one live object has the desired object's key, so pruning has nothing to delete; an ownership of undefined is the default rule too
    { prune: false, adopt, ...(ownership !== undefined ? { ownership } : {}) },
  );
  const entry = plan.entries[0];
  // Stryker disable next-line OptionalChaining,StringLiteral: one desired object always makes one entry, and a refusal always carries the rule's reason (the fallback only satisfies the optional type)
  if (entry?.action === 'refused') return { action: 'refused', reason: entry.reason ?? "not the plugin's" };
  // Stryker disable next-line OptionalChaining,ConditionalExpression: one desired object always makes one entry, and an update entry always carries its object
  if (entry?.action === 'update' && entry.object !== undefined)
    return { action: entry.recreate === true ? 'recreate' : 'update', object: entry.object };
  return { action: 'none' };
}
