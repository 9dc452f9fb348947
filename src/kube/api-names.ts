/** API groups and kinds of Kubernetes itself. */

/** The RBAC API group (k8s.io/api/rbac/v1 GroupName). */
export const RBAC_API_GROUP = 'rbac.authorization.k8s.io';
export const RBAC_API_VERSION = 'rbac.authorization.k8s.io/v1';

/** k8s.io/apiextensions-apiserver apiextensions.GroupName. */
export const CRD_GROUP = 'apiextensions.k8s.io';
export const CRD_KIND = 'CustomResourceDefinition';

/**
 * The API groups Kubernetes serves itself without the `.k8s.io` suffix: the legacy core group ("") and the groups
 * that predate the convention (`kubectl api-versions` on any cluster lists them). Every newer built-in group ends
 * in `.k8s.io`.
 */
const BUILT_IN_GROUPS_WITHOUT_SUFFIX: ReadonlySet<string> = new Set([
  '',
  'apps',
  'autoscaling',
  'batch',
  'extensions',
  'policy',
]);

/**
 * Whether `group` is one of Kubernetes' own API groups, which no custom resource may take over: a built-in group
 * (above), or a group the API server protects for the Kubernetes community (`k8s.io`, `kubernetes.io` and their
 * subdomains: a CRD there needs the `api-approved.kubernetes.io` annotation, apiextensions-apiserver's
 * IsProtectedCommunityGroup).
 */
export function isKubernetesGroup(group: string): boolean {
  return (
    BUILT_IN_GROUPS_WITHOUT_SUFFIX.has(group) ||
    group === 'k8s.io' ||
    group.endsWith('.k8s.io') ||
    group === 'kubernetes.io' ||
    group.endsWith('.kubernetes.io')
  );
}
