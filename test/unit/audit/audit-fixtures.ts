/** The clusters the audit's unit tests build: roles, bindings, accounts, and Crossplane's own. */
import type { AuditInput } from '../../../src/audit/cluster-context.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  Deployment,
  PolicyRule,
  RoleBinding,
  Subject,
} from '../../../src/kube/types.js';
export const RBAC = 'rbac.authorization.k8s.io';
export const NS = 'crossplane-system';

export function role(name: string, rules: PolicyRule[]): ClusterRole {
  return { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules };
}
export function crb(name: string, roleName: string, subjects: Subject[]): ClusterRoleBinding {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName },
    subjects,
  };
}
export function rb(namespace: string, name: string, roleName: string, subjects: Subject[]): RoleBinding {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName },
    subjects,
  };
}
export const user = (name: string): Subject => ({ kind: 'User', name });
export const sa = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });
export function deployment(namespace: string, name: string, account: string): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: { template: { spec: { serviceAccountName: account } } },
  };
}

export const ALL: PolicyRule = { apiGroups: ['*'], resources: ['*'], verbs: ['*'] };
/** The chart's RBAC manager rules that matter here (cluster/charts/crossplane/templates/rbac-manager-clusterrole.yaml). */
export const MANAGER: PolicyRule[] = [
  { apiGroups: [RBAC], resources: ['clusterroles', 'roles'], verbs: ['get', 'create', 'update', 'escalate'] },
  { apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['bind'] },
  { apiGroups: [RBAC], resources: ['clusterrolebindings'], verbs: ['*'] },
];

export function input(parts: {
  roles?: ClusterRole[];
  crbs?: ClusterRoleBinding[];
  rbs?: RoleBinding[];
  deployments?: Deployment[];
}): AuditInput {
  return {
    clusterRoles: [role('cluster-admin', [ALL]), ...(parts.roles ?? [])],
    clusterRoleBindings: parts.crbs ?? [],
    roleBindings: parts.rbs ?? [],
    roles: [],
    deployments: parts.deployments ?? [],
    providerRevisions: [],
  };
}

/** Crossplane's account and the RBAC manager's, each bound to a role of the chart's name. */
export function crossplane(
  crossplaneRules: PolicyRule[],
): Pick<Required<Parameters<typeof input>[0]>, 'roles' | 'crbs'> {
  return {
    roles: [role('crossplane', crossplaneRules), role('crossplane-rbac-manager', MANAGER)],
    crbs: [
      crb('crossplane', 'crossplane', [sa(NS, 'crossplane')]),
      crb('crossplane-rbac-manager', 'crossplane-rbac-manager', [sa(NS, 'rbac-manager')]),
    ],
  };
}

/** A finding as the table states it: subject, capability, and per step mechanism → the identity acted as. */
