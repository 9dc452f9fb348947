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
    if (op.action === 'patch') {
      await cluster.mergePatch(kind, meta.name, meta.namespace, op.patch, { dryRun: opts.dryRun });
    } else await converge(cluster, kind, firstStep(op), opts);
    return { error: undefined };
  } catch (err) {
    if (op.action === 'delete' && err instanceof ApiError && err.code === 404) return { error: undefined };
    if (err instanceof ServerGoneError) return { error: err.message, serverGone: true };
    if (err instanceof RefusedError)
      return { error: `refused ${doing.replace(/^\w+ /, '')}: ${err.message}` };
    return { error: translateError(err, doing, cluster.describe).message };
  }
}

/**
 * One write that may race another writer, as a state machine: each step is one request; a race (409 Conflict, or an
 * update finding the object gone) re-reads the object and decides the next step, at most MAX_CONFLICT_RETRIES times.
 * - create, update: a race plans the object again (opts.replan): nothing to do, an update, a recreate, a refusal,
 *   or a create when it is gone;
 * - delete (prune): deletes the object only as it was read; a race deletes it as it is now if it is still ours
 *   (opts.mayDelete), else leaves it;
 * - recreate (a binding whose roleRef changes): deletes it as it was read (gone already: fine), then creates it;
 *   a race plans it again.
 */
type Step =
  | { readonly write: 'create' | 'update'; readonly object: KubeObject }
  | { readonly write: 'delete'; readonly live: KubeObject }
  | { readonly write: 'recreate'; readonly live: KubeObject; readonly desired: KubeObject };

function firstStep(op: Exclude<Operation, { action: 'patch' }>): Step {
  if (op.action === 'delete') return { write: 'delete', live: op.object };
  if (op.action === 'recreate') return { write: 'recreate', live: op.live, desired: op.object };
  return { write: op.action, object: op.object };
}

async function converge(
  cluster: Cluster,
  kind: ResourceKind,
  first: Step,
  opts: ApplyOptions,
): Promise<void> {
  let next: Step | undefined = first;
  for (let attempt = 0; next !== undefined; attempt++) {
    const step: Step = next;
    try {
      next = await take(cluster, kind, step, opts.dryRun);
    } catch (err) {
      if (!raced(err, step, opts) || attempt >= MAX_CONFLICT_RETRIES) throw err;
      next = await afterRace(cluster, kind, step, opts);
    }
  }
}

/** Sends STEP's request; returns the step that follows it (a recreate's create), or undefined when done. */
async function take(
  cluster: Cluster,
  kind: ResourceKind,
  step: Step,
  dryRun: boolean,
): Promise<Step | undefined> {
  switch (step.write) {
    case 'create':
      await cluster.create(kind, step.object, { dryRun });
      return undefined;
    case 'update':
      await cluster.replace(kind, step.object, { dryRun });
      return undefined;
    case 'delete':
      await deleteAsRead(cluster, kind, step.live, dryRun);
      return undefined;
    case 'recreate':
      try {
        await deleteAsRead(cluster, kind, step.live, dryRun);
      } catch (err) {
        // Gone already (another run deleted it): go on to the create.
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
      return { write: 'create', object: stripServerFields(step.desired) };
  }
}

/** Whether ERR, failing STEP, is a race with another writer that re-reading can resolve. */
function raced(err: unknown, step: Step, opts: ApplyOptions): boolean {
  if (!(err instanceof ApiError)) return false;
  switch (step.write) {
    case 'update':
      return (err.code === 409 || err.code === 404) && opts.replan !== undefined;
    case 'delete':
      return err.code === 409 && opts.mayDelete !== undefined;
    default:
      return err.code === 409 && opts.replan !== undefined;
  }
}

/** Re-reads the object STEP raced on and decides what is left to do (undefined: nothing). */
async function afterRace(
  cluster: Cluster,
  kind: ResourceKind,
  step: Step,
  opts: ApplyOptions,
): Promise<Step | undefined> {
  const meta = 'object' in step ? step.object.metadata : step.live.metadata;
  const fresh = await cluster.get(kind, meta.name, meta.namespace);
  if (step.write === 'delete') {
    return fresh !== undefined && opts.mayDelete?.(fresh) === true
      ? { write: 'delete', live: fresh }
      : undefined;
  }
  const desired = step.write === 'recreate' ? step.desired : step.object;
  if (fresh === undefined) return { write: 'create', object: stripServerFields(desired) };
  const again = opts.replan?.(fresh, desired) ?? { action: 'none' };
  if (again.action === 'none') return undefined;
  if (again.action === 'refused') throw new RefusedError(again.reason);
  if (again.action === 'recreate') return { write: 'recreate', live: fresh, desired };
  return { write: 'update', object: again.object };
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
