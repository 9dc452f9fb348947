import { coversRules, formatRuleForStatus } from '../rbac/authorize.js';
import {
  formatPermission,
  requiredPermissions,
  rulesGranted,
  writesAggregationRule,
  type PlannedWrite,
} from '../rbac/required-permissions.js';
import type { Cluster } from './cluster.js';
import { translateError } from './translate-error.js';

/**
 * Asks the API server whether the caller may do every write, escalation rules included, before the first write.
 * Returns every missing permission as a line of text (empty: all allowed).
 */
export async function checkWritePermissions(
  cluster: Cluster,
  writes: readonly PlannedWrite[],
): Promise<string[]> {
  if (writes.length === 0) return [];
  try {
    const perms = requiredPermissions(writes);
    const allowed = await Promise.all(
      perms.map((p) =>
        cluster.canI({
          verb: p.verb,
          group: p.group,
          resource: p.resource,
          ...(p.subresource !== undefined ? { subresource: p.subresource } : {}),
          ...(p.namespace !== undefined ? { namespace: p.namespace } : {}),
        }),
      ),
    );
    const missing = perms.filter((_, i) => allowed[i] !== true).map(formatPermission);
    const granted = rulesGranted(writes);
    const writesRoles = writes.some(
      (w) => w.action !== 'delete' && (w.object.kind === 'ClusterRole' || w.object.kind === 'Role'),
    );
    if (!writesRoles) return missing;
    const mayEscalate = await cluster.canI({
      verb: 'escalate',
      group: 'rbac.authorization.k8s.io',
      resource: 'clusterroles',
    });
    if (mayEscalate) return missing;
    const review = await cluster.rulesReview('default');
    const aggregates = writesAggregationRule(writes);
    if (aggregates) {
      const full = coversRules(review.resourceRules, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
      if (!full.covered)
        missing.push(
          'escalate clusterroles.rbac.authorization.k8s.io (to write roles with an aggregationRule)',
        );
    }
    const cover = coversRules(review.resourceRules, granted);
    if (!cover.covered) {
      missing.push(
        `escalate clusterroles.rbac.authorization.k8s.io, or hold the rules the roles grant: ${cover.missing.map(formatRuleForStatus).join(', ')}`,
      );
    }
    return missing;
  } catch (err) {
    throw translateError(err, 'checking permissions', cluster.describe);
  }
}
