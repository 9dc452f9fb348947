// sync --watch run in-process against the test API server, its reconciles heard through AppDeps.onProgress.
import { connect } from '../support/connect.js';
import type { AppDeps } from '../../src/app/deps.js';
import type { Interrupt } from '../../src/app/interrupt.js';
import type { Reconcile, WatchProgress } from '../../src/app/reconcile.js';
import { runSyncWatch, type SyncWatchEnd } from '../../src/app/sync-watch.js';
import type { Cluster } from '../../src/port/cluster.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';

export async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 3000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

export interface Watching {
  readonly reconciles: Reconcile[];
  readonly events: WatchProgress[];
  readonly stop: AbortController;
  readonly done: Promise<SyncWatchEnd>;
}

/** How long a batch waits: for SETTLE_MS without a change, at most MAX_WAIT_MS after its first change. */
export interface Batching {
  readonly settleMs: number;
  readonly maxWaitMs: number;
}

export function startWatch(
  kubeconfig: string,
  interrupt?: Interrupt,
  batching: Batching = { settleMs: 20, maxWaitMs: 100 },
  /** Each connection's Cluster as the watch gets it (a test may wrap one to make a request fail). */
  wrap: (cluster: Cluster) => Cluster = (c) => c,
): Watching {
  const reconciles: Reconcile[] = [];
  const events: WatchProgress[] = [];
  const stop = new AbortController();
  const deps: AppDeps = {
    readStdin: () => Promise.resolve(''),

    connect: (flags) => Promise.resolve(wrap(connect(flags, {}))),
    interrupt,
    confirm: (request) => {
      if (!request.yes) throw new Error(`asked: ${request.message}`);
      return Promise.resolve(true);
    },
    choose: () => Promise.resolve([]),
    startProgress: () => Promise.resolve({ update: () => undefined, stop: () => undefined }),
    warn: () => undefined,
    onProgress: (e) => {
      events.push(e);
      if (e.type === 'reconciled') reconciles.push(e.reconcile);
    },
  };
  const done = runSyncWatch(
    {
      source: { maxInputBytes: 1 << 30, connection: { kubeconfig } },
      render: { allowPrivileged: false },
      prune: false,
      adopt: false,
      write: { dryRun: 'none', check: false, yes: true, concurrency: 8, what: 'apply the Crossplane RBAC' },
      ...batching,
      signal: stop.signal,
    },
    deps,
  );
  return { reconciles, events, stop, done };
}

/** A fresh test API server seeded with SEED, and an admin kubeconfig for it in a new temporary directory. */
export async function freshServer(seed: unknown[]): Promise<{ server: TestApiServer; kubeconfig: string }> {
  const server = await startApiServer({ seed });
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'xrbac-watch-')), 'admin.kubeconfig');
  server.writeKubeconfig(kubeconfig);
  return { server, kubeconfig };
}

/** After a test: its watch (if one was started) stopped and ended, then its server. */
export async function stopAll(watch: Watching | undefined, server: TestApiServer): Promise<void> {
  watch?.stop.abort();
  await watch?.done.catch(() => undefined);
  await server.stop();
}
