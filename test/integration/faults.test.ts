// Issue #12: sync at the scale of examples/large against a hostile API server: dropped connections, lost answers,
// 503s, 429s with Retry-After, 409s on updates, latency, and the server restarted mid-run. Every run ends as a
// fault-free run ends, or stops with one clear error and the next run does (see fault-harness.ts); the foreign
// objects it must spare keep their uid and resourceVersion throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { LARGE, foreignSeeds, type ForeignSeeds } from '../support/large-cluster.js';
import { faultRun, formatTally, reference, type Reference, type Tally } from './fault-harness.js';
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

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe('sync of examples/large against a hostile API server', () => {
  let seeds: ForeignSeeds;
  /** Seeded: foreign objects sync must spare, and the plugin's stale ones. A fault-free run exits 0. */
  let ref: Reference;

  beforeAll(async () => {
    const plan = await runPlugin(['sync', '-f', LARGE, '--dry-run=client', '-o', 'json']);
    const wanted = (JSON.parse(plan.stdout) as { items: Obj[] }).items;
    expect(wanted.length).toBeGreaterThan(3000);
    seeds = foreignSeeds(wanted);
    ref = await reference([...seeds.spared, ...seeds.stale], SYNC, CHECK);
  }, 120_000);

  afterAll(() => {
    console.log(`faults.test.ts: ${formatTally(tally)}`);
  });

  it('has a reference that exits 0, prunes the stale objects and spares the foreign ones', () => {
    expect(ref.outcome).toEqual({ code: 0, errors: [], refused: [] });
    for (const o of seeds.stale) expect(ref.state.has(`ClusterRole/${String(o.metadata.name)}`)).toBe(false);
    for (const o of seeds.spared) {
      expect(ref.state.has(`${String(o.kind)}/${String(o.metadata.name)}`)).toBe(true);
    }
    expect(ref.drift.length).toBeGreaterThan(1000);
  });

  it.each([
    ['5% of connections dropped before they are served', { dropRate: 0.05 }, []],
    ['5% of answers lost after the request was served', { answerDropRate: 0.05 }, []],
    ['20% answered 503', { errorRate: 0.2, errorCode: 503 as const }, WIDE],
    ['10% answered 429 with Retry-After: 1', { throttleRate: 0.1, retryAfterSeconds: 1 }, WIDE],
    ['15 ms of latency on every request', { latencyMs: 15 }, []],
  ])('converges under %s', async (name, faults, flags) => {
    await faultRun({ name, faults, flags, ref, foreign: seeds.spared }, tally);
  });

  it('converges when 30% of updates answer 409 Conflict, over a drifted cluster', async () => {
    const name = '30% of updates answered 409 (a third of the objects drifted)';
    await faultRun(
      { name, faults: { conflictRate: 0.3 }, ref, extra: ref.drift, foreign: seeds.spared },
      tally,
    );
  });

  it('converges in one run when the server is killed mid-run and restarted on the same port a second later', async () => {
    const during = async (server: TestApiServer): Promise<void> => {
      await waitFor(() => server.counters.writes() > 800, 'writes to begin');
      expect(server.counters.writes(), 'writes before the kill').toBeLessThan(2000);
      await server.stop();
      await new Promise((r) => setTimeout(r, 1000));
      await server.restart();
    };
    const name = 'server killed after 800 writes, restarted 1 s later';
    // A few ms per request keeps writes in flight when the server goes, so some are stored and their answers lost.
    const runs = await faultRun(
      { name, faults: { latencyMs: 3 }, ref, during, foreign: seeds.spared },
      tally,
    );
    expect(runs).toBe(1);
  });
});
