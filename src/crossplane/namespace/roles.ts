import type { ClusterRole, LabelSelector, Namespace, Xrd } from '../../kube/types.js';
import {
  ANNOTATION_ENABLED_XRDS,
  ANNOTATION_XRD_PREFIX,
  LABEL_AGGREGATE_TO_NS_EDIT,
  LABEL_AGGREGATE_TO_NS_VIEW,
  LABEL_BASE_OF_NS_EDIT,
  LABEL_BASE_OF_NS_VIEW,
  LABEL_MANAGED_BY,
  LABEL_NAMESPACE_PREFIX,
  LABEL_SCOPE,
  LABEL_VALUE_TRUE,
  LABEL_XRD,
  MANAGED_BY_VALUE,
  NS_BASE_ROLE_EDIT,
  NS_BASE_ROLE_VIEW,
  NS_ROLE_PREFIX,
  SCOPE_NAMESPACE,
  XRD_ACCEPTED,
  XRD_API_VERSION,
  XRD_ENABLED,
  XRD_KIND,
  XRD_ROLE_PREFIX,
  XRD_ROLE_SUFFIX_NS_EDIT,
  XRD_ROLE_SUFFIX_NS_VIEW,
} from '../names.js';
import { buildClusterRole, controllerRef } from '../object-builders.js';
import { VERBS_ALL, VERBS_VIEW, xrdNames, xrdLabelValue } from '../definition/roles.js';
import { compareStrings } from '../../kube/order.js';

const MAX_NAME_PART = 63;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** The XRD names a namespace enables: `rbac.crossplane.io/<xrd>: xrd-claim-accepted|xrd-enabled` and the list form. */
export function enabledXrdsOf(ns: Namespace): string[] {
  const out = new Set<string>();
  const annotations = ns.metadata.annotations ?? {};
  for (const [k, v] of Object.entries(annotations)) {
    if (k === ANNOTATION_ENABLED_XRDS) {
      for (const n of splitList(v)) out.add(n);
    } else if (k.startsWith(ANNOTATION_XRD_PREFIX) && (v === XRD_ACCEPTED || v === XRD_ENABLED)) {
      const name = k.slice(ANNOTATION_XRD_PREFIX.length);
      if (name !== '') out.add(name);
    }
  }
  return [...out].sort(compareStrings);
}

function splitList(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** True when `rbac.crossplane.io/<xrdName>` is a valid annotation key (name part ≤ 63, qualified-name syntax). */
export function fitsAnnotationKey(xrdName: string): boolean {
  return xrdName.length <= MAX_NAME_PART && QUALIFIED_NAME.test(xrdName);
}

/**
 * A JSON merge patch of the namespace's annotations that enables or disables the XRDs, or null when every XRD is
 * already in the requested state. Enabling writes `rbac.crossplane.io/<xrd>: xrd-claim-accepted`, or adds the name
 * to `rbac.crossplane.io/enabled-xrds` when it does not fit a key; disabling removes the name from either form.
 */
export function planAnnotationPatch(
  ns: Namespace,
  xrdNames: readonly string[],
  enable: boolean,
): { patch: { metadata: { annotations: Record<string, string | null> } } | null; alreadyInState: string[] } {
  const annotations = ns.metadata.annotations ?? {};
  const enabled = new Set(enabledXrdsOf(ns));
  const list = splitList(annotations[ANNOTATION_ENABLED_XRDS] ?? '');
  const listSet = new Set(list);
  const changes: Record<string, string | null> = {};
  const alreadyInState: string[] = [];
  let listChanged = false;

  for (const name of [...new Set(xrdNames)].sort(compareStrings)) {
    if (enable) {
      if (enabled.has(name)) {
        alreadyInState.push(name);
      } else if (fitsAnnotationKey(name)) {
        changes[ANNOTATION_XRD_PREFIX + name] = XRD_ACCEPTED;
      } else {
        listSet.add(name);
        listChanged = true;
      }
      continue;
    }
    if (!enabled.has(name)) {
      alreadyInState.push(name);
      continue;
    }
    const key = ANNOTATION_XRD_PREFIX + name;
    const v = annotations[key];
    if (v === XRD_ACCEPTED || v === XRD_ENABLED) changes[key] = null;
    if (listSet.delete(name)) listChanged = true;
  }

  if (listChanged) {
    const value = [...listSet].sort(compareStrings).join(',');
    changes[ANNOTATION_ENABLED_XRDS] = value === '' ? null : value;
  }
  const keys = Object.keys(changes).sort(compareStrings);
  if (keys.length === 0) return { patch: null, alreadyInState };
  const sorted: Record<string, string | null> = {};
  for (const k of keys) sorted[k] = changes[k] ?? null;
  return { patch: { metadata: { annotations: sorted } }, alreadyInState };
}

export type Namespaceability =
  | {
      readonly ok: true;
      readonly group: string;
      readonly plural: string;
      readonly offers: 'claim' | 'namespaced-xr';
    }
  | { readonly ok: false; readonly reason: string };

/**
 * Whether an XRD offers something namespaced: a claim (claimNames; v1 XRDs and v2 LegacyCluster ones) or a
 * namespaced XR (v2 with scope Namespaced, the v2 default).
 */
export function isXrdNamespaceable(xrd: Xrd): Namespaceability {
  const { group, plural, claimPlural } = xrdNames(xrd);
  if (claimPlural !== undefined) return { ok: true, group, plural: claimPlural, offers: 'claim' };
  const isV2 = xrd.apiVersion.endsWith('/v2');
  const scope = xrd.spec.scope ?? (isV2 ? 'Namespaced' : 'LegacyCluster');
  if (scope === 'Namespaced') return { ok: true, group, plural, offers: 'namespaced-xr' };
  return {
    ok: false,
    reason: `CompositeResourceDefinition "${xrd.metadata.name}" has scope ${scope} and no claimNames: it offers nothing namespaced`,
  };
}

export function namespaceRoleName(ns: string, role: 'edit' | 'view'): string {
  return `${NS_ROLE_PREFIX}${ns}-${role}`;
}

/**
 * `crossplane:composite:<xrd>:aggregate-to-ns-edit` / `-ns-view`: the claim (or namespaced XR) resources, found by
 * the namespace roles' selectors through the `rbac.crossplane.io/xrd` label. Owned by the XRD; plugin-owned.
 * Empty when the XRD offers nothing namespaced.
 */
export function renderXrdNamespaceRoles(xrd: Xrd): ClusterRole[] {
  const n = isXrdNamespaceable(xrd);
  if (!n.ok) return [];
  const name = xrd.metadata.name;
  const owner = [controllerRef(XRD_API_VERSION, XRD_KIND, name, xrd.metadata.uid)];
  const resources = [n.plural, `${n.plural}/status`];
  const xrdLabel = xrdLabelValue(name);
  return [
    buildClusterRole({
      name: XRD_ROLE_PREFIX + name + XRD_ROLE_SUFFIX_NS_EDIT,
      labels: {
        [LABEL_MANAGED_BY]: MANAGED_BY_VALUE,
        [LABEL_AGGREGATE_TO_NS_EDIT]: LABEL_VALUE_TRUE,
        [LABEL_XRD]: xrdLabel,
      },
      ownerReferences: owner,
      rules: [{ apiGroups: [n.group], resources, verbs: VERBS_ALL }],
    }),
    buildClusterRole({
      name: XRD_ROLE_PREFIX + name + XRD_ROLE_SUFFIX_NS_VIEW,
      labels: {
        [LABEL_MANAGED_BY]: MANAGED_BY_VALUE,
        [LABEL_AGGREGATE_TO_NS_VIEW]: LABEL_VALUE_TRUE,
        [LABEL_XRD]: xrdLabel,
      },
      ownerReferences: owner,
      rules: [{ apiGroups: [n.group], resources, verbs: VERBS_VIEW }],
    }),
  ];
}

/**
 * `crossplane-ns-<ns>-edit` / `-view`: aggregating ClusterRoles meant to be bound in the namespace with a
 * RoleBinding. One selector for the base role and one per enabled XRD (in name order). Owned by the Namespace.
 */
export function renderNamespaceRoles(ns: Namespace, enabledXrdNames: readonly string[]): ClusterRole[] {
  const name = ns.metadata.name;
  const xrds = [...new Set(enabledXrdNames)].sort(compareStrings);
  const owner = [controllerRef('v1', 'Namespace', name, ns.metadata.uid)];
  const labels = {
    [LABEL_MANAGED_BY]: MANAGED_BY_VALUE,
    [LABEL_SCOPE]: SCOPE_NAMESPACE,
    [LABEL_NAMESPACE_PREFIX + name]: LABEL_VALUE_TRUE,
  };
  const selectors = (agg: string, baseOf: string): LabelSelector[] => [
    { matchLabels: { [agg]: LABEL_VALUE_TRUE, [baseOf]: LABEL_VALUE_TRUE } },
    ...xrds.map((x) => ({ matchLabels: { [agg]: LABEL_VALUE_TRUE, [LABEL_XRD]: xrdLabelValue(x) } })),
  ];
  return [
    buildClusterRole({
      name: namespaceRoleName(name, 'edit'),
      labels,
      ownerReferences: owner,
      aggregationRule: { clusterRoleSelectors: selectors(LABEL_AGGREGATE_TO_NS_EDIT, LABEL_BASE_OF_NS_EDIT) },
    }),
    buildClusterRole({
      name: namespaceRoleName(name, 'view'),
      labels,
      ownerReferences: owner,
      aggregationRule: { clusterRoleSelectors: selectors(LABEL_AGGREGATE_TO_NS_VIEW, LABEL_BASE_OF_NS_VIEW) },
    }),
  ];
}

/**
 * The base roles every namespace role aggregates: view events and apiextensions.crossplane.io, edit secrets.
 * Plugin-owned.
 */
export function renderNamespaceBaseRoles(): ClusterRole[] {
  return [
    buildClusterRole({
      name: NS_BASE_ROLE_EDIT,
      labels: {
        [LABEL_MANAGED_BY]: MANAGED_BY_VALUE,
        [LABEL_AGGREGATE_TO_NS_EDIT]: LABEL_VALUE_TRUE,
        [LABEL_BASE_OF_NS_EDIT]: LABEL_VALUE_TRUE,
      },
      rules: [
        { apiGroups: [''], resources: ['events'], verbs: VERBS_VIEW },
        { apiGroups: [''], resources: ['secrets'], verbs: VERBS_ALL },
        { apiGroups: ['apiextensions.crossplane.io'], resources: ['*'], verbs: VERBS_VIEW },
      ],
    }),
    buildClusterRole({
      name: NS_BASE_ROLE_VIEW,
      labels: {
        [LABEL_MANAGED_BY]: MANAGED_BY_VALUE,
        [LABEL_AGGREGATE_TO_NS_VIEW]: LABEL_VALUE_TRUE,
        [LABEL_BASE_OF_NS_VIEW]: LABEL_VALUE_TRUE,
      },
      rules: [{ apiGroups: [''], resources: ['events'], verbs: VERBS_VIEW }],
    }),
  ];
}
