/**
 * A watch's answer starts at once, before any event: kube-apiserver writes the 200 and flushes it when the watch
 * begins (k8s.io/apiserver pkg/endpoints/handlers/watch.go, serveWatch: WriteHeader then Flush), so a client that
 * limits how long it waits for an answer is never cut off on a kind where nothing happens. Checked with the real
 * kubectl, whose -v=6 line for the watch request appears only once the answer's status has arrived.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestApiServer } from './server.js';
import { startApiServer } from './server.js';

let server: TestApiServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xrbac-watch-headers-'));
  server = await startApiServer({});
  server.writeKubeconfig(join(dir, 'kubeconfig'));
});

afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('answers a watch on a quiet kind with 200 before any event', async () => {
  // Nothing changes ConfigMaps in kube-public during the test: the status line can only come from the headers.
  const child = spawn(
    'kubectl',
    [
      'get',
      'configmaps',
      '-n',
      'kube-public',
      '--watch-only',
      '-v=6',
      '--kubeconfig',
      join(dir, 'kubeconfig'),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  const line = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /GET \S+watch=true\S* (\d{3} \w+)/.exec(err);
      if (m !== null) resolve(m[1] ?? '');
    });
    child.on('exit', (code) => {
      reject(new Error(`kubectl exited ${String(code)} before the watch answered:\n${err}`));
    });
  }).finally(() => child.kill());
  expect(line).toBe('200 OK');
}, 30_000);
