import { thousands } from '../kube/thousands.js';
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

const ask = (cluster: Cluster, p: Permission, namespace: string | undefined): Promise<boolean> =>
  cluster.canI({
    verb: p.verb,
    group: p.group,
    resource: p.resource,
    ...(p.subresource !== undefined ? { subresource: p.subresource } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
  });

/**
 * Whether the caller holds each permission, asked with SelfSubjectAccessReviews. A permission needed in several
 * namespaces is first asked once for all namespaces (namespace "": only what ClusterRoleBindings grant, as `kubectl
 * auth can-i -A` asks): allowed there, it is allowed in each of them; else each namespace is asked. A cold sync of
 * 600 namespaces' RoleBindings asks one question instead of 600.
 */
async function askEach(cluster: Cluster, perms: readonly Permission[]): Promise<boolean[]> {
  const spread = new Map<string, number>();
  const keyOf = (p: Permission): string => `${p.verb} ${p.group}/${p.resource}/${p.subresource ?? ''}`;
  for (const p of perms) if (p.namespace !== undefined) spread.set(keyOf(p), (spread.get(keyOf(p)) ?? 0) + 1);
  const everywhere = new Map<string, Promise<boolean>>();
  for (const p of perms) {
    const key = keyOf(p);
    if ((spread.get(key) ?? 0) > 1 && !everywhere.has(key)) everywhere.set(key, ask(cluster, p, undefined));
  }
  return Promise.all(
    perms.map(async (p) => {
      const all = everywhere.get(keyOf(p));
      if (p.namespace !== undefined && all !== undefined && (await all)) return true;
      return ask(cluster, p, p.namespace);
    }),
  );
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
    const writesRoles = writes.some(
      (w) => w.action !== 'delete' && (w.object.kind === 'ClusterRole' || w.object.kind === 'Role'),
    );
    // Asked beside the verbs on kinds, not after them: one round trip fewer before the first write.
    const [allowed, mayEscalate] = await Promise.all([
      askEach(cluster, perms),
      writesRoles
        ? cluster.canI({ verb: 'escalate', group: 'rbac.authorization.k8s.io', resource: 'clusterroles' })
        : false,
    ]);
    const lacking = perms.filter((_, i) => allowed[i] !== true);
    const missing = permissionLines(lacking);
    const rules = lacking.map(permissionRule);
    const done = (): MissingPermissions => ({ lines: missing, rules });
    if (!writesRoles || mayEscalate) return done();
    const granted = rulesGranted(writes);
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
        `escalate clusterroles.rbac.authorization.k8s.io, or hold the ${thousands(count)} rules the roles grant that you lack: ${text} (-o yaml or -o json prints them all)`,
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
 * the ones it may not, as `patch <resource>/<name>` (empty: all allowed). A kind patched more than once is asked
 * once without a name first (a rule without resourceNames covers every name); only when that is denied is each
 * object asked (rules may name some objects).
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
    // Asked first without a name for each kind patched more than once: allowed so, every name is.
    const byKind = new Map<string, number>();
    const kindKey = (c: (typeof checks)[number]): string =>
      `${c.check.group}/${c.check.resource}/${c.check.namespace ?? ''}`;
    for (const c of checks) byKind.set(kindKey(c), (byKind.get(kindKey(c)) ?? 0) + 1);
    const anyName = new Map<string, Promise<boolean>>();
    for (const c of checks) {
      const key = kindKey(c);
      if ((byKind.get(key) ?? 0) > 1 && !anyName.has(key)) {
        const { name: _name, ...unnamed } = c.check;
        anyName.set(key, cluster.canI(unnamed));
      }
    }
    const allowed = await Promise.all(
      checks.map(async (c) => (await anyName.get(kindKey(c))) === true || cluster.canI(c.check)),
    );
    return checks.filter((_, i) => allowed[i] !== true).map((c) => c.what);
  } catch (err) {
    throw translateError(err, 'checking permissions', cluster.describe);
  }
}
