/**
 * `--after-sync` for the commands that answer questions (explain ROLE, explain --subject, who-can): the answer for
 * the cluster as a plain `sync` would leave it, live or from -f, without writing anything. Sync's plan (the same
 * rendering and planner as `sync`, without --prune or --adopt) is applied to the snapshot read: what it would create
 * or update replaces the live object of the same key or joins them; what it refuses, and live objects it no longer
 * renders (a plain sync prunes nothing), stay as they are. Once sync has written anything, the aggregation
 * controller recomputes every aggregated ClusterRole, so their rules are the converged ones.
 */
import type { ClusterRole, ClusterSnapshot, KubeObject, RbacObject } from '../kube/types.js';
import type { SyncFamily } from '../sync/choices.js';
import type { SnapshotPart } from '../crossplane/validate-input.js';
import type { Plan } from '../plan/plan.js';
import { objectKey } from '../kube/meta.js';
import { convergeClusterRoles } from '../authz/aggregate.js';
import type { AppDeps } from './deps.js';
import {
  readInput,
  warnInvalidOwners,
  warnUnseen,
  type Input,
  type InputSource,
  type PartialLeave,
  type ReadExtras,
} from './read-input.js';

/** `--after-sync [--only LIST]`: answer for the cluster after a plain sync of these families. */
export interface AfterSyncOptions {
  /** sync's --only; undefined: what a plain sync makes. */
  readonly only?: readonly SyncFamily[] | undefined;
}

/**
 * Reads what a question needs (PARTS). Without AFTER_SYNC: the input as read, with a warning per invalid XRD or
 * ProviderRevision left out, and (with PARTIAL) per part the caller may not list, which the answer then goes
 * without. With it (always a whole read: sync's plan from a partial picture would be wrong): sync's parts too, and the snapshot as sync would leave it; sync's skipped,
 * held and refused owners and its warnings are reported as sync reports them (after the after-sync note).
 */
export async function readQuestionInput(
  source: InputSource,
  deps: Pick<AppDeps, 'readStdin' | 'connect' | 'warn'>,
  parts: readonly SnapshotPart[],
  afterSync: AfterSyncOptions | undefined,
  partial?: PartialLeave,
  extras?: ReadExtras,
): Promise<Input> {
  if (afterSync === undefined) {
    const input = await readInput(source, deps, parts, partial, extras);
    warnInvalidOwners(deps, input);
    warnUnseen(deps, input);
    return input;
  }
  deps.warn({ kind: 'after-sync' });
  const { syncParts, planSync, readForPlan } = await import('./sync.js');
  // The whole of every part: sync plans from all of it (only discovery may overlap the reads).
  const input = await readInput(
    source,
    deps,
    [...new Set([...parts, ...syncParts(afterSync.only)])],
    undefined,
    {
      discovery: extras?.discovery,
    },
  );
  const { plan, held } = await planSync(
    input,
    await readForPlan(input, afterSync.only),
    afterSync.only !== undefined ? { only: afterSync.only } : {},
    { prune: false, adopt: false, report: false },
    deps,
  );
  for (const h of held) deps.warn({ kind: 'held', owner: h });
  for (const e of plan.entries) {
    if (e.action === 'refused') deps.warn({ kind: 'refused', key: e.key, reason: e.reason ?? '' });
  }
  return { ...input, snapshot: snapshotAfterPlan(input.snapshot, plan) };
}

/**
 * SNAPSHOT once PLAN is applied: created and updated objects in place of the live ones of the same key (objectKey)
 * or added after them, deleted ones gone, refused and unchanged ones as they were. When anything is written, every
 * aggregated ClusterRole holds the rules the aggregation controller converges to, as Kubernetes'
 * clusterrole-aggregation controller resyncs every aggregated role on any ClusterRole change; a cycle that never
 * settles keeps its stored rules.
 */
export function snapshotAfterPlan(snapshot: ClusterSnapshot, plan: Plan): ClusterSnapshot {
  const written = new Map<string, RbacObject>();
  const deleted = new Set<string>();
  for (const e of plan.entries) {
    if ((e.action === 'create' || e.action === 'update') && e.object !== undefined)
      written.set(e.key, e.object);
    else if (e.action === 'delete') deleted.add(e.key);
  }
  if (written.size === 0 && deleted.size === 0) return snapshot;
  const placed = new Set<string>();
  const after = <T extends KubeObject>(
    live: readonly T[],
    isKind: (o: RbacObject) => o is RbacObject & T,
  ): T[] => {
    const out: T[] = [];
    for (const o of live) {
      const key = objectKey(o);
      if (deleted.has(key)) continue;
      const w = written.get(key);
      if (w !== undefined && isKind(w)) {
        out.push(w);
        placed.add(key);
      } else out.push(o);
    }
    for (const [key, w] of written) {
      if (!placed.has(key) && isKind(w)) {
        out.push(w);
        placed.add(key);
      }
    }
    return out;
  };
  const next: ClusterSnapshot = {
    ...snapshot,
    clusterRoles: after(snapshot.clusterRoles, (o): o is ClusterRole => o.kind === 'ClusterRole'),
    clusterRoleBindings: after(snapshot.clusterRoleBindings, (o) => o.kind === 'ClusterRoleBinding'),
    roleBindings: after(snapshot.roleBindings, (o) => o.kind === 'RoleBinding'),
    others: after(snapshot.others, (o) => o.kind === 'Role'),
  };
  return written.size > 0 ? { ...next, clusterRoles: converged(next.clusterRoles) } : next;
}

/** ROLES with each aggregated role's rules as the controller stores them once it has caught up. */
function converged(roles: readonly ClusterRole[]): ClusterRole[] {
  const { rules, unconverged } = convergeClusterRoles(roles);
  const unsettled = new Set(unconverged.flat());
  return roles.map((r) => {
    const name = r.metadata.name;
    const want = rules.get(name);
    if (r.aggregationRule === undefined || want === undefined || unsettled.has(name)) return r;
    return { ...r, rules: [...want] };
  });
}
