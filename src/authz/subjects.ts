/**
 * Who a binding's subject is, as Kubernetes' RBAC authorizer decides it (pkg/registry/rbac/validation/rule.go,
 * appliesTo and appliesToUser), and the identity the API server gives a service account
 * (k8s.io/apiserver/pkg/authentication/serviceaccount: MakeUsername, MakeGroupNames).
 */
import { dnsLabelProblem, dnsSubdomainProblem } from '../kube/name-rules.js';
import type { ClusterRoleBinding, RoleBinding, Subject } from '../kube/types.js';

/** The user the authorizer sees: a name and groups (no implicit groups are added here). */
export interface UserInfo {
  readonly name: string;
  readonly groups: readonly string[];
}

export const MASTERS_GROUP = 'system:masters';
export const AUTHENTICATED_GROUP = 'system:authenticated';
export const UNAUTHENTICATED_GROUP = 'system:unauthenticated';
export const SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
const SA_PREFIX = 'system:serviceaccount:';

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SA_PREFIX}${namespace}:${name}`;
}

/**
 * The ServiceAccount a user name stands for, as the API server's serviceaccount.SplitUsername reads it
 * (staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go: `system:serviceaccount:NS:NAME`, one colon
 * between a valid namespace and a valid name); undefined for any other name.
 */
export function serviceAccountOfUsername(
  username: string,
): { readonly namespace: string; readonly name: string } | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const parts = username.slice(SA_PREFIX.length).split(':');
  const [namespace, name] = parts;
  if (parts.length !== 2 || namespace === undefined || name === undefined) return undefined;
  if (dnsLabelProblem(namespace) !== undefined || dnsSubdomainProblem(name) !== undefined) return undefined;
  return { namespace, name };
}

/** The groups every token of a service account carries, as the API server's authenticator adds them. */
export function serviceAccountGroups(namespace: string): string[] {
  return [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNTS_GROUP}:${namespace}`, AUTHENTICATED_GROUP];
}

/** The identity of a service account's token: its user name and its groups (authenticated included). */
export function serviceAccountUser(namespace: string, name: string): UserInfo {
  return { name: serviceAccountUsername(namespace, name), groups: serviceAccountGroups(namespace) };
}

/** Whether one subject of a binding names the user; `bindingNamespace` is '' for a ClusterRoleBinding. */
export function subjectAppliesTo(subject: Subject, user: UserInfo, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return subject.name === user.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      // A ServiceAccount subject without a namespace takes the binding's; in a ClusterRoleBinding it names nobody.
      const ns =
        subject.namespace !== undefined && subject.namespace !== '' ? subject.namespace : bindingNamespace;
      if (ns === '') return false;
      return serviceAccountUsername(ns, subject.name) === user.name;
    }
    default:
      return false;
  }
}

/** The subjects of a binding that name the user (empty when the binding does not apply). */
export function matchingSubjects(binding: ClusterRoleBinding | RoleBinding, user: UserInfo): Subject[] {
  const ns = binding.kind === 'RoleBinding' ? (binding.metadata.namespace ?? '') : '';
  // Stryker disable next-line ArrayDeclaration: a placeholder string is no subject: its kind is undefined, which names nobody
  return (binding.subjects ?? []).filter((s) => subjectAppliesTo(s, user, ns));
}

/** A subject as a binding names it, normalised: a ServiceAccount always carries its namespace. */
export function normaliseSubject(subject: Subject, bindingNamespace: string): Subject {
  if (subject.kind !== 'ServiceAccount') return { kind: subject.kind, name: subject.name };
  const ns =
    subject.namespace !== undefined && subject.namespace !== '' ? subject.namespace : bindingNamespace;
  return { kind: 'ServiceAccount', name: subject.name, namespace: ns };
}
