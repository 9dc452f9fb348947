/**
 * Config Sync's side of `bind`: where RootSyncs and their reconciler ServiceAccounts live, the labels its
 * reconciler-manager puts on the bindings it makes, and the roleRefs a RootSync declares.
 *
 * Behaviour follows Config Sync's reconciler-manager (kpt-config-sync pkg/reconcilermanager/controllers,
 * rootsync_controller.go manageRBACBindings / listCurrentRoleRefs, reconciler_base.go createRBACBinding /
 * updateRBACBinding / upsertSharedClusterRoleBinding / ManagedObjectLabelMap): a roleRef without a namespace becomes
 * a ClusterRoleBinding, with a namespace a RoleBinding there; the bindings carry `ManagedObjectLabelMap` and are
 * found again by it; a binding is updated to have exactly the one ServiceAccount subject; bindings no longer declared
 * are deleted; the base role is bound through one ClusterRoleBinding all root reconcilers share. Bind writes the
 * same labels, so that a Config Sync that supports roleRefs finds bind's bindings as its own (and bind finds
 * Config Sync's); unlike Config Sync, bind names its bindings deterministically (Config Sync uses generateName).
 */
import type { KubeObject, Labels } from '../kube/types.js';
import { BindInputError, isRecord, parseRoleRefEntry, type RoleRefSpec } from './role-refs.js';
import type { BindTarget } from './target.js';

/** Namespace of every RootSync and of its reconciler ServiceAccount (kpt-config-sync configsync.ControllerNamespace). */
export const CONFIG_MANAGEMENT_NAMESPACE = 'config-management-system';
/** The RootSync whose reconciler is `root-reconciler` without suffix (kpt-config-sync configsync.RootSyncName). */
export const DEFAULT_ROOT_SYNC_NAME = 'root-sync';
/** Prefix of root reconciler names (kpt-config-sync core.RootReconcilerPrefix). */
export const ROOT_RECONCILER_PREFIX = 'root-reconciler';
/** The base ClusterRole Config Sync binds every root reconciler with roleRefs to (build_names.go RootSyncBaseClusterRoleName). */
export const ROOT_RECONCILER_BASE_ROLE = 'configsync.gke.io:root-reconciler';
/** The ClusterRoleBinding all root reconcilers with roleRefs share for it (build_names.go RootSyncBaseClusterRoleBindingName). */
export const ROOT_RECONCILER_BASE_BINDING = `${ROOT_RECONCILER_BASE_ROLE}-base`;

/** Config Sync's label keys (kpt-config-sync pkg/metadata labels.go). */
export const LABEL_SYNC_KIND = 'configsync.gke.io/sync-kind';
export const LABEL_SYNC_NAME = 'configsync.gke.io/sync-name';
export const LABEL_SYNC_NAMESPACE = 'configsync.gke.io/sync-namespace';
export const LABEL_CONFIGSYNC_MANAGED_BY = 'configsync.gke.io/managed-by';
/** The value reconciler-manager sets on what it manages (kpt-config-sync pkg/reconcilermanager ManagerName). */
export const CONFIGSYNC_MANAGER_VALUE = 'reconciler-manager';

/** The labels of the shared base binding: ManagedObjectLabelMap without sync-name, as the binding is shared. */
export function sharedBindingLabels(): Labels {
  return {
    [LABEL_CONFIGSYNC_MANAGED_BY]: CONFIGSYNC_MANAGER_VALUE,
    [LABEL_SYNC_NAMESPACE]: CONFIG_MANAGEMENT_NAMESPACE,
    [LABEL_SYNC_KIND]: 'RootSync',
  };
}

/**
 * The roleRefs a RootSync declares: `spec.override.roleRefs`, the only field Config Sync reads (rootsync_types.go:
 * `Override *RootSyncOverrideSpec json:"override"`). An empty list when it is not set.
 */
export function roleRefsOfRootSync(rootSync: KubeObject): RoleRefSpec[] {
  const spec = rootSync['spec'];
  const id = describeRootSync(rootSync);
  if (!isRecord(spec)) return [];
  const block = spec['override'];
  if (block === undefined || block === null) return [];
  if (!isRecord(block)) throw new BindInputError(`${id}: spec.override must be a mapping`);
  const refs = block['roleRefs'];
  if (refs === undefined || refs === null) return [];
  if (!Array.isArray(refs)) throw new BindInputError(`${id}: spec.override.roleRefs must be a list`);
  return refs.map((entry: unknown, i) => parseRoleRefEntry(entry, `${id}: spec.override.roleRefs[${i}]`));
}

/**
 * Warnings about fields of the RootSync that look like roleRefs but are none: `spec.overrides` (the spelling of
 * Config Sync's design doc) is no RootSync field; the API server prunes it and Config Sync, seeing no roleRefs,
 * binds cluster-admin.
 */
export function rootSyncWarnings(rootSync: KubeObject): string[] {
  const spec = rootSync['spec'];
  if (!isRecord(spec) || !('overrides' in spec)) return [];
  return [
    `${describeRootSync(rootSync)}: spec.overrides is not a RootSync field and is ignored (the API server drops it, and Config Sync then binds cluster-admin); roleRefs go in spec.override.roleRefs`,
  ];
}

function describeRootSync(rootSync: KubeObject): string {
  return `RootSync ${rootSync.metadata.namespace ?? CONFIG_MANAGEMENT_NAMESPACE}/${rootSync.metadata.name}`;
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
