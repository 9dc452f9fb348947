import { plannedWrites, type Plan, type PlanEntry } from '../plan/plan.js';
import type { KubeObject, PolicyRule } from '../kube/types.js';
import type { Cluster } from '../port/cluster.js';
import type { Operation, Replan } from './apply-operations.js';
import { applyPlan, type ApplyReport } from './apply-plan.js';
import type { AppDeps } from './deps.js';

export type DryRun = 'none' | 'client' | 'server';
export const DRY_RUN_CHOICES: readonly DryRun[] = ['none', 'client', 'server'];

/** How a plan is written: the write flags of sync, enable-xrd and bind. */
export interface WriteOptions {
  readonly dryRun: DryRun;
  /** --check: never write; the caller reports drift. */
  readonly check: boolean;
  readonly yes: boolean;
  readonly concurrency: number;
  /** What the command does, for the question and messages ("apply the Crossplane RBAC"). */
  readonly what: string;
  /** Ask before writing even with --yes (enable-xrd -i). Whenever a person is asked, the plan is shown first. */
  readonly preview?: boolean | undefined;
  /**
   * Ask before writing even with --yes; where nobody can be asked, refuse with this reason and hint (bind pruning
   * the binding of a role the new list probably misspelt).
   */
  readonly insist?: Insist | undefined;
}

/** Why a run must be confirmed by a person, whatever --yes says. */
export interface Insist {
  readonly reason: string;
  readonly hint: string;
}

/** What a use case hands the write flow besides its plan. */
export interface PlanExtras {
  /** Writes that are not RBAC objects and go first (enable-xrd's Namespace annotation patches). */
  readonly preWrites?: readonly Operation[] | undefined;
  /** Plan rows shown before the plan's own for the pre-writes, and the objects they write (-o yaml|json). */
  readonly preWritesShown?:
    { readonly entries: readonly PlanEntry<KubeObject>[]; readonly objects: readonly unknown[] } | undefined;
  readonly replan?: Replan | undefined;
  readonly mayDelete?: ((live: KubeObject) => boolean) | undefined;
  /** Owners left untouched, one line each (`Kind "name": why`). */
  readonly held?: readonly string[] | undefined;
}

/** What became of a plan: the result of every write command, drift and failures as data. */
export interface WriteOutcome {
  readonly plan: Plan;
  /** The rows to show: the pre-writes' rows, then the plan's. */
  readonly shown: readonly PlanEntry<KubeObject>[];
  /** Objects printed before the plan's with -o yaml|json (the pre-writes'). */
  readonly leading: readonly unknown[];
  readonly held: readonly string[];
  readonly refused: readonly PlanEntry[];
  /** Whether anything would be written (drift, for --check). */
  readonly hasChanges: boolean;
  /** Where the objects came from, for messages. */
  readonly source: string;
  /** What the command does ("apply the Crossplane RBAC"), for messages. */
  readonly what: string;
  /** Read from files: nothing could have been written. */
  readonly fromFiles: boolean;
  /**
   * previewed: only shown (files, --dry-run=client, --check); denied: the pre-flight found missing permissions,
   * nothing was written; declined: the user said no; applied: written (or sent with --dry-run=server), see report.
   */
  readonly status: 'previewed' | 'denied' | 'declined' | 'applied';
  /** With status denied: one line per missing permission, and the rules that would grant them. */
  readonly missing?: { readonly lines: readonly string[]; readonly rules: readonly PolicyRule[] } | undefined;
  readonly report?: ApplyReport | undefined;
}

/**
 * The one write flow of sync, enable-xrd and bind: names what is held, refused and adopted, and unless only previewing,
 * checks permissions before the first write, asks, and applies. Nothing here prints the plan or decides the exit
 * code: the outcome says what happened.
 */
export async function writePlan(
  deps: AppDeps,
  cluster: Cluster | undefined,
  source: string,
  plan: Plan,
  options: WriteOptions,
  extras: PlanExtras = {},
): Promise<WriteOutcome> {
  const writes = plan.entries.filter(isWrite);
  const preWrites = extras.preWrites ?? [];
  const held = extras.held ?? [];
  const refused = plan.entries.filter((e) => e.action === 'refused');
  for (const h of held) deps.warn({ kind: 'held', owner: h });
  for (const e of refused) deps.warn({ kind: 'refused', key: e.key, reason: e.reason ?? '' });
  for (const e of plan.entries) if (e.adopt === true) deps.warn({ kind: 'adopting', key: e.key });
  const total = writes.length + preWrites.length;
  const hasChanges = total > 0;
  const outcome = {
    plan,
    shown: [...(extras.preWritesShown?.entries ?? []), ...plan.entries],
    leading: extras.preWritesShown?.objects ?? [],
    held,
    refused,
    hasChanges,
    source,
    what: options.what,
    fromFiles: cluster === undefined,
  };
  if (cluster === undefined || options.dryRun === 'client' || options.check) {
    return { ...outcome, status: 'previewed' };
  }
  if (hasChanges) {
    const { findMissingPermissions, findMissingPatches } = await import('./preflight.js');
    const patched = preWrites.flatMap((op) => (op.action === 'patch' ? [op.object] : []));
    const [missingPatches, { lines, rules }] = await Promise.all([
      findMissingPatches(cluster, patched),
      findMissingPermissions(cluster, plannedWrites(writes)),
    ]);
    const missing = [...missingPatches, ...lines];
    if (missing.length > 0) return { ...outcome, status: 'denied', missing: { lines: missing, rules } };
    if (options.dryRun === 'none') {
      const ok = await deps.confirm({
        message: `${options.what}: ${total} ${total === 1 ? 'write' : 'writes'} on ${cluster.describe}. Continue?`,
        what: options.what,
        yes: options.yes && options.preview !== true && options.insist === undefined,
        preview: outcome.shown,
        ...(options.insist !== undefined ? { insist: options.insist } : {}),
      });
      if (!ok) return { ...outcome, status: 'declined' };
    }
  }
  const progress = await deps.startProgress(`applying 0/${total}`);
  const report = await applyPlan(
    cluster,
    writes,
    {
      concurrency: options.concurrency,
      dryRun: options.dryRun === 'server',
      preWrites,
      replan: extras.replan,
      mayDelete: extras.mayDelete,
      interrupt: deps.interrupt,
    },
    progress,
  );
  return { ...outcome, status: 'applied', report };
}

/** A plan entry that writes (create, update, delete). */
export function isWrite(e: PlanEntry<KubeObject>): boolean {
  return e.action === 'create' || e.action === 'update' || e.action === 'delete';
}
