import type { KubeObject } from '../kube/types.js';
import { kindOf, type Cluster, type ResourceKind } from '../port/cluster.js';
import type { Replanned } from '../plan/replan.js';
import { ApiError, ServerGoneError, translateError } from '../port/translate-error.js';

/** One write of a plan. Updates carry the live resourceVersion; deletes the live uid and resourceVersion. */
export type Operation =
  | { readonly action: 'create'; readonly object: KubeObject }
  | { readonly action: 'update'; readonly object: KubeObject }
  | { readonly action: 'delete'; readonly object: KubeObject }
  /**
   * A binding whose roleRef must change (it is immutable): delete LIVE (if it is as it was read) and create OBJECT,
   * as one write, so that a stop never falls between the two.
   */
  | { readonly action: 'recreate'; readonly object: KubeObject; readonly live: KubeObject }
  /** A JSON merge patch of `object` (only its kind, name and namespace are used): e.g. a Namespace's annotations. */
  | { readonly action: 'patch'; readonly object: KubeObject; readonly patch: object };

export interface OperationResult {
  readonly operation: Operation;
  /** undefined on success. */
  readonly error: string | undefined;
  /** The run stopped (the server is gone, or Ctrl-C) before this write was sent. */
  readonly notAttempted?: boolean;
  /** This write failed because the server stopped answering. */
  readonly serverGone?: boolean;
}

export interface ApplyOptions {
  readonly concurrency: number;
  readonly dryRun: boolean;
  readonly onProgress?: (done: number, total: number) => void;
  /** Checked before each write is started: true stops starting new ones (Ctrl-C). */
  readonly shouldStop?: () => boolean;
  /**
   * Called when a write raced with another writer (a create found the object already there, an update found it
   * changed): given the fresh live object, plans that one object again.
   */
  readonly replan?: Replan;
  /**
   * Called when a delete found the object changed since it was read (deletes carry its uid and resourceVersion as
   * preconditions): given the fresh object, whether it is still the plugin's to delete. Without it, that delete
   * fails; with it, an object no longer the plugin's is left alone, as a new plan would leave it.
   */
  readonly mayDelete?: (live: KubeObject) => boolean;
}

export type Replan = (live: KubeObject, desired: KubeObject) => Replanned;

const MAX_CONFLICT_RETRIES = 3;

/**
 * Runs the writes, several at once. Every write is attempted; failures are collected, never thrown, so that
 * everything that can be written is written and a re-run converges.
 */
export async function applyOperations(
  cluster: Cluster,
  operations: readonly Operation[],
  opts: ApplyOptions,
): Promise<OperationResult[]> {
  const results: OperationResult[] = new Array<OperationResult>(operations.length);
  let next = 0;
  let done = 0;
  let stopped = false;
  const worker = async (): Promise<void> => {
    for (;;) {
      if (stopped || opts.shouldStop?.() === true) return;
      const index = next++;
      const op = operations[index];
      if (op === undefined) return;
      const outcome = await runOne(cluster, op, opts);
      results[index] = { operation: op, ...outcome };
      // Once the server is gone, every further write would fail the same way: start no more.
      if (outcome.serverGone === true) stopped = true;
      done++;
      opts.onProgress?.(done, operations.length);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(opts.concurrency, operations.length)) }, worker);
  await Promise.all(workers);
  for (let i = 0; i < operations.length; i++) {
    const op = operations[i];
    if (results[i] === undefined && op !== undefined)
      results[i] = { operation: op, error: undefined, notAttempted: true };
  }
  return results;
}

async function runOne(
  cluster: Cluster,
  op: Operation,
  opts: ApplyOptions,
): Promise<{ error: string | undefined; serverGone?: boolean }> {
  const kind = kindOf(op.object);
  const meta = op.object.metadata;
  if (kind === undefined) return { error: `cannot write kind ${op.object.kind}` };
  const doing = `${verbing(op.action)} ${op.object.kind} ${meta.namespace !== undefined ? `${meta.namespace}/` : ''}${meta.name}`;
  try {
    if (op.action === 'create') await createOrReplan(cluster, kind, op.object, opts);
    else if (op.action === 'recreate') await recreateOrReplan(cluster, kind, op.live, op.object, opts);
    else if (op.action === 'patch') {
      await cluster.mergePatch(kind, meta.name, meta.namespace, op.patch, { dryRun: opts.dryRun });
    } else if (op.action === 'delete') await deleteOrRecheck(cluster, kind, op.object, opts);
    else await updateWithRetry(cluster, kind, op.object, opts);
    return { error: undefined };
  } catch (err) {
    if (op.action === 'delete' && err instanceof ApiError && err.code === 404) return { error: undefined };
    if (err instanceof ServerGoneError) return { error: err.message, serverGone: true };
    if (err instanceof RefusedError)
      return { error: `refused ${doing.replace(/^\w+ /, '')}: ${err.message}` };
    return { error: translateError(err, doing, cluster.describe).message };
  }
}

/** A create that finds the object already there (another run made it meanwhile) re-reads it and plans again. */
async function createOrReplan(
  cluster: Cluster,
  kind: ResourceKind,
  desired: KubeObject,
  opts: ApplyOptions,
): Promise<void> {
  try {
    await cluster.create(kind, desired, { dryRun: opts.dryRun });
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 409) || opts.replan === undefined) throw err;
    await replanAndWrite(cluster, kind, desired, opts, 0);
  }
}

type DeletePreconditions = { readonly uid?: string; readonly resourceVersion?: string };

/** The preconditions of a delete: the object as it was read (its uid and resourceVersion), nothing newer. */
function unchangedSince(meta: KubeObject['metadata']): { preconditions?: DeletePreconditions } {
  const preconditions = {
    ...(meta.uid !== undefined ? { uid: meta.uid } : {}),
    ...(meta.resourceVersion !== undefined ? { resourceVersion: meta.resourceVersion } : {}),
  };
  return Object.keys(preconditions).length > 0 ? { preconditions } : {};
}

/**
 * Deletes LIVE if it is as it was read. If it changed meanwhile, re-reads it: still the plugin's to delete (say,
 * the aggregation controller rewrote its rules) is deleted as it is now; anything else (another writer took it
 * over) is left alone.
 */
async function deleteOrRecheck(
  cluster: Cluster,
  kind: ResourceKind,
  live: KubeObject,
  opts: ApplyOptions,
  attempt = 0,
): Promise<void> {
  try {
    await deleteAsRead(cluster, kind, live, opts.dryRun);
  } catch (err) {
    const changed = err instanceof ApiError && err.code === 409;
    if (!changed || opts.mayDelete === undefined || attempt >= MAX_CONFLICT_RETRIES) throw err;
    const fresh = await cluster.get(kind, live.metadata.name, live.metadata.namespace);
    if (fresh === undefined || !opts.mayDelete(fresh)) return;
    await deleteOrRecheck(cluster, kind, fresh, opts, attempt + 1);
  }
}

/** Deletes LIVE only if it is still as it was read (same uid and resourceVersion): else a 409 Conflict. */
function deleteAsRead(
  cluster: Cluster,
  kind: ResourceKind,
  live: KubeObject,
  dryRun: boolean,
): Promise<void> {
  const meta = live.metadata;
  return cluster.delete(kind, meta.name, meta.namespace, { dryRun, ...unchangedSince(meta) });
}

/**
 * Deletes LIVE if it is as it was read, and creates DESIRED. A delete that finds the object gone goes on to the
 * create; one that finds it changed or replaced (another writer took it over, another run recreated it) re-reads
 * it and plans again: nothing to do, an update, another recreate of the object now there, or a refusal.
 */
async function recreateOrReplan(
  cluster: Cluster,
  kind: ResourceKind,
  live: KubeObject,
  desired: KubeObject,
  opts: ApplyOptions,
  attempt = 0,
): Promise<void> {
  try {
    await deleteAsRead(cluster, kind, live, opts.dryRun);
  } catch (err) {
    if (!(err instanceof ApiError && (err.code === 404 || err.code === 409))) throw err;
    if (err.code === 409) {
      if (opts.replan === undefined || attempt >= MAX_CONFLICT_RETRIES) throw err;
      const fresh = await cluster.get(kind, live.metadata.name, live.metadata.namespace);
      if (fresh !== undefined) {
        const again = opts.replan(fresh, desired);
        await writeReplanned(cluster, kind, fresh, desired, again, opts, {
          update: 0,
          recreate: attempt + 1,
        });
        return;
      }
    }
  }
  await createOrReplan(cluster, kind, stripServerFields(desired), opts);
}

/** Carries out what planning DESIRED again against FRESH, the live object re-read after a race, decided. */
async function writeReplanned(
  cluster: Cluster,
  kind: ResourceKind,
  fresh: KubeObject,
  desired: KubeObject,
  again: Replanned,
  opts: ApplyOptions,
  attempts: { readonly update: number; readonly recreate: number },
): Promise<void> {
  if (again.action === 'none') return;
  if (again.action === 'refused') throw new RefusedError(again.reason);
  if (again.action === 'recreate')
    await recreateOrReplan(cluster, kind, fresh, desired, opts, attempts.recreate);
  else await updateWithRetry(cluster, kind, again.object, opts, attempts.update);
}

async function replanAndWrite(
  cluster: Cluster,
  kind: ResourceKind,
  desired: KubeObject,
  opts: ApplyOptions,
  attempt: number,
): Promise<void> {
  const replan = opts.replan;
  if (replan === undefined) return;
  const live = await cluster.get(kind, desired.metadata.name, desired.metadata.namespace);
  if (live === undefined) {
    await cluster.create(kind, stripServerFields(desired), { dryRun: opts.dryRun });
    return;
  }
  const next = attempt + 1;
  await writeReplanned(cluster, kind, live, desired, replan(live, desired), opts, {
    update: next,
    recreate: next,
  });
}

async function updateWithRetry(
  cluster: Cluster,
  kind: ResourceKind,
  object: KubeObject,
  opts: ApplyOptions,
  attempt = 0,
): Promise<void> {
  try {
    await cluster.replace(kind, object, { dryRun: opts.dryRun });
  } catch (err) {
    const conflict = err instanceof ApiError && (err.code === 409 || err.code === 404);
    if (!conflict || attempt >= MAX_CONFLICT_RETRIES || opts.replan === undefined) throw err;
    await replanAndWrite(cluster, kind, object, opts, attempt);
  }
}

/** Re-read after a race, the object turned out not to be the plugin's: reported, never written. */
export class RefusedError extends Error {
  override readonly name = 'RefusedError';
}

function stripServerFields(obj: KubeObject): KubeObject {
  const { resourceVersion: _rv, uid: _uid, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function verbing(action: Operation['action']): string {
  return {
    create: 'creating',
    update: 'updating',
    delete: 'deleting',
    patch: 'patching',
    recreate: 'recreating',
  }[action];
}
