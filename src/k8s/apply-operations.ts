import type { KubeObject } from '../rbac/types.js';
import { kindOf, type Cluster, type ResourceKind } from './cluster.js';
import { ApiError, ServerGoneError, translateError } from './translate-error.js';

/** One write of a plan. Updates carry the live resourceVersion; deletes carry the live uid as a precondition. */
export type Operation =
  | { readonly action: 'create'; readonly object: KubeObject }
  | { readonly action: 'update'; readonly object: KubeObject }
  | { readonly action: 'delete'; readonly object: KubeObject }
  /** A JSON merge patch of `object` (only its kind, name and namespace are used): e.g. a Namespace's annotations. */
  | { readonly action: 'patch'; readonly object: KubeObject; readonly patch: object };

export interface OperationResult {
  readonly operation: Operation;
  /** undefined on success. */
  readonly error: string | undefined;
  /** The run stopped (the server is gone) before this write was sent. */
  readonly notAttempted?: boolean;
  /** This write failed because the server stopped answering. */
  readonly serverGone?: boolean;
}

export interface ApplyOptions {
  readonly concurrency: number;
  readonly dryRun: boolean;
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Called when an update hit a conflict (the object changed since it was read): given the fresh live object,
   * returns the update to send now, or undefined when nothing needs writing any more.
   */
  readonly replan?: (live: KubeObject, desired: KubeObject) => KubeObject | undefined;
}

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
      if (stopped) return;
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
    if (op.action === 'create') await cluster.create(kind, op.object, { dryRun: opts.dryRun });
    else if (op.action === 'patch') {
      await cluster.mergePatch(kind, meta.name, meta.namespace, op.patch, { dryRun: opts.dryRun });
    } else if (op.action === 'delete') {
      await cluster.delete(kind, meta.name, meta.namespace, {
        dryRun: opts.dryRun,
        ...(meta.uid !== undefined ? { preconditions: { uid: meta.uid } } : {}),
      });
    } else await updateWithRetry(cluster, kind, op.object, opts);
    return { error: undefined };
  } catch (err) {
    if (op.action === 'delete' && err instanceof ApiError && err.code === 404) return { error: undefined };
    if (err instanceof ServerGoneError) return { error: err.message, serverGone: true };
    return { error: translateError(err, doing, cluster.describe).message };
  }
}

async function updateWithRetry(
  cluster: Cluster,
  kind: ResourceKind,
  desired: KubeObject,
  opts: ApplyOptions,
): Promise<void> {
  let object = desired;
  for (let attempt = 0; ; attempt++) {
    try {
      await cluster.replace(kind, object, { dryRun: opts.dryRun });
      return;
    } catch (err) {
      const conflict = err instanceof ApiError && err.code === 409;
      if (!conflict || attempt >= MAX_CONFLICT_RETRIES || opts.replan === undefined) throw err;
      const live = await cluster.get(kind, desired.metadata.name, desired.metadata.namespace);
      if (live === undefined) {
        await cluster.create(kind, stripServerFields(desired), { dryRun: opts.dryRun });
        return;
      }
      const again = opts.replan(live, desired);
      if (again === undefined) return;
      object = again;
    }
  }
}

function stripServerFields(obj: KubeObject): KubeObject {
  const { resourceVersion: _rv, uid: _uid, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function verbing(action: Operation['action']): string {
  return { create: 'creating', update: 'updating', delete: 'deleting', patch: 'patching' }[action];
}
