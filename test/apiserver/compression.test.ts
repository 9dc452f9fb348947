/**
 * The test API server compresses as kube-apiserver does: an answer over 128 KiB to a client whose Accept-Encoding
 * holds the token `gzip` comes gzipped, with `Content-Encoding: gzip` and `Vary: Accept-Encoding`; a smaller answer,
 * or a client that did not ask, gets the bytes as they are (k8s.io/apiserver pkg/endpoints/handlers/responsewriters:
 * compression.go ContentEncodingSupported, kubernetes/kubernetes@9d2a8fb, where a token counts only when it is exactly
 * "gzip" once trimmed, so "gzip;q=1" does not; writers.go defaultGzipThresholdBytes, @2876d1a). The real kubectl
 * (whose Go transport asks for gzip) is the client that must read it: its -v=8 log shows the answer's headers.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from './server.js';
import { ADMIN_TOKEN, startApiServer } from './server.js';

// 200 ConfigMaps of ~1 KiB each: their LIST is well over 128 KiB; one of them is well under.
const COUNT = 200;
const seed = Array.from({ length: COUNT }, (_, i) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: `cm-${String(i).padStart(3, '0')}`, namespace: 'default' },
  data: { blob: 'x'.repeat(1024) },
}));

let server: TestApiServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xrbac-compression-'));
  server = await startApiServer({ seed });
  server.writeKubeconfig(join(dir, 'kubeconfig'));
});

afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(path: string, acceptEncoding?: string): Promise<Answer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${ADMIN_TOKEN}` };
  if (acceptEncoding !== undefined) headers['Accept-Encoding'] = acceptEncoding;
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, server.url), { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve({ headers: res.headers, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

function itemNames(json: Buffer): string[] {
  const list = JSON.parse(json.toString('utf8')) as { items: { metadata: { name: string } }[] };
  return list.items.map((i) => i.metadata.name);
}

const LIST = '/api/v1/namespaces/default/configmaps';
const expected = seed.map((o) => o.metadata.name);

describe('answers over 128 KiB', () => {
  it('are gzipped for a client that asks, and decode to the same list', async () => {
    const a = await get(LIST, 'gzip');
    expect(a.headers['content-encoding']).toBe('gzip');
    expect(a.headers.vary).toBe('Accept-Encoding');
    expect(itemNames(gunzipSync(a.body))).toStrictEqual(expected);
  });

  it('find the token among others, trimmed', async () => {
    expect((await get(LIST, 'deflate,  gzip ')).headers['content-encoding']).toBe('gzip');
  });

  it('are sent as they are to a client that did not ask, or asked with a parameter', async () => {
    for (const accept of [undefined, '', 'deflate', 'gzip;q=1', 'x-gzip']) {
      const a = await get(LIST, accept);
      expect(a.headers['content-encoding'], String(accept)).toBeUndefined();
      const names = itemNames(a.body);
      expect(names, String(accept)).toStrictEqual(expected);
      expect(a.body.length).toBeGreaterThan(128 * 1024);
    }
  });
});

it('an answer of 128 KiB or less is sent as it is, even to a client that asks', async () => {
  const a = await get(`${LIST}/cm-000`, 'gzip');
  expect(a.headers['content-encoding']).toBeUndefined();
  expect(JSON.parse(a.body.toString('utf8'))).toMatchObject({ metadata: { name: 'cm-000' } });
});

it('the real kubectl asks for gzip, gets the large list gzipped, and reads it', async () => {
  const run = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    execFile(
      'kubectl',
      ['get', 'configmaps', '-n', 'default', '-o', 'name', '-v=8', '--kubeconfig', join(dir, 'kubeconfig')],
      { timeout: 30_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err !== null) reject(new Error(`${err.message}\n${stderr}`));
        else resolve({ stdout, stderr });
      },
    );
  });
  // Go's transport, having asked for gzip itself, decodes the answer and drops its Content-Encoding; the Vary
  // header the server sets only on a compressed answer stays in the log.
  const listAnswer = run.stderr.slice(run.stderr.indexOf('/namespaces/default/configmaps?'));
  expect(listAnswer).toMatch(/Response Headers:[^]*?Vary: Accept-Encoding[^]*?Response Body/);
  expect(run.stdout.trim().split('\n')).toStrictEqual(expected.map((n) => `configmap/${n}`));
});
