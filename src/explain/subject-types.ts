import type { RbacSnapshot } from '../authz/effective-roles.js';
import {
  AUTHENTICATED_GROUP,
  UNAUTHENTICATED_GROUP,
  serviceAccountOfUsername,
  serviceAccountUser,
  type UserInfo,
} from '../authz/subjects.js';
import type { ClusterSnapshot, PolicyRule, Subject } from '../kube/types.js';
import type { SubjectRef } from '../kube/parse-subject.js';

// What explain --subject, its reasons for a denial (why-not.ts) and the matrix share: their types and the subject as
// the authorizer sees it (identityOf; the command line's KIND:NAME is kube/parse-subject.ts's, shared with audit). A
// leaf, so none imports another for them.

export type { SubjectRef } from '../kube/parse-subject.js';

export interface Ref {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

export interface EffectiveRule {
  readonly rule: PolicyRule;
  /** From the bound role down to the role holding the rule as its own. */
  readonly chain: readonly string[];
  readonly stored: boolean;
}

export interface BoundRole {
  readonly binding: Ref;
  /** The binding's subjects that name the subject's identity (itself, or one of its groups). */
  readonly via: readonly Subject[];
  readonly role: Ref & { readonly found: boolean; readonly aggregated: boolean; readonly drift: boolean };
  readonly rules: readonly EffectiveRule[];
}

/**
 * What explain --subject reads: the RBAC of the snapshot, the namespaces, and the Roles (kept among its others); the
 * ProviderRevisions when read (a denial's reasons name the active one serving the resource).
 */
export type SubjectSnapshot = RbacSnapshot &
  Pick<ClusterSnapshot, 'namespaces'> &
  Partial<Pick<ClusterSnapshot, 'providerRevisions'>>;

/** The identity the authorizer sees for the subject: users and service accounts are authenticated. */
export function identityOf(subject: SubjectRef, extraGroups: readonly string[]): UserInfo {
  if (subject.kind === 'ServiceAccount') {
    const sa = serviceAccountUser(subject.namespace ?? '', subject.name);
    return { name: sa.name, groups: [...sa.groups, ...extraGroups] };
  }
  if (subject.kind === 'User') {
    // A ServiceAccount's user name is that account, with its groups, as the API server's impersonation takes it
    // (kubectl auth can-i --as=system:serviceaccount:NS:NAME): endpoints/filters/impersonation.go,
    // buildImpersonationRequests and WithImpersonation.
    const sa = serviceAccountOfUsername(subject.name);
    if (sa !== undefined) return identityOf({ kind: 'ServiceAccount', ...sa }, extraGroups);
    return { name: subject.name, groups: [AUTHENTICATED_GROUP, ...extraGroups] };
  }
  // A member of a group has signed in (as kubectl --as-group impersonates one), unless the group is the
  // unauthenticated one.
  const signedIn = subject.name === UNAUTHENTICATED_GROUP ? [] : [AUTHENTICATED_GROUP];
  return { name: '', groups: [...new Set([subject.name, ...signedIn, ...extraGroups])] };
}
