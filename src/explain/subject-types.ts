import type { RbacSnapshot } from '../authz/effective-roles.js';
import type { ClusterSnapshot, PolicyRule, Subject } from '../kube/types.js';

// The types explain --subject and its reasons for a denial (why-not.ts) share: a leaf, so neither imports the other
// for them.

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
