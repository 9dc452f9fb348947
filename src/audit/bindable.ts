/**
 * The roles an account may bind, as the RBAC storage decides the create of a binding (kubernetes
 * pkg/registry/rbac/rolebinding/policybased/storage.go and clusterrolebinding/policybased/storage.go, Create): the
 * creator may `bind` the referenced role (pkg/registry/rbac/escalation_check.go BindingAuthorized: verb bind on
 * `clusterroles` or `roles` of that name, in the binding's namespace, none for a ClusterRoleBinding), or it already
 * holds every rule of the role in that namespace (pkg/registry/rbac/validation/rule.go ConfirmNoEscalation).
 * A ClusterRoleBinding references ClusterRoles only; a RoleBinding a ClusterRole or a Role of its own namespace.
 */
import { coversRules } from '../authz/authorize.js';
import type { PolicyRule, Role } from '../kube/types.js';
import type { Identity, Rights } from './rights.js';

const RBAC = 'rbac.authorization.k8s.io';

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
  const held = rights.rulesIn(account, namespace ?? '');
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
    } else if (coversRules(held, rules).covered) {
      out.push({ role: text, how: 'holds every rule', rules });
    }
  };
  for (const name of clusterRoles) {
    judge(`ClusterRole/${name}`, 'clusterroles', name, rights.clusterRole(name).effective);
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
  return {
    roles: out.map(({ role, how }) => ({ role, how })),
    rules: out.flatMap((r) => r.rules),
  };
}
