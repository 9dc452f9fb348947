/**
 * The least change that breaks a path, in Crossplane's terms: the first step's trigger is what the subject's own
 * RBAC allows, so the change is there (bind a narrower chart role, remove one rule from one role), or, for a
 * DeploymentRuntimeConfig, an admission policy that keeps the service account out of the writer's hands.
 */
import { CHART_ROLE_ADMIN, CHART_ROLE_EDIT } from '../crossplane/names.js';
import type { PolicyRule } from '../kube/types.js';
import { identityText, type Identity } from './rights.js';
import type { Step } from './steps.js';

const CROSSPLANE_STEPS = new Set([
  'compose-as-crossplane',
  'operate-as-crossplane',
  'runtime-config',
  'install-package',
  'provider-identity',
  'define-api',
  'compose-through-xr',
]);

function list(values: readonly string[] | undefined): string {
  return (values ?? []).join(',');
}

function ruleText(rule: PolicyRule): string {
  if ((rule.nonResourceURLs ?? []).length > 0) return `${list(rule.verbs)} ${list(rule.nonResourceURLs)}`;
  const groups = (rule.apiGroups ?? []).map((g) => (g === '' ? 'core' : g));
  const names = (rule.resourceNames ?? []).length > 0 ? ` names=${list(rule.resourceNames)}` : '';
  return `${list(rule.verbs)} ${list(groups)}/${list(rule.resources)}${names}`;
}

/** A ValidatingAdmissionPolicy (and its binding) that refuses a serviceAccountName in any DeploymentRuntimeConfig. */
export const RUNTIME_CONFIG_POLICY = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: crossplane-runtime-config-service-account
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - apiGroups: ["pkg.crossplane.io"]
        apiVersions: ["*"]
        operations: ["CREATE", "UPDATE"]
        resources: ["deploymentruntimeconfigs"]
  validations:
    - expression: >-
        !has(object.spec) || !has(object.spec.deploymentTemplate) ||
        !has(object.spec.deploymentTemplate.spec) ||
        !has(object.spec.deploymentTemplate.spec.template) ||
        !has(object.spec.deploymentTemplate.spec.template.spec) ||
        !has(object.spec.deploymentTemplate.spec.template.spec.serviceAccountName)
      message: a DeploymentRuntimeConfig may not choose the service account a package runs as
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: crossplane-runtime-config-service-account
spec:
  policyName: crossplane-runtime-config-service-account
  validationActions: ["Deny"]
`;

/** One paragraph: what to change so that the subject can no longer take the path's first step. */
export function fixFor(first: Step, subject: Identity): string {
  const { via, rule, role, binding } = first.allowed;
  const bound = via[binding !== '' ? 1 : 0] ?? '';
  const boundName = bound.slice(bound.lastIndexOf('/') + 1);
  const who = identityText(subject);
  const chartRole = boundName === CHART_ROLE_EDIT || boundName === CHART_ROLE_ADMIN;
  if (chartRole && (CROSSPLANE_STEPS.has(first.mechanism) || first.mechanism === 'secret-token')) {
    const text = `bind crossplane-view (or crossplane-browse) to ${who} instead of ${boundName} in ${binding}: ${boundName} lets its holders write Crossplane's packages, Compositions and Operations, which Crossplane runs with its own accounts`;
    if (first.mechanism === 'define-api')
      return `${text}; or run this plugin's sync in place of the RBAC manager (the chart's rbacManager.deploy=false): it holds an XRD in Kubernetes' own groups`;
    return first.mechanism === 'runtime-config'
      ? `${text}; or keep ${boundName} and deny DeploymentRuntimeConfigs a serviceAccountName with this policy:\n${RUNTIME_CONFIG_POLICY}`
      : text;
  }
  // The role that holds the rule, worded alike for every step (runtime-config's too).
  const where =
    first.allowed.aggregatedFrom === true
      ? `the ClusterRole aggregated into ${bound} that holds it (--converged names it: the aggregation controller puts back what is removed from ${boundName} itself)`
      : role !== boundName
        ? `ClusterRole ${role} (aggregated into ${bound})`
        : bound;
  const unbind = binding !== '' ? `, or remove ${who} from ${binding}` : '';
  if (first.mechanism === 'runtime-config') {
    return `remove "${ruleText(rule)}" from ${where}${unbind}, or deny DeploymentRuntimeConfigs a serviceAccountName with this policy:\n${RUNTIME_CONFIG_POLICY}`;
  }
  const compose =
    first.mechanism === 'compose-through-xr'
      ? ", or have the XRD's Compositions compose nothing its XRs' authors may not create themselves"
      : '';
  const also = first.alsoFix !== undefined ? `, ${first.alsoFix}` : '';
  return `remove "${ruleText(rule)}" from ${where}${unbind}${compose}${also}`;
}
