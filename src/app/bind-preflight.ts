import {
  bindAccessCheck,
  bindingNamespace,
  judgeBindPermission,
  type BindDenial,
} from '../bind/permission.js';
import type { Binding } from '../bind/target.js';
import type { ClusterRole, PolicyRule, Role } from '../kube/types.js';
import { Kinds, type Cluster, type RulesReview } from '../port/cluster.js';
import { translateError } from '../port/translate-error.js';

/**
 * A SelfSubjectRulesReview needs a namespace, and its answer adds the RoleBindings of that namespace to the
 * cluster-wide rules. For a ClusterRoleBinding only the cluster-wide rules count, so the review asks about a
 * namespace no RoleBinding can live in (the name is longer than a namespace name may be).
 */
const CLUSTER_SCOPE_PROBE = 'kubectl-crossplane-rbac-cluster-scope-probe-no-namespace-has-this-name';

/**
 * Asks the API server, before any write, whether the caller may write each binding: the `bind` verb on its role,
 * or else holding every rule the role grants. Returns every binding the server would refuse (empty: all allowed).
 * `clusterRoles` is the complete list read from the cluster; Roles are read one by one, only when needed.
 */
export async function checkBindPermissions(
  cluster: Cluster,
  bindings: readonly Binding[],
  clusterRoles: readonly ClusterRole[],
): Promise<BindDenial[]> {
  if (bindings.length === 0) return [];
  try {
    const mayBind = await Promise.all(bindings.map((b) => cluster.canI(bindAccessCheck(b))));
    const reviews = new Map<string, Promise<RulesReview>>();
    const review = (ns: string | undefined): Promise<RulesReview> => {
      const key = ns ?? CLUSTER_SCOPE_PROBE;
      let r = reviews.get(key);
      if (r === undefined) {
        r = cluster.rulesReview(key);
        reviews.set(key, r);
      }
      return r;
    };
    const byName = new Map(clusterRoles.map((r) => [r.metadata.name, r]));
    const roleRules = async (b: Binding): Promise<readonly PolicyRule[] | undefined> => {
      if (b.roleRef.kind !== 'Role') return byName.get(b.roleRef.name)?.rules ?? rulesIfExists(byName, b);
      const role = (await cluster.get(Kinds.role, b.roleRef.name, bindingNamespace(b))) as Role | undefined;
      return role === undefined ? undefined : (role.rules ?? []);
    };
    const verdicts = await Promise.all(
      bindings.map(async (b, i) => {
        if (mayBind[i] === true) return undefined;
        const [rules, caller] = await Promise.all([roleRules(b), review(bindingNamespace(b))]);
        return judgeBindPermission(b, {
          mayBind: false,
          roleRules: rules,
          callerRules: caller.resourceRules,
          callerRulesIncomplete: caller.incomplete,
        });
      }),
    );
    return verdicts.filter((v): v is BindDenial => v !== undefined);
  } catch (err) {
    throw translateError(err, 'checking bind permissions', cluster.describe);
  }
}

/** A ClusterRole that exists but has no rules yet (an aggregated role still empty) binds as empty. */
function rulesIfExists(
  byName: ReadonlyMap<string, ClusterRole>,
  b: Binding,
): readonly PolicyRule[] | undefined {
  return byName.has(b.roleRef.name) ? [] : undefined;
}
