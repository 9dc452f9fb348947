// Fault runs of issue #12 at the scale of examples/large: a fresh test API server, the faults on, a command;
// then, unless it ended as a fault-free run ends, a clean stop and a second run without faults. The oracle is the
// server's store (compared with what one fault-free run leaves on a fresh server) and the uid and resourceVersion
// of every foreign object, never the plugin's own view.
import { expect } from 'vitest';
import { NO_FAULTS } from '../apiserver/faults.js';
import type { FaultConfig, TestApiServer } from '../apiserver/server.js';
import {
  changedObjects,
  diffStates,
  errorLines,
  identities,
  keyOf,
  storedState,
} from '../support/cluster-state.js';
import { drifted, largeSeed, startLarge } from '../support/large-cluster.js';
import { runPlugin, type CliResult } from './harness.js';

type Obj = Record<string, any>;

/** How a run ended, as far as the user sees it. */
export interface Outcome {
  readonly code: number;
  readonly errors: readonly string[];
  readonly refused: readonly string[];
}

export function outcomeOf(r: CliResult): Outcome {
  return {
    code: r.code,
    errors: errorLines(r.stderr),
    refused: r.stderr
      .split('\n')
      .map((l) => /^refused (\S+?): /.exec(l)?.[1])
      .filter((k): k is string => k !== undefined)
      .sort(),
  };
}

/**
 * A run that did not finish stopped cleanly: exit 2, no bug report, one summary line last (writes failed, the server
 * lost, or a read or permission check that failed); any other error line names one write that failed.
 */
export function expectCleanStop(r: CliResult): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).not.toMatch(/this is a bug|internal error|\n\s+at |undefined/);
  const errors = errorLines(r.stderr);
  expect(errors.length, r.stderr).toBeGreaterThan(0);
  const summary =
    /^error: (\d+ of \d+ writes? failed; (everything else|nothing) was written|lost the API server .* writes? (was|were) done before|.* while (listing|checking) .*)$/;
  expect(errors.at(-1), r.stderr).toMatch(summary);
  for (const line of errors.slice(0, -1)) {
    expect(line, r.stderr).toMatch(/^error: (.* while (creating|updating|deleting|patching) |refused )/);
  }
}

/** What one fault-free run of a command leaves on a fresh server. */
export interface Reference {
  /** The cluster it ran on (examples/large unless told), SEED besides. */
  readonly base: readonly unknown[];
  readonly seed: readonly Obj[];
  readonly argv: readonly string[];
  readonly outcome: Outcome;
  readonly state: ReadonlyMap<string, string>;
  /** The plugin's objects it made, each drifted (see drifted()). */
  readonly drift: readonly Obj[];
}

/**
 * Runs ARGV without faults on a fresh server seeded with BASE (examples/large unless told) and SEED, and keeps what
 * it left; then
 * CHECK (a command that writes nothing and lists what ARGV would still write, -o name) must find nothing there. A fault run whose store ends equal to this one's is converged: the
 * check, which reads nothing but those objects, would answer there as it does here.
 */
export async function reference(
  seed: readonly Obj[],
  argv: readonly string[],
  check: readonly string[],
  base: readonly unknown[] = largeSeed(),
): Promise<Reference> {
  const { server, kubeconfig } = await startLarge(seed, undefined, base);
  try {
    const r = await runPlugin([...argv, '--kubeconfig', kubeconfig]);
    const state = storedState(server);
    const checked = await runPlugin([...check, '--kubeconfig', kubeconfig]);
    expect(checked.stdout, `${check.join(' ')}: what is left to write`).toBe('');
    expect(outcomeOf(checked), checked.stderr).toEqual(outcomeOf(r));
    return { base, seed, argv, outcome: outcomeOf(r), state, drift: drifted(server, seed, base) };
  } finally {
    await server.stop();
  }
}

export interface Tally {
  readonly scenario: string;
  readonly runs: number;
  readonly seconds: number;
  /** Why the first run stopped, when it needed a second: its last error line. */
  readonly stopped?: string;
  /** The faults the server injected during the first run, by kind (counters.faults()). */
  readonly faults?: Readonly<Record<string, number>>;
  /** Writes the server received again for an object whose earlier write in the run was not answered 2xx. */
  readonly resent?: number;
  /** Writes whose answer was never sent (the connection dropped, or the server stopped, while they were served). */
  readonly lost?: number;
}

export function formatTally(tally: readonly Tally[]): string {
  const once = tally.filter((t) => t.runs === 1).length;
  return [
    `fault runs: ${String(tally.length)}, converged in one run: ${String(once)}, needed a second: ${String(tally.length - once)}`,
    ...tally.map(
      (t) =>
        `  ${t.scenario}: ${String(t.runs)} run${t.runs === 1 ? '' : 's'}, ${t.seconds.toFixed(1)} s` +
        (t.faults !== undefined
          ? `; faults injected: ${
              Object.entries(t.faults)
                .map(([k, n]) => `${k} ${String(n)}`)
                .join(', ') || 'none'
            }; writes sent again: ${String(t.resent)}; answers lost: ${String(t.lost)}`
          : '') +
        (t.stopped !== undefined ? `\n    first run: ${t.stopped}` : ''),
    ),
  ].join('\n');
}

export interface FaultRun {
  readonly name: string;
  readonly faults: Partial<FaultConfig>;
  readonly ref: Reference;
  /** Objects seeded besides ref.seed (drifted copies of the plugin's); those with a key in ref.seed are left out. */
  readonly extra?: readonly Obj[];
  /** Extra arguments for this run (e.g. --concurrency). */
  readonly flags?: readonly string[];
  /** Called once the first run has started; the run is awaited after it returns. */
  readonly during?: (server: TestApiServer) => Promise<void>;
  /** How many copies of the first run to start at once (default 1): each must end as one run ends, or stop cleanly. */
  readonly copies?: number;
  /** The foreign objects to watch: every one must keep its uid and resourceVersion. */
  readonly foreign: readonly Obj[];
  /**
   * The least number of each kind of fault (as counters.faults() names them) the server must have injected during
   * the first run: a run the faults missed would pass without testing anything. Each scenario sets them well under
   * what its rates and request count make likely (its comment gives the arithmetic).
   */
  readonly landed: Readonly<Record<string, number>>;
  /** The least number of writes the plugin must have sent again after an answer that was not a success. */
  readonly resent: number;
  /** The least number of writes whose answer must have been lost (default 0). */
  readonly lost?: number;
}

/**
 * Listens to SERVER's writes: how many were sent for an object (resource, namespace, name) whose earlier write in
 * this listening was answered with an error or not answered at all (a retry, or a write planned again after a
 * conflict), and how many were never answered.
 */
function countWrites(server: TestApiServer): { resent: number; lost: number; stop: () => void } {
  const failed = new Set<string>();
  const counts = { resent: 0, lost: 0 };
  const stop = server.counters.onWrite((w) => {
    const key = `${w.resource}/${w.namespace}/${w.name}`;
    if (failed.has(key)) counts.resent += 1;
    if (w.status === 0) counts.lost += 1;
    if (w.status < 200 || w.status > 299) failed.add(key);
  });
  return {
    get resent() {
      return counts.resent;
    },
    get lost() {
      return counts.lost;
    },
    stop,
  };
}

/**
 * One fault run (see the top of this file). Returns how many runs it took to converge (1 or 2), after checking
 * that the store equals the reference's (so the reference's check holds here too) and that the foreign objects
 * are untouched after every run.
 */
export async function faultRun(run: FaultRun, tally: Tally[]): Promise<number> {
  const started = Date.now();
  const seeded = new Set(run.ref.seed.map(keyOf));
  const extra = (run.extra ?? []).filter((o) => !seeded.has(keyOf(o)));
  const { server, kubeconfig } = await startLarge([...run.ref.seed, ...extra], undefined, run.ref.base);
  const argv = [...run.ref.argv, ...(run.flags ?? []), '--kubeconfig', kubeconfig];
  try {
    const before = identities(server, run.foreign);
    server.counters.reset();
    const writes = countWrites(server);
    server.faults = { ...NO_FAULTS, ...run.faults };
    const pending = Promise.all(Array.from({ length: run.copies ?? 1 }, () => runPlugin(argv)));
    await run.during?.(server);
    const firsts = await pending;
    server.faults = { ...NO_FAULTS };
    writes.stop();
    const faults = server.counters.faults();
    for (const [kind, least] of Object.entries(run.landed)) {
      expect(faults[kind] ?? 0, `${run.name}: faults ${kind} injected`).toBeGreaterThanOrEqual(least);
    }
    expect(writes.resent, `${run.name}: writes sent again`).toBeGreaterThanOrEqual(run.resent);
    expect(writes.lost, `${run.name}: answers lost`).toBeGreaterThanOrEqual(run.lost ?? 0);
    expect(changedObjects(server, run.foreign, before), 'foreign objects after the first run').toEqual([]);
    let runs = 1;
    let stopped: string | undefined;
    const unfinished = firsts.filter((r) => JSON.stringify(outcomeOf(r)) !== JSON.stringify(run.ref.outcome));
    if (unfinished.length > 0) {
      for (const r of unfinished) expectCleanStop(r);
      stopped = unfinished.map((r) => (errorLines(r.stderr).at(-1) ?? '').slice(0, 200)).join(' | ');
      const second = await runPlugin(argv);
      expect(outcomeOf(second), second.stderr).toEqual(run.ref.outcome);
      expect(changedObjects(server, run.foreign, before), 'foreign objects after the second run').toEqual([]);
      runs = 2;
    }
    expect(diffStates(storedState(server), run.ref.state), `${run.name}: the store`).toEqual([]);
    tally.push({
      scenario: run.name,
      runs,
      seconds: (Date.now() - started) / 1000,
      ...(stopped !== undefined ? { stopped } : {}),
      faults,
      resent: writes.resent,
      lost: writes.lost,
    });
    return runs;
  } finally {
    await server.stop();
  }
}
