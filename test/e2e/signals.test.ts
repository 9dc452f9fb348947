// Issue #12 through the built executable as a real process: Ctrl-C (SIGINT) while writing finishes the writes in
// flight and says how many were done, a second Ctrl-C exits at once, and a process killed with SIGKILL mid-run
// leaves nothing the next run cannot finish. The oracle is the test API server's store: what a fault-free run
// leaves on a fresh server (whose sync --check finds nothing to write, see fault-harness.ts).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { changedObjects, diffStates, identities, keyOf, storedState } from '../support/cluster-state.js';
import { LARGE, foreignSeeds, largeSeed, startLarge } from '../support/large-cluster.js';
import { outcomeOf, reference } from '../integration/fault-harness.js';
import { runPlugin } from '../integration/harness.js';
import { assertBuilt, binDir, repoRoot, tempDir } from './harness.js';

type Obj = Record<string, any>;

interface Exit {
  readonly code: number;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts the executable itself (no kubectl in between, so signals reach it) with ARGS against KUBECONFIG. */
function startPlugin(
  args: readonly string[],
  kubeconfig: string,
): { kill: (s: NodeJS.Signals) => void; exit: Promise<Exit> } {
  const child = spawn(join(binDir, 'kubectl-crossplane_rbac'), [...args, '--kubeconfig', kubeconfig], {
    env: { PATH: process.env.PATH ?? '', HOME: tempDir('xrbac-home-'), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  const exit = new Promise<Exit>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve({ code: code ?? -1, signal, stdout, stderr });
    });
  });
  return {
    kill: (s) => {
      child.kill(s);
    },
    exit,
  };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 6000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

const examples = join(repoRoot, 'examples', 'cluster');

/** A stored object (storedState's JSON) without the rules an aggregated ClusterRole gets from the controller. */
function ownPart(json: string | undefined): unknown {
  const o = JSON.parse(json ?? 'null') as Obj | null;
  if (o?.aggregationRule !== undefined) delete o.rules;
  return o;
}

describe('Ctrl-C while writing, through the executable', () => {
  const seed = loadSeedFiles([examples]);
  let ref: Map<string, string>;
  /** The keys of the objects a fault-free sync makes on a fresh server. */
  let made: string[];

  async function fresh(): Promise<{ server: TestApiServer; kubeconfig: string }> {
    const server = await startApiServer({ seed });
    const kubeconfig = join(tempDir(), 'kubeconfig');
    server.writeKubeconfig(kubeconfig);
    return { server, kubeconfig };
  }

  /** A fault-free sync through the executable exits 0 and leaves what a single run on a fresh server leaves. */
  async function expectRerunConverges(server: TestApiServer, kubeconfig: string): Promise<void> {
    server.faults.latencyMs = 0;
    const again = await startPlugin(['sync', '--yes'], kubeconfig).exit;
    expect(again.code, again.stderr).toBe(0);
    expect(diffStates(storedState(server), ref)).toEqual([]);
  }

  beforeAll(async () => {
    assertBuilt();
    const { server, kubeconfig } = await fresh();
    try {
      const seeded = new Set(storedState(server).keys());
      const r = await startPlugin(['sync', '--yes'], kubeconfig).exit;
      expect(r.code, r.stderr).toBe(0);
      ref = storedState(server);
      made = [...ref.keys()].filter((k) => !seeded.has(k));
      expect(made.length).toBeGreaterThan(200);
    } finally {
      await server.stop();
    }
  });

  it('finishes the writes in flight, says how many were done, exits 130; a re-run converges', async () => {
    const { server, kubeconfig } = await fresh();
    try {
      const seeded = new Set(storedState(server).keys());
      server.faults.latencyMs = 40;
      const plugin = startPlugin(['sync', '--yes'], kubeconfig);
      await until(() => server.counters.writes() >= 20, 'writes to begin');
      plugin.kill('SIGINT');
      const r = await plugin.exit;
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toContain('interrupted: finishing the writes in flight (Ctrl-C again stops at once)');
      const m =
        /\nerror: interrupted: (\d+) of (\d+) writes? (?:was|were) done, (\d+) (?:was|were) not started\n/.exec(
          r.stderr,
        );
      expect(m, r.stderr).not.toBeNull();
      const [done, total, notStarted] = [Number(m?.[1]), Number(m?.[2]), Number(m?.[3])];
      expect(total).toBe(made.length);
      expect(done).toBeGreaterThanOrEqual(20);
      expect(done + notStarted, 'no write failed').toBe(total);
      expect(notStarted).toBeGreaterThan(0);
      // Every write the server received was answered and counted as done: none was cut off.
      expect(server.counters.writes()).toBe(done);
      // Exactly those objects are stored, each whole: as the fault-free run stores it (but for the rules the
      // aggregation controller fills in, which depend on the roles not written yet).
      const state = storedState(server);
      const stored = [...state.keys()].filter((k) => !seeded.has(k));
      expect(stored).toHaveLength(done);
      for (const key of stored) expect(ownPart(state.get(key)), key).toEqual(ownPart(ref.get(key)));

      await expectRerunConverges(server, kubeconfig);
    } finally {
      await server.stop();
    }
  });

  it('exits at once with 130 on a second Ctrl-C, while writes are still in flight; a re-run converges', async () => {
    const { server, kubeconfig } = await fresh();
    try {
      const plugin = startPlugin(['sync', '--yes'], kubeconfig);
      await until(() => server.counters.writes() > 0, 'writes to begin');
      // From now on every write takes 5 s: wait until one of those is in flight.
      server.faults.latencyMs = 5000;
      const slowFrom = server.counters.writes();
      await until(() => server.counters.writes() > slowFrom, 'a slow write');
      plugin.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 200));
      const second = Date.now();
      plugin.kill('SIGINT');
      const r = await plugin.exit;
      expect(r.code, r.stderr).toBe(130);
      expect(Date.now() - second, 'exited before the writes in flight could finish').toBeLessThan(2500);
      expect(r.stderr).toContain('interrupted: finishing the writes in flight');
      expect(r.stderr).not.toMatch(/writes? (was|were) done/);

      // The writes it left in flight still land on the server (as creates that find the object there, or that
      // the re-run's creates find there); the re-run races them.
      await expectRerunConverges(server, kubeconfig);
    } finally {
      await server.stop();
    }
  });
});

// SIGKILL ends the process at once, with no handler of either runtime run: what the test checks is the state the
// plugin's writes left on the server, the same JavaScript's writes on the bundle and the standalone executable. It
// runs once, on the bundle (three syncs of examples/large: a minute of the gate per runtime). Ctrl-C, which each
// runtime handles with its own code, runs on both.
describe.skipIf(process.env.E2E_BIN_DIR !== undefined)(
  'SIGKILL mid-run, through the executable, on examples/large',
  () => {
    it('leaves nothing the next run cannot finish, and no foreign object changed', async () => {
      const SYNC = ['sync', '--yes', '--prune'];
      const plan = await runPlugin(['sync', '-f', LARGE, '--dry-run=client', '-o', 'json']);
      const seeds = foreignSeeds((JSON.parse(plan.stdout) as { items: Obj[] }).items);
      const seed = [...seeds.spared, ...seeds.stale];
      const ref = await reference(seed, SYNC, ['sync', '--check', '--prune', '-o', 'name']);
      const { server, kubeconfig } = await startLarge(seed);
      try {
        const before = identities(server, seeds.spared);
        // A few ms per request keeps writes in flight when the process dies.
        server.faults.latencyMs = 2;
        const killed = startPlugin(SYNC, kubeconfig);
        await until(() => server.counters.writes() > 1000, '1000 writes');
        killed.kill('SIGKILL');
        const k = await killed.exit;
        expect(k.signal).toBe('SIGKILL');
        server.faults.latencyMs = 0;
        expect(changedObjects(server, seeds.spared, before)).toEqual([]);
        const seeded = new Set([...(largeSeed() as Obj[]), ...seed].map(keyOf));
        const made = (keys: Iterable<string>): number => [...keys].filter((key) => !seeded.has(key)).length;
        expect(made(storedState(server).keys())).toBeLessThan(made(ref.state.keys()));

        const next = await startPlugin(SYNC, kubeconfig).exit;
        expect(outcomeOf(next), next.stderr).toEqual(ref.outcome);
        expect(changedObjects(server, seeds.spared, before)).toEqual([]);
        expect(diffStates(storedState(server), ref.state)).toEqual([]);
      } finally {
        await server.stop();
      }
    }, 300_000); // Three syncs of examples/large (reference, killed, re-run): minutes on a loaded 2-core machine.
  },
);
