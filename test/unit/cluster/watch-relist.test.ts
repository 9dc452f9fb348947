// A server (or a proxy in front of it) that answers every watch with 410 Gone must not make the watch list again and
// again at full speed: client-go's reflector, after a watch ends expired, returns from ListAndWatch, and Run's
// wait.BackoffUntil waits the backoff manager's next delay (800ms doubling to 30s, jittered) before it lists again
// (kubernetes/kubernetes staging/src/k8s.io/client-go/tools/cache/reflector.go@000c6651b28123ea483df5bf317a4947e0aae352:
// Run, and watch's isExpiredError case, which returns nil). A fake transport, so no time passes but the fake clock's.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Readable } from 'node:stream';
import { watchKind, type WatchTransport } from '../../../src/cluster/watch.js';
import type { Answer, StreamedAnswer } from '../../../src/cluster/connection/http-answer.js';
import { Kinds, type WatchEvent } from '../../../src/port/cluster.js';

function json(status: number, body: unknown): Answer {
  return {
    status,
    statusText: '',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  };
}

/** Lists answer one Role at a new resourceVersion each time; every watch is answered as EXPIRED says. */
function expiringServer(expired: 'status' | 'event'): WatchTransport & { lists: number; watches: number } {
  const gone = { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 410, reason: 'Expired' };
  const server = {
    lists: 0,
    watches: 0,
    get(): Promise<Answer> {
      server.lists++;
      const rv = String(server.lists);
      return Promise.resolve(
        json(200, {
          metadata: { resourceVersion: rv },
          items: [{ metadata: { name: 'r1', namespace: 'ns', resourceVersion: rv } }],
        }),
      );
    },
    stream(): Promise<Answer | StreamedAnswer> {
      server.watches++;
      if (expired === 'status') return Promise.resolve(json(410, gone));
      const line = `${JSON.stringify({ type: 'ERROR', object: gone })}\n`;
      return Promise.resolve({ ...json(200, {}), body: Buffer.alloc(0), stream: Readable.from([line]) });
    },
  };
  return server;
}

describe('watchKind against a server that forgets every watch (410)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(['status', 'event'] as const)(
    'lists again only after the reflector backoff (answered as %s), each wait longer',
    async (expired) => {
      const server = expiringServer(expired);
      const stop = new AbortController();
      const iter = watchKind(server, { server: 'https://x', contextName: '' }, Kinds.role, {}, stop.signal)[
        Symbol.asyncIterator
      ]();
      try {
        expect(((await iter.next()).value as WatchEvent).type).toBe('SYNCED');
        let settled = false;
        const next = iter.next().then((r) => {
          settled = true;
          return r;
        });
        // The watch was answered 410; the reflector waits at least 800ms before it lists again.
        await vi.advanceTimersByTimeAsync(799);
        expect(server.watches).toBe(1);
        expect(server.lists).toBe(1);
        expect(settled).toBe(false);
        // At most 1.6s (800ms jittered by up to as much again).
        await vi.advanceTimersByTimeAsync(801);
        expect(((await next).value as WatchEvent).type).toBe('SYNCED');
        expect(server.lists).toBe(2);
        // The second relist in a row waits longer: at least 1.6s.
        settled = false;
        const third = iter.next().then((r) => {
          settled = true;
          return r;
        });
        await vi.advanceTimersByTimeAsync(1_599);
        expect(server.lists).toBe(2);
        expect(settled).toBe(false);
        await vi.advanceTimersByTimeAsync(1_601);
        expect(((await third).value as WatchEvent).type).toBe('SYNCED');
        expect(server.lists).toBe(3);
      } finally {
        stop.abort();
        await iter.return?.();
      }
    },
  );
});
