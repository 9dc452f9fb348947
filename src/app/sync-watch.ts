/**
 * `sync --watch`: Crossplane's RBAC manager run out of the cluster. It lists and watches (Cluster.watch, as client-go's
 * reflector) everything a sync reads, holds it in memory, and after each batch of changes plans against that state
 * and writes what changed, through the same planning and write flow as a one-shot sync (syncInput). Each reconcile is
 * reported as data through AppDeps.onProgress; nothing here writes to a stream.
 */
import { setMaxListeners } from 'node:events';
import { ReflectorBackoff, requeueDelayMs } from '../kube/backoff.js';
import type { KubeObject } from '../kube/types.js';
import {
  InvalidInputError,
  checkedOnce,
  type FieldCheck,
  type SnapshotPart,
} from '../crossplane/validate-input.js';
import { newSyncMemo, type SyncMemo } from '../sync/memo.js';
import type { Cluster, ListOptions, WatchOptions } from '../port/cluster.js';
import { ApiError, ServerGoneError } from '../port/translate-error.js';
import type { OperationResult } from './apply-operations.js';
import type { AppDeps } from './deps.js';
import { clusterInput } from './read-input.js';
import { partList } from './read-snapshot.js';
import type { Reconcile, WatchChange } from './reconcile.js';
import { WatchEchoes, type ObjectEvent } from './watch-echoes.js';
import { reconnectable, sessionError } from './watch-errors.js';
import { WRITTEN, WRITTEN_PARTS, applyEvent, rememberWrites } from './watch-state.js';
import type { Warning } from './warning.js';
import { syncInput, syncParts, type SyncOutcome, type SyncRunOptions } from './sync.js';

export interface SyncWatchOptions extends SyncRunOptions {
  /**
   * Batching, a debounce with a bound: a batch is reconciled once no change has come for SETTLE_MS (the rest of one
   * `kubectl apply` comes within that), and at the latest MAX_WAIT_MS after its first change, so steady churn
   * cannot hold a change back longer. A change that comes while a reconcile runs starts the next batch.
   */
  readonly settleMs: number;
  readonly maxWaitMs: number;
  /** Ends the watch after the reconcile under way (the CLI ends it with Ctrl-C, through AppDeps.interrupt). */
  readonly signal?: AbortSignal | undefined;
  /**
   * Called after a reconcile when no change is waiting (the CLI collects garbage then): a change that came in while
   * it reconciled is reconciled first, not kept waiting behind a collection.
   */
  readonly onIdle?: (() => void) | undefined;
}

/** How a watch ended: SIGNAL aborted it, a Ctrl-C stopped its writes, or the user declined the first writes. */
export interface SyncWatchEnd {
  readonly reason: 'stopped' | 'interrupted' | 'declined';
  readonly reconciles: number;
}

/** What lasts across connections: reconciles counted, and whether the user has said yes once. */
interface WatchState {
  reconciles: number;
  confirmed: boolean;
}

/**
 * Watches and reconciles until SIGNAL aborts or a Ctrl-C stops it. When the transport gives the server up (no answer
 * for a while: ServerGoneError), it connects again after the reflector's backoff (kube/backoff.ts: 800ms doubling to
 * 30s, jittered), lists everything again and reconciles: a watch outlives an API server restart. Anything else no
 * retry mends (403, 404 of a required kind) is thrown.
 */
export async function runSyncWatch(options: SyncWatchOptions, deps: AppDeps): Promise<SyncWatchEnd> {
  if (options.source.from !== undefined) throw new Error('sync --watch reads a cluster, never -f');
  const state: WatchState = { reconciles: 0, confirmed: options.write.yes };
  const waits = new ReflectorBackoff(Date.now, Math.random);
  for (;;) {
    const cluster = await deps.connect(options.source.connection);
    try {
      const reason = await watchSession(cluster, options, deps, state);
      return { reason, reconciles: state.reconciles };
    } catch (err) {
      if (!(err instanceof ServerGoneError)) throw err;
      const inMs = waits.next();
      deps.onProgress?.({ type: 'reconnecting', reason: err.message, inMs });
      if (!(await sleep(inMs, options.signal))) return { reason: 'stopped', reconciles: state.reconciles };
    } finally {
      cluster.close?.();
    }
  }
}

/** One connection's watches and reconciles: lists, reconciles once, then once per batch of changes. */
async function watchSession(
  cluster: Cluster,
  options: SyncWatchOptions,
  deps: AppDeps,
  state: WatchState,
): Promise<SyncWatchEnd['reason']> {
  const parts = syncParts(options.render.only);
  const abort = new AbortController();
  // One listener per watch and per request in flight on it: more than the default 10 is no leak.
  setMaxListeners(parts.length * 4, abort.signal);
  const stopOuter = (): void => {
    abort.abort();
  };
  options.signal?.addEventListener('abort', stopOuter);
  if (options.signal?.aborted === true) abort.abort();
  const stores = new Map(parts.map((p) => [p, new Map<string, KubeObject>()] as const));
  const checked = checkedOnce();
  // Each owner's roles and each comparison, kept for the next reconcile (weakly, by the objects held here).
  const memo = newSyncMemo();
  const synced = new Set<SnapshotPart>();
  // The echoes of the watch's own writes start no reconcile.
  const echoes = new WatchEchoes<ObjectEvent>();
  let batch: { first: WatchChange; count: number; since: number; last: number } | undefined;
  let failure: { error: unknown } | undefined;
  let stopRetry = (): void => undefined;
  let wake: (() => void) | undefined;
  const poke = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  abort.signal.addEventListener('abort', poke);
  const note = (change: WatchChange): void => {
    const now = Date.now();
    if (batch === undefined) batch = { first: change, count: 1, since: now, last: now };
    else {
      batch.count++;
      batch.last = now;
      // The batch is named by its first change of what sync reads, not by its own writes coming back.
      if (WRITTEN_PARTS[batch.first.kind] !== undefined && WRITTEN_PARTS[change.kind] === undefined) {
        batch.first = change;
      }
    }
    poke();
  };
  const watchers = parts.map(async (part) => {
    const { kind, what, opts } = partList(part);
    const store = stores.get(part);
    if (store === undefined) return;
    try {
      for await (const event of cluster.watch(kind, watchOptions(opts), abort.signal)) {
        const relisted = event.type === 'SYNCED' && synced.has(part);
        applyEvent(store, event, part === 'crdOwners');
        if (event.type === 'SYNCED') synced.add(part);
        if (relisted) note({ kind: kind.kind, name: '', change: 'relisted' });
        else if (event.type !== 'SYNCED') {
          if (!WRITTEN.has(part) || echoes.takes(event)) note(changeOf(event.type, event.object));
        } else poke();
      }
    } catch (err) {
      if (opts?.optional === true && err instanceof ApiError && err.code === 404) {
        // Not served here (no Crossplane of that version): as sync reads it, empty; nothing to watch.
        synced.add(part);
        deps.onProgress?.({ type: 'unwatched', kind: kind.kind, reason: 'not served by this cluster' });
        poke();
        return;
      }
      failure ??= { error: sessionError(err, what, cluster.describe, state.reconciles > 0) };
      poke();
    }
  });
  const waitFor = async (ready: () => boolean): Promise<void> => {
    while (!ready() && failure === undefined && !abort.signal.aborted) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    if (failure !== undefined) throw failure.error;
  };
  try {
    await waitFor(() => synced.size === parts.length);
    if (abort.signal.aborted) return 'stopped';
    const objects = [...stores.values()].reduce((n, s) => n + s.size, 0);
    deps.onProgress?.({ type: 'watching', kinds: kindsOf(parts), objects });
    // The first reconcile of a connection is a sync of all that was listed, changes or not.
    const since = Date.now() - options.maxWaitMs;
    batch = {
      first: { kind: '', name: '', change: state.reconciles === 0 ? 'listed' : 'relisted' },
      count: objects,
      since,
      last: since,
    };
    // What the events held back during a reconcile's writes leave to reconcile: what is not their echo.
    const release = (results: readonly OperationResult[]): void => {
      for (const e of echoes.writesDone(results)) note(changeOf(e.type, e.object));
    };
    // Failed or denied writes are reconciled again after client-go's per-item backoff, without waiting for a change.
    let failures = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    stopRetry = () => {
      clearTimeout(retry);
    };
    for (;;) {
      await waitFor(() => batch !== undefined);
      for (let b = batch; b !== undefined; b = batch) {
        const at = Math.min(b.last + options.settleMs, b.since + options.maxWaitMs);
        if (at <= Date.now() || abort.signal.aborted) break;
        await sleep(at - Date.now(), abort.signal);
      }
      if (failure !== undefined) throw failure.error;
      if (abort.signal.aborted || batch === undefined) return 'stopped';
      const taken = batch;
      batch = undefined;
      clearTimeout(retry);
      echoes.writing();
      let reconcile: Reconcile;
      try {
        reconcile = await reconcileOnce(cluster, stores, parts, options, deps, state, taken, {
          checked,
          memo,
          release,
        });
      } catch (err) {
        throw reconnectable(err, cluster.describe);
      } finally {
        release([]);
      }
      if (taken.first.change === 'retried') reconcile = { ...reconcile, retry: failures };
      // A reconcile the permission check denied is requeued as failed writes are: a controller's Reconcile that
      // returns an error is requeued with the work queue's backoff (controller-runtime's reconcileHandler in
      // pkg/internal/controller/controller.go, AddRateLimited; Crossplane's RBAC manager runs on it), and the right
      // may be granted meanwhile without any event the watch sees (a group membership, a role it does not read).
      const failed =
        reconcile.status === 'denied' || (reconcile.status === 'applied' && reconcile.failed.length > 0);
      failures = failed ? failures + 1 : 0;
      const retryInMs = failed && !reconcile.interrupted ? requeueDelayMs(failures) : undefined;
      if (retryInMs !== undefined) reconcile = { ...reconcile, retryInMs };
      deps.onProgress?.({ type: 'reconciled', reconcile });
      if (reconcile.status === 'declined') return 'declined';
      if (reconcile.interrupted || deps.interrupt?.requested === true) return 'interrupted';
      if (retryInMs !== undefined) {
        retry = setTimeout(() => {
          // Reconciled at once (no settling: nothing is coming), unless a batch of changes is already waiting.
          const since = Date.now() - options.maxWaitMs;
          batch ??= { first: { kind: '', name: '', change: 'retried' }, count: 0, since, last: since };
          poke();
        }, retryInMs);
      }
      if (batch === undefined) options.onIdle?.();
    }
  } finally {
    stopRetry();
    abort.abort();
    options.signal?.removeEventListener('abort', stopOuter);
    await Promise.allSettled(watchers);
  }
}

/** Plans the state held in STORES and writes what changed, as one sync does; the outcome as a Reconcile. */
async function reconcileOnce(
  cluster: Cluster,
  stores: ReadonlyMap<SnapshotPart, Map<string, KubeObject>>,
  parts: readonly SnapshotPart[],
  options: SyncWatchOptions,
  deps: AppDeps,
  state: WatchState,
  batch: { first: WatchChange; count: number },
  kept: {
    readonly checked: FieldCheck;
    readonly memo: SyncMemo;
    /** Told the writes made (or none): the events held back meanwhile go on to the next batch unless echoes. */
    readonly release: (results: readonly OperationResult[]) => void;
  },
): Promise<Reconcile> {
  const started = Date.now();
  const objects = [...stores.values()].flatMap((s) => [...s.values()]);
  // What each written object was when planned: a write's own event may come back after the next plan starts.
  const planned = new Map<string, string | undefined>();
  for (const part of Object.values(WRITTEN_PARTS)) {
    for (const [key, o] of stores.get(part) ?? []) planned.set(key, o.metadata.resourceVersion);
  }
  // What sync reports (warnings, held and refused owners) becomes data of the reconcile.
  const reported: Warning[] = [];
  const quiet: AppDeps = {
    ...deps,
    warn: (w) => reported.push(w),
    startProgress: () => Promise.resolve({ update: () => undefined, stop: () => undefined }),
  };
  const base = {
    number: ++state.reconciles,
    trigger: batch.first,
    changes: batch.count,
    created: 0,
    updated: 0,
    deleted: 0,
    failed: [],
    notStarted: 0,
    held: [],
    refused: [],
    problems: [],
    interrupted: false,
  };
  let outcome: SyncOutcome;
  try {
    const input = await clusterInput(cluster, objects, parts, kept.checked);
    const write = { ...options.write, yes: state.confirmed };
    const render = { ...options.render, memo: kept.memo };
    outcome = await syncInput(input, { ...options, render, write }, quiet, false);
  } catch (err) {
    // An object sync cannot read (validate-input): nothing is written until it is fixed; the loop goes on.
    if (!(err instanceof InvalidInputError)) throw err;
    return { ...base, ...ended(started), status: 'failed', problems: [err.message], warnings: reported };
  }
  const warnings = reported.filter((w) => w.kind !== 'held' && w.kind !== 'refused');
  const shared = {
    ...base,
    held: outcome.held,
    refused: outcome.refused.map((e) => `${e.key}: ${e.reason ?? ''}`),
    warnings,
  };
  if (outcome.status === 'declined') return { ...shared, ...ended(started), status: 'declined' };
  if (outcome.status === 'denied') {
    return { ...shared, ...ended(started), status: 'denied', problems: outcome.missing?.lines ?? [] };
  }
  if (!state.confirmed) state.confirmed = await confirmWatch(cluster, options, deps, outcome);
  if (!state.confirmed) return { ...shared, ...ended(started), status: 'declined' };
  const results = outcome.report?.results ?? [];
  rememberWrites(stores, planned, results);
  kept.release(results);
  const done = results.filter((r) => r.error === undefined && r.notAttempted !== true);
  const count = (...actions: string[]): number =>
    done.filter((r) => actions.includes(r.operation.action)).length;
  return {
    ...shared,
    ...ended(started),
    status: 'applied',
    created: count('create'),
    updated: count('update', 'recreate', 'patch'),
    deleted: count('delete'),
    failed: results.flatMap((r) =>
      r.error !== undefined
        ? [`${r.operation.object.kind} "${r.operation.object.metadata.name}": ${r.error}`]
        : [],
    ),
    notStarted: outcome.report?.notStarted ?? 0,
    interrupted: outcome.report?.interrupted === true,
  };
}

/**
 * The one question of a watch without --yes: asked by the write flow with the first writes; when the first
 * reconcile had nothing to write, asked here, before any change is written.
 */
async function confirmWatch(
  cluster: Cluster,
  options: SyncWatchOptions,
  deps: AppDeps,
  outcome: SyncOutcome,
): Promise<boolean> {
  if (outcome.status === 'applied' && outcome.hasChanges) return true;
  return deps.confirm({
    message: `${options.write.what}: nothing to write now; write each change on ${cluster.describe} as it comes. Continue?`,
    what: options.write.what,
    yes: false,
  });
}

function ended(started: number): { at: number; tookMs: number } {
  const at = Date.now();
  return { at, tookMs: at - started };
}

function changeOf(type: 'ADDED' | 'MODIFIED' | 'DELETED', o: KubeObject): WatchChange {
  const change = ({ ADDED: 'added', MODIFIED: 'modified', DELETED: 'deleted' } as const)[type];
  return { kind: o.kind, name: o.metadata.name, namespace: o.metadata.namespace, change };
}

/** A part's list options as a watch's (the filters; `optional` and `metadataOnly` are handled here). */
function watchOptions(opts: ListOptions | undefined): WatchOptions {
  return {
    ...(opts?.namespace !== undefined ? { namespace: opts.namespace } : {}),
    ...(opts?.labelSelector !== undefined ? { labelSelector: opts.labelSelector } : {}),
    ...(opts?.fieldSelector !== undefined ? { fieldSelector: opts.fieldSelector } : {}),
  };
}

function kindsOf(parts: readonly SnapshotPart[]): string[] {
  return [...new Set(parts.map((p) => partList(p).kind.kind))];
}

/** Waits MS unless SIGNAL aborts first; false when it did. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted === true) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve(signal?.aborted !== true);
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done);
  });
}
