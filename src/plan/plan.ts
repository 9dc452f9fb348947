import type {
  ClusterRole,
  ClusterRoleBinding,
  KubeObject,
  RbacObject,
  Role,
  RoleBinding,
} from '../kube/types.js';
import { pluginOwnership, type OwnershipRule } from './ownership.js';
import { controllerOf } from '../kube/meta.js';
import { changedFields } from './compare.js';

// The ownership rule is part of the planner's interface.
export {
  isPrunable,
  ownership,
  pluginOwnership,
  wouldPrune,
  type Ownership,
  type OwnershipRule,
} from './ownership.js';

import type { PlannedWrite } from '../authz/required-permissions.js';
import { compareStrings } from '../kube/order.js';
import { objectKey } from '../kube/meta.js';
import type { PruneScope } from '../crossplane/owned-objects.js';

export type PlanAction = 'create' | 'update' | 'unchanged' | 'delete' | 'refused';

/** One line of a plan; the planner plans RBAC objects, and enable-xrd shows its Namespace patches as entries too. */
export interface PlanEntry<T extends KubeObject = RbacObject> {
  readonly action: PlanAction;
  /** objectKey(): `Kind/name` or `Kind/namespace/name`. */
  readonly key: string;
  readonly kind: T['kind'];
  readonly name: string;
  readonly namespace?: string;
  /** create and update: the object to write; for an update it carries the live resourceVersion. */
  readonly object?: T;
  /** The live object, when there is one. */
  readonly live?: T;
  /** update: the compared fields that differ (labels, rules, aggregationRule, subjects, roleRef, ownerReferences). */
  readonly changed?: readonly string[];
  /** update: the roleRef differs; it is immutable, so the binding must be deleted and created again. */
  readonly recreate?: boolean;
  /** delete: preconditions for the DELETE (uid, resourceVersion of the live object). */
  readonly uid?: string;
  readonly resourceVersion?: string;
  /** refused: why the object is left alone. */
  readonly reason?: string;
  /** update: the live object was not the plugin's (no label, no controller) and --adopt takes it over. */
  readonly adopt?: boolean;
}

export interface Plan {
  readonly entries: readonly PlanEntry[];
  readonly counts: Readonly<Record<PlanAction, number>>;
}

export interface LiveRbac {
  readonly clusterRoles: readonly ClusterRole[];
  readonly clusterRoleBindings: readonly ClusterRoleBinding[];
  readonly roleBindings: readonly RoleBinding[];
  readonly roles?: readonly Role[];
}

export interface PlanOptions {
  /** Delete the caller's live objects that are not desired (those the ownership rule prunes). */
  readonly prune: boolean;
  /**
   * With the default ownership rule: only plugin-owned objects in this scope may be pruned; undefined: every
   * plugin-owned object.
   */
  readonly pruneScope?: PruneScope;
  /** Take over live objects that nobody owns (no managed-by label, no controller) instead of refusing them. */
  readonly adopt?: boolean;
  /** Who owns what; default: the plugin's rule, `pluginOwnership(pruneScope)` (sync and enable-xrd). */
  readonly ownership?: OwnershipRule;
  /** Comparisons kept from the last plan (sync --watch), used only for the very same desired and live objects. */
  readonly memo?: PlanMemo;
}

/** An update's body and the fields that differ, computed from one desired and one live object. */
interface Compared {
  readonly live: RbacObject;
  /** The update's body; not made for a role none of whose compared fields differ (compared). */
  readonly body: RbacObject | undefined;
  readonly changed: readonly string[];
}

/**
 * The comparison of each desired object with the live one it was last compared with, weakly by the desired object:
 * when a run renders the same object again (sync's memo) and the live one is the same object, the answer is the same.
 */
export type PlanMemo = WeakMap<RbacObject, Compared>;

/**
 * changedFields of D's update body against L, and the body, or the memo's when it compared these very objects. A
 * role's compared fields (labels, aggregationRule, rules) are D's own in its body (the desired labels exactly, the
 * desired rules, or an aggregating role's, which are not compared), so a role is compared as D and its body made only
 * when a field differs: a synced cluster's plan compares thousands of roles, nearly all unchanged. A binding's owner
 * references are merged with the live ones (mergedMetadata): compared as its body.
 */
function compared(d: RbacObject, l: RbacObject, memo: PlanMemo | undefined): Compared {
  const hit = memo?.get(d);
  if (hit !== undefined && hit.live === l) return hit;
  let entry: Compared;
  if (d.kind === 'ClusterRole' || d.kind === 'Role') {
    const changed = changedFields(d, l);
    entry = { live: l, body: changed.length > 0 ? updateBody(d, l) : undefined, changed };
  } else {
    const body = updateBody(d, l);
    entry = { live: l, body, changed: changedFields(body, l) };
  }
  memo?.set(d, entry);
  return entry;
}

const KIND_RANK: Record<RbacObject['kind'], number> = {
  ClusterRole: 0,
  Role: 1,
  ClusterRoleBinding: 2,
  RoleBinding: 3,
};

/**
 * The metadata an update writes: exactly the desired labels (as Crossplane's RBAC manager, whose applicator updates
 * with the desired object: a label someone adds to a role the plugin owns is removed, since a label can aggregate a
 * role into another), the desired annotations and owner references plus what others added (annotations, which
 * grant nothing, and non-controller owner references), at the live resourceVersion.
 */
function mergedMetadata(desired: RbacObject, live: RbacObject): RbacObject['metadata'] {
  const labels: Record<string, string> = { ...(desired.metadata.labels ?? {}) };
  const annotations = { ...(live.metadata.annotations ?? {}), ...(desired.metadata.annotations ?? {}) };
  const wanted = desired.metadata.ownerReferences ?? [];
  const kept = (live.metadata.ownerReferences ?? []).filter(
    (r) => r.controller !== true && !wanted.some((w) => w.uid === r.uid),
  );
  const owners = [...wanted, ...kept];
  const { labels: _l, annotations: _a, ownerReferences: _o, ...rest } = desired.metadata;
  return {
    ...rest,
    ...(Object.keys(labels).length > 0 ? { labels } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    ...(owners.length > 0 ? { ownerReferences: owners } : {}),
    ...(live.metadata.resourceVersion !== undefined
      ? { resourceVersion: live.metadata.resourceVersion }
      : {}),
  };
}

/** The object an update writes: the desired object (Crossplane replaces, it does not merge) at the live version. */
function updateBody(desired: RbacObject, live: RbacObject): RbacObject {
  const metadata = mergedMetadata(desired, live);
  // Stryker disable next-line ConditionalExpression: only a ClusterRole has an aggregationRule, so the kind test, made true, changes nothing (it narrows the type)
  if (desired.kind === 'ClusterRole' && desired.aggregationRule !== undefined) {
    // Keep the rules the aggregation controller filled in, so the role never goes empty between writes.
    const liveRules = (live as ClusterRole).rules;
    return {
      ...desired,
      metadata,
      ...(liveRules !== undefined ? { rules: liveRules } : {}),
    };
  }
  return { ...desired, metadata };
}

function entryBase(o: RbacObject): Pick<PlanEntry, 'key' | 'kind' | 'name' | 'namespace'> {
  return {
    key: objectKey(o),
    kind: o.kind,
    name: o.metadata.name,
    ...(o.metadata.namespace !== undefined ? { namespace: o.metadata.namespace } : {}),
  };
}

function sortKey(a: PlanEntry, b: PlanEntry): number {
  return KIND_RANK[a.kind] - KIND_RANK[b.kind] || compareStrings(a.key, b.key);
}

/**
 * Plans the writes that make the live RBAC objects match the desired ones: per object create, update (a binding
 * whose roleRef differs is recreated), unchanged or refused (not the caller's by the ownership rule: by default a
 * live controller owner with another UID, or an unlabelled object where sync wants its own), and, with `prune`,
 * delete of the caller's objects no longer desired, with uid and resourceVersion preconditions. Roles come before
 * bindings, cluster-wide before namespaced, then by key; deletes come last, bindings first.
 */
export function planChanges(desired: readonly RbacObject[], live: LiveRbac, opts: PlanOptions): Plan {
  const rule = opts.ownership ?? pluginOwnership(opts.pruneScope);
  const liveByKey = new Map<string, RbacObject>();
  for (const o of [
    ...live.clusterRoles,
    ...(live.roles ?? []),
    ...live.clusterRoleBindings,
    ...live.roleBindings,
  ]) {
    liveByKey.set(objectKey(o), o);
  }
  const desiredKeys = new Set<string>();
  const entries: PlanEntry[] = [];
  for (const d of desired) {
    const key = objectKey(d);
    if (desiredKeys.has(key)) throw new Error(`internal error: ${key} rendered twice`);
    desiredKeys.add(key);
    const l = liveByKey.get(key);
    if (l === undefined) {
      entries.push({ action: 'create', ...entryBase(d), object: d });
      continue;
    }
    const owner = rule.owns(d, l, opts.adopt === true);
    if (!owner.ours) {
      entries.push({ action: 'refused', ...entryBase(d), object: d, live: l, reason: owner.reason });
      continue;
    }
    const { body, changed: found } = compared(d, l, opts.memo);
    const changed = [...found];
    // Adopting changes who owns it even where the compared fields already agree.
    const ownedBy = controllerOf(d) !== undefined ? 'ownerReferences' : 'labels';
    if (owner.adopt && !changed.includes(ownedBy)) changed.push(ownedBy);
    if (changed.length === 0) {
      entries.push({ action: 'unchanged', ...entryBase(d), live: l });
      continue;
    }
    entries.push({
      action: 'update',
      ...entryBase(d),
      object: body ?? updateBody(d, l),
      live: l,
      changed,
      ...(changed.includes('roleRef') ? { recreate: true } : {}),
      ...(owner.adopt ? { adopt: true } : {}),
    });
  }
  entries.sort(sortKey);

  const deletes: PlanEntry[] = [];
  if (opts.prune) {
    for (const [key, l] of liveByKey) {
      if (desiredKeys.has(key) || !rule.prunes(l)) continue;
      deletes.push({
        action: 'delete',
        ...entryBase(l),
        live: l,
        ...(l.metadata.uid !== undefined ? { uid: l.metadata.uid } : {}),
        ...(l.metadata.resourceVersion !== undefined ? { resourceVersion: l.metadata.resourceVersion } : {}),
      });
    }
  }
  deletes.sort((a, b) => -(KIND_RANK[a.kind] - KIND_RANK[b.kind]) || compareStrings(a.key, b.key));

  const all = [...entries, ...deletes];
  const counts: Record<PlanAction, number> = { create: 0, update: 0, unchanged: 0, delete: 0, refused: 0 };
  for (const e of all) counts[e.action] += 1;
  return { entries: all, counts };
}

/**
 * The writes of a plan (creates, updates, deletes) with the object each one writes or deletes. A roleRef change is
 * a delete and a create, and needs the permissions of both.
 */
export function plannedWrites(entries: readonly PlanEntry[]): PlannedWrite[] {
  return entries.flatMap((e): PlannedWrite[] => {
    const object = e.object ?? e.live;
    if (object === undefined) return [];
    // Stryker disable next-line ConditionalExpression: only an update entry carries recreate
    if (e.action === 'update' && e.recreate === true) {
      return [
        { action: 'delete', object: e.live ?? object },
        { action: 'create', object },
      ];
    }
    return e.action === 'create' || e.action === 'update' || e.action === 'delete'
      ? [{ action: e.action, object }]
      : [];
  });
}
