// readAnswer over a real socket: a write's 2xx answer keeps only the start of its body; everything else is whole.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswer } from '../../../src/cluster/connection/http-answer.js';

const BIG = `{"kind":"ClusterRole","rules":[${Array.from({ length: 5000 }, (_, i) => `{"verbs":["get"],"resources":["r${String(i)}"]}`).join(',')}]}`;

describe('readAnswer', () => {
  let server: http.Server;
  let base = '';

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status') ?? '200');
      const gzip = req.url?.includes('gzip=1') === true;
      res.writeHead(status, {
        'Content-Type': 'application/json',
        ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
      });
      // In several writes, so the answer arrives in several chunks.
      const body = gzip ? gzipSync(BIG) : Buffer.from(BIG);
      for (let i = 0; i < body.length; i += 10_000) res.write(body.subarray(i, i + 10_000));
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (path: string, prefix?: number) =>
    new Promise<Awaited<ReturnType<typeof readAnswer>>>((resolve, reject) => {
      http
        .get(`${base}${path}`, (res) => {
          readAnswer(res, prefix).then(resolve, reject);
        })
        .on('error', reject);
    });

  it('keeps the first bytes of a 2xx body when asked', async () => {
    const a = await get('/?status=201', 64);
    expect(a.status).toBe(201);
    expect(a.body.toString('utf8')).toBe(BIG.slice(0, 64));
    expect(a.headers['content-type']).toBe('application/json');
  });

  it('keeps a body shorter than the prefix whole', async () => {
    const a = await get('/?status=200', BIG.length + 100);
    expect(a.body.toString('utf8')).toBe(BIG);
  });

  it('reads whole without a prefix, an error answer, and a gzipped one (gunzipped)', async () => {
    expect((await get('/?status=200')).body.toString('utf8')).toBe(BIG);
    const error = await get('/?status=500', 64);
    expect(error.status).toBe(500);
    expect(error.body.toString('utf8')).toBe(BIG);
    expect((await get('/?status=200&gzip=1', 64)).body.toString('utf8')).toBe(BIG);
  });
});

// A server (or a proxy in front of it) that sends a body without end must not make the client gather it until memory
// runs out: past 512 MiB (about the longest string V8 makes, which decoding the JSON needs) the answer is refused as
// it arrives (a gzipped body as it is gunzipped; a gzip bomb takes 2.5 CPU-seconds to show, so it is not here).
// client-go reads a body whole without a limit of its own (kubernetes/kubernetes
// staging/src/k8s.io/client-go/rest/request.go@769a9d505bc97e3ce1846bdffb73192dfae72aea transformResponse,
// io.ReadAll), so it fails only when memory does. A fake answer (a stream with a status): no bytes cross a socket.
describe('readAnswer of a body past 512 MiB', () => {
  const MIB = 1024 * 1024;
  function answer(headers: Record<string, string>, chunks: () => Generator<Buffer>): http.IncomingMessage {
    const res = Readable.from(chunks()) as unknown as http.IncomingMessage;
    return Object.assign(res, { statusCode: 200, statusMessage: 'OK', headers });
  }

  it('StopsReadingABodyWithoutEndAndSaysWhy', async () => {
    const mib = Buffer.alloc(MIB, 'a');
    let sent = 0;
    const res = answer({ 'content-type': 'application/json' }, function* () {
      for (;;) {
        sent += mib.length;
        yield mib;
      }
    });
    await expect(readAnswer(res)).rejects.toThrow(/larger than 512 MiB/);
    expect(sent, 'it stopped reading there').toBeLessThanOrEqual(513 * MIB);
  });
});

// The gunzip buffer is sized by the length a gzip body states at its end (ISIZE), which zlib checks against what it
// inflated: a body whose stated length is false fails (as kubectl does, one line naming what zlib found), and one
// stream of several gzip members (each with its own length) is read whole.
describe('readAnswer of gzipped bodies, by the length they state', () => {
  function answer(body: Buffer): http.IncomingMessage {
    const res = Readable.from([body]) as unknown as http.IncomingMessage;
    return Object.assign(res, {
      statusCode: 200,
      statusMessage: 'OK',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      rawHeaders: [],
    });
  }
  /** BIG gzipped, its stated length (the last four bytes) replaced by SIZE. */
  function stating(size: number): Buffer {
    const gz = Buffer.from(gzipSync(BIG));
    gz.writeUInt32LE(size, gz.length - 4);
    return gz;
  }

  it('ReadsTheLengthItStates', async () => {
    expect((await readAnswer(answer(gzipSync(BIG)))).body.toString('utf8')).toBe(BIG);
  });

  it('ReadsSeveralMembersWhole', async () => {
    const half = BIG.length >> 1;
    const body = Buffer.concat([gzipSync(BIG.slice(0, half)), gzipSync(BIG.slice(half))]);
    expect((await readAnswer(answer(body))).body.toString('utf8')).toBe(BIG);
  });

  it.each([
    ['TooSmall', 100],
    ['TooLarge', BIG.length * 3],
    ['BeyondWhatDeflateExpandsTo', 0xffff_fff0],
    ['Zero', 0],
  ])('FailsOnAFalseLength %s', async (_name, size) => {
    await expect(readAnswer(answer(stating(size)))).rejects.toThrow(
      /^the server's gzipped answer could not be read \(incorrect length check\): is a proxy/,
    );
  });

  it.each([
    ['Truncated', () => gzipSync(BIG).subarray(0, 100), 'unexpected end of file'],
    ['NotGzip', () => Buffer.from('not gzip, though it says so'), 'incorrect header check'],
  ])('FailsOnABodyThatIsNotWholeGzip %s', async (_name, body, why) => {
    await expect(readAnswer(answer(body()))).rejects.toThrow(`could not be read (${why})`);
  });
});
