/**
 * sync --watch over 24 hours of simulated churn (`npx tsx bench/run.ts watch`): the executable watches the test API
 * server seeded with examples/large (`sync --watch --yes --prune -o json`) while this process drives 10,000 add,
 * update and delete events in 240 rounds of about 42 (one round is 6 simulated minutes): Deployments' status
 * updated (most of a real cluster's churn, nothing to write), Namespaces added and deleted, XRDs added with their CRD
 * (roles to create) and deleted (the server's garbage collector deletes the CRD and the roles), owned ClusterRoles
 * deleted (to recreate) and relabelled (to repair). Events counted are those this process makes, not the garbage
 * collector's.
 *
 * How each figure is measured:
 * - A round's expected writes are named before it starts: the create of the deleted ClusterRole, the update (or
 *   patch) of the relabelled one, and on even rounds the creates of the four ClusterRoles Crossplane makes for the
 *   new XRD (crossplane internal/controller/rbac/definition/roles.go: crossplane:composite:NAME:aggregate-to-
 *   crossplane, -edit, -view, -browse). They are looked for in the server's request log (RequestCounters.onWrite:
 *   each write with its name and answer), never in the watch's own output: a round is done when every one of them
 *   has been received and answered 2xx. Its latency is from just before its first event to the receipt of the last
 *   of them (target: p99 < 2 s). A round not done within 20 s counts as 20 s and is named; writes that come later
 *   are still matched and reported. Any other write the watch makes is counted as unexpected (with the first few).
 * - RSS (VmRSS of /proc/PID/status) is sampled every 100 ms. An hour-equivalent is 10 rounds. Growth is the last
 *   hour-equivalent against the first, for the median of each one's samples and for its highest sample (target: both
 *   < 10%): what a watch holds after its first hour must not grow.
 * - After the last round the bench waits for the watch to settle and runs `sync --check` against the server: it must
 *   find nothing to write (exit 0).
 * BENCH_WATCH_OUT=FILE keeps the watch's own JSON lines (one per reconcile that wrote: its trigger, change count and
 * time taken), to see where a slow round's time went; the figures never read them.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSeedFiles } from '../test/apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../test/apiserver/server.js';
import { ADMIN_TOKEN } from '../test/apiserver/types.js';
import { fixed } from './figures.js';
import { BIN, binDir, env, root, work } from './process.js';

type Obj = Record<string, any>;

/** A write the watch owes: one of VERBS on the ClusterRole NAME. */
interface Expected {
  readonly verbs: readonly string[];
  readonly name: string;
}

/** The ClusterRoles Crossplane makes for an XRD (crossplane internal/controller/rbac/definition/roles.go). */
const XRD_ROLE_SUFFIXES = [
  ':aggregate-to-crossplane',
  ':aggregate-to-edit',
  ':aggregate-to-view',
  ':aggregate-to-browse',
];

/** 240 rounds: 24 hour-equivalents (BENCH_WATCH_ROUNDS runs fewer, to try the bench out; figures then mean less). */
const ROUNDS = Number(process.env.BENCH_WATCH_ROUNDS ?? 240);
const PER_ROUND = Math.round(10_000 / 240);
const HOUR = 10;

/** The watch's resident memory now (VmRSS of /proc/PID/status), in MB; NaN once it has exited. */
function rssMB(pid: number): number {
  let status: string;
  try {
    status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
  } catch {
    return Number.NaN;
  }
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return Number(m?.[1] ?? Number.NaN) / 1024;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Thrown when the watch has exited: the run is over, and says so. */
class WatchGone extends Error {}

async function until(
  check: () => boolean,
  what: string,
  ms = 60_000,
  gone?: () => string | undefined,
): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    const why = gone?.();
    if (why !== undefined) throw new WatchGone(`the watch ended (${why}) while waiting for ${what}`);
    if (Date.now() > end) throw new Error(`bench watch: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** One round's events (about PER_ROUND), made against SERVER; returns the writes the watch owes for them. */
class Churn {
  private round = 0;
  private readonly deployments: Obj[];
  private readonly xrdTemplate: Obj;
  events = 0;

  constructor(
    private readonly server: TestApiServer,
    seed: readonly Obj[],
    /** `resource/name` of each object this process deletes (its own writes, not the watch's). */
    private readonly deleted: Set<string>,
  ) {
    this.deployments = seed.filter((o) => o.kind === 'Deployment');
    const xrd = seed.find((o) => o.kind === 'CompositeResourceDefinition');
    if (xrd === undefined || this.deployments.length === 0) throw new Error('examples/large changed');
    this.xrdTemplate = xrd;
  }

  private xrd(i: number): Obj {
    const group = 'bench.example.org';
    const plural = `xbench${String(i)}s`;
    const t = this.xrdTemplate;
    return {
      ...t,
      metadata: { name: `${plural}.${group}`, uid: `bench-xrd-${String(i)}` },
      spec: { ...t.spec, group, names: { kind: `XBench${String(i)}`, plural }, claimNames: undefined },
    };
  }

  private crdOf(xrd: Obj): Obj {
    const { group, names } = xrd.spec as { group: string; names: { kind: string; plural: string } };
    return {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: {
        name: xrd.metadata.name,
        uid: `${String(xrd.metadata.uid)}-crd`,
        ownerReferences: [
          {
            apiVersion: 'apiextensions.crossplane.io/v1',
            kind: 'CompositeResourceDefinition',
            name: xrd.metadata.name,
            uid: xrd.metadata.uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        group,
        names: { ...names, singular: names.plural.replace(/s$/, ''), listKind: `${names.kind}List` },
        scope: 'Cluster',
        versions: [
          {
            name: 'v1alpha1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    };
  }

  private async remove(path: string): Promise<void> {
    this.deleted.add(path.split('/').slice(-2).join('/'));
    // A kept-alive socket the server just closed fails the request (ECONNRESET): sent again, where a 404 then
    // means the first one was done.
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await fetch(`${this.server.url}${path}`, {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        if (r.status !== 200 && !(attempt > 0 && r.status === 404)) {
          throw new Error(`DELETE ${path}: ${String(r.status)}`);
        }
        this.events++;
        return;
      } catch (err) {
        if (attempt >= 2 || !(err instanceof TypeError)) throw err;
      }
    }
  }

  /** Makes the round's events; returns the writes the watch owes for them. */
  async next(): Promise<Expected[]> {
    const r = this.round++;
    const perRound = PER_ROUND;
    const owed: Expected[] = [];
    // An XRD added in one round is deleted in the next: its roles created, then pruned.
    if (r % 2 === 0) {
      // The XRD and the CRD Crossplane makes for it (controlled by the XRD), as the large example has them.
      const xrd = this.xrd(r);
      this.server.seed([xrd, this.crdOf(xrd)]);
      this.events += 2;
      for (const suffix of XRD_ROLE_SUFFIXES) {
        owed.push({ verbs: ['create'], name: `crossplane:composite:${String(xrd.metadata.name)}${suffix}` });
      }
    } else {
      const name = String(this.xrd(r - 1).metadata.name);
      // The server's garbage collector deletes its CRD and roles (all controlled by the XRD), as Kubernetes' does.
      await this.remove(`/apis/apiextensions.crossplane.io/v1/compositeresourcedefinitions/${name}`);
    }
    // An owned ClusterRole deleted (recreated: one write) and another relabelled (repaired: one write).
    const owned = (this.server.list('clusterroles') as Obj[]).filter(
      (o) =>
        o.metadata?.labels?.['app.kubernetes.io/managed-by'] === 'kubectl-crossplane-rbac' &&
        !String(o.metadata.name).includes('xbench'),
    );
    const victim = owned[(r * 7) % owned.length];
    const edited = owned[(r * 7 + 3) % owned.length];
    if (victim === undefined || edited === undefined || victim === edited) throw new Error('no owned roles');
    await this.remove(`/apis/rbac.authorization.k8s.io/v1/clusterroles/${String(victim.metadata.name)}`);
    owed.push({ verbs: ['create'], name: String(victim.metadata.name) });
    this.server.seed([
      {
        ...edited,
        metadata: { ...edited.metadata, labels: { ...edited.metadata.labels, drifted: String(r) } },
      },
    ]);
    this.events++;
    owed.push({ verbs: ['update', 'patch'], name: String(edited.metadata.name) });
    // A Namespace added, one deleted (that of two rounds ago).
    this.server.seed([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `bench-${String(r)}` } }]);
    this.events++;
    if (r >= 2) {
      await this.remove(`/api/v1/namespaces/bench-${String(r - 2)}`);
    }
    // The rest: Deployments' status updated.
    const left = Math.max(0, perRound - (r % 2 === 0 ? 2 : 1) - (r >= 2 ? 4 : 3));
    const updates = Array.from({ length: left }, (_, i) => {
      const d = this.deployments[(r * left + i) % this.deployments.length] as Obj;
      return { ...d, status: { ...d.status, observedGeneration: r * left + i, readyReplicas: (r + i) % 2 } };
    });
    this.server.seed(updates);
    this.events += updates.length;
    return owed;
  }
}

/** Runs a command to its end without blocking this process; its exit code and output. */
function runAsync(
  cmd: string,
  args: readonly string[],
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const c = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    c.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    c.on('close', (code) => {
      resolve({ status: code ?? -1, stdout, stderr });
    });
  });
}

/** One round's expected writes, matched against the server's request log as the writes are answered. */
interface Round {
  readonly index: number;
  readonly start: bigint;
  readonly open: Expected[];
  last: bigint;
}

/** The RSS samples of one hour-equivalent: median and highest. */
function hourFigures(samples: readonly number[]): { median: number; peak: number } {
  return { median: percentile(samples, 50), peak: Math.max(...samples) };
}

export async function benchWatch(): Promise<void> {
  const seed = loadSeedFiles([join(root, 'examples', 'large')]) as Obj[];
  const server = await startApiServer({ seed, latencyMs: 2 });
  const kc = join(work, 'kubeconfig-watch');
  server.writeKubeconfig(kc);
  const child = spawn(
    join(binDir, BIN),
    ['sync', '--watch', '--yes', '--prune', '-o', 'json', '--kubeconfig', kc],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let lines = 0;
  let pending = '';
  let stderr = '';
  // BENCH_WATCH_OUT: a file to keep the watch's JSON lines in (one per reconcile), to see what each one took in.
  const keep = process.env.BENCH_WATCH_OUT;
  child.stdout.on('data', (b: Buffer) => {
    if (keep !== undefined) appendFileSync(keep, b);
    pending += b.toString('utf8');
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    lines += parts.length;
  });
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  let gone: string | undefined;
  const exited = new Promise<number>((resolve) =>
    child.on('close', (code, signal) => {
      gone = `exit ${String(code)}${signal !== null ? ` (${signal})` : ''}`;
      resolve(code ?? -1);
    }),
  );
  const ownDeletes = new Set<string>();
  // The request log: each answered write matched to the oldest open round that expects it.
  const open: Round[] = [];
  const unexpected: string[] = [];
  let unexpectedCount = 0;
  let failedWrites = 0;
  let logging = false;
  const stopLog = server.counters.onWrite((w) => {
    if (!logging) return;
    const what = `${w.verb} ${w.resource} ${w.namespace === '' ? '' : `${w.namespace}/`}${w.name} (${String(w.status)})`;
    if (w.status < 200 || w.status > 299) failedWrites++;
    else if (w.resource === 'clusterroles') {
      for (const round of open) {
        const i = round.open.findIndex((e) => e.name === w.name && e.verbs.includes(w.verb));
        if (i < 0) continue;
        round.open.splice(i, 1);
        if (w.at > round.last) round.last = w.at;
        return;
      }
    }
    // The bench's own deletes are writes too: not the watch's.
    if (w.verb === 'delete' && ownDeletes.has(`${w.resource}/${w.name}`)) return;
    unexpectedCount++;
    if (unexpected.length < 10) unexpected.push(what);
  });
  try {
    await until(
      () => lines >= 1,
      'the first sync',
      300_000,
      () => gone,
    );
    logging = true;
    const pid = child.pid ?? 0;
    const churn = new Churn(server, seed, ownDeletes);
    const latencies: number[] = [];
    const stuck: Round[] = [];
    const rss: number[][] = Array.from({ length: ROUNDS }, () => []);
    let round = 0;
    const sampler = setInterval(() => {
      const mb = rssMB(pid);
      if (Number.isFinite(mb)) rss[round]?.push(mb);
    }, 100);
    const startRss = rssMB(pid);
    const t0 = Date.now();
    for (; round < ROUNDS; round++) {
      // Progress on stderr once per hour-equivalent (a long run stopped early still leaves figures).
      if (round > 0 && round % HOUR === 0) {
        const hourRss = hourFigures(rss.slice(round - HOUR, round).flat());
        console.error(
          `watch bench: ${String(round)} rounds, ${fixed((Date.now() - t0) / 1000)} s: latency p50 ${fixed(percentile(latencies, 50))} ms, p99 ${fixed(percentile(latencies, 99))} ms; this hour-equivalent's RSS median ${fixed(hourRss.median)} MB, peak ${fixed(hourRss.peak)} MB; ${String(stuck.length)} rounds over 20 s`,
        );
      }
      const r: Round = { index: round, start: process.hrtime.bigint(), open: [], last: 0n };
      open.push(r);
      r.open.push(...(await churn.next()));
      try {
        const spent = Number(process.hrtime.bigint() - r.start) / 1e6;
        await until(
          () => r.open.length === 0,
          `round ${String(round)}`,
          Math.max(0, 20_000 - spent),
          () => gone,
        );
        latencies.push(Number(r.last - r.start) / 1e6);
        open.splice(open.indexOf(r), 1);
      } catch (err) {
        if (err instanceof WatchGone) throw err;
        // Reported, not hidden: the round counts as 20 s; its writes are still looked for.
        stuck.push(r);
        latencies.push(20_000);
      }
    }
    clearInterval(sampler);
    const elapsed = (Date.now() - t0) / 1000;
    // Late writes of stuck rounds, then a one-shot check that the watch left nothing to write.
    await until(() => open.every((r) => r.open.length === 0), 'late writes', 20_000).catch(() => undefined);
    // Spawned, not spawnSync: the server answering it runs in this process.
    const check = await runAsync(join(binDir, BIN), ['sync', '--check', '--prune', '--kubeconfig', kc]);
    const hour = Math.min(HOUR, Math.floor(ROUNDS / 2));
    const first = hourFigures(rss.slice(0, hour).flat());
    const last = hourFigures(rss.slice(-hour).flat());
    const growth = (a: number, b: number): string => `${(((b - a) / a) * 100).toFixed(1)}%`;
    console.log(
      `sync --watch, 24 h of simulated churn on examples/large (${String(churn.events)} events in ${String(ROUNDS)} rounds, ${fixed(elapsed)} s, 2 ms latency; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ' ',
        )}): RSS ${fixed(startRss)} MB after the first sync; first hour-equivalent median ${fixed(first.median)} MB, peak ${fixed(first.peak)} MB; last hour-equivalent median ${fixed(last.median)} MB, peak ${fixed(last.peak)} MB: growth ${growth(first.median, last.median)} (medians), ${growth(first.peak, last.peak)} (peaks) (target < 10%); event -> last expected write p50 ${fixed(percentile(latencies, 50))} ms, p99 ${fixed(percentile(latencies, 99))} ms, max ${fixed(Math.max(...latencies))} ms (target p99 < 2000 ms)`,
    );
    console.log(
      `sync --watch: ${String(ROUNDS - stuck.length)}/${String(ROUNDS)} rounds done within 20 s; ${String(unexpectedCount)} unexpected writes${unexpected.length > 0 ? ` (first: ${unexpected.join('; ')})` : ''}; ${String(failedWrites)} writes answered with an error; sync --check afterwards: exit ${String(check.status)}${check.status === 0 ? ' (nothing to write)' : `: ${check.stdout.slice(0, 500)}${check.stderr.slice(0, 500)}`}`,
    );
    if (stuck.length > 0) {
      const described = stuck.map(
        (r) =>
          `round ${String(r.index)}: ${r.open.length === 0 ? `done late, after ${fixed(Number(r.last - r.start) / 1e6)} ms` : `never wrote ${r.open.map((e) => `${e.verbs.join('/')} ${e.name}`).join(', ')}`}`,
      );
      console.log(
        `sync --watch: ${String(stuck.length)} rounds not done within 20 s: ${described.join('; ')}`,
      );
    }
  } finally {
    stopLog();
    child.kill('SIGINT');
    const code = await exited;
    if (code !== 130)
      console.log(`sync --watch ended with ${String(code)} (${gone ?? ''}): ${stderr.slice(-3000)}`);
    await server.stop();
  }
}
