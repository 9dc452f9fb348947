/**
 * Config Sync's side of `bind`: where RootSyncs and their reconciler ServiceAccounts live, the labels its
 * reconciler-manager puts on the bindings it makes, and the roleRefs a RootSync declares.
 *
 * Behaviour follows Config Sync's reconciler-manager (kpt-config-sync pkg/reconcilermanager/controllers,
 * manageRBACBindings / createRBACBinding / updateRBACBinding): a roleRef without a namespace becomes a
 * ClusterRoleBinding, with a namespace a RoleBinding there; the bindings are found again by inventory labels; a
 * binding of ours is updated to have exactly the one ServiceAccount subject; bindings no longer declared are
 * deleted. Unlike Config Sync we name bindings deterministically (it uses generateName) and label them
 * `configsync.gke.io/managed-by: kubectl-crossplane-rbac`, so that reconciler-manager never adopts or deletes them.
 */
import type { KubeObject } from '../kube/types.js';
import { BindInputError, isRecord, parseRoleRefEntry, type RoleRefSpec } from './role-refs.js';
import type { BindTarget } from './target.js';

/** Namespace of every RootSync and of its reconciler ServiceAccount (kpt-config-sync configsync.ControllerNamespace). */
export const CONFIG_MANAGEMENT_NAMESPACE = 'config-management-system';
/** The RootSync whose reconciler is `root-reconciler` without suffix (kpt-config-sync configsync.RootSyncName). */
export const DEFAULT_ROOT_SYNC_NAME = 'root-sync';
/** Prefix of root reconciler names (kpt-config-sync core.RootReconcilerPrefix). */
export const ROOT_RECONCILER_PREFIX = 'root-reconciler';
/** The base ClusterRole Config Sync binds every root reconciler with roleRefs to (build_names.go RootSyncPermissionsName). */
export const ROOT_RECONCILER_BASE_ROLE = 'configsync.gke.io:root-reconciler';

/** Config Sync's inventory label keys (kpt-config-sync pkg/metadata). */
export const LABEL_SYNC_KIND = 'configsync.gke.io/sync-kind';
export const LABEL_SYNC_NAME = 'configsync.gke.io/sync-name';
export const LABEL_SYNC_NAMESPACE = 'configsync.gke.io/sync-namespace';
export const LABEL_CONFIGSYNC_MANAGED_BY = 'configsync.gke.io/managed-by';
/** The value Config Sync's own manager sets; we never set it, so reconciler-manager leaves our bindings alone. */
export const CONFIGSYNC_MANAGER_VALUE = 'reconciler-manager';
/**
 * The roleRefs a RootSync declares: `spec.override.roleRefs` (the served field), else the design doc's spelling
 * `spec.overrides.roleRefs`. An empty list when neither is set.
 */
export function roleRefsOfRootSync(rootSync: KubeObject): RoleRefSpec[] {
  const spec = rootSync['spec'];
  const id = `RootSync ${rootSync.metadata.namespace ?? CONFIG_MANAGEMENT_NAMESPACE}/${rootSync.metadata.name}`;
  if (!isRecord(spec)) return [];
  for (const field of ['override', 'overrides'] as const) {
    const block = spec[field];
    if (block === undefined || block === null) continue;
    if (!isRecord(block)) throw new BindInputError(`${id}: spec.${field} must be a mapping`);
    const refs = block['roleRefs'];
    if (refs === undefined || refs === null) continue;
    if (!Array.isArray(refs)) throw new BindInputError(`${id}: spec.${field}.roleRefs must be a list`);
    return refs.map((entry: unknown, i) => parseRoleRefEntry(entry, `${id}: spec.${field}.roleRefs[${i}]`));
  }
  return [];
}

/** The reconciler ServiceAccount Config Sync runs a RootSync as (kpt-config-sync core.RootReconcilerName). */
export function rootSyncServiceAccount(name: string): {
  namespace: 'config-management-system';
  name: string;
} {
  return {
    namespace: CONFIG_MANAGEMENT_NAMESPACE,
    name: name === DEFAULT_ROOT_SYNC_NAME ? ROOT_RECONCILER_PREFIX : `${ROOT_RECONCILER_PREFIX}-${name}`,
  };
}

/** The bind target for RootSync `name` (RootSyncs live in config-management-system). */
export function rootSyncTarget(name: string): BindTarget {
  return {
    kind: 'RootSync',
    name,
    namespace: CONFIG_MANAGEMENT_NAMESPACE,
    serviceAccount: rootSyncServiceAccount(name),
  };
}
