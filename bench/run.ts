/**
 * The performance targets, measured side by side in one run and reported as ratios or sizes with the target next to
 * each figure: start-up against `kubectl version --client`, offline rendering of the whole provider-upjet-aws family,
 * an unchanged sync against `kubectl get` of the same objects, a large -f input, sync against `kubectl apply`,
 * who-can against `kubectl auth can-i` per subject, and explain over 5,000 ClusterRoles. Run with `npm run bench`
 * (builds first; also builds the standalone linux-amd64 executable when bun is installed); `npm run bench -- help
 * render` runs only some cases (help, render, sync, input, who-can, explain; and apply and fleet, which are not run
 * by default).
 * Nothing here is a pass/fail test: it prints figures and their targets.
 *
 * BENCH_BIN_DIR and BENCH_STANDALONE_DIR measure other builds (a directory holding kubectl-crossplane_rbac: the
 * Node.js bundle, and the standalone executable), e.g. those of an older commit for before/after figures.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { fullFamilyYaml } from '../scripts/generate-examples.js';
import { loadSeedFiles } from '../test/apiserver/seed.js';
import { startApiServer } from '../test/apiserver/server.js';
import { fixed, MB, median } from './figures.js';

const root = resolve(fileURLToPath(import.meta.url), '..', '..');
const BIN = 'kubectl-crossplane_rbac';
const binDir = resolve(process.env.BENCH_BIN_DIR ?? join(root, 'dist', 'bin'));
const env = { ...process.env, PATH: `${binDir}:${process.env.PATH ?? ''}`, NO_COLOR: '1' };
const only = process.argv.slice(2);
/** Whether to run a case: the ones named on the command line, or every default one when none is named. */
const want = (name: string, byDefault = true): boolean =>
  only.length === 0 ? byDefault : only.includes(name);
const work = mkdtempSync(join(tmpdir(), 'xrbac-bench-'));
const GNU_TIME = '/usr/bin/time';

const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;

interface Measured {
  readonly ms: number;
  /** Peak resident memory of the command, when GNU time is there to say. */
  readonly peakMB: number | undefined;
  readonly out: string;
}

/**
 * Runs a command to completion (blocking: for commands that need nothing from this process). stdout goes to the
 * file OUT when given (large outputs), else it is returned.
 */
function run(
  cmd: string,
  args: readonly string[],
  opts: { out?: string; env?: NodeJS.ProcessEnv } = {},
): Measured {
  const timeFile = join(work, 'time.txt');
  const measure = existsSync(GNU_TIME);
  const argv = measure ? ['-f', '%M', '-o', timeFile, cmd, ...args] : [...args];
  const stdout = opts.out !== undefined ? openSync(opts.out, 'w') : 'pipe';
  const t = process.hrtime.bigint();
  const r = spawnSync(measure ? GNU_TIME : cmd, argv, {
    env: opts.env ?? env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', stdout, 'pipe'],
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (typeof stdout === 'number') closeSync(stdout);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${String(r.status)}): ${r.stderr}`);
  const peakKB = measure ? Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)) : Number.NaN;
  return { ms, peakMB: Number.isFinite(peakKB) ? (peakKB * 1024) / MB : undefined, out: r.stdout ?? '' };
}

/**
 * Like run(), without blocking the event loop: the test API server answering the command lives in this process.
 * OK_CODES: the exit codes that are not a failure (sync --check exits 1 on drift); PEAK: measure peak RSS.
 */
function runAsync(
  cmd: string,
  args: readonly string[],
  extraEnv: NodeJS.ProcessEnv = {},
  opts: { okCodes?: readonly number[]; peak?: boolean } = {},
): Promise<Measured> {
  const start = process.hrtime.bigint();
  const timeFile = join(work, `time-${String(start)}.txt`);
  const measure = opts.peak === true && existsSync(GNU_TIME);
  const [bin, argv] = measure ? [GNU_TIME, ['-f', '%M', '-o', timeFile, cmd, ...args]] : [cmd, args];
  return new Promise((done, failed) => {
    const child = spawn(bin, argv, { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', failed);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (!(opts.okCodes ?? [0]).includes(code ?? -1)) {
        failed(
          new Error(`${cmd} ${args.join(' ')} failed (${String(code)}): ${Buffer.concat(err).toString()}`),
        );
      } else {
        const peakKB = measure
          ? Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1))
          : Number.NaN;
        const peakMB = Number.isFinite(peakKB) ? (peakKB * 1024) / MB : undefined;
        done({ ms, peakMB, out: Buffer.concat(out).toString('utf8') });
      }
    });
  });
}

const mem = (m: Measured): string =>
  m.peakMB === undefined ? 'peak RSS unknown (no GNU time)' : `peak RSS ${fixed(m.peakMB)} MB`;

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

// ---- goal 3 (and the sync figures): against the test API server with 2 ms of latency

async function benchSync(): Promise<void> {
  const seed = loadSeedFiles([join(root, 'examples', 'large')]);
  const server = await startApiServer({ seed, latencyMs: 2 });
  const kc = join(work, 'kubeconfig');
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
      `sync cold (large example, 2 ms latency): ${fixed(cold.ms)} ms, ${objects} objects, ${coldLists} LISTs + ${coldWrites} writes (target: LISTs + at most one write per object); requests by verb: ${JSON.stringify(verbTotals(server.counters.snapshot()))}`,
    );

    // Unchanged sync against kubectl get of the objects it compares, paired, on the same server.
    const runs = 3;
    const ours: number[] = [];
    const theirs: number[] = [];
    let lists = 0;
    let others = 0;
    let writes = 0;
    for (let i = 0; i < runs; i++) {
      server.counters.reset();
      ours.push((await runAsync('kubectl', ['crossplane-rbac', 'sync', '--yes', '--kubeconfig', kc])).ms);
      lists = server.counters.total('list');
      writes = server.counters.writes();
      others = server.counters.total() - lists;
      theirs.push(
        (
          await runAsync('kubectl', [
            'get',
            'clusterroles,clusterrolebindings,rolebindings',
            '-o',
            'json',
            '--kubeconfig',
            kc,
          ])
        ).ms,
      );
    }
    console.log(
      `sync no-change (large example, 2 ms latency): ${fixed(median(ours))} ms, ${lists} LISTs, ${writes} writes, ${others} other requests, vs kubectl get clusterroles,clusterrolebindings,rolebindings -o json ${fixed(median(theirs))} ms (medians of ${runs} paired runs): ratio ${ratio(median(ours), median(theirs))} (target <= 1.50x; LISTs only, 0 writes)`,
    );

    if (!want('apply', false)) {
      console.log(
        'sync cold vs kubectl apply -f of the same objects: skipped (npm run bench -- apply: kubectl apply against the test API server takes about 20 minutes here)',
      );
      return;
    }
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
    const file = join(work, 'rendered.yaml');
    writeFileSync(file, yaml);
    const fresh = await startApiServer({ seed, latencyMs: 2 });
    const kc2 = join(work, 'kubeconfig2');
    fresh.writeKubeconfig(kc2);
    try {
      const fresh3 = await startApiServer({ seed, latencyMs: 2 });
      const kc3 = join(work, 'kubeconfig3');
      fresh3.writeKubeconfig(kc3);
      const oursCold = (
        await runAsync('kubectl', ['crossplane-rbac', 'sync', '--yes', '--kubeconfig', kc3, '-o', 'name'])
      ).ms;
      await fresh3.stop();
      const apply = (await runAsync('kubectl', ['apply', '-f', file, '--kubeconfig', kc2])).ms;
      console.log(
        `sync cold vs kubectl apply -f of the same objects: ${fixed(oursCold)} ms vs ${fixed(apply)} ms: sync is ${(apply / oursCold).toFixed(1)}x faster (target >= 5x)`,
      );
    } finally {
      await fresh.stop();
    }
  } finally {
    await server.stop();
  }
}

/**
 * The floor of a cold sync: a bare client (Node's https, keep-alive, 16 requests in flight as sync's --concurrency)
 * POSTs the objects sync creates on examples/large, in sync's order, to a fresh test API server with the same seed
 * and latency; then `sync --yes` does the same work on another fresh one, reads and permission pre-flight included.
 */
async function benchSyncFloor(): Promise<void> {
  const seed = loadSeedFiles([join(root, 'examples', 'large')]);
  const fresh = async (name: string) => {
    const server = await startApiServer({ seed, latencyMs: 2 });
    const kc = join(work, `kubeconfig-${name}`);
    server.writeKubeconfig(kc);
    return { server, kc };
  };
  const plan = await fresh('floor-plan');
  const objectsFile = join(work, 'floor-objects.json');
  let count = 0;
  try {
    const out = await runAsync('kubectl', [
      'crossplane-rbac',
      'sync',
      '--dry-run=client',
      '-o',
      'json',
      '--kubeconfig',
      plan.kc,
    ]);
    writeFileSync(objectsFile, out.out);
    count = (JSON.parse(out.out) as { items: unknown[] }).items.length;
  } finally {
    await plan.server.stop();
  }
  const runs = 3;
  const floor: number[] = [];
  const ours: number[] = [];
  // Seen by the server (it runs in this process): from the first write received to the last, for both clients,
  // and how long after its start sync's first write arrived.
  const windowMs = (w: { first: bigint; last: bigint } | undefined): number =>
    w === undefined ? Number.NaN : Number(w.last - w.first) / 1e6;
  const floorWrites: number[] = [];
  const ourWrites: number[] = [];
  const ourFirstWrite: number[] = [];
  const ourLastRead: number[] = [];
  let counts: Record<string, number> = {};
  for (let i = 0; i < runs; i++) {
    const a = await fresh(`floor-${String(i)}`);
    try {
      // In a process of its own, as sync runs: the test API server here keeps this process's event loop to itself.
      a.server.counters.reset();
      const bare = await runAsync(process.execPath, [
        '--import',
        'tsx',
        join(root, 'bench', 'bare-creates.ts'),
        a.server.httpsUrl(),
        objectsFile,
        '16',
      ]);
      floor.push(Number(bare.out.trim()));
      floorWrites.push(windowMs(a.server.counters.window('write')));
    } finally {
      await a.server.stop();
    }
    const b = await fresh(`floor-sync-${String(i)}`);
    try {
      b.server.counters.reset();
      const start = process.hrtime.bigint();
      ours.push(
        (await runAsync('kubectl', ['crossplane-rbac', 'sync', '--yes', '--kubeconfig', b.kc, '-o', 'name']))
          .ms,
      );
      const w = b.server.counters.window('write');
      const r = b.server.counters.window('read');
      ourWrites.push(windowMs(w));
      ourFirstWrite.push(w === undefined ? Number.NaN : Number(w.first - start) / 1e6);
      ourLastRead.push(r === undefined ? Number.NaN : Number(r.last - start) / 1e6);
      counts = verbTotals(b.server.counters.snapshot());
    } finally {
      await b.server.stop();
    }
  }
  console.log(
    `sync cold vs a bare client's creates (large example, 2 ms latency, 16 in flight): ${fixed(median(ours))} ms vs ${fixed(median(floor))} ms for ${String(count)} creates (medians of ${String(runs)}, fresh servers): ratio ${ratio(median(ours), median(floor))} (target <= 1.30x); sync's requests by verb: ${JSON.stringify(counts)}`,
  );
  console.log(
    `  where sync's time goes (seen by the server; informational): its last read arrives ${fixed(median(ourLastRead))} ms after it is started through kubectl (start, reads: ${ratio(median(ourLastRead), median(floor))} of the floor before any rendering), its first write ${fixed(median(ourFirstWrite))} ms after (render, plan, pre-flight); first to last write received: sync ${fixed(median(ourWrites))} ms, bare client ${fixed(median(floorWrites))} ms: ratio ${ratio(median(ourWrites), median(floorWrites))}`,
  );
}

function verbTotals(snapshot: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(snapshot)) {
    const verb = k.split(' ')[0] ?? k;
    out[verb] = (out[verb] ?? 0) + v;
  }
  return out;
}

// ---- who-can against kubectl auth can-i per subject

/**
 * who-can over the large example after sync (about 3,000 ClusterRoles, 600 namespaces), each team namespace with a
 * RoleBinding of its crossplane-ns-<ns>-edit role to the team's group, its lead and its CI service account, against
 * the same question put to the API server by kubectl: `kubectl auth can-i VERB RESOURCE -n NS --as ...` run once per
 * subject who-can lists, one after another (what answering "who can" with kubectl alone costs, knowing the subjects).
 */
async function benchWhoCan(): Promise<void> {
  const seed = loadSeedFiles([join(root, 'examples', 'large')]);
  const server = await startApiServer({ seed, latencyMs: 2 });
  const kc = join(work, 'kubeconfig-who-can');
  server.writeKubeconfig(kc);
  const rbac = 'rbac.authorization.k8s.io';
  const ns = 'team-000';
  // The claim of xaccounts.platform.acme.io, which team-000 enables; its CRD lets kubectl resolve the resource.
  const resource = 'accounts.platform.acme.io';
  try {
    await runAsync('kubectl', ['crossplane-rbac', 'sync', '--yes', '--kubeconfig', kc, '-o', 'name']);
    const teams = (server.list('namespaces') as { metadata: { name: string } }[])
      .map((n) => n.metadata.name)
      .filter((n) => n.startsWith('team-'));
    server.seed([
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: resource },
        spec: {
          group: 'platform.acme.io',
          scope: 'Namespaced',
          names: { plural: 'accounts', singular: 'account', kind: 'Account', listKind: 'AccountList' },
          versions: [
            {
              name: 'v1alpha1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            },
          ],
        },
      },
      ...teams.map((team) => ({
        apiVersion: `${rbac}/v1`,
        kind: 'RoleBinding',
        metadata: { name: 'team-edit', namespace: team },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: `crossplane-ns-${team}-edit` },
        subjects: [
          { apiGroup: rbac, kind: 'Group', name: `${team}-devs` },
          { apiGroup: rbac, kind: 'User', name: `${team}-lead` },
          { kind: 'ServiceAccount', name: 'ci', namespace: team },
        ],
      })),
    ]);
    const query = ['create', resource, '-n', ns];
    const asFlags = (s: { kind: string; name: string; namespace?: string }): string[] =>
      s.kind === 'User'
        ? ['--as', s.name]
        : s.kind === 'Group'
          ? ['--as', 'bench-probe', '--as-group', s.name]
          : ['--as', `system:serviceaccount:${s.namespace ?? ''}:${s.name}`];
    const runs = 3;
    const ours: number[] = [];
    const theirs: number[] = [];
    let subjects: { kind: string; name: string; namespace?: string }[] = [];
    for (let i = 0; i < runs; i++) {
      const w = await runAsync('kubectl', [
        'crossplane-rbac',
        'who-can',
        ...query,
        '-o',
        'json',
        '--kubeconfig',
        kc,
      ]);
      ours.push(w.ms);
      subjects = (JSON.parse(w.out) as { subjects: typeof subjects }).subjects;
      const t = process.hrtime.bigint();
      for (const s of subjects) {
        // Exit 1 ("no") fails the bench: every subject who-can lists must be allowed.
        await runAsync('kubectl', ['auth', 'can-i', ...query, ...asFlags(s), '--kubeconfig', kc]);
      }
      theirs.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const clusterRoles = server.list('clusterroles').length;
    const a = median(ours) / 1000;
    const b = median(theirs) / 1000;
    console.log(
      `who-can ${query.join(' ')} (large example after sync: ${clusterRoles} ClusterRoles, ${teams.length} team RoleBindings, 2 ms latency): ${a.toFixed(2)} s; kubectl auth can-i per subject (${subjects.length} subjects): ${b.toFixed(2)} s; ratio ${(a / b).toFixed(2)}x (target <= 1.00x: who-can LISTs the RBAC it needs once and finds the subjects itself, can-i asks the server once per subject already known) (medians of ${runs} paired runs)`,
    );
  } finally {
    await server.stop();
  }
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

/**
 * Fleets: 20 test API servers seeded with the large example, 20 ms latency each, one kubeconfig. `sync --check
 * --all-contexts` against the slowest single-context run (target <= 1.5x) and a sequential loop over the contexts
 * (the shell loop it replaces); peak RSS with --parallel 8 against one context's (target <= 3x).
 */
async function benchFleet(): Promise<void> {
  const seed = loadSeedFiles([join(root, 'examples', 'large')]);
  const count = 20;
  const servers = await Promise.all(
    Array.from({ length: count }, () => startApiServer({ seed, latencyMs: 20 })),
  );
  const names = servers.map((_s, i) => `fleet-${String(i).padStart(2, '0')}`);
  const config = { clusters: [] as unknown[], users: [] as unknown[], contexts: [] as unknown[] };
  servers.forEach((server, i) => {
    const file = join(work, `fleet-${String(i)}.kubeconfig`);
    server.writeKubeconfig(file);
    const one = JSON.parse(JSON.stringify(parseYaml(readFileSync(file, 'utf8')))) as {
      clusters: { cluster: unknown }[];
      users: { user: unknown }[];
    };
    const name = names[i] ?? '';
    config.clusters.push({ name, cluster: one.clusters[0]?.cluster });
    config.users.push({ name, user: one.users[0]?.user });
    config.contexts.push({ name, context: { cluster: name, user: name } });
  });
  const kc = join(work, 'fleet.kubeconfig');
  writeFileSync(
    kc,
    JSON.stringify({ apiVersion: 'v1', kind: 'Config', ...config, 'current-context': names[0] }),
  );
  const check = ['crossplane-rbac', 'sync', '--check', '--kubeconfig', kc];
  const drift = { okCodes: [1], peak: true };
  try {
    const single: Measured[] = [];
    for (const name of names)
      single.push(await runAsync('kubectl', [...check, '--context', name], {}, drift));
    const slowest = Math.max(...single.map((m) => m.ms));
    const loop = single.reduce((t, m) => t + m.ms, 0);
    const fleet: Measured[] = [];
    for (let i = 0; i < 3; i++)
      fleet.push(await runAsync('kubectl', [...check, '--all-contexts'], {}, drift));
    const wall = median(fleet.map((m) => m.ms));
    const onePeak = median(single.map((m) => m.peakMB ?? Number.NaN));
    const fleetPeak = median(fleet.map((m) => m.peakMB ?? Number.NaN));
    console.log(
      `fleet: sync --check --all-contexts over ${String(count)} large clusters (20 ms latency, --parallel 8): ${fixed(wall)} ms (median of 3) vs the slowest single context ${fixed(slowest)} ms: ratio ${ratio(wall, slowest)} (target <= 1.50x); vs a sequential loop over the contexts ${fixed(loop)} ms: ratio ${ratio(wall, loop)}; peak RSS ${fixed(fleetPeak)} MB vs one context's ${fixed(onePeak)} MB: ratio ${ratio(fleetPeak, onePeak)} (target <= 3.00x)`,
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
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
  if (want('sync') || want('apply', false)) await benchSync();
  if (want('sync') || want('floor', false)) await benchSyncFloor();
  if (want('who-can')) await benchWhoCan();
  if (want('input')) {
    if (standalone !== undefined) benchLargeInput(standalone, 'standalone executable');
    benchLargeInput(binDir, 'Node.js bundle');
  }
  if (want('explain')) benchExplain();
  if (want('fleet', false)) await benchFleet();
} finally {
  rmSync(work, { recursive: true, force: true });
}
