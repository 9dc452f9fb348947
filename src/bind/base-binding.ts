/**
 * Config Sync's shared base binding: the one ClusterRoleBinding `configsync.gke.io:root-reconciler-base` that binds
 * the base ClusterRole `configsync.gke.io:root-reconciler` to every root reconciler with roleRefs. `bind --root-sync
 * --base-role` adds the reconciler's subject to it, and cleaning up removes only that subject, as reconciler-manager
 * does (kpt-config-sync pkg/reconcilermanager/controllers reconciler_base.go upsertSharedClusterRoleBinding,
 * garbage_collector.go deleteSharedClusterRoleBinding, permissions.go addSubject/removeSubject): the binding is
 * deleted only when no subject is left, so other RootSyncs' reconcilers never lose it.
 */
import { LABEL_MANAGED_BY } from '../crossplane/names.js';
import { RBAC_API_GROUP, RBAC_API_VERSION } from '../kube/api-names.js';
import { compareStrings } from '../kube/order.js';
import type { ClusterRoleBinding, KubeObject, RbacObject, Subject } from '../kube/types.js';
import type { Ownership, PlanEntry } from '../plan/plan.js';
import {
  LABEL_CONFIGSYNC_MANAGED_BY,
  ROOT_RECONCILER_BASE_BINDING,
  ROOT_RECONCILER_BASE_ROLE,
  sharedBindingLabels,
} from './config-sync.js';
import type { ServiceAccountRef } from './target.js';

/** True for the shared base binding (by kind and name, whoever made it). */
export function isSharedBaseBinding(o: KubeObject): o is ClusterRoleBinding {
  return o.kind === 'ClusterRoleBinding' && o.metadata.name === ROOT_RECONCILER_BASE_BINDING;
}

function sameSubject(a: Subject, b: Subject): boolean {
  // Go's struct equality of rbacv1.Subject (findSubjectIndex): every field, an absent one being "".
  return (
    a.kind === b.kind &&
    a.name === b.name &&
    (a.namespace ?? '') === (b.namespace ?? '') &&
    (a.apiGroup ?? '') === (b.apiGroup ?? '')
  );
}

function compareSubjects(a: Subject, b: Subject): number {
  // sortSubjects: by apiGroup, kind, namespace, name.
  return (
    compareStrings(a.apiGroup ?? '', b.apiGroup ?? '') ||
    compareStrings(a.kind, b.kind) ||
    compareStrings(a.namespace ?? '', b.namespace ?? '') ||
    compareStrings(a.name, b.name)
  );
}

/** The reconciler's subject, as reconciler-manager writes it (serviceAccountSubject: no apiGroup). */
export function reconcilerSubject(sa: ServiceAccountRef): Subject {
  return { kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace };
}

/** True when the binding lists the reconciler's subject. */
export function hasSubject(b: ClusterRoleBinding, sa: ServiceAccountRef): boolean {
  const mine = reconcilerSubject(sa);
  return (b.subjects ?? []).some((s) => sameSubject(s, mine));
}

/**
 * Whether the shared base binding LIVE may be changed: it is Config Sync's (its shared labels), binds the base
 * role and has no controller. One nobody owns (no managed-by label of anyone) is taken over with --adopt.
 */
export function sharedBaseOwnership(live: RbacObject, adopt: boolean): Ownership {
  if (live.kind !== 'ClusterRoleBinding') return { ours: false, reason: 'not a ClusterRoleBinding' };
  const what = `Config Sync's shared base binding`;
  const ctrl = (live.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  if (ctrl !== undefined) {
    return {
      ours: false,
      reason: `${what}, but controlled by ${ctrl.kind} "${ctrl.name}"; it is left alone`,
    };
  }
  if (live.roleRef.kind !== 'ClusterRole' || live.roleRef.name !== ROOT_RECONCILER_BASE_ROLE) {
    return {
      ours: false,
      reason: `${what} binds ${live.roleRef.kind}/${live.roleRef.name}, not ClusterRole/${ROOT_RECONCILER_BASE_ROLE}; it is left alone`,
    };
  }
  const labels = live.metadata.labels ?? {};
  if (Object.entries(sharedBindingLabels()).every(([k, v]) => labels[k] === v))
    return { ours: true, adopt: false };
  const unowned = labels[LABEL_MANAGED_BY] === undefined && labels[LABEL_CONFIGSYNC_MANAGED_BY] === undefined;
  if (unowned && adopt) return { ours: true, adopt: true };
  return {
    ours: false,
    reason: `exists without the labels reconciler-manager gives ${what} (${Object.entries(
      sharedBindingLabels(),
    )
      .map(([k, v]) => `${k}=${v}`)
      .join(',')}); it is left alone${unowned ? ' (--adopt takes it over)' : ''}`,
  };
}

/**
 * The shared base binding as the run wants it, from the live one (undefined when there is none): with `include`,
 * the reconciler's subject added (the others kept, sorted when one is added); without it, that subject removed.
 * Undefined when there is nothing to write: no binding and none wanted, or removing leaves it without subjects
 * (then the binding is deleted instead, see `prunesSharedBase`).
 */
export function renderSharedBaseBinding(
  sa: ServiceAccountRef,
  live: ClusterRoleBinding | undefined,
  include: boolean,
): ClusterRoleBinding | undefined {
  const mine = reconcilerSubject(sa);
  const subjects = live?.subjects ?? [];
  const present = subjects.some((s) => sameSubject(s, mine));
  let wanted: readonly Subject[];
  if (include) wanted = present ? subjects : [...subjects, mine].sort(compareSubjects);
  else if (live === undefined || !present) return undefined;
  else wanted = subjects.filter((s) => !sameSubject(s, mine));
  if (wanted.length === 0) return undefined;
  // Labels are added to the live ones (core.AddLabels); the plugin puts none of its own on a shared binding.
  const labels = { ...(live?.metadata.labels ?? {}), ...sharedBindingLabels() };
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: { name: ROOT_RECONCILER_BASE_BINDING, labels },
    roleRef: { apiGroup: RBAC_API_GROUP, kind: 'ClusterRole', name: ROOT_RECONCILER_BASE_ROLE },
    subjects: wanted,
  };
}

/** True when cleaning up deletes LIVE, the shared base binding: Config Sync's, and the reconciler its only subject. */
export function prunesSharedBase(live: RbacObject, sa: ServiceAccountRef): boolean {
  if (!isSharedBaseBinding(live) || !sharedBaseOwnership(live, false).ours) return false;
  const subjects = live.subjects ?? [];
  return subjects.length > 0 && subjects.every((s) => sameSubject(s, reconcilerSubject(sa)));
}

/** True for a plan entry that takes the account off the shared base binding (its clean-up, short of a delete). */
export function takesOff(e: PlanEntry, sa: ServiceAccountRef): boolean {
  const { live, object } = e;
  return (
    e.action === 'update' &&
    live !== undefined &&
    object !== undefined &&
    isSharedBaseBinding(live) &&
    isSharedBaseBinding(object) &&
    hasSubject(live, sa) &&
    !hasSubject(object, sa)
  );
}
