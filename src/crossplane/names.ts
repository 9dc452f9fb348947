/**
 * Names, label keys and values shared by the renderers and their tests.
 * Each constant that mirrors Crossplane or Kubernetes points to where the real system defines it.
 */

/** The label every object the plugin owns outright carries; only those may ever be pruned. */
/** The plugin's ClusterRoles for the kinds compositions compose: `crossplane:composed:<group>`. */
export const COMPOSED_ROLE_PREFIX = 'crossplane:composed:';

/** The plugin's ClusterRole for one API group's composed resources (the core group: `core`). */
export function composedRoleName(group: string): string {
  return `${COMPOSED_ROLE_PREFIX}${group === '' ? 'core' : group}`;
}
export const LABEL_MANAGED_BY = 'app.kubernetes.io/managed-by';
export const MANAGED_BY_VALUE = 'kubectl-crossplane-rbac';

// ---- Crossplane RBAC manager: XRD roles (crossplane internal/controller/rbac/definition/roles.go) ----
export const XRD_ROLE_PREFIX = 'crossplane:composite:';
export const XRD_ROLE_SUFFIX_SYSTEM = ':aggregate-to-crossplane';
export const XRD_ROLE_SUFFIX_EDIT = ':aggregate-to-edit';
export const XRD_ROLE_SUFFIX_VIEW = ':aggregate-to-view';
export const XRD_ROLE_SUFFIX_BROWSE = ':aggregate-to-browse';

// ---- Label keys (definition/roles.go and internal/controller/rbac/roles/roles.go consts) ----
export const LABEL_AGGREGATE_TO_CROSSPLANE = 'rbac.crossplane.io/aggregate-to-crossplane';
export const LABEL_AGGREGATE_TO_ADMIN = 'rbac.crossplane.io/aggregate-to-admin';
export const LABEL_AGGREGATE_TO_NS_ADMIN = 'rbac.crossplane.io/aggregate-to-ns-admin';
export const LABEL_AGGREGATE_TO_EDIT = 'rbac.crossplane.io/aggregate-to-edit';
export const LABEL_AGGREGATE_TO_NS_EDIT = 'rbac.crossplane.io/aggregate-to-ns-edit';
export const LABEL_AGGREGATE_TO_VIEW = 'rbac.crossplane.io/aggregate-to-view';
export const LABEL_AGGREGATE_TO_NS_VIEW = 'rbac.crossplane.io/aggregate-to-ns-view';
export const LABEL_AGGREGATE_TO_BROWSE = 'rbac.crossplane.io/aggregate-to-browse';
/** Only Crossplane v1.x puts it on XRD edit/view/browse roles (definition/roles.go keyXRD, removed in v2). */
export const LABEL_XRD = 'rbac.crossplane.io/xrd';
/** Crossplane v1.x namespace/roles.go keyBaseOfEdit / keyBaseOfView. */
export const LABEL_BASE_OF_NS_EDIT = 'rbac.crossplane.io/base-of-ns-edit';
export const LABEL_BASE_OF_NS_VIEW = 'rbac.crossplane.io/base-of-ns-view';
export const LABEL_VALUE_TRUE = 'true';

// ---- Provider roles (internal/controller/rbac/provider/roles/roles.go) ----
export const PROVIDER_ROLE_PREFIX = 'crossplane:provider:';
export const PROVIDER_ROLE_SUFFIX_EDIT = ':aggregate-to-edit';
export const PROVIDER_ROLE_SUFFIX_VIEW = ':aggregate-to-view';
export const PROVIDER_ROLE_SUFFIX_SYSTEM = ':system';
/** provider/roles/roles.go keyProviderName; its value is the revision name. */
export const LABEL_PROVIDER_SYSTEM = 'rbac.crossplane.io/system';
/** apis/pkg/v1 LabelProviderFamily. */
export const LABEL_PROVIDER_FAMILY = 'pkg.crossplane.io/provider-family';
/** apis/pkg/v1 LabelParentPackage: the Provider a revision belongs to. */
export const LABEL_PARENT_PACKAGE = 'pkg.crossplane.io/package';
/** apis/pkg/meta/v1 ProviderCapabilitySafeStart (matched with CapabilitiesContainFuzzyMatch). */
export const CAPABILITY_SAFE_START = 'safe-start';
/**
 * Crossplane v1.x internal/xpkg/name.go DefaultRegistry (release-1.20), the default of `crossplane rbac start
 * --registry`: its OrgDiffer puts references without a registry there, when --provider-clusterrole is set.
 */
export const V1_DEFAULT_REGISTRY = 'xpkg.crossplane.io';

// ---- Owner GVKs (meta.TypedReferenceTo in the renderers) ----
/** definition/roles.go uses v1.CompositeResourceDefinitionGroupVersionKind, also for v2 XRDs. */
export const XRD_API_VERSION = 'apiextensions.crossplane.io/v1';
export const XRD_KIND = 'CompositeResourceDefinition';
/** apis/pkg/v1 ProviderRevisionGroupVersionKind. */
export const PROVIDER_REVISION_API_VERSION = 'pkg.crossplane.io/v1';
export const PROVIDER_REVISION_KIND = 'ProviderRevision';

// ---- objectRefs that define resources (internal/controller/rbac/roles/roles.go DefinedResources) ----
/** apis/apiextensions/v1alpha1 Group + ManagedResourceDefinitionKind. */
export const MRD_GROUP = 'apiextensions.crossplane.io';
export const MRD_KIND = 'ManagedResourceDefinition';

// ---- Crossplane's event sources (each controller records through mgr.GetEventRecorderFor(name)) ----
/**
 * Composite resources' events: each composite controller records through the XRD controller's recorder, named
 * "defined/" + strings.ToLower(v1.CompositeResourceDefinitionGroupKind) (internal/controller/apiextensions/definition/
 * reconciler.go, Setup and its composite.WithRecorder). The name is the Event's source.component and reporting
 * controller: data anyone who may create an Event can write too.
 */
export const EVENT_SOURCE_COMPOSITES = 'defined/compositeresourcedefinition.apiextensions.crossplane.io';
/** Claims' events: "offered/" + the same (internal/controller/apiextensions/offered/reconciler.go, Setup). */
export const EVENT_SOURCE_CLAIMS = 'offered/compositeresourcedefinition.apiextensions.crossplane.io';

// ---- crossplane-runtime pkg/meta ----
/** meta.AnnotationKeyReconciliationPaused; IsPaused checks for the value "true". */
export const ANNOTATION_PAUSED = 'crossplane.io/paused';

// ---- Helm chart (cluster/charts/crossplane/templates) ----
export const CHART_ROLE_ADMIN = 'crossplane-admin';
export const CHART_ROLE_EDIT = 'crossplane-edit';
export const CHART_ROLE_VIEW = 'crossplane-view';
export const CHART_ROLE_BROWSE = 'crossplane-browse';
/** clusterrole.yaml and rbac-manager-clusterrole.yaml: the roles of the Crossplane and RBAC manager controllers. */
export const CHART_ROLE_CROSSPLANE = 'crossplane';
export const CHART_ROLE_RBAC_MANAGER = 'crossplane-rbac-manager';
export const CHART_BASE_ROLE_ADMIN = 'crossplane:aggregate-to-admin';
export const CHART_BASE_ROLE_EDIT = 'crossplane:aggregate-to-edit';
export const CHART_BASE_ROLE_VIEW = 'crossplane:aggregate-to-view';
export const CHART_BASE_ROLE_BROWSE = 'crossplane:aggregate-to-browse';
/**
 * rbac-manager-allowed-provider-permissions.yaml: `<name>:allowed-provider-permissions` aggregates this label; the
 * chart passes that role to the RBAC manager as --provider-clusterrole.
 */
export const LABEL_AGGREGATE_TO_ALLOWED_PROVIDER_PERMISSIONS =
  'rbac.crossplane.io/aggregate-to-allowed-provider-permissions';
/**
 * rbac-manager-managed-clusterroles.yaml labels each of its objects `app: {{ template "crossplane.name" . }}`, which
 * is `crossplane` unless nameOverride is set.
 */
export const LABEL_CHART_APP = 'app';
export const CHART_APP_VALUE = 'crossplane';
/** rbac-manager-managed-clusterroles.yaml: the crossplane-admin ClusterRoleBinding subject. */
export const CHART_ADMIN_GROUP = 'crossplane:masters';
export const DEFAULT_CROSSPLANE_NAMESPACE = 'crossplane-system';
/** serviceaccount.yaml: the chart's service account for the Crossplane Deployment. */
export const DEFAULT_CROSSPLANE_SERVICE_ACCOUNT = 'crossplane';

// ---- Objects only this plugin makes (enable-xrd's per-namespace roles, sync's crossplane:aggregated) ----
export const AGGREGATED_ROLE = 'crossplane:aggregated';
export const NS_BASE_ROLE_EDIT = 'crossplane:aggregate-to-ns-edit';
export const NS_BASE_ROLE_VIEW = 'crossplane:aggregate-to-ns-view';
export const XRD_ROLE_SUFFIX_NS_EDIT = ':aggregate-to-ns-edit';
export const XRD_ROLE_SUFFIX_NS_VIEW = ':aggregate-to-ns-view';
export const NS_ROLE_PREFIX = 'crossplane-ns-';
export const LABEL_SCOPE = 'crossplane.io/scope';
export const SCOPE_NAMESPACE = 'namespace';
/** Followed by the namespace name; value "true". */
export const LABEL_NAMESPACE_PREFIX = 'namespace.crossplane.io/';
/** The ConfigMap in the Crossplane namespace holding cluster-wide sync opt-outs (`manage`, `disable*`). */
export const SYNC_CONFIG_MAP = 'crossplane-rbac';

// ---- Namespace annotations (Crossplane v1.x namespace/roles.go valAccept) ----
export const ANNOTATION_XRD_PREFIX = 'rbac.crossplane.io/';
/** The value Crossplane's own namespace controller recognised. */
export const XRD_ACCEPTED = 'xrd-claim-accepted';
/** A second value that also means "enabled"; accepted when reading, never written. */
export const XRD_ENABLED = 'xrd-enabled';
/** Comma-separated XRD names too long for a per-XRD annotation key. */
export const ANNOTATION_ENABLED_XRDS = 'rbac.crossplane.io/enabled-xrds';
