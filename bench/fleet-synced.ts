/**
 * Fleets of synced clusters (informational: no target): drift detection across clusters already synced, the common
 * use of `sync --check --contexts` (a CI job), which the fleet bench's clusters, never synced, do not show. A synced
 * large cluster reads some 40 MB of ClusterRoles, and each context's plan compares every one with its rendered
 * role: the render is shared, the reads and comparisons are not, and what a context holds is tens of megabytes.
 *
 * SYNCED contexts of the fleet bench's servers are synced first (`sync --yes`, each context alone, at once), and
 * checked once unmeasured. Then ROUNDS rounds, each a run over them with --parallel PARALLEL and each context alone; the shell loop over them once.
 * Printed: the run against the loop and the slowest single context, and its peak RSS against one context's. One
 * context at a time, so that what a context holds after its run shows in the peak: 4 contexts were 2.2x one
 * context's peak while each context's plan was kept as data to the end, 1.6x since only its printed answer is (on
 * two cores a synced context's work is the thread's, so a higher --parallel is hardly faster: 8 synced contexts
 * took 9.3 s with --parallel 1, 8.3-8.5 s with 2, 7.9-8.6 s with 4, 8.4-8.9 s with 8).
 */
import { fixed, median } from './figures.js';
import { ratio, runAsync, type Measured } from './process.js';

const SYNCED = 4;
const PARALLEL = 1;
const ROUNDS = 3;

/** Syncs the first SYNCED of NAMES (contexts of the kubeconfig KC), then measures and prints the synced fleet. */
export async function benchSyncedFleet(names: readonly string[], kc: string): Promise<void> {
  const synced = names.slice(0, SYNCED);
  if (synced.length < SYNCED) throw new Error(`a synced fleet needs ${String(SYNCED)} contexts`);
  const base = ['crossplane-rbac', 'sync', '--kubeconfig', kc];
  await Promise.all(synced.map((c) => runAsync('kubectl', [...base, '--yes', '--context', c])));
  const check = [...base, '--check'];
  // A synced context is not drift (exit 0); anything else fails the bench.
  const fleetRun = (): Promise<Measured> =>
    runAsync(
      'kubectl',
      [...check, '--contexts', synced.join(','), '--parallel', String(PARALLEL)],
      {},
      { peak: true },
    );
  const one = (c: string): Promise<Measured> =>
    runAsync('kubectl', [...check, '--context', c], {}, { peak: true });
  // Unmeasured: the first run after the writes is the servers' slowest by far (7.2 s against 4.7-5.2 s after it).
  await fleetRun();
  const fleet: Measured[] = [];
  const alone: Measured[][] = synced.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    fleet.push(await fleetRun());
    for (const [i, c] of synced.entries()) alone[i]?.push(await one(c));
  }
  const loopScript = synced
    .map((c) => `kubectl ${check.join(' ')} --context "${c}" >/dev/null || exit 2`)
    .join('; ');
  const loop = await runAsync('bash', ['-c', loopScript]);
  const wall = median(fleet.map((m) => m.ms));
  const slowest = Math.max(...alone.map((runs) => median(runs.map((m) => m.ms))));
  const onePeak = median(alone.flat().map((m) => m.peakMB ?? Number.NaN));
  const fleetPeak = median(fleet.map((m) => m.peakMB ?? Number.NaN));
  console.log(
    `fleet, synced (informational: no target): sync --check over ${String(SYNCED)} synced large clusters --parallel ${String(PARALLEL)}: ${fixed(wall)} ms (median of ${String(ROUNDS)}) vs the shell loop ${fixed(loop.ms)} ms: ${ratio(wall, loop.ms)}; vs the slowest single context ${fixed(slowest)} ms: ${ratio(wall, slowest)}; peak RSS ${fixed(fleetPeak)} MB vs one context's ${fixed(onePeak)} MB: ${ratio(fleetPeak, onePeak)}`,
  );
}
