// Issue #12: sync at the scale of examples/large against a hostile API server: dropped connections (before the
// request is served, and after, the answer lost), 503s, 429s with Retry-After, 409s on updates, latency, the server
// killed mid-run and restarted, and the server gone for longer than the plugin waits. Every run ends as a
// fault-free run ends, or stops with one clear error and the next run does (see fault-harness.ts); the foreign
// objects it must spare keep their uid and resourceVersion throughout.
//
// The server counts the faults it injected: each scenario asserts a least number of injected faults of each of its
// kinds, and of writes the plugin sent again, so none can pass with its faults missed. The least numbers were set at
// a quarter or less of what a fifth of this cluster (~600 writes) measured (2026-11-28: 2.5% drops 12 and 15; 503s at
// 20%: 155; 429s at 10%: 67; 409s at 30% of ~200 updates: 90): at this scale (3,046 writes) a run meets each kind
// about five times as often. The scale is issue #12's: a fifth of it cost a fifth of the CPU (17 against 72 CPU-s
// for this file on a 2-core machine) and would test the same paths, but the concurrency bugs #12 found showed only at
// this scale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import {
  changedObjects,
  diffStates,
  errorLines,
  identities,
  keyOf,
  storedState,
} from '../support/cluster-state.js';
import {
  bootstrapKeys,
  foreignSeeds,
  largeSeed,
  LARGE,
  startLarge,
  type ForeignSeeds,
} from '../support/large-cluster.js';
import { faultRun, formatTally, outcomeOf, reference, type Reference, type Tally } from './fault-harness.js';
import { runPlugin } from './harness.js';

type Obj = Record<string, any>;

const SYNC = ['sync', '--yes', '--prune'];
const CHECK = ['sync', '--check', '--prune', '-o', 'name'];
/**
 * Under 503s and 429s most of a run is waiting (the plugin's backoff, the server's Retry-After): with more writes
 * in flight the waits overlap, and the run takes seconds instead of half a minute.
 */
const WIDE = ['--concurrency', '64'];

const tally: Tally[] = [];

/**
 * Waits until CHECK holds, looking every 5 ms: a guard against a hang, not a bound on the run (the machine may be
 * busy), so it gives up only after two minutes.
 */
async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

/** When the server goes for good: after this many writes of the ~3,000, a sixth. */
const GONE_AFTER = 500;

/**
 * The server killed mid-run and not back within the 30 s the plugin waits for an answer: the run stops with one
 * error line saying how many writes were done, which the store bears out; once the server is back on the same
 * port with the same store, the next run converges. Mostly waiting, so it runs while the other scenarios do; it
 * starts with the reference run (the file's longest path is this one's wait), and compares with it at the end.
 */
async function serverGoneForGood(
  base: readonly unknown[],
  seed: readonly Obj[],
  reference: Promise<Reference>,
  foreign: readonly Obj[],
): Promise<void> {
  const started = Date.now();
  const { server, kubeconfig } = await startLarge(seed, undefined, base);
  try {
    const before = identities(server, foreign);
    server.faults.latencyMs = 3;
    const pending = runPlugin([...SYNC, '--kubeconfig', kubeconfig]);
    await waitFor(() => server.counters.writes() >= GONE_AFTER, `${String(GONE_AFTER)} writes`);
    await server.stop();
    const first = await pending;

    expect(first.code, first.stderr).toBe(2);
    const errors = errorLines(first.stderr);
    expect(errors, first.stderr).toHaveLength(1);
    const gone =
      /^error: lost the API server at https:\/\/127\.0\.0\.1:\d+: no answer for (\d+)s \(ECONNREFUSED\); (\d+) of (\d+) writes? (?:was|were) done before$/.exec(
        errors[0] ?? '',
      );
    expect(gone, first.stderr).not.toBeNull();
    expect(Number(gone?.[1])).toBeGreaterThanOrEqual(30);
    expect(first.stderr).toMatch(/\nhint: re-run the command when the server is back/);
    // Every write it counts as done is stored; a few more may be (in flight when the server went, answer lost).
    const seeded = new Set([...(base as Obj[]), ...seed].map(keyOf));
    for (const key of bootstrapKeys(server)) seeded.add(key);
    const made = [...storedState(server).keys()].filter((k) => !seeded.has(k)).length;
    const done = Number(gone?.[2]);
    // All but the writes in flight when it went (16 at a time), and a few more the wait may let in.
    expect(done).toBeGreaterThanOrEqual(GONE_AFTER - 100);
    expect(made).toBeGreaterThanOrEqual(done);
    expect(made).toBeLessThanOrEqual(done + 16);
    expect(changedObjects(server, foreign, before)).toEqual([]);

    const ref = await reference;
    server.faults.latencyMs = 0;
    await server.restart();
    const second = await runPlugin([...SYNC, '--kubeconfig', kubeconfig]);
    expect(outcomeOf(second), second.stderr).toEqual(ref.outcome);
    expect(changedObjects(server, foreign, before)).toEqual([]);
    expect(diffStates(storedState(server), ref.state)).toEqual([]);
    tally.push({
      scenario: `server gone for good after ${String(GONE_AFTER)} writes`,
      runs: 2,
      seconds: (Date.now() - started) / 1000,
    });
  } finally {
    await server.stop();
  }
}

describe('sync of examples/large against a hostile API server', () => {
  let seeds: ForeignSeeds;
  /** Seeded: foreign objects sync must spare, and the plugin's stale ones. A fault-free run exits 0. */
  let ref: Reference;
  let gone: Promise<void>;

  beforeAll(async () => {
    const plan = await runPlugin(['sync', '-f', LARGE, '--dry-run=client', '-o', 'json']);
    const wanted = (JSON.parse(plan.stdout) as { items: Obj[] }).items;
    expect(wanted.length).toBeGreaterThan(3000);
    seeds = foreignSeeds(wanted);
    const seed = [...seeds.spared, ...seeds.stale];
    const referenced = reference(seed, SYNC, CHECK);
    gone = serverGoneForGood(largeSeed(), seed, referenced, seeds.spared);
    // Awaited by the last test; until then a failure must not count as unhandled.
    gone.catch(() => undefined);
    ref = await referenced;
  }, 180_000);

  afterAll(() => {
    console.log(`fault-injection.test.ts: ${formatTally(tally)}`);
  });

  it('has a reference that exits 0, prunes the stale objects and spares the foreign ones', () => {
    expect(ref.outcome).toEqual({ code: 0, errors: [], refused: [] });
    for (const o of seeds.stale) expect(ref.state.has(`ClusterRole/${String(o.metadata.name)}`)).toBe(false);
    for (const o of seeds.spared) {
      expect(ref.state.has(`${String(o.kind)}/${String(o.metadata.name)}`)).toBe(true);
    }
    expect(ref.drift.length).toBeGreaterThan(1000);
  });

  // The least faults of each kind, and writes sent again, each run must show (see the top of the file).
  it.each([
    [
      '5% of connections dropped (half before the request is served, half after: the answer lost)',
      { dropRate: 0.025, answerDropRate: 0.025 },
      [],
      { drop: 2, 'drop-answer': 2 },
      5,
    ],
    ['20% answered 503', { errorRate: 0.2, errorCode: 503 as const }, WIDE, { '503': 40 }, 40],
    [
      '10% answered 429 with Retry-After: 1',
      { throttleRate: 0.1, retryAfterSeconds: 1 },
      WIDE,
      { '429': 15 },
      15,
    ],
  ])('converges under %s', async (name, faults, flags, landed, resent) => {
    await faultRun({ name, faults, flags, ref, foreign: seeds.spared, landed, resent }, tally);
  });

  it('converges when 30% of updates answer 409 Conflict, over a drifted cluster', async () => {
    const name = '30% of updates answered 409 (a third of the objects drifted)';
    await faultRun(
      {
        name,
        faults: { conflictRate: 0.3 },
        ref,
        extra: ref.drift,
        foreign: seeds.spared,
        landed: { '409': 15 },
        resent: 15,
      },
      tally,
    );
  });

  it('converges in one run with 15 ms of latency, the server killed mid-run and restarted on the same port', async () => {
    // Killed about a quarter of the way, so that most writes come after the restart.
    let killed: { server: TestApiServer; writes: number } | undefined;
    const during = async (server: TestApiServer): Promise<void> => {
      await waitFor(() => server.counters.writes() > 800, '800 writes');
      const writes = server.counters.writes();
      expect(writes, 'writes before the kill').toBeLessThan(2000);
      await server.stop();
      killed = { server, writes };
      await new Promise((r) => setTimeout(r, 1000));
      await server.restart();
    };
    const name = '15 ms of latency; server killed after 800 writes, restarted 1 s later';
    // The kill landed mid-run: the plugin went on writing once the server was back. (How many writes were in flight
    // at the kill varies, and the server finishes serving a request whose connection it lost: the runs measured
    // lost 0 to 8 answers, and sent as many again.)
    const runs = await faultRun(
      { name, faults: { latencyMs: 15 }, ref, during, foreign: seeds.spared, landed: {}, resent: 0 },
      tally,
    );
    expect(runs).toBe(1);
    expect(killed?.server.counters.writes(), 'writes after the restart').toBeGreaterThan(
      killed?.writes ?? Infinity,
    );
  });

  it('stops with one error when the server is gone for good, and converges once it is back', async () => {
    await gone;
  }, 180_000);
});
