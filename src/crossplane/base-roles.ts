import type { ClusterRole, ClusterRoleBinding, KubeObject, PolicyRule } from '../kube/types.js';
import {
  AGGREGATED_ROLE,
  CHART_ADMIN_GROUP,
  CHART_APP_VALUE,
  CHART_BASE_ROLE_ADMIN,
  CHART_BASE_ROLE_BROWSE,
  CHART_BASE_ROLE_EDIT,
  CHART_BASE_ROLE_VIEW,
  CHART_ROLE_ADMIN,
  CHART_ROLE_BROWSE,
  CHART_ROLE_EDIT,
  CHART_ROLE_VIEW,
  LABEL_AGGREGATE_TO_ADMIN,
  LABEL_AGGREGATE_TO_ALLOWED_PROVIDER_PERMISSIONS,
  LABEL_AGGREGATE_TO_BROWSE,
  LABEL_AGGREGATE_TO_CROSSPLANE,
  LABEL_AGGREGATE_TO_EDIT,
  LABEL_AGGREGATE_TO_VIEW,
  LABEL_CHART_APP,
  LABEL_MANAGED_BY,
  LABEL_VALUE_TRUE,
  MANAGED_BY_VALUE,
} from './names.js';
import { buildClusterRole, buildClusterRoleBinding } from './object-builders.js';
import type { CrossplaneVersion } from './definition/roles.js';
import { RBAC_API_GROUP } from '../kube/api-names.js';
import { compareStrings } from '../kube/order.js';

const GET_LIST_WATCH = ['get', 'list', 'watch'];
const ALL = ['*'];
const ANY = ['*'];

// The base roles' rules, as the Crossplane Helm chart's rbac-manager-managed-clusterroles.yaml renders them
// (chart 2.3.4; the v1.20 chart has the same rules without the protection and ops groups).
const ADMIN_RULES: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['events'], verbs: GET_LIST_WATCH },
  { apiGroups: [''], resources: ['secrets', 'namespaces'], verbs: ALL },
  { apiGroups: [RBAC_API_GROUP], resources: ['clusterroles', 'roles'], verbs: GET_LIST_WATCH },
  { apiGroups: [RBAC_API_GROUP], resources: ['clusterrolebindings', 'rolebindings'], verbs: ALL },
  { apiGroups: ['apiextensions.crossplane.io'], resources: ANY, verbs: ALL },
  { apiGroups: ['pkg.crossplane.io'], resources: ANY, verbs: ALL },
  { apiGroups: ['secrets.crossplane.io'], resources: ANY, verbs: ALL },
  { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: GET_LIST_WATCH },
  { apiGroups: ['protection.crossplane.io'], resources: ANY, verbs: ALL },
  { apiGroups: ['ops.crossplane.io'], resources: ANY, verbs: ALL },
];

const EDIT_RULES: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['events'], verbs: GET_LIST_WATCH },
  { apiGroups: [''], resources: ['secrets'], verbs: ALL },
  { apiGroups: [''], resources: ['namespaces'], verbs: GET_LIST_WATCH },
  { apiGroups: ['apiextensions.crossplane.io'], resources: ANY, verbs: ALL },
  { apiGroups: ['pkg.crossplane.io'], resources: ANY, verbs: ALL },
  { apiGroups: ['secrets.crossplane.io'], resources: ANY, verbs: ALL },
  { apiGroups: ['protection.crossplane.io'], resources: ANY, verbs: ALL },
  { apiGroups: ['ops.crossplane.io'], resources: ANY, verbs: ALL },
];

const VIEW_RULES: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['events'], verbs: GET_LIST_WATCH },
  { apiGroups: [''], resources: ['namespaces'], verbs: GET_LIST_WATCH },
  { apiGroups: ['apiextensions.crossplane.io'], resources: ANY, verbs: GET_LIST_WATCH },
  { apiGroups: ['pkg.crossplane.io'], resources: ANY, verbs: GET_LIST_WATCH },
  { apiGroups: ['secrets.crossplane.io'], resources: ANY, verbs: GET_LIST_WATCH },
  { apiGroups: ['protection.crossplane.io'], resources: ANY, verbs: GET_LIST_WATCH },
  { apiGroups: ['ops.crossplane.io'], resources: ANY, verbs: GET_LIST_WATCH },
];

const BROWSE_RULES: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['events'], verbs: GET_LIST_WATCH },
  { apiGroups: ['apiextensions.crossplane.io'], resources: ANY, verbs: GET_LIST_WATCH },
];

const V2_ONLY_GROUPS = new Set(['protection.crossplane.io', 'ops.crossplane.io']);

/** The chart's base-role rules for a Crossplane major version. */
export function chartBaseRules(
  role: 'admin' | 'edit' | 'view' | 'browse',
  version: CrossplaneVersion = 'v2',
): PolicyRule[] {
  const rules = { admin: ADMIN_RULES, edit: EDIT_RULES, view: VIEW_RULES, browse: BROWSE_RULES }[role];
  // Stryker disable next-line ArrayDeclaration: every chart rule has apiGroups; the text would be no v2 group either
  return rules.filter((r) => version === 'v2' || !(r.apiGroups ?? []).some((g) => V2_ONLY_GROUPS.has(g)));
}

const OWNED = { [LABEL_MANAGED_BY]: MANAGED_BY_VALUE };

/**
 * The labels of the objects the plugin renders in place of the chart's rbac-manager-managed-clusterroles.yaml: the
 * plugin's own managed-by, and the chart's `app: crossplane`, so that `-l app=crossplane` finds them as it finds the
 * chart's. Not the rest of the chart's labels (its "crossplane.labels": helm.sh/chart, app.kubernetes.io/managed-by:
 * Helm, instance, version, ...): they describe a Helm release these objects are not part of, and the chart's
 * managed-by would claim them for Helm.
 */
const CHART_OWNED = { ...OWNED, [LABEL_CHART_APP]: CHART_APP_VALUE };

/** True when the object carries the plugin's managed-by label. */
export function isPluginOwned(
  o: KubeObject | { readonly metadata: { readonly labels?: Record<string, string> } },
): boolean {
  return o.metadata.labels?.[LABEL_MANAGED_BY] === MANAGED_BY_VALUE;
}

/**
 * The first ClusterRole, in name order, that someone other than this plugin made to aggregate the roles labelled
 * `<label>: "true"` (a selector with only that label and no expressions). The chart's roles are found this way,
 * not by name: `nameOverride` renames them (`{{ template "crossplane.name" . }}` in every template).
 */
export function findAggregatingRole(
  clusterRoles: readonly ClusterRole[],
  label: string,
): ClusterRole | undefined {
  const found = clusterRoles.filter(
    (r) =>
      !isPluginOwned(r) &&
      // Stryker disable next-line ArrayDeclaration: a string selector has no matchLabels, so it selects as no selector does
      (r.aggregationRule?.clusterRoleSelectors ?? []).some((s) => {
        const labels = Object.entries(s.matchLabels ?? {});
        return (
          labels.length === 1 &&
          (s.matchExpressions ?? []).length === 0 &&
          // Stryker disable next-line OptionalChaining: labels has exactly one entry here
          labels[0]?.[0] === label &&
          labels[0][1] === LABEL_VALUE_TRUE
        );
      }),
  );
  return found.sort((a, b) => compareStrings(a.metadata.name, b.metadata.name))[0];
}

/** True when someone other than this plugin (normally the Helm chart) made an aggregating `crossplane-admin`. */
export function hasChartUserRoles(clusterRoles: readonly ClusterRole[]): boolean {
  return findAggregatingRole(clusterRoles, LABEL_AGGREGATE_TO_ADMIN) !== undefined;
}

/** True when the chart's `crossplane` ClusterRole aggregates the `aggregate-to-crossplane` roles. */
export function crossplaneAggregatesXrs(clusterRoles: readonly ClusterRole[]): boolean {
  return findAggregatingRole(clusterRoles, LABEL_AGGREGATE_TO_CROSSPLANE) !== undefined;
}

/** The chart's `crossplane:allowed-provider-permissions`, which it names in the RBAC manager's --provider-clusterrole. */
export function findAllowedProviderPermissionsRole(
  clusterRoles: readonly ClusterRole[],
): ClusterRole | undefined {
  return findAggregatingRole(clusterRoles, LABEL_AGGREGATE_TO_ALLOWED_PROVIDER_PERMISSIONS);
}

function aggregating(name: string, label: string, labels: Record<string, string> = OWNED): ClusterRole {
  return buildClusterRole({
    name,
    labels,
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [label]: LABEL_VALUE_TRUE } }] },
  });
}

function base(name: string, label: string, rules: readonly PolicyRule[]): ClusterRole {
  return buildClusterRole({ name, labels: { ...CHART_OWNED, [label]: LABEL_VALUE_TRUE }, rules });
}

/**
 * The user-facing roles the chart makes when the RBAC manager is deployed (its template
 * rbac-manager-managed-clusterroles.yaml): crossplane-admin/edit/view/browse, their base roles, and the
 * crossplane-admin binding to the crossplane:masters group. All plugin-owned, and labelled `app: crossplane` as the
 * chart labels them.
 */
export function renderBaseRoles(
  opts: {
    readonly crossplaneVersion?: CrossplaneVersion;
    /** Leave out the four base roles, as the chart's rbacManager.skipAggregatedClusterRoles does. */
    readonly skipAggregatedClusterRoles?: boolean;
  } = {},
): (ClusterRole | ClusterRoleBinding)[] {
  const v = opts.crossplaneVersion ?? 'v2';
  return [
    aggregating(CHART_ROLE_ADMIN, LABEL_AGGREGATE_TO_ADMIN, CHART_OWNED),
    aggregating(CHART_ROLE_EDIT, LABEL_AGGREGATE_TO_EDIT, CHART_OWNED),
    aggregating(CHART_ROLE_VIEW, LABEL_AGGREGATE_TO_VIEW, CHART_OWNED),
    aggregating(CHART_ROLE_BROWSE, LABEL_AGGREGATE_TO_BROWSE, CHART_OWNED),
    ...(opts.skipAggregatedClusterRoles === true
      ? []
      : [
          base(CHART_BASE_ROLE_ADMIN, LABEL_AGGREGATE_TO_ADMIN, chartBaseRules('admin', v)),
          base(CHART_BASE_ROLE_EDIT, LABEL_AGGREGATE_TO_EDIT, chartBaseRules('edit', v)),
          base(CHART_BASE_ROLE_VIEW, LABEL_AGGREGATE_TO_VIEW, chartBaseRules('view', v)),
          base(CHART_BASE_ROLE_BROWSE, LABEL_AGGREGATE_TO_BROWSE, chartBaseRules('browse', v)),
        ]),
    buildClusterRoleBinding({
      name: CHART_ROLE_ADMIN,
      labels: CHART_OWNED,
      roleName: CHART_ROLE_ADMIN,
      subjects: [{ apiGroup: RBAC_API_GROUP, kind: 'Group', name: CHART_ADMIN_GROUP }],
    }),
  ];
}

/**
 * `crossplane:aggregated`: aggregates every `aggregate-to-crossplane` role and is bound to Crossplane's service
 * account, for clusters whose `crossplane` ClusterRole does not aggregate (chart with rbacManager.deploy=false).
 */
export function renderCrossplaneAggregated(opts: {
  readonly namespace: string;
  readonly serviceAccountName: string;
}): [ClusterRole, ClusterRoleBinding] {
  return [
    aggregating(AGGREGATED_ROLE, LABEL_AGGREGATE_TO_CROSSPLANE),
    buildClusterRoleBinding({
      name: AGGREGATED_ROLE,
      labels: OWNED,
      roleName: AGGREGATED_ROLE,
      subjects: [{ kind: 'ServiceAccount', name: opts.serviceAccountName, namespace: opts.namespace }],
    }),
  ];
}
