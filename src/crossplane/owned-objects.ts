import type { ObjectMeta } from '../kube/types.js';
import {
  AGGREGATED_ROLE,
  CHART_BASE_ROLE_ADMIN,
  CHART_BASE_ROLE_BROWSE,
  CHART_BASE_ROLE_EDIT,
  CHART_BASE_ROLE_VIEW,
  CHART_ROLE_ADMIN,
  CHART_ROLE_BROWSE,
  CHART_ROLE_EDIT,
  CHART_ROLE_VIEW,
  COMPOSED_ROLE_PREFIX,
  LABEL_NAMESPACE_PREFIX,
  NS_BASE_ROLE_EDIT,
  NS_BASE_ROLE_VIEW,
  NS_ROLE_PREFIX,
  PROVIDER_ROLE_PREFIX,
  PROVIDER_ROLE_SUFFIX_SYSTEM,
  XRD_ROLE_PREFIX,
  XRD_ROLE_SUFFIX_NS_EDIT,
  XRD_ROLE_SUFFIX_NS_VIEW,
} from './names.js';

/** Groups of plugin-owned objects, for deciding which live ones a run may prune. */
export type PruneGroup =
  'provider-bindings' | 'crossplane-aggregated' | 'base-roles' | 'namespace-roles' | 'composed-roles';

/** Which plugin-owned live objects this run considered: only those may be pruned. */
export interface PruneScope {
  readonly groups: readonly PruneGroup[];
  /** When set, provider RoleBindings only of these revisions. */
  readonly providers?: readonly string[];
  /** When set, per-XRD namespace roles only of these XRDs (and no namespace base roles). */
  readonly xrds?: readonly string[];
  /** When set, `crossplane-ns-<ns>-*` roles only of these namespaces. */
  readonly namespaces?: readonly string[];
  /** Owners this run holds: their objects are never pruned (revisions by name, XRDs by name, namespaces). */
  readonly held?: {
    readonly providers: readonly string[];
    readonly xrds: readonly string[];
    readonly namespaces: readonly string[];
  };
}

/** What a plugin-owned object is, by its name and labels; undefined for anything the plugin does not know. */
export function classifyOwnedObject(o: { readonly kind: string; readonly metadata: ObjectMeta }):
  | {
      readonly group: PruneGroup;
      readonly provider?: string;
      readonly xrd?: string;
      readonly namespace?: string;
      readonly base?: boolean;
    }
  | undefined {
  const name = o.metadata.name;
  if (o.kind === 'RoleBinding') {
    if (name.startsWith(PROVIDER_ROLE_PREFIX) && name.endsWith(PROVIDER_ROLE_SUFFIX_SYSTEM)) {
      return {
        group: 'provider-bindings',
        provider: name.slice(PROVIDER_ROLE_PREFIX.length, name.length - PROVIDER_ROLE_SUFFIX_SYSTEM.length),
      };
    }
    return undefined;
  }
  if (o.kind !== 'ClusterRole' && o.kind !== 'ClusterRoleBinding') return undefined;
  if (name === AGGREGATED_ROLE) return { group: 'crossplane-aggregated' };
  if (o.kind === 'ClusterRoleBinding') return name === CHART_ROLE_ADMIN ? { group: 'base-roles' } : undefined;
  const baseRoles = [
    CHART_ROLE_ADMIN,
    CHART_ROLE_EDIT,
    CHART_ROLE_VIEW,
    CHART_ROLE_BROWSE,
    CHART_BASE_ROLE_ADMIN,
    CHART_BASE_ROLE_EDIT,
    CHART_BASE_ROLE_VIEW,
    CHART_BASE_ROLE_BROWSE,
  ];
  if (baseRoles.includes(name)) return { group: 'base-roles' };
  if (name.startsWith(COMPOSED_ROLE_PREFIX)) return { group: 'composed-roles' };
  if (name === NS_BASE_ROLE_EDIT || name === NS_BASE_ROLE_VIEW)
    return { group: 'namespace-roles', base: true };
  for (const suffix of [XRD_ROLE_SUFFIX_NS_EDIT, XRD_ROLE_SUFFIX_NS_VIEW]) {
    if (name.startsWith(XRD_ROLE_PREFIX) && name.endsWith(suffix)) {
      return {
        group: 'namespace-roles',
        xrd: name.slice(XRD_ROLE_PREFIX.length, name.length - suffix.length),
      };
    }
  }
  if (name.startsWith(NS_ROLE_PREFIX) && (name.endsWith('-edit') || name.endsWith('-view'))) {
    const fromLabel = Object.keys(o.metadata.labels ?? {})
      .find((k) => k.startsWith(LABEL_NAMESPACE_PREFIX))
      ?.slice(LABEL_NAMESPACE_PREFIX.length);
    return {
      group: 'namespace-roles',
      namespace: fromLabel ?? name.slice(NS_ROLE_PREFIX.length, -'-edit'.length),
    };
  }
  return undefined;
}

/** True when a plugin-owned live object is one this run considered, so that pruning it is in scope. */
export function isInPruneScope(
  o: { readonly kind: string; readonly metadata: ObjectMeta },
  scope: PruneScope,
): boolean {
  const c = classifyOwnedObject(o);
  if (c === undefined || !scope.groups.includes(c.group)) return false;
  const held = scope.held;
  if (
    held !== undefined &&
    ((c.provider !== undefined && held.providers.includes(c.provider)) ||
      (c.xrd !== undefined && held.xrds.includes(c.xrd)) ||
      (c.namespace !== undefined && held.namespaces.includes(c.namespace)))
  )
    return false;
  if (c.provider !== undefined && scope.providers !== undefined) return scope.providers.includes(c.provider);
  if (c.xrd !== undefined && scope.xrds !== undefined) return scope.xrds.includes(c.xrd);
  if (c.base === true && scope.xrds !== undefined) return false;
  if (c.namespace !== undefined) {
    if (scope.xrds !== undefined) return false;
    if (scope.namespaces !== undefined) return scope.namespaces.includes(c.namespace);
  }
  return true;
}
