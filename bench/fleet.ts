/**
 * Fleets: `sync --check --all-contexts` over 20 test API servers seeded with the large example, 20 ms latency each,
 * one kubeconfig. Each server is a process of its own (the test API server's CLI, test/apiserver/cli.ts), so the
 * plugin is not measured against its servers' CPU in this process's one thread. Targets, printed beside the figures
 * of one run: the fleet run <= 0.2x of a sequential shell loop over the same contexts (the loop it replaces) and
 * <= 2.5x the slowest single context; peak RSS with --parallel 8 <= 3x one context's; client CPU seconds per context
 * beside (GNU time's user + system of kubectl and the plugin), and the run's own count of the renders it shared.
 *
 * How the fleet run and the single contexts are measured, the same way and paired: every run is `kubectl
 * crossplane-rbac sync --check` under GNU time against the same servers (20 ms latency), after one unmeasured fleet
 * run that warms every server (its first LISTs are slower than all later ones). Then ROUNDS rounds, each one fleet run
 * and then each context alone once (in a rotated order), so load on the machine that changes over the minutes hits
 * both alike. The fleet figure is the median of the rounds' fleet runs; "the slowest single context" is the slowest of
 * the contexts' medians over the rounds (each context's own median first: one unlucky run no longer sets the figure);
 * the ratio printed is the median of the rounds' own ratios (each round's fleet run over that round's slowest
 * context), with the ratio of the two medians beside. The shell loop runs once, between the first two rounds. The
 * fleet's floor (bench/fleet-floor-client.ts: the same LISTs, read and decoded by a bare process) runs right after
 * each round's fleet run; it is printed beside, with no target.
 *
 * Each server holds the large example with uids of its own (every uid of the seed mapped one to one, owner references
 * alike), as real clusters do: with the seed's uids everywhere, the shared renders would never have to map a uid, and
 * the bench would flatter the fleet. For the same reason each server's conditions changed at times of their own
 * (every lastTransitionTime moved by the server's index in minutes): no two real clusters' XRDs and packages became
 * ready in the same second; and each has namespaces of its own applications (APP_NAMESPACES, named after the server).
 *
 * Last, with no target, a few of the same servers synced and checked as a fleet (bench/fleet-synced.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { fixed, median } from './figures.js';
import { bundleClient, ratio, root, runAsync, work, type Measured } from './process.js';
import { listsFromLog } from './sync-lists.js';
import { benchSyncedFleet } from './fleet-synced.js';

const COUNT = 20;
const LATENCY_MS = 20;
const PARALLEL = 8;
const ROUNDS = 3;
/** Connections per context in the floor: as many requests as the plugin's fleet lets a context have in flight. */
const FLOOR_CONNECTIONS = 4;

/** A test API server in a child process: its process and the kubeconfig it wrote. */
interface ServerProcess {
  readonly child: ChildProcess;
  readonly kubeconfig: string;
}

const UID = /\b([0-9a-f]{8})(-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/g;
const TRANSITION = /(lastTransitionTime: )"([^"]+)"/g;
/** Namespaces each server has of its own (none enables an XRD). */
const APP_NAMESPACES = 5;

/**
 * The large example with server I's own uids and condition times: each uid's first eight hex digits XORed with a
 * constant of I's, a one to one map, so the owner references still name their owners; each lastTransitionTime I
 * minutes later; APP_NAMESPACES namespaces of its own.
 */
function seedOf(i: number): string {
  const salt = Math.imul(i + 1, 0x9e3779b1) >>> 0;
  const text = readFileSync(join(root, 'examples', 'large', 'cluster.yaml'), 'utf8')
    .replace(
      UID,
      (_m, head: string, tail: string) =>
        ((parseInt(head, 16) ^ salt) >>> 0).toString(16).padStart(8, '0') + tail,
    )
    .replace(
      TRANSITION,
      (_m, key: string, time: string) =>
        `${key}"${new Date(Date.parse(time) + i * 60_000).toISOString().replace('.000Z', 'Z')}"`,
    )
    .concat(
      Array.from(
        { length: APP_NAMESPACES },
        (_n, k) => `---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: app-${String(i)}-${String(k)}\n`,
      ).join(''),
    );
  const file = join(work, `fleet-${String(i)}-seed.yaml`);
  writeFileSync(file, text);
  return file;
}

/** Starts the test API server's CLI with the large example; resolves once it prints its URL (it listens). */
function startServerProcess(i: number): Promise<ServerProcess> {
  const kubeconfig = join(work, `fleet-${String(i)}.kubeconfig`);
  const seed = seedOf(i);
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'test', 'apiserver', 'cli.ts'),
      '--seed',
      seed,
      '--latency-ms',
      String(LATENCY_MS),
      '--write-kubeconfig',
      kubeconfig,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((done, failed) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) done({ child, kubeconfig });
    });
    child.on('error', failed);
    child.on('exit', (code) => {
      failed(new Error(`test API server ${String(i)} exited (${String(code)}) before listening: ${err}`));
    });
  });
}

/** Stops a server process (SIGTERM: it closes and exits) and waits for it. */
function stopServerProcess(s: ServerProcess): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    s.child.once('exit', () => {
      done();
    });
    s.child.kill('SIGTERM');
  });
}

/** One kubeconfig with a context per server (fleet-00 ...), each with its own cluster and user. */
function fleetKubeconfig(servers: readonly ServerProcess[], names: readonly string[]): string {
  const config = { clusters: [] as unknown[], users: [] as unknown[], contexts: [] as unknown[] };
  servers.forEach((server, i) => {
    const one = parseYaml(readFileSync(server.kubeconfig, 'utf8')) as {
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
  return kc;
}

const cpu = (ms: readonly Measured[]): number => median(ms.map((m) => m.cpuS ?? Number.NaN));

export async function benchFleet(): Promise<void> {
  const servers: ServerProcess[] = [];
  try {
    // Two at a time: each reads and seeds the large example, which is CPU work of its own.
    for (let i = 0; i < COUNT; i += 2) {
      servers.push(...(await Promise.all([i, i + 1].filter((j) => j < COUNT).map(startServerProcess))));
    }
    const names = servers.map((_s, i) => `fleet-${String(i).padStart(2, '0')}`);
    const kc = fleetKubeconfig(servers, names);
    const check = ['crossplane-rbac', 'sync', '--check', '--kubeconfig', kc];
    // sync --check exits 1 on drift (the servers are not synced): not a failure here.
    const drift = { okCodes: [1], peak: true };

    const fleetRun = (): Promise<Measured> =>
      // -v=4 logs no requests (from 6), only the line that counts the renders shared.
      runAsync('kubectl', [...check, '--all-contexts', '--parallel', String(PARALLEL), '-v=4'], {}, drift);
    // The shell loop the fleet run replaces, timed as one process; an exit above 1 (an error) fails it.
    const loopScript = `for c in ${names.join(' ')}; do kubectl ${check.join(' ')} --context "$c" >/dev/null; [ $? -le 1 ] || exit 2; done`;

    await fleetRun();
    // The floor (informational): sync's own LISTs, read from one context's -v=8 log, sent by a bare client.
    const floorClient = await bundleClient('fleet-floor-client');
    const log = join(work, 'fleet-floor-plan.log');
    await runAsync(
      'bash',
      ['-c', `kubectl ${check.join(' ')} --context ${names[0] ?? ''} -v=8 >/dev/null 2>'${log}'`],
      {},
      {
        okCodes: [1],
      },
    );
    const plan = join(work, 'fleet-floor-plan.txt');
    const lists = listsFromLog(readFileSync(log, 'utf8'));
    if (lists.length === 0) throw new Error(`no LIST in sync's request log ${log}`);
    writeFileSync(plan, `${lists.join('\n')}\n`);
    const floorRun = (): Promise<Measured> =>
      runAsync(process.execPath, [floorClient, kc, plan, String(PARALLEL), String(FLOOR_CONNECTIONS)]);
    const floor: Measured[] = [];
    const fleet: Measured[] = [];
    /** Each context's runs alone, by context (index of NAMES). */
    const alone: Measured[][] = names.map(() => []);
    const pairedRatios: number[] = [];
    let loop: Measured | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const f = await fleetRun();
      fleet.push(f);
      floor.push(await floorRun());
      let slowestOfRound = 0;
      for (let k = 0; k < COUNT; k++) {
        const i = (k + round * Math.ceil(COUNT / ROUNDS)) % COUNT;
        const one = await runAsync('kubectl', [...check, '--context', names[i] ?? ''], {}, drift);
        alone[i]?.push(one);
        slowestOfRound = Math.max(slowestOfRound, one.ms);
      }
      pairedRatios.push(f.ms / slowestOfRound);
      if (round === 0) loop = await runAsync('bash', ['-c', loopScript], {}, { peak: true });
    }
    if (loop === undefined) throw new Error('the shell loop did not run');
    const single = alone.flat();

    const wall = median(fleet.map((m) => m.ms));
    const medians = alone.map((runs) => median(runs.map((m) => m.ms)));
    const slowest = Math.max(...medians);
    const onePeak = median(single.map((m) => m.peakMB ?? Number.NaN));
    const fleetPeak = median(fleet.map((m) => m.peakMB ?? Number.NaN));
    const head = `fleet: sync --check --all-contexts --parallel ${String(PARALLEL)} over ${String(COUNT)} large clusters (each server a process of its own, ${String(LATENCY_MS)} ms latency)`;
    console.log(
      `${head}: ${fixed(wall)} ms (median of ${String(ROUNDS)}) vs a sequential shell loop over the contexts ${fixed(loop.ms)} ms: ratio ${ratio(wall, loop.ms)} (target <= 0.20x)`,
    );
    console.log(
      `${head}: ${fixed(wall)} ms vs the slowest single context ${fixed(slowest)} ms (the slowest of the ${String(COUNT)} contexts' medians of ${String(ROUNDS)}; fastest ${fixed(Math.min(...medians))} ms): ratio ${median(pairedRatios).toFixed(2)}x, median of ${String(ROUNDS)} paired rounds (${pairedRatios.map((r) => r.toFixed(2)).join(', ')}; ratio of the medians ${ratio(wall, slowest)}) (target <= 2.50x)`,
    );
    console.log(
      `${head}: peak RSS ${fixed(fleetPeak)} MB vs one context's ${fixed(onePeak)} MB (median of ${String(single.length)}): ratio ${ratio(fleetPeak, onePeak)} (target <= 3.00x)`,
    );
    const floorMs = median(floor.map((m) => m.ms));
    console.log(
      `  the fleet's floor (informational: no target): a bare Node process sending the same ${String(lists.length)} LISTs to each context, ${String(PARALLEL)} contexts at a time with ${String(FLOOR_CONNECTIONS)} connections each, every page gunzipped and decoded: ${fixed(floorMs)} ms (median of ${String(ROUNDS)}, each right after a fleet run), ${ratio(floorMs, slowest)} the slowest single context; the fleet run is ${ratio(wall, floorMs)} its floor`,
    );
    const shared = (fleet.at(-1)?.err ?? '').split('\n').find((l) => l.startsWith('fleet: '));
    console.log(`  renders shared (-v=4): ${shared ?? '(no line: a build before renders were shared)'}`);
    console.log(
      `  client CPU (kubectl and the plugin, user + system): ${(cpu(fleet) / COUNT).toFixed(2)} s per context in the fleet run (${cpu(fleet).toFixed(2)} s in all) vs ${cpu(single).toFixed(2)} s for one context alone (median), ${((loop.cpuS ?? Number.NaN) / COUNT).toFixed(2)} s per context in the shell loop (informational)`,
    );
    // Last: it syncs some of the servers, which the figures above measure unsynced.
    await benchSyncedFleet(names, kc);
  } finally {
    await Promise.all(servers.map(stopServerProcess));
  }
}
