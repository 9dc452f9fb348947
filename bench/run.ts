/**
 * The performance targets, measured side by side in one run and reported as ratios: start-up against
 * `kubectl version --client`, sync against the test API server and against `kubectl apply`, explain over
 * 5,000 ClusterRoles. Run with `npm run bench` (builds first). Nothing here is a pass/fail test; it prints
 * figures and the targets next to them.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { explainRole } from '../src/explain/explain-role.js';
import type { ClusterRole } from '../src/rbac/types.js';
import { loadSeedFiles } from '../test/apiserver/seed.js';
import { startApiServer } from '../test/apiserver/server.js';

const root = resolve(fileURLToPath(import.meta.url), '..', '..');
const binDir = join(root, 'dist', 'bin');
const env = { ...process.env, PATH: `${binDir}:${process.env.PATH ?? ''}`, NO_COLOR: '1' };
const only = process.argv.slice(2);
const want = (name: string): boolean => only.length === 0 || only.includes(name);

function timeMs(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function run(
  cmd: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): { ms: number; out: string } {
  let out = '';
  const ms = timeMs(() => {
    const r = spawnSync(cmd, args, {
      env: { ...env, ...extraEnv },
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
    });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${String(r.status)}): ${r.stderr}`);
    out = r.stdout;
  });
  return { ms, out };
}

/** `kubectl crossplane-rbac --help` with the plugin from DIR first on PATH, against `kubectl version --client`. */
function benchHelp(dir: string, label: string): void {
  const rounds = 15;
  const help: number[] = [];
  const kubectlVersion: number[] = [];
  const onPath = { PATH: `${dir}:${process.env.PATH ?? ''}` };
  run('kubectl', ['version', '--client']);
  run('kubectl', ['crossplane-rbac', '--help'], onPath);
  for (let i = 0; i < rounds; i++) {
    kubectlVersion.push(run('kubectl', ['version', '--client']).ms);
    help.push(run('kubectl', ['crossplane-rbac', '--help'], onPath).ms);
  }
  const a = median(help);
  const b = median(kubectlVersion);
  console.log(
    `help (${label}): kubectl crossplane-rbac --help ${a.toFixed(0)} ms vs kubectl version --client ${b.toFixed(0)} ms (median of ${rounds}): ratio ${(a / b).toFixed(2)}x (target <= 1.5x)`,
  );
}

/** Like run(), without blocking the event loop: the test API server answering the command lives in this process. */
function runAsync(cmd: string, args: string[]): Promise<{ ms: number; out: string }> {
  const start = process.hrtime.bigint();
  return new Promise((done, failed) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', failed);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (code !== 0) {
        failed(
          new Error(`${cmd} ${args.join(' ')} failed (${String(code)}): ${Buffer.concat(err).toString()}`),
        );
      } else {
        done({ ms, out: Buffer.concat(out).toString('utf8') });
      }
    });
  });
}

async function benchSync(): Promise<void> {
  const seed = loadSeedFiles([join(root, 'examples', 'large')]);
  const dir = mkdtempSync(join(tmpdir(), 'xrbac-bench-'));
  const server = await startApiServer({ seed, latencyMs: 2 });
  const kc = join(dir, 'kubeconfig');
  server.writeKubeconfig(kc);
  try {
    server.counters.reset();
    const cold = await runAsync('kubectl', [
      'crossplane-rbac',
      'sync',
      '--yes',
      '--kubeconfig',
      kc,
      '-o',
      'name',
    ]);
    const objects = cold.out.trim().split('\n').length;
    const coldLists = server.counters.total('list');
    const coldWrites = server.counters.writes();
    console.log(
      `sync cold (large example, 2 ms latency): ${cold.ms.toFixed(0)} ms, ${objects} objects, ${coldLists} LISTs + ${coldWrites} writes (target: LISTs + at most one write per object); requests by verb: ${JSON.stringify(verbTotals(server.counters.snapshot()))}`,
    );
    server.counters.reset();
    const warm = await runAsync('kubectl', ['crossplane-rbac', 'sync', '--yes', '--kubeconfig', kc]);
    console.log(
      `sync no-change: ${warm.ms.toFixed(0)} ms, ${server.counters.total('list')} LISTs, ${server.counters.writes()} writes, ${server.counters.total() - server.counters.total('list')} other requests (target: LISTs only, 0 writes)`,
    );

    // kubectl apply -f of sync's own output against a fresh server with the same seed.
    const yaml = (
      await runAsync('kubectl', [
        'crossplane-rbac',
        'sync',
        '--kubeconfig',
        kc,
        '-f',
        join(root, 'examples', 'large'),
        '-o',
        'yaml',
      ])
    ).out;
    const file = join(dir, 'rendered.yaml');
    writeFileSync(file, yaml);
    const fresh = await startApiServer({ seed, latencyMs: 2 });
    const kc2 = join(dir, 'kubeconfig2');
    fresh.writeKubeconfig(kc2);
    try {
      const fresh3 = await startApiServer({ seed, latencyMs: 2 });
      const kc3 = join(dir, 'kubeconfig3');
      fresh3.writeKubeconfig(kc3);
      const ours = (
        await runAsync('kubectl', ['crossplane-rbac', 'sync', '--yes', '--kubeconfig', kc3, '-o', 'name'])
      ).ms;
      await fresh3.stop();
      const theirs = (await runAsync('kubectl', ['apply', '-f', file, '--kubeconfig', kc2])).ms;
      console.log(
        `sync cold vs kubectl apply -f of the same objects: ${ours.toFixed(0)} ms vs ${theirs.toFixed(0)} ms: sync is ${(theirs / ours).toFixed(1)}x faster (target >= 5x)`,
      );
    } finally {
      await fresh.stop();
    }
  } finally {
    await server.stop();
  }
}

function verbTotals(snapshot: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(snapshot)) {
    const verb = k.split(' ')[0] ?? k;
    out[verb] = (out[verb] ?? 0) + v;
  }
  return out;
}

/**
 * A generated graph shaped like a large Crossplane cluster: many leaf roles (one per XRD or provider), 200 aggregated
 * roles each selecting a slice of them, 10 top roles aggregating those, and one role selecting every leaf.
 */
function generateRoles(n: number): ClusterRole[] {
  const roles: ClusterRole[] = [];
  const middle = 200;
  const top = 10;
  const leaves = n - middle - top - 1;
  const role = (name: string, labels: Record<string, string>, rest: Partial<ClusterRole>): ClusterRole => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, labels },
    ...rest,
  });
  for (let i = 0; i < leaves; i++) {
    roles.push(
      role(
        `leaf-${String(i).padStart(5, '0')}`,
        { [`slice-${i % middle}`]: 'true', all: 'true' },
        {
          rules: [
            { apiGroups: [`g${i % 97}.example.org`], resources: [`r${i}`, `r${i}/status`], verbs: ['*'] },
            { apiGroups: [''], resources: ['events'], verbs: ['get', 'list', 'watch'] },
          ],
        },
      ),
    );
  }
  for (let j = 0; j < middle; j++) {
    roles.push(
      role(
        `agg-${String(j).padStart(4, '0')}`,
        { [`group-${j % top}`]: 'true' },
        {
          aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`slice-${j}`]: 'true' } }] },
        },
      ),
    );
  }
  for (let k = 0; k < top; k++) {
    roles.push(
      role(
        `top-${k}`,
        {},
        { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`group-${k}`]: 'true' } }] } },
      ),
    );
  }
  roles.push(
    role('everything', {}, { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { all: 'true' } }] } }),
  );
  return roles;
}

function benchExplain(): void {
  const roles = generateRoles(5000);
  const snapshot = { clusterRoles: roles, clusterRoleBindings: [], roleBindings: [] };
  const rssBefore = process.memoryUsage().rss;
  const first = timeMs(() => explainRole('top-3', snapshot));
  const runs = Array.from({ length: 5 }, () => timeMs(() => explainRole('top-3', snapshot)));
  const widest = Array.from({ length: 3 }, () => timeMs(() => explainRole('everything', snapshot)));
  const rss = process.memoryUsage().rss;
  console.log(
    `explain over ${roles.length} ClusterRoles in-process: first ${first.toFixed(0)} ms, then median ${median(runs).toFixed(0)} ms (target < 300 ms); the role selecting all ${roles.length - 211} leaves: median ${median(widest).toFixed(0)} ms; RSS ${(rss / 1e6).toFixed(0)} MB (${(rssBefore / 1e6).toFixed(0)} MB before)`,
  );
}

if (want('help')) {
  benchHelp(binDir, 'Node bundle');
  // The standalone executable npm test builds (npm run test:e2e:standalone), when it is there.
  const standalone = join(root, 'dist', 'release-e2e', 'linux-amd64');
  if (existsSync(join(standalone, 'kubectl-crossplane_rbac'))) benchHelp(standalone, 'standalone executable');
  else console.log('help (standalone executable): skipped, run npm run test:e2e:standalone first');
}
if (want('explain')) benchExplain();
if (want('sync')) await benchSync();
