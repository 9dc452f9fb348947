import { coversRules } from '../authz/authorize.js';
import {
  formatPermission,
  requiredPermissions,
  rulesGranted,
  writesAggregationRule,
  type Permission,
  type PlannedWrite,
} from '../authz/required-permissions.js';
import { summarizeRules } from '../authz/summarize-rules.js';
import type { KubeObject, PolicyRule } from '../kube/types.js';
import { kindOf, type Cluster } from '../port/cluster.js';
import { translateError } from '../port/translate-error.js';

/** What the caller lacks: short lines for the message, and every missing rule (for -o yaml|json). */
export interface MissingPermissions {
  /** One entry per kind of missing permission, summarised (counts and a few examples, never thousands). */
  readonly lines: string[];
  /** Every missing permission as rules (compacted), the verbs on kinds first, then the rules the roles grant. */
  readonly rules: PolicyRule[];
}

function permissionRule(p: Permission): PolicyRule {
  return {
    apiGroups: [p.group],
    resources: [p.subresource !== undefined ? `${p.resource}/${p.subresource}` : p.resource],
    verbs: [p.verb],
  };
}

/** Missing verb-on-kind permissions, one line per verb and resource; namespaces counted when there are many. */
function permissionLines(missing: readonly Permission[]): string[] {
  const byWhat = new Map<string, string[]>();
  for (const p of missing) {
    const { namespace: _ns, ...clusterWide } = p;
    const what = formatPermission(clusterWide);
    const list = byWhat.get(what) ?? [];
    if (p.namespace !== undefined) list.push(p.namespace);
    byWhat.set(what, list);
  }
  return [...byWhat].map(([what, namespaces]) => {
    if (namespaces.length === 0) return what;
    if (namespaces.length === 1) return `${what} in namespace ${namespaces[0] ?? ''}`;
    const shown = namespaces.slice(0, 3).join(', ');
    return `${what} in ${namespaces.length} namespaces (${shown}${namespaces.length > 3 ? ', …' : ''})`;
  });
}

/**
 * Asks the API server whether the caller may do every write, escalation rules included, before the first write:
 * every missing permission as a line of text (empty: all allowed), and as rules.
 */
export async function findMissingPermissions(
  cluster: Cluster,
  writes: readonly PlannedWrite[],
): Promise<MissingPermissions> {
  if (writes.length === 0) return { lines: [], rules: [] };
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
    const lacking = perms.filter((_, i) => allowed[i] !== true);
    const missing = permissionLines(lacking);
    const rules = lacking.map(permissionRule);
    const done = (): MissingPermissions => ({ lines: missing, rules });
    const granted = rulesGranted(writes);
    const writesRoles = writes.some(
      (w) => w.action !== 'delete' && (w.object.kind === 'ClusterRole' || w.object.kind === 'Role'),
    );
    if (!writesRoles) return done();
    const mayEscalate = await cluster.canI({
      verb: 'escalate',
      group: 'rbac.authorization.k8s.io',
      resource: 'clusterroles',
    });
    if (mayEscalate) return done();
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
      const { count, text } = summarizeRules(cover.missing);
      missing.push(
        `escalate clusterroles.rbac.authorization.k8s.io, or hold the ${count.toLocaleString('en-US')} rules the roles grant that you lack: ${text} (-o yaml or -o json prints them all)`,
      );
      rules.push(...cover.missing);
    }
    return done();
  } catch (err) {
    throw translateError(err, 'checking permissions', cluster.describe);
  }
}

/**
 * Whether the caller may merge-patch each object (enable-xrd's Namespace annotations, written before the plan):
 * the ones it may not, as `patch <resource>/<name>` (empty: all allowed).
 */
export async function findMissingPatches(
  cluster: Cluster,
  objects: readonly KubeObject[],
): Promise<string[]> {
  const checks = objects.map((o) => {
    const kind = kindOf(o);
    if (kind === undefined) throw new Error(`no resource is known for kind ${o.kind}`);
    const { name, namespace } = o.metadata;
    return {
      what: `patch ${kind.plural}/${name}`,
      check: {
        verb: 'patch',
        group: kind.group,
        resource: kind.plural,
        name,
        ...(namespace !== undefined ? { namespace } : {}),
      },
    };
  });
  try {
    const allowed = await Promise.all(checks.map((c) => cluster.canI(c.check)));
    return checks.filter((_, i) => allowed[i] !== true).map((c) => c.what);
  } catch (err) {
    throw translateError(err, 'checking permissions', cluster.describe);
  }
}
