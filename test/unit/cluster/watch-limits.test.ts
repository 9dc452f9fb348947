// A watch stream that never sends a newline (a broken or hostile proxy, a server gone wrong) must not make the
// plugin hold more and more of it: client-go reads a watch event as one frame of at most 16 MiB and fails with
// ErrObjectTooLarge past that (kubernetes/kubernetes
// staging/src/k8s.io/apimachinery/pkg/runtime/serializer/streaming/streaming.go@e63752e0f2710cbb0ae36a012878fa1812b14e5a
// NewDecoder's maxBytes, Decode). A fake transport whose stream counts the bytes it was asked for.
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { watchKind, type WatchTransport } from '../../../src/cluster/watch.js';
import type { Answer, StreamedAnswer } from '../../../src/cluster/connection/http-answer.js';
import { UserError } from '../../../src/errors.js';
import { Kinds, type WatchEvent } from '../../../src/port/cluster.js';

const MIB = 1024 * 1024;

function json(body: unknown): Answer {
  return {
    status: 200,
    statusText: '',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  };
}

/** Lists one Role; its one watch streams CHUNKS (then ends); a second watch is a failure of the test. */
function server(chunks: () => Generator<Buffer>): WatchTransport & { streamed: number } {
  const s = {
    streamed: 0,
    get: (): Promise<Answer> =>
      Promise.resolve(
        json({ metadata: { resourceVersion: '1' }, items: [{ metadata: { name: 'r', namespace: 'n' } }] }),
      ),
    stream: (): Promise<Answer | StreamedAnswer> => {
      if (s.streamed > 0) return Promise.reject(new Error('watched again: the stream was not refused'));
      function* counted(): Generator<Buffer> {
        for (const c of chunks()) {
          s.streamed += c.length;
          yield c;
        }
      }
      return Promise.resolve({ ...json({}), body: Buffer.alloc(0), stream: Readable.from(counted()) });
    },
  };
  return s;
}

async function afterSynced(transport: WatchTransport): Promise<IteratorResult<WatchEvent>> {
  const stop = new AbortController();
  const iter = watchKind(transport, { server: 'https://x', contextName: '' }, Kinds.role, {}, stop.signal);
  try {
    expect((await iter.next()).value?.type).toBe('SYNCED');
    return await iter.next();
  } finally {
    stop.abort();
    await iter.return(undefined);
  }
}

describe('a watch event is read up to 16 MiB, as client-go reads a frame', () => {
  it('NoNewlineForeverFailsAtTheLimitWithOneClearError', async () => {
    const mib = Buffer.alloc(MIB, 'a');
    const s = server(function* () {
      for (let i = 0; i < 64; i++) yield mib;
    });
    const err = await afterSynced(s).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err, 'one error naming the limit, not a reconnect that reads it all again').toBeInstanceOf(
      UserError,
    );
    expect((err as Error).message).toMatch(/roles.* longer than 16 MiB/);
    expect(s.streamed, 'it stopped reading once past the limit').toBeLessThanOrEqual(17 * MIB);
  });

  it('AnEventJustUnderTheLimitIsRead', async () => {
    const object = { metadata: { name: 'big', namespace: 'n', resourceVersion: '2' }, rules: [] };
    const shell = JSON.stringify({
      type: 'ADDED',
      object: { ...object, metadata: { ...object.metadata, annotations: { a: '' } } },
    });
    const pad = 16 * MIB - Buffer.byteLength(shell) - 1;
    const line = shell.replace('"a":""', `"a":"${'x'.repeat(pad)}"`);
    expect(Buffer.byteLength(line)).toBe(16 * MIB - 1);
    const s = server(function* () {
      yield Buffer.from(`${line}\n`);
    });
    const next = await afterSynced(s);
    expect(next.value).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'big' } } });
  });
});

describe('a watch event that is no event', () => {
  it('IsShownInTheErrorCutAsKubectlCutsABodyItLogs', async () => {
    // client-go's truncateBody shows 1024 characters of a body at -v=8 and says how many it left out
    // (kubernetes/kubernetes
    // staging/src/k8s.io/client-go/rest/request.go@769a9d505bc97e3ce1846bdffb73192dfae72aea).
    const line = JSON.stringify({ kind: 'Status', message: 'y'.repeat(MIB) });
    const s = server(function* () {
      yield Buffer.from(`${line}\n`);
    });
    const err = await afterSynced(s).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UserError);
    const message = (err as Error).message;
    expect(message).toMatch(
      /without a type and an object: \{"kind":"Status","message":"y+ \[truncated \d+ chars\]$/,
    );
    expect(message.length, 'a line of an error, not the megabyte sent').toBeLessThan(1200);
  });
});
