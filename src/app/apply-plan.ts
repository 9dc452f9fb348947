import type { PlanEntry } from '../plan/plan.js';
import { objectKey } from '../kube/meta.js';
import type { KubeObject } from '../kube/types.js';
import type { Cluster } from '../port/cluster.js';
import { applyOperations, type Operation, type OperationResult, type Replan } from './apply-operations.js';
import type { Progress } from './deps.js';
import type { Interrupt } from './interrupt.js';

export interface ApplyPlanOptions {
  readonly concurrency: number;
  /** Send every write with dryRun=All (--dry-run=server). */
  readonly dryRun: boolean;
  /** Writes that are not plan entries and go first (enable-xrd's Namespace annotation patches). */
  readonly preWrites?: readonly Operation[] | undefined;
  /** Plans one object again after a write raced with another writer; see applyOperations. */
  readonly replan?: Replan | undefined;
  /** Whether an object to delete that changed since it was read is still ours; see applyOperations. */
  readonly mayDelete?: ((live: KubeObject) => boolean) | undefined;
  /** Ctrl-C: a first one stops starting writes and lets those in flight finish. */
  readonly interrupt?: Interrupt | undefined;
}

/** What applying a plan did: every write's result, and how the run ended. */
export interface ApplyReport {
  readonly results: readonly OperationResult[];
  /** The keys (objectKey) of the objects whose write failed or was not started. */
  readonly failedKeys: ReadonlySet<string>;
  /** Writes done. */
  readonly written: number;
  /** Writes never started (Ctrl-C, or the server went away). */
  readonly notStarted: number;
  /** A Ctrl-C stopped the run. */
  readonly interrupted: boolean;
  /** The first write that failed because the server stopped answering, if one did. */
  readonly serverGone: OperationResult | undefined;
}

/**
 * Applies the writes of a plan in phases: the pre-writes, then creates and updates, then roleRef changes (a binding's
 * roleRef is immutable: delete as read, create again, as one write), then deletes. Every write is attempted; a race
 * with another writer is planned again; Ctrl-C lets the writes in flight finish. Failures are data, never thrown.
 */
export async function applyPlan(
  cluster: Cluster,
  writes: readonly PlanEntry[],
  options: ApplyPlanOptions,
  progress: Progress,
): Promise<ApplyReport> {
  const phases = phasesOf(writes, options.preWrites ?? []);
  const total = phases.reduce((n, p) => n + p.length, 0);
  const interrupt = options.interrupt;
  let base = 0;
  const run = async (ops: readonly Operation[]): Promise<OperationResult[]> => {
    const r = await applyOperations(cluster, ops, {
      concurrency: options.concurrency,
      dryRun: options.dryRun,
      onProgress: (done) => {
        progress.update(`applied ${base + done}/${total}`);
      },
      shouldStop: () => interrupt?.requested === true,
      ...(options.replan !== undefined ? { replan: options.replan } : {}),
      ...(options.mayDelete !== undefined ? { mayDelete: options.mayDelete } : {}),
    });
    base += ops.length;
    return r;
  };
  const all = async (): Promise<OperationResult[]> => {
    const out: OperationResult[] = [];
    for (const phase of phases) out.push(...(await run(phase)));
    return out;
  };
  let results: OperationResult[];
  try {
    results = await (interrupt !== undefined ? interrupt.whileWriting(all) : all());
    progress.stop(`applied ${total} ${total === 1 ? 'write' : 'writes'}`);
  } catch (err) {
    progress.stop();
    throw err;
  }
  const failed = results.filter((r) => r.error !== undefined || r.notAttempted === true);
  return {
    results,
    failedKeys: new Set(failed.map((r) => objectKey(r.operation.object))),
    written: results.filter((r) => r.error === undefined && r.notAttempted !== true).length,
    notStarted: results.filter((r) => r.notAttempted === true).length,
    interrupted: interrupt?.requested === true,
    serverGone: results.find((r) => r.serverGone === true),
  };
}

/** The writes of a plan as operations, one list per phase, in the order they are applied. */
function phasesOf(writes: readonly PlanEntry[], preWrites: readonly Operation[]): Operation[][] {
  const upserts = writes.flatMap((e): Operation[] => {
    const object = e.object ?? e.live;
    if (object === undefined || e.recreate === true) return [];
    return e.action === 'create' || e.action === 'update' ? [{ action: e.action, object }] : [];
  });
  const recreates = writes.flatMap((e): Operation[] => {
    const object = e.object ?? e.live;
    if (e.action !== 'update' || e.recreate !== true || object === undefined || e.live === undefined)
      return [];
    return [{ action: 'recreate', object, live: e.live }];
  });
  const deletes = writes.flatMap((e): Operation[] => {
    const live = e.object ?? e.live;
    if (e.action !== 'delete' || live === undefined) return [];
    const metadata = { ...live.metadata, ...(e.uid !== undefined ? { uid: e.uid } : {}) };
    return [{ action: 'delete', object: { ...live, metadata } }];
  });
  return [[...preWrites], upserts, recreates, deletes];
}
