import type {
  ClusterRole,
  ClusterRoleBinding,
  KubeObject,
  Labels,
  OwnerReference,
  PolicyRule,
  RbacObject,
  Role,
  RoleBinding,
  Subject,
} from '../kube/types.js';
import { LABEL_MANAGED_BY, MANAGED_BY_VALUE } from '../crossplane/names.js';
import type { PlannedWrite } from '../authz/required-permissions.js';
import { RBAC_API_GROUP } from '../kube/api-names.js';
import { compareStrings } from '../kube/order.js';
import { isInPruneScope } from '../crossplane/owned-objects.js';
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

/** Whether a live object is the caller's to change, and if not, why it is left alone. */
export type Ownership =
  { readonly ours: true; readonly adopt: boolean } | { readonly ours: false; readonly reason: string };

/** The ownership rule a plan is made with: which live objects the caller may change, and which it may prune. */
export interface OwnershipRule {
  /** Whether LIVE, the live object with the key of DESIRED, may be changed; `adopt` is the --adopt flag. */
  readonly owns: (desired: RbacObject, live: RbacObject, adopt: boolean) => Ownership;
  /** Whether pruning deletes LIVE, a live object no longer desired. */
  readonly prunes: (live: RbacObject) => boolean;
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
}

const KIND_RANK: Record<RbacObject['kind'], number> = {
  ClusterRole: 0,
  Role: 1,
  ClusterRoleBinding: 2,
  RoleBinding: 3,
};

function isOwned(o: KubeObject): boolean {
  return o.metadata.labels?.[LABEL_MANAGED_BY] === MANAGED_BY_VALUE;
}

function controllerOf(o: KubeObject): OwnerReference | undefined {
  return (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function normLabels(l: Labels | undefined): [string, string][] {
  return Object.entries(l ?? {}).sort(([a], [b]) => compareStrings(a, b));
}

/**
 * Rule lists compared field by field (verbs, apiGroups, resources, resourceNames, nonResourceURLs; a missing list
 * equals an empty one, except verbs), in one pass without building anything: provider roles hold whole families.
 */
function sameRules(a: readonly PolicyRule[] | undefined, b: readonly PolicyRule[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    const p = x[i];
    const q = y[i];
    if (p === undefined || q === undefined) return false;
    if (
      !sameStrings(p.verbs, q.verbs) ||
      !sameStrings(p.apiGroups ?? [], q.apiGroups ?? []) ||
      !sameStrings(p.resources ?? [], q.resources ?? []) ||
      !sameStrings(p.resourceNames ?? [], q.resourceNames ?? []) ||
      !sameStrings(p.nonResourceURLs ?? [], q.nonResourceURLs ?? [])
    )
      return false;
  }
  return true;
}

function sameStrings(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  // Live objects are JSON: verbs may be missing or null there, whatever the type says.
  const missingA = a === undefined || (a as unknown) === null;
  const missingB = b === undefined || (b as unknown) === null;
  if (missingA || missingB) return missingA === missingB;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function normAggregation(role: ClusterRole): unknown {
  if (role.aggregationRule === undefined) return null;
  return (role.aggregationRule.clusterRoleSelectors ?? []).map((s) => [
    normLabels(s.matchLabels),
    (s.matchExpressions ?? []).map((e) => [e.key, e.operator, e.values ?? []]),
  ]);
}

function normSubjects(subjects: readonly Subject[] | undefined): unknown {
  // The API server defaults apiGroup: "" for ServiceAccount, rbac.authorization.k8s.io for User and Group.
  return (subjects ?? []).map((s) => [
    s.kind,
    s.apiGroup ?? (s.kind === 'ServiceAccount' ? '' : RBAC_API_GROUP),
    s.name,
    s.namespace ?? '',
  ]);
}

function normOwners(refs: readonly OwnerReference[] | undefined): unknown {
  return (refs ?? []).map((r) => [
    r.apiVersion,
    r.kind,
    r.name,
    r.uid,
    r.controller ?? false,
    r.blockOwnerDeletion ?? false,
  ]);
}

/**
 * The fields that differ, compared as Crossplane's differs compare them: ClusterRoles by labels and rules
 * (aggregating roles by labels and aggregationRule, since the controller fills their rules); bindings by subjects,
 * roleRef and owner references (and labels, for plugin-owned bindings).
 */
export function changedFields(desired: RbacObject, live: RbacObject): string[] {
  const changed: string[] = [];
  if (desired.kind === 'ClusterRole' || desired.kind === 'Role') {
    if (!sameJson(normLabels(desired.metadata.labels), normLabels(live.metadata.labels)))
      changed.push('labels');
    const d = desired as ClusterRole;
    const l = live as ClusterRole;
    if (!sameJson(normAggregation(d), normAggregation(l))) changed.push('aggregationRule');
    if (d.aggregationRule === undefined && !sameRules(d.rules, l.rules)) changed.push('rules');
    return changed;
  }
  const d = desired;
  const l = live as ClusterRoleBinding | RoleBinding;
  if (isOwned(desired) && !sameJson(normLabels(d.metadata.labels), normLabels(l.metadata.labels)))
    changed.push('labels');
  if (!sameJson(normSubjects(d.subjects), normSubjects(l.subjects))) changed.push('subjects');
  if (
    !sameJson(
      [d.roleRef.apiGroup, d.roleRef.kind, d.roleRef.name],
      [l.roleRef.apiGroup, l.roleRef.kind, l.roleRef.name],
    )
  ) {
    changed.push('roleRef');
  }
  if (!sameJson(normOwners(d.metadata.ownerReferences), normOwners(l.metadata.ownerReferences))) {
    changed.push('ownerReferences');
  }
  return changed;
}

/** The owner kinds the plugin ever sets as controller: Crossplane's and the Namespace's. */
const PLUGIN_CONTROLLER_KINDS: ReadonlySet<string> = new Set([
  'pkg.crossplane.io/ProviderRevision',
  'apiextensions.crossplane.io/CompositeResourceDefinition',
  '/Namespace',
]);

function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';
}

function sameOwner(a: OwnerReference, b: OwnerReference): boolean {
  return (
    a.kind === b.kind &&
    a.name === b.name &&
    a.uid === b.uid &&
    groupOf(a.apiVersion) === groupOf(b.apiVersion)
  );
}

function describeOwner(r: OwnerReference): string {
  return `${r.kind} "${r.name}" (uid ${r.uid})`;
}

/**
 * Whether the live object is the plugin's to change: its controller owner reference is exactly the one the plugin
 * would set (same kind, name and uid), or it has no controller and carries the plugin's managed-by label. An object
 * nobody owns (no label, no controller) is taken over only with --adopt. Anything else is refused, untouched.
 */
export function ownership(desired: RbacObject, live: RbacObject, adopt: boolean): Ownership {
  const liveCtrl = controllerOf(live);
  const wantCtrl = controllerOf(desired);
  if (liveCtrl !== undefined) {
    if (wantCtrl !== undefined && sameOwner(liveCtrl, wantCtrl)) return { ours: true, adopt: false };
    const want = wantCtrl !== undefined ? `controller ${describeOwner(wantCtrl)}` : `no controller`;
    return {
      ours: false,
      reason: `controlled by ${describeOwner(liveCtrl)}; the plugin would write it with ${want}`,
    };
  }
  if (isOwned(live)) return { ours: true, adopt: false };
  if (adopt) return { ours: true, adopt: true };
  const want =
    wantCtrl !== undefined
      ? `controller ${describeOwner(wantCtrl)}`
      : `${LABEL_MANAGED_BY}=${MANAGED_BY_VALUE}`;
  return {
    ours: false,
    reason: `exists, made by someone else (no ${LABEL_MANAGED_BY}=${MANAGED_BY_VALUE} label, no controller); the plugin would write it with ${want} (--adopt takes it over)`,
  };
}

/** True when pruning may delete this live object: labelled by the plugin, and no controller but one the plugin sets. */
export function isPrunable(live: KubeObject): boolean {
  if (!isOwned(live)) return false;
  const ctrl = controllerOf(live);
  return ctrl === undefined || PLUGIN_CONTROLLER_KINDS.has(`${groupOf(ctrl.apiVersion)}/${ctrl.kind}`);
}

/** Whether pruning deletes LIVE, an object no longer desired: the plugin's to prune, and in the run's prune scope. */
export function wouldPrune(live: KubeObject, pruneScope: PruneScope | undefined): boolean {
  return isPrunable(live) && (pruneScope === undefined || isInPruneScope(live, pruneScope));
}

/** The plugin's ownership rule (`ownership`, `wouldPrune`), pruning only in `pruneScope` when it is set. */
export function pluginOwnership(pruneScope?: PruneScope): OwnershipRule {
  return { owns: ownership, prunes: (live) => wouldPrune(live, pruneScope) };
}

/** Label keys the plugin decides: a live label with such a key that the desired object lacks is removed. */
function isAuthoritativeLabel(key: string): boolean {
  const prefix = key.includes('/') ? (key.split('/')[0] ?? '') : '';
  return key === LABEL_MANAGED_BY || prefix === 'crossplane.io' || prefix.endsWith('.crossplane.io');
}

/**
 * The metadata an update writes: the desired labels, annotations and owner references, plus what others added
 * (labels outside the plugin's keys, annotations, non-controller owner references), at the live resourceVersion.
 */
function mergedMetadata(desired: RbacObject, live: RbacObject): RbacObject['metadata'] {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(live.metadata.labels ?? {}))
    if (!isAuthoritativeLabel(k)) labels[k] = v;
  Object.assign(labels, desired.metadata.labels ?? {});
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
    const body = updateBody(d, l);
    const changed = changedFields(body, l);
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
      object: body,
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

/** The writes of a plan (creates, updates, deletes) with the object each one writes or deletes. */
export function plannedWrites(entries: readonly PlanEntry[]): PlannedWrite[] {
  return entries.flatMap((e): PlannedWrite[] => {
    const object = e.object ?? e.live;
    if (object === undefined) return [];
    return e.action === 'create' || e.action === 'update' || e.action === 'delete'
      ? [{ action: e.action, object }]
      : [];
  });
}
