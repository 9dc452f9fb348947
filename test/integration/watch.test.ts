// Cluster.watch against the test API server: list, then watch from the list's resourceVersion, as client-go's
// reflector does (tools/cache/reflector.go). Each case drives the server so that a watch resuming from the wrong
// resourceVersion, ignoring bookmarks or a 410, or leaving its socket open would give a different sequence.
import { getEventListeners } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect } from '../support/connect.js';
import type { KubeObject } from '../../src/kube/types.js';
import {
  Kinds,
  type Cluster,
  type ResourceKind,
  type WatchEvent,
  type WatchOptions,
} from '../../src/port/cluster.js';
import { ApiError } from '../../src/port/translate-error.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { userKubeconfig } from './harness.js';

type Obj = Record<string, unknown>;

const NS = 'watched';

function role(name: string, namespace = NS, labels: Record<string, string> = {}): Obj {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name, namespace, labels },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
  };
}

function configMap(name: string, labels: Record<string, string>): Obj {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS, labels }, data: {} };
}

/** An event as a short line: `ADDED r3`, `SYNCED r1,r2`. */
function line(e: WatchEvent): string {
  return e.type === 'SYNCED'
    ? `SYNCED ${e.objects.map((o) => o.metadata.name).join(',')}`
    : `${e.type} ${e.object.metadata.name}`;
}

function rvOf(e: WatchEvent): number {
  return Number(e.type === 'SYNCED' ? e.resourceVersion : e.object.metadata.resourceVersion);
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The watch of Roles as an iterator, pulled one event at a time: nothing is requested before each pull. */
function iterate(cluster: Cluster, opts: WatchOptions, signal: AbortSignal): AsyncIterator<WatchEvent> {
  return cluster.watch(Kinds.role, opts, signal)[Symbol.asyncIterator]();
}

/** Consumes a watch in the background, recording every event, how it ended, and any error. */
function record(cluster: Cluster, opts: WatchOptions, signal: AbortSignal, kind: ResourceKind = Kinds.role) {
  const rec = { events: [] as WatchEvent[], error: undefined as unknown, ended: false };
  const done = (async () => {
    try {
      for await (const e of cluster.watch(kind, opts, signal)) rec.events.push(e);
    } catch (err) {
      rec.error = err;
    } finally {
      rec.ended = true;
    }
  })();
  const lines = (): string[] => rec.events.map(line);
  return { rec, done, lines, seen: (l: string) => until(() => lines().includes(l), l) };
}

describe('Cluster.watch', () => {
  let server: TestApiServer;
  let kubeconfig: string;
  let dir: string;
  let cluster: Cluster;
  let stop: AbortController;

  beforeEach(async () => {
    server = await startApiServer({
      seed: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
        role('r1'),
        role('r2'),
        role('elsewhere', 'other'),
      ],
    });
    dir = mkdtempSync(join(tmpdir(), 'xrbac-watch-'));
    kubeconfig = join(dir, 'admin.kubeconfig');
    server.writeKubeconfig(kubeconfig);
    cluster = connect({ kubeconfig }, {});
    stop = new AbortController();
    server.counters.reset();
  });
  afterEach(async () => {
    stop.abort();
    cluster.close?.();
    await server.stop();
  });

  it('lists as SYNCED, then sees creates, updates and deletes from the list on, each once and in order', async () => {
    const iter = iterate(cluster, { namespace: NS, timeoutSeconds: 30 }, stop.signal);
    const first = (await iter.next()).value as WatchEvent;
    expect(line(first)).toBe('SYNCED r1,r2');
    // Items of a built-in list come without apiVersion and kind; the watch gives them the listed kind's.
    const listed = first.type === 'SYNCED' ? first.objects : [];
    expect(listed.map((o) => [o.apiVersion, o.kind])).toStrictEqual([
      ['rbac.authorization.k8s.io/v1', 'Role'],
      ['rbac.authorization.k8s.io/v1', 'Role'],
    ]);
    // Written after the list and before the watch request: only a watch from the list's resourceVersion sees
    // these (from "" or "0" it would see r1 and r2 again as ADDED; from now on it would miss them).
    server.seed([role('r3'), role('r1', NS, { changed: 'yes' }), role('r9', 'other')]);
    const events: WatchEvent[] = [];
    const rest = (async () => {
      for (let r = await iter.next(); r.done !== true; r = await iter.next()) events.push(r.value);
    })();
    await until(() => events.length >= 2, 'the replayed events');
    await cluster.delete(Kinds.role, 'r2', NS);
    await until(() => events.length >= 3, 'the deletion');
    expect(events.map(line)).toStrictEqual(['ADDED r3', 'MODIFIED r1', 'DELETED r2']);
    const modified = events[1];
    expect(modified?.type === 'MODIFIED' && modified.object.metadata.labels).toStrictEqual({
      changed: 'yes',
    });
    // Each change once, in the server's order, all after the list.
    const rvs = [first, ...events].map(rvOf);
    expect(rvs).toStrictEqual([...rvs].sort((a, b) => a - b));
    expect(new Set(rvs).size).toBe(rvs.length);
    expect(server.counters.get('list', 'roles')).toBe(1);
    expect(server.counters.get('watch', 'roles')).toBe(1);
    stop.abort();
    await rest;
  });

  it('watches a core kind with a label selector', async () => {
    server.seed([configMap('a', { app: 'x' }), configMap('b', { app: 'y' })]);
    const w = record(cluster, { namespace: NS, labelSelector: 'app=x' }, stop.signal, Kinds.configMap);
    await w.seen('SYNCED a');
    server.seed([configMap('c', { app: 'x' }), configMap('d', { app: 'y' }), configMap('e', { app: 'x' })]);
    await w.seen('ADDED e');
    expect(w.lines()).toStrictEqual(['SYNCED a', 'ADDED c', 'ADDED e']);
    const added = w.rec.events[1];
    expect(added?.type === 'ADDED' && [added.object.apiVersion, added.object.kind]).toStrictEqual([
      'v1',
      'ConfigMap',
    ]);
  });

  it('lists every page of a large collection before it watches', async () => {
    const names = Array.from({ length: 1_100 }, (_, i) => `bulk-${String(i).padStart(4, '0')}`);
    server.seed(names.map((n) => role(n)));
    server.counters.reset();
    const w = record(cluster, { namespace: NS }, stop.signal);
    await until(() => w.rec.events.length > 0, 'the list');
    const synced = w.rec.events[0];
    expect(synced?.type === 'SYNCED' && synced.objects.length).toBe(1_102);
    expect(server.counters.get('list', 'roles')).toBe(3);
  });

  it("lists in full when a continue token expires between pages (410), as client-go's pager does", async () => {
    server.seed(Array.from({ length: 1_100 }, (_, i) => role(`bulk-${String(i).padStart(4, '0')}`)));
    server.counters.reset();
    // Each request waits 200ms: the second page is counted, then waits while its snapshot is compacted away.
    server.faults.latencyMs = 200;
    const w = record(cluster, { namespace: NS }, stop.signal);
    await until(() => server.counters.get('list', 'roles') === 2, 'the second page');
    server.seed([role('late')]);
    server.compact();
    await until(() => w.rec.events.length > 0 || w.rec.ended, 'the list');
    const synced = w.rec.events[0];
    expect(w.rec.error).toBeUndefined();
    expect(synced?.type === 'SYNCED' && synced.objects.length).toBe(1_103);
    expect(server.counters.get('list', 'roles')).toBe(3);
  });

  it('asks for bookmarks, and resumes from a bookmark: no relist once the history before it is compacted', async () => {
    const w = record(cluster, { namespace: NS, timeoutSeconds: 1 }, stop.signal);
    await w.seen('SYNCED r1,r2');
    await until(() => server.openWatchCount() === 1, 'the watch');
    // Other kinds move the resourceVersion on; the watched one has no event, only the bookmark carries it.
    server.seed([1, 2, 3].map((i) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `n${i}` } })));
    expect(server.bookmarkWatches(), 'the watch asked for bookmarks').toBe(1);
    // History up to the bookmark is gone: a watch from the list's resourceVersion would get 410 and relist.
    server.compact();
    await until(() => server.counters.get('watch', 'roles') >= 2, 'the next watch (timeoutSeconds=1)');
    await until(() => server.openWatchCount() === 1, 'the next watch to be served');
    server.seed([role('r5')]);
    await w.seen('ADDED r5');
    expect(w.lines()).toStrictEqual(['SYNCED r1,r2', 'ADDED r5']);
    expect(server.counters.get('list', 'roles')).toBe(1);
  });

  it('resumes where the server ended the watch (timeoutSeconds): nothing lost, nothing repeated', async () => {
    // Every request waits 300ms before it is served: a watch request is counted at once, then sits there while
    // no watch is open, so writes in that gap reach the client only if it resumes from its last event.
    server.faults.latencyMs = 300;
    const w = record(cluster, { namespace: NS, timeoutSeconds: 1 }, stop.signal);
    await w.seen('SYNCED r1,r2');
    server.seed([role('a')]);
    await w.seen('ADDED a');
    server.seed([role('b')]);
    await w.seen('ADDED b');
    await until(() => server.counters.get('watch', 'roles') >= 2, 'the second watch request');
    server.seed([role('c'), role('a', NS, { v: '2' })]);
    await w.seen('MODIFIED a');
    await until(() => server.counters.get('watch', 'roles') >= 3, 'the third watch request');
    await cluster.delete(Kinds.role, 'b', NS);
    await w.seen('DELETED b');
    expect(w.lines()).toStrictEqual([
      'SYNCED r1,r2',
      'ADDED a',
      'ADDED b',
      'ADDED c',
      'MODIFIED a',
      'DELETED b',
    ]);
    expect(server.counters.get('list', 'roles')).toBe(1);
    expect(w.rec.error).toBeUndefined();
  });

  it.each(['event', 'status'] as const)(
    'relists on 410 Gone (answered as %s) and yields the new state as SYNCED',
    async (expiredAs) => {
      server.watchSettings.expiredAs = expiredAs;
      const iter = iterate(cluster, { namespace: NS }, stop.signal);
      expect(line((await iter.next()).value as WatchEvent)).toBe('SYNCED r1,r2');
      // Before the watch request: changes, then their history compacted away.
      server.seed([role('r3'), role('r1', NS, { changed: 'yes' })]);
      await cluster.delete(Kinds.role, 'r2', NS);
      const compacted = server.compact();
      const relisted = (await iter.next()).value as WatchEvent;
      expect(line(relisted)).toBe('SYNCED r1,r3');
      expect(rvOf(relisted)).toBeGreaterThanOrEqual(compacted);
      const r1 = relisted.type === 'SYNCED' ? relisted.objects[0] : undefined;
      expect(r1?.metadata.labels).toStrictEqual({ changed: 'yes' });
      expect(server.counters.get('list', 'roles')).toBe(2);
      expect(server.counters.get('watch', 'roles')).toBe(1);
      // And it watches on from the relist.
      server.seed([role('r4')]);
      expect(line((await iter.next()).value as WatchEvent)).toBe('ADDED r4');
      expect(server.counters.get('list', 'roles')).toBe(2);
    },
  );

  it('resumes from the last event after the server restarts on its store', async () => {
    const w = record(cluster, { namespace: NS, timeoutSeconds: 30 }, stop.signal);
    await w.seen('SYNCED r1,r2');
    server.seed([role('a')]);
    await w.seen('ADDED a');
    await server.stop();
    server.seed([role('b')]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server.restart();
    await w.seen('ADDED b');
    server.seed([role('c')]);
    await w.seen('ADDED c');
    expect(w.lines()).toStrictEqual(['SYNCED r1,r2', 'ADDED a', 'ADDED b', 'ADDED c']);
    expect(server.counters.get('list', 'roles')).toBe(1);
  });

  it('throws what no retry mends: a user who may list but not watch gets the 403', async () => {
    server.seed([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'list-roles' },
        rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['list'] }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'lister' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'list-roles' },
        subjects: [{ kind: 'User', name: 'lister', apiGroup: 'rbac.authorization.k8s.io' }],
      },
    ]);
    const lister = connect({ kubeconfig: userKubeconfig(server, dir, 'lister') }, {});
    try {
      const w = record(lister, { namespace: NS }, stop.signal);
      await w.done;
      expect(w.lines()).toStrictEqual(['SYNCED r1,r2']);
      expect(w.rec.error).toBeInstanceOf(ApiError);
      expect((w.rec.error as ApiError).code).toBe(403);
    } finally {
      lister.close?.();
    }
  });

  it('stops on abort: the iteration ends quietly and its connection closes, so the server can shut down', async () => {
    const w = record(cluster, { namespace: NS, timeoutSeconds: 30 }, stop.signal);
    await w.seen('SYNCED r1,r2');
    await until(() => server.openWatchCount() === 1, 'the watch');
    stop.abort();
    await w.done;
    expect(w.rec.error).toBeUndefined();
    expect(w.lines()).toStrictEqual(['SYNCED r1,r2']);
    // Without closing the client: an HTTP/1.1 answer ends for the server only when its connection closes.
    await until(() => server.openWatchCount() === 0, 'the server to see the watch closed');
    cluster.close?.();
    await until(() => server.connectionCount() === 0, 'every connection closed');
  });

  it("holds one abort listener per request in flight on the caller's signal: re-watches and relists add none", async () => {
    // sync --watch runs its nine watches on one signal: the MaxListenersExceededWarning ("11 abort listeners") it
    // showed is nine watch requests in flight, the session's wake-up and its debounce sleep, over Node's default of
    // 10, not a leak; sync-watch.ts raises the limit for the session's signal. What must hold is the bound: however
    // often the server ends a watch (timeoutSeconds: 1) or forgets its history (410), the count stays at one per watch.
    const watches = Array.from({ length: 3 }, () =>
      record(cluster, { namespace: NS, timeoutSeconds: 1 }, stop.signal),
    );
    for (const w of watches) await w.seen('SYNCED r1,r2');
    const listeners = (): number => getEventListeners(stop.signal, 'abort').length;
    const counts: number[] = [];
    for (let round = 1; round <= 3; round++) {
      await until(
        () => server.counters.get('watch', 'roles') >= 3 * (round + 1),
        `re-watch round ${String(round)}`,
      );
      if (round === 2) server.compact();
      server.seed([role(`x${String(round)}`)]);
      for (const w of watches) await w.seen(`ADDED x${String(round)}`);
      counts.push(listeners());
    }
    // Each watch has at most its one request in flight (between two requests, none).
    expect(counts.every((n) => n <= watches.length)).toBe(true);
    expect(server.counters.get('watch', 'roles')).toBeGreaterThanOrEqual(12);
    stop.abort();
    await Promise.all(watches.map((w) => w.done));
    expect(listeners()).toBe(0);
  });

  it('does nothing when aborted before it starts', async () => {
    stop.abort();
    const events: KubeObject[] = [];
    for await (const e of cluster.watch(Kinds.role, { namespace: NS }, stop.signal)) {
      if (e.type !== 'SYNCED') events.push(e.object);
    }
    expect(events).toStrictEqual([]);
    expect(server.counters.total()).toBe(0);
  });
});
