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
 * ruleCovers, atom by atom: a wildcard only covers by itself, `*\/SUB` covers every resource's SUB): one set lookup
 * per combination of the atom's group, resource and verb or their wildcards, so a role of thousands of rules is
 * judged against an account of thousands without comparing every pair.
 */
class HeldRules {
  private readonly plain = new Set<string>();
  private readonly named = new Set<string>();
  private readonly urls: PolicyRule[] = [];

  constructor(rules: readonly PolicyRule[]) {
    for (const r of rules) {
      if ((r.nonResourceURLs ?? []).length > 0) this.urls.push(r);
      const names = r.resourceNames ?? [];
      for (const g of r.apiGroups ?? []) {
        for (const res of r.resources ?? []) {
          for (const v of r.verbs) {
            const key = `${g}\u0000${res}\u0000${v}`;
            if (names.length === 0) this.plain.add(key);
            else for (const n of names) this.named.add(`${key}\u0000${n}`);
          }
        }
      }
    }
  }

  private coversAtom(group: string, resource: string, verb: string, name: string | undefined): boolean {
    const slash = resource.indexOf('/');
    const resources = slash < 0 ? [resource, '*'] : [resource, '*', `*${resource.slice(slash)}`];
    for (const g of [group, '*']) {
      for (const res of resources) {
        for (const v of [verb, '*']) {
          const key = `${g}\u0000${res}\u0000${v}`;
          if (this.plain.has(key)) return true;
          if (name !== undefined && this.named.has(`${key}\u0000${name}`)) return true;
        }
      }
    }
    return false;
  }

  /** Whether every rule of RULES is covered (ConfirmNoEscalation's test), stopping at the first atom that is not. */
  coversAll(rules: readonly PolicyRule[]): boolean {
    for (const r of rules) {
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
