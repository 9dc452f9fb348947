// sync --watch through the built executable as a real process: it prints one line per reconcile (one JSON object
// with -o json), repairs what changes under it, and a Ctrl-C (SIGINT) ends it with exit 130, leaving a cluster the
// next `sync --check` finds clean. Every wait is on output or on the server's store, never on a time.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { assertBuilt, binDir, repoRoot, tempDir } from './harness.js';

type Obj = Record<string, any>;

const examples = join(repoRoot, 'examples', 'cluster');
const REVISION = 'crossplane-contrib-provider-kubernetes-408e44da486e';

function startPlugin(args: readonly string[], kubeconfig: string) {
  const child = spawn(join(binDir, 'kubectl-crossplane_rbac'), [...args, '--kubeconfig', kubeconfig], {
    env: { PATH: process.env.PATH ?? '', HOME: tempDir('xrbac-home-'), NO_COLOR: '1', TZ: 'UTC' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (b: Buffer) => (out.stdout += b.toString('utf8')));
  child.stderr.on('data', (b: Buffer) => (out.stderr += b.toString('utf8')));
  const exit = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      resolve(code ?? -1);
    });
  });
  return { out, exit, kill: (s: NodeJS.Signals) => child.kill(s) };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 6000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe('sync --watch, through the executable', () => {
  let server: TestApiServer;
  let kubeconfig: string;
  const revision = parseAllDocuments(readFileSync(join(examples, '30-providers.yaml'), 'utf8'))
    .map((d) => d.toJS() as Obj | null)
    .find((o) => o?.kind === 'ProviderRevision' && o.metadata?.name === REVISION) as Obj;

  beforeAll(() => {
    assertBuilt();
  });
  afterEach(async () => {
    await server.stop();
  });

  async function fresh(): Promise<void> {
    const seed = loadSeedFiles([examples]).filter((o) => (o as Obj).metadata?.name !== REVISION);
    server = await startApiServer({ seed });
    kubeconfig = join(tempDir(), 'kubeconfig');
    server.writeKubeconfig(kubeconfig);
  }

  it('prints a line per reconcile; Ctrl-C exits 130; the next sync --check is clean', async () => {
    await fresh();
    const plugin = startPlugin(['sync', '--watch', '--yes'], kubeconfig);
    await until(
      () => /^\d\d:\d\d:\d\d listed \d+ objects: \d+ created\n/m.test(plugin.out.stdout),
      'the first sync',
    );
    expect(plugin.out.stderr).toMatch(
      /^watching CompositeResourceDefinition, ProviderRevision, .*: Ctrl-C stops$/m,
    );
    server.seed([revision]);
    const added = new RegExp(
      `^\\d\\d:\\d\\d:\\d\\d ProviderRevision ${REVISION} added( \\(and \\d+ more changes\\))?: 4 created$`,
      'm',
    );
    await until(() => added.test(plugin.out.stdout), 'the revision reconciled');
    plugin.kill('SIGINT');
    expect(await plugin.exit).toBe(130);
    const check = startPlugin(['sync', '--check'], kubeconfig);
    expect(await check.exit, check.out.stderr).toBe(0);
  });

  it('-o json: one JSON object per reconcile, one per line', async () => {
    await fresh();
    const plugin = startPlugin(['sync', '--watch', '--yes', '-o', 'json'], kubeconfig);
    await until(() => plugin.out.stdout.includes('\n'), 'the first reconcile');
    server.seed([revision]);
    await until(() => plugin.out.stdout.split('\n').length >= 3, 'the second reconcile');
    plugin.kill('SIGINT');
    expect(await plugin.exit).toBe(130);
    const lines = plugin.out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Obj);
    expect(lines[0]).toMatchObject({ number: 1, trigger: { change: 'listed' }, status: 'applied' });
    expect(lines[0]?.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(lines[1]).toMatchObject({
      trigger: { kind: 'ProviderRevision', name: REVISION, change: 'added' },
      created: 4,
      updated: 0,
      deleted: 0,
      failed: [],
    });
  });
});
