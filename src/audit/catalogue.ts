/**
 * What `audit` looks for: the capabilities a subject may obtain, and the mechanisms (steps) by which one identity
 * comes to act with another's rights. The classic mechanisms follow the published rules of rbac-police
 * (PaloAltoNetworks/rbac-police lib/*.rego) and KubiScan (cyberark/KubiScan risky_roles.yaml); the Crossplane ones
 * follow what Crossplane's controllers do, each with the file of Crossplane's source that shows it.
 */

export const CAPABILITIES = ['cluster-admin', 'read-secrets', 'run-anywhere', 'node-access'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const CAPABILITY_SEVERITY: Readonly<Record<Capability, Severity>> = {
  'cluster-admin': 'critical',
  'read-secrets': 'high',
  'run-anywhere': 'high',
  'node-access': 'high',
};

export const CLASSIC_MECHANISMS = [
  'bind',
  'escalate',
  'webhook',
  'run-as',
  'token-request',
  'secret-token',
  'impersonate',
] as const;

export const CROSSPLANE_MECHANISMS = [
  'compose-as-crossplane',
  'operate-as-crossplane',
  'runtime-config',
  'install-package',
  'provider-identity',
  'define-api',
  'compose-through-xr',
] as const;

export type Mechanism = (typeof CLASSIC_MECHANISMS)[number] | (typeof CROSSPLANE_MECHANISMS)[number];

/**
 * The order paths of one length are preferred in, and the order a subject's findings are listed in: Crossplane's
 * mechanisms first (the ones no other tool reports), then the classic ones.
 */
export const MECHANISM_ORDER: readonly Mechanism[] = [...CROSSPLANE_MECHANISMS, ...CLASSIC_MECHANISMS];

/** Where each mechanism comes from: the published rule (classic) or the upstream code that makes it hold. */
export const MECHANISM_SOURCE: Readonly<Record<Mechanism, string>> = {
  bind: 'rbac-police lib/bind_roles.rego; KubiScan risky_roles.yaml (clusterrolebindings, roles)',
  escalate: 'rbac-police lib/escalate_roles.rego; KubiScan risky_roles.yaml (clusterroles)',
  impersonate: 'rbac-police lib/impersonate.rego; KubiScan risky_roles.yaml (impersonate)',
  'token-request': 'rbac-police lib/token_request.rego',
  'secret-token': 'rbac-police lib/issue_token_secrets.rego',
  'run-as':
    'rbac-police lib/assign_sa.rego, lib/pods_exec.rego; KubiScan risky_roles.yaml (pods, deployments, ...)',
  webhook: 'rbac-police lib/control_webhooks.rego',
  'compose-as-crossplane':
    "crossplane internal/controller/apiextensions/composite/composition_functions.go (FunctionComposer.Compose applies every desired composed resource with Crossplane's client)",
  'operate-as-crossplane':
    'crossplane internal/controller/ops/operation/reconciler.go (Reconcile applies every desired resource the pipeline returns)',
  'runtime-config':
    'crossplane internal/controller/pkg/runtime/runtime_provider.go (ProviderHooks.Post: the serviceAccountName of the DeploymentRuntimeConfig\'s template is "managed externally by the user"); apis/pkg/v1/package_runtime_types.go (runtimeConfigRef defaults to "default")',
  'install-package':
    "crossplane internal/controller/rbac/provider/roles/roles.go (rulesSystemExtra: every provider's system role edits Secrets, ConfigMaps, Events and Leases)",
  'provider-identity':
    "crossplane-contrib/provider-kubernetes pkg/kube/client/client.go (restForProviderConfig: credentials source InjectedIdentity is rest.InClusterConfig, the provider's own account); provider-helm pkg/controller/cluster/release/release.go and namespaced/release/release.go use the same builder",
  'compose-through-xr':
    "crossplane internal/controller/apiextensions/composite/api.go (APILabelSelectorResolver: an XR takes any Composition whose compositeTypeRef is its kind), composition_functions.go (FunctionComposer.Compose applies the composed resources with Crossplane's client), composition_render.go (RenderComposedResourceMetadata: a namespaced XR's composed resources go in its namespace, a cluster-scoped XR's anywhere)",
  'define-api':
    'crossplane internal/controller/rbac/definition/roles.go (RenderClusterRoles: every verb on spec.group and names.plural, whatever the group) and reconciler.go (the roles are applied from the XRD alone)',
};
