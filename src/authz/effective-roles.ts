/**
 * The rules a binding's roleRef grants, as the RBAC authorizer resolves them (pkg/registry/rbac/validation/rule.go,
 * GetRoleReferenceRules), read from the rules the clusterrole-aggregation controller converges to rather than the
 * ones stored now, with the aggregation chain each rule came through.
 */
import type { ClusterRole, ClusterSnapshot, PolicyRule, Role, RoleRef } from '../kube/types.js';
import { convergeClusterRoles, ruleKey, sameRules } from './aggregate.js';
import type { Convergence } from './aggregate.js';

/** The RBAC objects the authorizer reads: roles and bindings (Roles are kept among a snapshot's other objects). */
export type RbacSnapshot = Pick<ClusterSnapshot, 'clusterRoles' | 'clusterRoleBindings' | 'roleBindings'> & {
  readonly roles: readonly Role[];
};

export interface ResolvedRole {
  readonly kind: 'ClusterRole' | 'Role';
  readonly name: string;
  /** The Role's namespace; undefined for a ClusterRole. */
  readonly namespace?: string;
  /** Whether the role exists at all (a binding may name a missing role: it grants nothing). */
  readonly found: boolean;
  readonly aggregated: boolean;
  /** What the aggregation controller stores once it has caught up (the role's own rules when it does not aggregate). */
  readonly effective: readonly PolicyRule[];
  /** What the role stores now. */
  readonly stored: readonly PolicyRule[];
  /** The stored rules differ from the effective ones: the controller has not caught up (or cannot). */
  readonly drift: boolean;
}

export class EffectiveRoles {
  readonly convergence: Convergence;
  private readonly roles = new Map<string, Role>();
  private readonly storedKeys = new Map<string, Set<string>>();

  constructor(clusterRoles: readonly ClusterRole[], roles: readonly Role[]) {
    this.convergence = convergeClusterRoles(clusterRoles);
    for (const r of roles) this.roles.set(`${r.metadata.namespace ?? ''}/${r.metadata.name}`, r);
  }

  clusterRole(name: string): ResolvedRole {
    const role = this.convergence.graph.byName.get(name);
    if (role === undefined) {
      return {
        kind: 'ClusterRole',
        name,
        found: false,
        aggregated: false,
        effective: [],
        stored: [],
        drift: false,
      };
    }
    const stored = role.rules ?? [];
    const effective = this.convergence.rules.get(name) ?? stored;
    const aggregated = role.aggregationRule !== undefined;
    return {
      kind: 'ClusterRole',
      name,
      found: true,
      aggregated,
      effective,
      stored,
      drift: aggregated && !sameRules(stored, effective),
    };
  }

  /** A binding's roleRef: a ClusterRole, or a Role in the binding's namespace. */
  resolve(ref: RoleRef, bindingNamespace: string): ResolvedRole {
    if (ref.kind === 'ClusterRole') return this.clusterRole(ref.name);
    const role = ref.kind === 'Role' ? this.roles.get(`${bindingNamespace}/${ref.name}`) : undefined;
    const rules = role?.rules ?? [];
    return {
      kind: 'Role',
      name: ref.name,
      namespace: bindingNamespace,
      found: role !== undefined,
      aggregated: false,
      effective: rules,
      stored: rules,
      drift: false,
    };
  }

  /** Whether a role stores the rule now (false for a rule only the controller's next sync will write). */
  isStored(role: ResolvedRole, rule: PolicyRule): boolean {
    if (!role.drift) return true;
    // Stryker disable next-line LogicalOperator: only ClusterRoles drift, so the namespace here is always undefined and the ids differ by name
    const id = `${role.kind}/${role.namespace ?? ''}/${role.name}`;
    let keys = this.storedKeys.get(id);
    if (keys === undefined) this.storedKeys.set(id, (keys = new Set(role.stored.map(ruleKey))));
    return keys.has(ruleKey(rule));
  }

  /**
   * The aggregation chain of one effective rule of a ClusterRole: the role itself first, then at each hop the first
   * role the controller meets holding the rule (selector by selector, matched roles in name order), ending at the
   * role that holds it as its own rule. A rule that only circulates in a cycle ends at the cycle.
   */
  chain(roleName: string, rule: PolicyRule): string[] {
    const key = ruleKey(rule);
    const { graph, rules } = this.convergence;
    const out = [roleName];
    const seen = new Set(out);
    let holder = roleName;
    for (;;) {
      const perSelector = graph.matches.get(holder);
      if (perSelector === undefined) return out;
      let next: string | undefined;
      for (const matched of perSelector) {
        // Stryker disable next-line ArrayDeclaration: every matched name is a role of the graph, which has converged rules
        next = matched.find((m) => (rules.get(m) ?? []).some((r) => ruleKey(r) === key));
        if (next !== undefined) break;
      }
      if (next === undefined || seen.has(next)) return out;
      out.push(next);
      seen.add(next);
      holder = next;
    }
  }
}
