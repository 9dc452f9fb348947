import { UsageError } from '../errors.js';
import type { RbacSnapshot } from '../authz/effective-roles.js';
import {
  AUTHENTICATED_GROUP,
  UNAUTHENTICATED_GROUP,
  serviceAccountUser,
  type UserInfo,
} from '../authz/subjects.js';
import type { ClusterSnapshot, PolicyRule, Subject } from '../kube/types.js';
import { dnsLabelProblem, dnsSubdomainProblem } from '../kube/name-rules.js';

// What explain --subject, its reasons for a denial (why-not.ts) and the matrix share: their types, the subject as the
// command line names it (parseSubject) and as the authorizer sees it (identityOf). A leaf, so none imports another
// for them, and the command checks --subject without loading an explanation.

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

/** What explain --subject reads: the RBAC of the snapshot, the namespaces, and the Roles (kept among its others). */
export type SubjectSnapshot = RbacSnapshot & Pick<ClusterSnapshot, 'namespaces'>;

export interface SubjectRef {
  readonly kind: 'User' | 'Group' | 'ServiceAccount';
  readonly name: string;
  /** A ServiceAccount's namespace. */
  readonly namespace?: string;
}

/** Parses `User:NAME`, `Group:NAME` or `ServiceAccount:NS/NAME`; `flag` names the flag it came from in errors. */
export function parseSubject(text: string, flag = '--subject'): SubjectRef {
  const colon = text.indexOf(':');
  const kind = colon < 0 ? '' : text.slice(0, colon);
  const rest = colon < 0 ? '' : text.slice(colon + 1);
  const hint = 'use User:NAME, Group:NAME or ServiceAccount:NAMESPACE/NAME';
  if ((kind === 'User' || kind === 'Group') && rest !== '') return { kind, name: rest };
  if (kind === 'ServiceAccount') {
    const [ns, name, extra] = rest.split('/');
    if (ns !== undefined && ns !== '' && name !== undefined && name !== '' && extra === undefined) {
      // No ServiceAccount can have a namespace or a name Kubernetes refuses: such a question has no answer.
      const nsProblem = dnsLabelProblem(ns);
      const problem = nsProblem ?? dnsSubdomainProblem(name);
      if (problem !== undefined) {
        const what = nsProblem !== undefined ? `namespace "${ns}"` : `name "${name}"`;
        throw new UsageError(`invalid ${flag} "${text}": the ServiceAccount's ${what}: ${problem}`, { hint });
      }
      return { kind, name, namespace: ns };
    }
  }
  throw new UsageError(`invalid ${flag} "${text}"`, { hint });
}

/** The identity the authorizer sees for the subject: users and service accounts are authenticated. */
export function identityOf(subject: SubjectRef, extraGroups: readonly string[]): UserInfo {
  if (subject.kind === 'ServiceAccount') {
    const sa = serviceAccountUser(subject.namespace ?? '', subject.name);
    return { name: sa.name, groups: [...sa.groups, ...extraGroups] };
  }
  if (subject.kind === 'User') return { name: subject.name, groups: [AUTHENTICATED_GROUP, ...extraGroups] };
  // A member of a group has signed in (as kubectl --as-group impersonates one), unless the group is the
  // unauthenticated one.
  const signedIn = subject.name === UNAUTHENTICATED_GROUP ? [] : [AUTHENTICATED_GROUP];
  return { name: '', groups: [...new Set([subject.name, ...signedIn, ...extraGroups])] };
}
