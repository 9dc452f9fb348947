/** Which bindings `bind` refuses without --allow-privileged: those of a role with a privileged rule (authz/privileged-rules). */
import { convergeClusterRoles } from '../authz/aggregate.js';
import { withBootstrapRoles } from '../authz/bootstrap-roles.js';
import { privilegedReason } from '../authz/privileged-rules.js';
import type { Binding } from './target.js';
import type { ClusterRole, PolicyRule, Role } from '../kube/types.js';

const CLUSTER_ADMIN = 'cluster-admin';

/** One binding of a privileged role: the role (as `ClusterRole/NAME`, `Role/NS/NAME`) and the rule that makes it so. */
export interface PrivilegedBinding {
  readonly binding: Binding;
  readonly role: string;
  /** e.g. `grants escalate on clusterroles.rbac.authorization.k8s.io`. */
  readonly reason: string;
}

/** The roles a binding may refer to, as the cluster (or -f) stores them. */
export interface BoundRoles {
  readonly clusterRoles: readonly ClusterRole[];
  /** Roles by `namespace/name`; a Role not here is unknown (it does not exist, or was not read). */
  readonly roles: ReadonlyMap<string, Role>;
}

function roleId(binding: Binding): string {
  const ns = binding.kind === 'RoleBinding' ? binding.metadata.namespace : undefined;
  if (binding.roleRef.kind === 'Role') return `Role/${ns ?? ''}/${binding.roleRef.name}`;
  return `ClusterRole/${binding.roleRef.name}${ns !== undefined ? ` (in namespace ${ns})` : ''}`;
}

/**
 * Every binding whose role is privileged. A ClusterRole's rules are those it stores plus, for an aggregated role,
 * the rules the aggregation controller will give it from the roles it selects (a lagging controller must not hide
 * a privileged rule). Kubernetes' bootstrap roles the input lacks (admin, edit, cluster-admin, ...) are judged by
 * their bootstrap rules: every cluster has them, so a preview from -f files judges them as the live run does.
 */
export function findPrivilegedBindings(bindings: readonly Binding[], roles: BoundRoles): PrivilegedBinding[] {
  const clusterRoles = withBootstrapRoles(roles.clusterRoles);
  const byName = new Map(clusterRoles.map((r) => [r.metadata.name, r]));
  let effective: ReadonlyMap<string, readonly PolicyRule[]> | undefined;
  const rulesOf = (b: Binding): readonly PolicyRule[] | undefined => {
    if (b.roleRef.kind === 'Role') {
      return roles.roles.get(`${b.metadata.namespace ?? ''}/${b.roleRef.name}`)?.rules ?? undefined;
    }
    const role = byName.get(b.roleRef.name);
    if (role === undefined) return undefined;
    if (role.aggregationRule === undefined) return role.rules ?? [];
    effective ??= convergeClusterRoles(clusterRoles).rules;
    return [...(role.rules ?? []), ...(effective.get(role.metadata.name) ?? [])];
  };
  const out: PrivilegedBinding[] = [];
  for (const binding of bindings) {
    const rules = rulesOf(binding);
    let reason = rules !== undefined ? privilegedReason(rules) : undefined;
    if (
      reason === undefined &&
      binding.roleRef.kind === 'ClusterRole' &&
      binding.roleRef.name === CLUSTER_ADMIN
    ) {
      reason = 'is cluster-admin, which grants everything';
    }
    if (reason !== undefined) out.push({ binding, role: roleId(binding), reason });
  }
  return out;
}

/** `ClusterRole/foo grants escalate on …`, one per privileged binding. */
export function formatPrivileged(found: readonly PrivilegedBinding[]): string[] {
  return found.map((p) => `${p.role} ${p.reason}`);
}
