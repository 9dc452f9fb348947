// Reading and planning are separate steps: planSync plans from the input and what readForPlan read, and never asks
// the cluster anything itself. The input here is examples/cluster read from files; planning it once more with a
// live cluster attached, a cluster that fails every call, must give the same plan and touch nothing.
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readInput, type Input } from '../../../src/app/read-input.js';
import { planSync, readForPlan, syncParts, type SyncPlan } from '../../../src/app/sync.js';
import { DEFAULT_SYNC_FAMILIES, type SyncFamily } from '../../../src/sync/choices.js';
import type { Cluster } from '../../../src/port/cluster.js';
import type { Warning } from '../../../src/app/warning.js';

const EXAMPLE = path.join(import.meta.dirname, '../../../examples/cluster');

// Every call of sync's renderer, counted (the renderer itself runs as it is).
const renders = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/sync/render.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/sync/render.js')>();
  return {
    ...original,
    renderSync: (...args: Parameters<typeof original.renderSync>) => {
      renders.count++;
      return original.renderSync(...args);
    },
  };
});

/** A Cluster that records and refuses every call: planning must make none. */
function trapCluster(calls: string[]): Cluster {
  return new Proxy({} as Cluster, {
    get(_target, prop) {
      if (prop === 'describe') return 'the trap cluster';
      if (prop === 'then') return undefined;
      return (...args: unknown[]) => {
        calls.push(`${String(prop)}(${JSON.stringify(args[0] ?? '')})`);
        throw new Error(`planSync called cluster.${String(prop)}`);
      };
    },
  });
}

async function exampleInput(): Promise<Input> {
  const deps = {
    io: { readStdin: () => Promise.reject(new Error('no stdin here')) },
    connect: () => Promise.reject(new Error('no cluster here')),
  } as unknown as Parameters<typeof readInput>[1]; // only readStdin and connect are used, neither here
  return readInput(
    { from: [EXAMPLE], maxInputBytes: 1 << 28, connection: {} },
    deps,
    syncParts(['composed']),
  );
}

describe('planSync', () => {
  it('PlansTheComposedPartFromWhatItIsGivenAndReadsNothing', async () => {
    const input = await exampleInput();
    const only = ['providers', 'composites', 'composed'] as const;
    const reads = await readForPlan(input, only);
    const how = { prune: false, adopt: false, report: true };
    const fromFiles: Warning[] = [];
    const want = await planSync(input, reads, { only }, how, { warn: (w) => fromFiles.push(w) });
    const calls: string[] = [];
    const live: Input = { ...input, cluster: trapCluster(calls) };
    const seen: Warning[] = [];
    const got = await planSync(live, reads, { only }, how, { warn: (w) => seen.push(w) });
    expect(calls, 'planSync asked the cluster').toStrictEqual([]);
    expect(got.plan).toStrictEqual(want.plan);
    expect(got.composed?.analysis).toStrictEqual(want.composed?.analysis);
    // The example composes kinds, so the composed part really was planned (and reported, as data).
    expect(got.composed?.analysis.grants.length).toBeGreaterThan(0);
    expect(seen.some((w) => w.kind === 'composed-report')).toBe(true);
    expect(seen).toStrictEqual(fromFiles);
  });

  it('SharesSyncsRenderWithTheComposedPartWhenItIsAPlainSyncs', async () => {
    const input = await exampleInput();
    const how = { prune: false, adopt: false, report: false };
    const plan = async (only: readonly SyncFamily[]): Promise<{ renders: number; got: SyncPlan }> => {
      const reads = await readForPlan(input, only);
      renders.count = 0;
      const got = await planSync(input, reads, { only }, how, { warn: () => undefined });
      return { renders: renders.count, got };
    };
    // --only composed: sync renders (nothing), and the account's view is rendered unfiltered: two renders.
    const alone = await plan(['composed']);
    expect(alone.renders).toBe(2);
    // A plain sync's families and composed: the one render serves both, and the account's view is the same.
    const all = await plan([...DEFAULT_SYNC_FAMILIES, 'composed']);
    expect(all.renders).toBe(1);
    expect(all.got.composed?.analysis).toStrictEqual(alone.got.composed?.analysis);
    expect(all.got.composed?.analysis.grants.length).toBeGreaterThan(0);
    // A filtered sync (no base roles) still renders the account's view apart.
    const some = await plan(['providers', 'composites', 'namespaces', 'composed']);
    expect(some.renders).toBe(2);
    expect(some.got.composed?.analysis).toStrictEqual(alone.got.composed?.analysis);
  });

  it('RefusesToPlanTheComposedPartUnread', async () => {
    const input = await exampleInput();
    const only = ['composed'] as const;
    await expect(
      planSync(input, {}, { only }, { prune: false, adopt: false, report: false }, { warn: () => undefined }),
    ).rejects.toThrow(/not read/);
  });
});
