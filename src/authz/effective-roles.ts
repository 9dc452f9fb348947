/**
 * The rules a binding's roleRef grants, as the RBAC authorizer resolves them (pkg/registry/rbac/validation/rule.go,
 * GetRoleReferenceRules), read from the rules the clusterrole-aggregation controller converges to rather than the
 * ones stored now, with the aggregation chain each rule came through.
 */
import type { ClusterRole, ClusterSnapshot, PolicyRule, Role, RoleRef } from '../kube/types.js';
import { convergeClusterRoles, ownRuleHolders, ruleKey, sameRules } from './aggregate.js';
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

/**
 * Each role is resolved once per run, however many bindings name it: a binding is cheap to create, so an answer's
 * cost must grow with the roles bound, not with the bindings (a subject bound a thousand times to one role
 * aggregating thousands). `resolved` counts the roles resolved, for the tests that bound this work.
 */
export class EffectiveRoles {
  readonly convergence: Convergence;
  private readonly roles = new Map<string, Role>();
  private readonly storedKeys = new Map<string, Set<string>>();
  private readonly resolvedRoles = new Map<string, ResolvedRole>();
  /** Per aggregated role: each rule its matched roles hold (by ruleKey), the first role holding it. */
  private readonly holders = new Map<string, Map<string, string>>();
  /** Per aggregated role: each rule (by ruleKey), every role it draws from that holds it as its own, by name. */
  private readonly ownHolders = new Map<string, Map<string, string[]>>();

  /** How many distinct roles were resolved (ClusterRoles and Roles, found or not). */
  get resolved(): number {
    return this.resolvedRoles.size;
  }

  /** How many aggregated roles had their sources indexed for chain(). */
  get indexedForChains(): number {
    return this.holders.size;
  }

  constructor(clusterRoles: readonly ClusterRole[], roles: readonly Role[]) {
    this.convergence = convergeClusterRoles(clusterRoles);
    for (const r of roles) this.roles.set(`${r.metadata.namespace ?? ''}/${r.metadata.name}`, r);
  }

  clusterRole(name: string): ResolvedRole {
    const id = `ClusterRole//${name}`;
    let resolved = this.resolvedRoles.get(id);
    if (resolved === undefined) this.resolvedRoles.set(id, (resolved = this.resolveClusterRole(name)));
    return resolved;
  }

  private resolveClusterRole(name: string): ResolvedRole {
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
    // A roleRef of any other kind names no role: it resolves as a Role that is not found.
    const id = `Role/${bindingNamespace}/${ref.kind === 'Role' ? ref.name : `\u0000${ref.kind}/${ref.name}`}`;
    let resolved = this.resolvedRoles.get(id);
    if (resolved === undefined) {
      const role = ref.kind === 'Role' ? this.roles.get(`${bindingNamespace}/${ref.name}`) : undefined;
      const rules = role?.rules ?? [];
      resolved = {
        kind: 'Role',
        name: ref.name,
        namespace: bindingNamespace,
        found: role !== undefined,
        aggregated: false,
        effective: rules,
        stored: rules,
        drift: false,
      };
      this.resolvedRoles.set(id, resolved);
    }
    return resolved;
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
    const out = [roleName];
    const seen = new Set(out);
    let holder = roleName;
    for (;;) {
      const index = this.holdersOf(holder);
      if (index === undefined) return out;
      const next = index.get(key);
      if (next === undefined || seen.has(next)) return out;
      out.push(next);
      seen.add(next);
      holder = next;
    }
  }

  /**
   * Every role a ClusterRole draws from that holds RULE as its own rule, in name order: the source chain() ends at
   * is one of them, and a provider family's roles all carry the family's rules. Empty for a role that aggregates
   * nothing. Indexed once per role.
   */
  carriers(roleName: string, rule: PolicyRule): readonly string[] {
    const { graph, rules } = this.convergence;
    if (!graph.matches.has(roleName)) return [];
    let index = this.ownHolders.get(roleName);
    if (index === undefined) {
      index = ownRuleHolders(graph, roleName, (n) => rules.get(n) ?? []);
      this.ownHolders.set(roleName, index);
    }
    return index.get(ruleKey(rule)) ?? [];
  }

  /**
   * The first role the controller meets holding each rule, for one aggregated role: selector by selector, matched
   * roles in name order, first holder kept. Built once per role, in one pass over its sources' rules, so that a
   * chain costs one look-up per hop rather than a scan of every source (which made explaining a role aggregating
   * N sources cost N² rule comparisons). Undefined for a role that aggregates nothing.
   */
  private holdersOf(name: string): Map<string, string> | undefined {
    const { graph, rules } = this.convergence;
    const perSelector = graph.matches.get(name);
    if (perSelector === undefined) return undefined;
    let index = this.holders.get(name);
    if (index === undefined) {
      index = new Map<string, string>();
      for (const matched of perSelector) {
        for (const m of matched) {
          // Stryker disable next-line ArrayDeclaration: every matched name is a role of the graph, which has converged rules
          for (const r of rules.get(m) ?? []) {
            const key = ruleKey(r);
            if (!index.has(key)) index.set(key, m);
          }
        }
      }
      this.holders.set(name, index);
    }
    return index;
  }
}
