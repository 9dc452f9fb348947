/**
 * The roles an account may bind, as the RBAC storage decides the create of a binding (kubernetes
 * pkg/registry/rbac/rolebinding/policybased/storage.go and clusterrolebinding/policybased/storage.go, Create): the
 * creator may `bind` the referenced role (pkg/registry/rbac/escalation_check.go BindingAuthorized: verb bind on
 * `clusterroles` or `roles` of that name, in the binding's namespace, none for a ClusterRoleBinding), or it already
 * holds every rule of the role in that namespace (pkg/registry/rbac/validation/rule.go ConfirmNoEscalation).
 * A ClusterRoleBinding references ClusterRoles only; a RoleBinding a ClusterRole or a Role of its own namespace.
 */
import { ruleKey } from '../authz/aggregate.js';
import { ruleCovers } from '../authz/authorize.js';
import type { PolicyRule, Role } from '../kube/types.js';
import type { Identity, Rights } from './rights.js';

const RBAC = 'rbac.authorization.k8s.io';

/**
 * An account's rules indexed for the escalation check's question, whether they cover a rule (authorize.ts
 * ruleCovers, atom by atom: a wildcard only covers by itself, `*\/SUB` covers every resource's SUB): group →
 * resource → verbs (and verb → resource names), so an atom costs a few map lookups and a role of thousands of rules
 * is judged against an account of thousands without comparing every pair. Each rule is judged once: an aggregated
 * role repeats its sources' rules.
 */
class HeldRules {
  /** group → resource → verb → the names it is held for, or undefined when held for every name. */
  private readonly held = new Map<string, Map<string, Map<string, Set<string> | undefined>>>();
  private readonly urls: PolicyRule[] = [];
  private readonly judged = new Map<string, boolean>();

  constructor(rules: readonly PolicyRule[]) {
    for (const r of rules) {
      if ((r.nonResourceURLs ?? []).length > 0) this.urls.push(r);
      const names = r.resourceNames ?? [];
      for (const g of r.apiGroups ?? []) {
        let byResource = this.held.get(g);
        if (byResource === undefined)
          this.held.set(g, (byResource = new Map<string, Map<string, Set<string> | undefined>>()));
        for (const res of r.resources ?? []) {
          let byVerb = byResource.get(res);
          if (byVerb === undefined)
            byResource.set(res, (byVerb = new Map<string, Set<string> | undefined>()));
          for (const v of r.verbs) {
            if (names.length === 0) {
              byVerb.set(v, undefined);
              continue;
            }
            if (byVerb.has(v) && byVerb.get(v) === undefined) continue;
            let held = byVerb.get(v);
            if (held === undefined) byVerb.set(v, (held = new Set()));
            for (const n of names) held.add(n);
          }
        }
      }
    }
  }

  private coversAtom(group: string, resource: string, verb: string, name: string | undefined): boolean {
    const slash = resource.indexOf('/');
    const resources = slash < 0 ? [resource, '*'] : [resource, '*', `*${resource.slice(slash)}`];
    for (const g of group === '*' ? [group] : [group, '*']) {
      const byResource = this.held.get(g);
      if (byResource === undefined) continue;
      for (const res of resources) {
        const byVerb = byResource.get(res);
        if (byVerb === undefined) continue;
        for (const v of verb === '*' ? [verb] : [verb, '*']) {
          if (!byVerb.has(v)) continue;
          const names = byVerb.get(v);
          if (names === undefined || (name !== undefined && names.has(name))) return true;
        }
      }
    }
    return false;
  }

  /** Whether every rule of RULES is covered (ConfirmNoEscalation's test), stopping at the first atom that is not. */
  coversAll(rules: readonly PolicyRule[]): boolean {
    for (const r of rules) {
      const key = ruleKey(r);
      let covered = this.judged.get(key);
      if (covered === undefined) this.judged.set(key, (covered = this.coversRule(r)));
      if (!covered) return false;
    }
    return true;
  }

  private coversRule(r: PolicyRule): boolean {
    const names = r.resourceNames ?? [];
    for (const g of r.apiGroups ?? []) {
      for (const res of r.resources ?? []) {
        for (const v of r.verbs) {
          if (names.length === 0) {
            if (!this.coversAtom(g, res, v, undefined)) return false;
          } else if (names.some((n) => !this.coversAtom(g, res, v, n))) return false;
        }
      }
    }
    for (const url of r.nonResourceURLs ?? []) {
      for (const v of r.verbs) {
        const atom: PolicyRule = { nonResourceURLs: [url], verbs: [v] };
        if (!this.urls.some((o) => ruleCovers(o, atom))) return false;
      }
    }
    return true;
  }
}

export interface BindableRole {
  /** `ClusterRole/NAME` or `Role/NAMESPACE/NAME`. */
  readonly role: string;
  /** Why the API server lets the account bind it: `bind` on it, or it holds every rule of it. */
  readonly how: 'bind' | 'holds every rule';
}

export interface Bindable {
  /** Bound with `bind` first, then by name. */
  readonly roles: readonly BindableRole[];
  /** The rules of all of them: what a binding of each to one subject grants it. */
  readonly rules: readonly PolicyRule[];
}

/**
 * The roles ACCOUNT may bind in NAMESPACE (undefined: a ClusterRoleBinding) among CLUSTER_ROLES and ROLES (a
 * role without rules grants nothing and is left out).
 */
export function bindableRoles(
  rights: Rights,
  account: Identity,
  clusterRoles: readonly string[],
  roles: readonly Role[],
  namespace: string | undefined,
): Bindable {
  const held = new HeldRules(rights.rulesIn(account, namespace ?? ''));
  const ns = namespace !== undefined ? { namespace } : {};
  const out: (BindableRole & { rules: readonly PolicyRule[] })[] = [];
  const judge = (
    text: string,
    resource: 'clusterroles' | 'roles',
    name: string,
    rules: readonly PolicyRule[],
  ): void => {
    if (rules.length === 0) return;
    if (rights.allows(account, { verb: 'bind', apiGroup: RBAC, resource, name, ...ns }) !== undefined) {
      out.push({ role: text, how: 'bind', rules });
    } else if (held.coversAll(rules)) {
      out.push({ role: text, how: 'holds every rule', rules });
    }
  };
  for (const name of clusterRoles) {
    judge(`ClusterRole/${name}`, 'clusterroles', name, rights.clusterRoleRules(name));
  }
  if (namespace !== undefined) {
    for (const r of roles) {
      if (r.metadata.namespace !== namespace) continue;
      judge(`Role/${namespace}/${r.metadata.name}`, 'roles', r.metadata.name, r.rules ?? []);
    }
  }
  out.sort((a, b) =>
    a.how !== b.how ? (a.how === 'bind' ? -1 : 1) : a.role < b.role ? -1 : a.role > b.role ? 1 : 0,
  );
  // An aggregated role repeats its sources' rules: each rule once.
  const rules = new Map<string, PolicyRule>();
  for (const r of out)
    for (const rule of r.rules) if (!rules.has(ruleKey(rule))) rules.set(ruleKey(rule), rule);
  return { roles: out.map(({ role, how }) => ({ role, how })), rules: [...rules.values()] };
}
