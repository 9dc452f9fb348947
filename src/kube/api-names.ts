/** API groups and kinds of Kubernetes itself. */

/** The RBAC API group (k8s.io/api/rbac/v1 GroupName). */
export const RBAC_API_GROUP = 'rbac.authorization.k8s.io';
export const RBAC_API_VERSION = 'rbac.authorization.k8s.io/v1';

/** k8s.io/apiextensions-apiserver apiextensions.GroupName. */
export const CRD_GROUP = 'apiextensions.k8s.io';
export const CRD_KIND = 'CustomResourceDefinition';
