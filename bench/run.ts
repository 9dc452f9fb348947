/**
 * The performance targets, measured side by side in one run and reported as ratios or sizes with the target next to
 * each figure: start-up against `kubectl version --client`, offline rendering of the whole provider-upjet-aws family,
 * an unchanged sync against `kubectl get` of the same objects, a large -f input, sync against `kubectl apply`,
 * who-can against `kubectl auth can-i` per subject, audit against who-can, and explain over 5,000 ClusterRoles. Run with `npm run bench`
 * (builds first; also builds the standalone linux-amd64 executable when bun is installed); `npm run bench -- help
 * render` runs only some cases (help, render, sync, input, who-can, audit, explain, rbac; and apply, fleet and watch,
 * which are not run by default: watch is 24 hours of simulated churn under sync --watch, bench/watch.ts). rbac:
 * pathological RBAC graphs (bench/pathological.ts).
 * Nothing here is a pass/fail test: it prints figures and their targets.
 *
 * BENCH_BIN_DIR and BENCH_STANDALONE_DIR measure other builds (a directory holding kubectl-crossplane_rbac: the
 * Node.js bundle, and the standalone executable), e.g. those of an older commit for before/after figures.
 * BENCH_LEGACY_DISCOVERY=1 runs the who-can case against a server without aggregated discovery.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fullFamilyYaml } from '../scripts/generate-examples.js';
import { fixed, MB, median } from './figures.js';
import { benchAudit } from './audit.js';
import { benchFleet } from './fleet.js';
import { benchSync, benchSyncFloor, benchWhoCan } from './live.js';
import { benchPathological } from './pathological.js';
import { benchWatch } from './watch.js';
import { BIN, binDir, env, mem, ratio, root, run, work, type Measured } from './process.js';

const only = process.argv.slice(2);
/** Whether to run a case: the ones named on the command line, or every default one when none is named. */
const want = (name: string, byDefault = true): boolean =>
  only.length === 0 ? byDefault : only.includes(name);

/**
 * The standalone linux-amd64 executable of the current build, made here (bun's bytecode and all) so the figures
 * are of this commit; undefined when bun is not installed or this is not an x64 Linux.
 */
function standaloneDir(): string | undefined {
  if (process.env.BENCH_STANDALONE_DIR !== undefined) return resolve(process.env.BENCH_STANDALONE_DIR);
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  if (!existsSync(join(root, 'node_modules', 'bun', 'package.json'))) return undefined;
  const out = join(root, 'dist', 'release-bench');
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'scripts', 'release.ts'),
      '--skip-build',
      '--no-write-manifest',
      '--platforms',
      'linux-amd64',
      '--out',
      out,
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (r.status !== 0) throw new Error('building the standalone executable failed');
  return join(out, 'linux-amd64');
}

// ---- goal 1: start-up

/**
 * `kubectl-crossplane_rbac --help` and `version` against `kubectl version --client`, paired: each round runs all
 * three in turn, so load on the machine hits them alike.
 */
function benchStartup(dir: string, label: string, target: string, floor?: string): void {
  const rounds = 31;
  const exe = join(dir, BIN);
  const times = {
    kubectl: [] as number[],
    help: [] as number[],
    version: [] as number[],
    floor: [] as number[],
  };
  run('kubectl', ['version', '--client']);
  run(exe, ['--help']);
  for (let i = 0; i < rounds; i++) {
    times.kubectl.push(run('kubectl', ['version', '--client']).ms);
    times.help.push(run(exe, ['--help']).ms);
    times.version.push(run(exe, ['version']).ms);
    if (floor !== undefined) times.floor.push(run(floor, []).ms);
  }
  const k = median(times.kubectl);
  for (const cmd of ['help', 'version'] as const) {
    const a = median(times[cmd]);
    console.log(
      `start-up (${label}): ${cmd === 'help' ? '--help' : 'version'} ${fixed(a)} ms vs kubectl version --client ${fixed(k)} ms (medians of ${rounds} paired runs): ratio ${ratio(a, k)} (target ${target})`,
    );
  }
  if (floor !== undefined) {
    const f = median(times.floor);
    console.log(
      `start-up floor (${label}): a bun executable that prints one line ${fixed(f)} ms: ratio ${ratio(f, k)} (what no standalone executable can go under; informational)`,
    );
  }
}

/** The start-up floor: a hello world compiled by the same bun, into an executable of the same runtime. */
function bunHelloWorld(): string | undefined {
  const bun = join(root, 'node_modules', '.bin', 'bun');
  if (!existsSync(bun)) return undefined;
  const dir = join(work, 'bun-hello');
  spawnSync('mkdir', ['-p', dir]);
  writeFileSync(join(dir, 'hello.cjs'), "console.log('hello');\n");
  const r = spawnSync(
    bun,
    ['build', '--compile', '--bytecode', '--format=cjs', './hello.cjs', '--outfile', './hello'],
    { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return r.status === 0 ? join(dir, 'hello') : undefined;
}

/**
 * The same through kubectl's plugin dispatch (`kubectl crossplane-rbac --help`), next to a plugin that does nothing
 * (a shell script): kubectl builds its whole command tree before it looks a plugin up, so dispatching alone costs
 * about what `kubectl version --client` does, and no plugin can be under 1.0x this way.
 */
function benchStartupThroughKubectl(dir: string, label: string): void {
  const rounds = 21;
  const noop = join(work, 'noop-plugin');
  spawnSync('mkdir', ['-p', noop]);
  writeFileSync(join(noop, 'kubectl-bench_noop'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(noop, 'kubectl-bench_noop'), 0o755);
  const pathEnv = { ...env, PATH: `${dir}:${noop}:${process.env.PATH ?? ''}` };
  const times = { kubectl: [] as number[], ours: [] as number[], noop: [] as number[] };
  run('kubectl', ['crossplane-rbac', '--help'], { env: pathEnv });
  for (let i = 0; i < rounds; i++) {
    times.kubectl.push(run('kubectl', ['version', '--client']).ms);
    times.ours.push(run('kubectl', ['crossplane-rbac', '--help'], { env: pathEnv }).ms);
    times.noop.push(run('kubectl', ['bench-noop'], { env: pathEnv }).ms);
  }
  const k = median(times.kubectl);
  console.log(
    `start-up through kubectl (${label}): kubectl crossplane-rbac --help ${fixed(median(times.ours))} ms: ratio ${ratio(median(times.ours), k)}; a no-op plugin through kubectl: ${ratio(median(times.noop), k)} (kubectl's dispatch alone; informational)`,
  );
}

// ---- goal 2: offline rendering of the whole provider family

function benchRender(dir: string, label: string, family: string): void {
  const exe = join(dir, BIN);
  const out = join(work, 'render.out');
  const runs = 5;
  const json: Measured[] = [];
  const yaml: Measured[] = [];
  for (let i = 0; i < runs; i++) {
    json.push(run(exe, ['sync', '-f', family, '-o', 'json'], { out }));
    yaml.push(run(exe, ['sync', '-f', family, '-o', 'yaml'], { out }));
  }
  const size = statSync(out).size;
  const jsonMs = median(json.map((m) => m.ms));
  const yamlMs = median(yaml.map((m) => m.ms));
  const peak = (ms: Measured[]): Measured => ({
    ...ms[0]!,
    peakMB: Math.max(...ms.map((m) => m.peakMB ?? Number.NaN)),
  });
  console.log(
    `render the full family offline (${label}): -o json ${fixed(jsonMs)} ms, ${mem(peak(json))} (target <= 350 MB); -o yaml ${fixed(yamlMs)} ms (${fixed(size / MB)} MB of YAML), ${mem(peak(yaml))}: yaml/json time ${ratio(yamlMs, jsonMs)} (target <= 2.00x) (medians of ${runs}; peaks are the highest of the runs)`,
  );
}

// ---- goal 4: a large -f input

/**
 * sync -f of the large example plus a dump of the ClusterRoles and bindings sync makes for it (sync's own
 * `-o yaml`, about 46 MB): the shape of `kubectl get clusterroles,... -o yaml` of a large cluster saved to a file.
 */
function benchLargeInput(dir: string, label: string): void {
  const exe = join(dir, BIN);
  const input = join(work, 'large-input');
  if (!existsSync(input)) {
    spawnSync('mkdir', ['-p', input]);
    writeFileSync(
      join(input, 'a-cluster.yaml'),
      readFileSync(join(root, 'examples', 'large', 'cluster.yaml')),
    );
    run(exe, ['sync', '-f', join(root, 'examples', 'large'), '-o', 'yaml'], {
      out: join(input, 'b-rbac.yaml'),
    });
  }
  const size = statSync(join(input, 'a-cluster.yaml')).size + statSync(join(input, 'b-rbac.yaml')).size;
  const m = run(exe, ['sync', '-f', input, '-o', 'name'], { out: '/dev/null' });
  console.log(
    `sync -f of a ${fixed(size / MB)} MB YAML input (${label}): ${fixed(m.ms)} ms, ${mem(m)}: ${m.peakMB === undefined ? '?' : (m.peakMB / (size / MB)).toFixed(1)}x the input (target <= 10x: memory proportional to the input)`,
  );
}

// ---- explain

/**
 * explain over 5,000 generated ClusterRoles, in a process of its own (bench/explain.ts): the RSS is explain's alone,
 * not that of the test API servers the cases before it started in this process.
 */
function benchExplain(): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'explain.ts')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`bench/explain.ts failed (exit ${String(r.status)})`);
  process.stdout.write(r.stdout);
}

// ---- main

try {
  const standalone = want('help') || want('render') || want('input') ? standaloneDir() : undefined;
  if (want('help')) {
    if (standalone !== undefined) {
      benchStartup(standalone, 'standalone executable', '<= 0.35x', bunHelloWorld());
      benchStartupThroughKubectl(standalone, 'standalone executable');
    } else console.log('start-up (standalone executable): skipped, needs bun (npm ci) on an x64 Linux');
    benchStartup(binDir, 'Node.js bundle', 'informational');
  }
  if (want('render')) {
    const family = join(work, 'family.yaml');
    writeFileSync(family, fullFamilyYaml());
    if (standalone !== undefined) benchRender(standalone, 'standalone executable', family);
    benchRender(binDir, 'Node.js bundle', family);
  }
  if (want('sync') || want('apply', false)) await benchSync(want);
  if (want('sync') || want('floor', false)) await benchSyncFloor();
  if (want('who-can')) await benchWhoCan();
  if (want('audit')) await benchAudit();
  if (want('input')) {
    if (standalone !== undefined) benchLargeInput(standalone, 'standalone executable');
    benchLargeInput(binDir, 'Node.js bundle');
  }
  if (want('explain')) benchExplain();
  if (want('rbac')) await benchPathological();
  if (want('fleet', false)) await benchFleet();
  if (want('watch', false)) await benchWatch();
} finally {
  rmSync(work, { recursive: true, force: true });
}
