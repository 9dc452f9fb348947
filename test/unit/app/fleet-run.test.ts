/**
 * runFleet: at most PARALLEL contexts in flight (so at most that many contexts' snapshots held), each result kept
 * only in the form its capture makes once the context is over, one RenderShare for the run's contexts, and from -v=4
 * a line counting the renders shared.
 */
import { describe, expect, it } from 'vitest';
import { runFleet } from '../../../src/app/fleet.js';
import type { AppDeps } from '../../../src/app/deps.js';
import type { Warning } from '../../../src/app/warning.js';
import type { ClusterSnapshot } from '../../../src/kube/types.js';
import type { DesiredState } from '../../../src/sync/render.js';

function base(warnings: Warning[]): AppDeps {
  return {
    readStdin: () => Promise.resolve(''),
    warn: (w) => warnings.push(w),
    connect: () => Promise.reject(new Error('no cluster in this test')),
    confirm: () => Promise.resolve(false),
    choose: () => Promise.resolve([]),
    startProgress: () => Promise.resolve({ update: () => undefined, stop: () => undefined }),
  };
}

/** The front end's collector of one run: the answers it handed over. */
function capture(): { sink: string[]; collected: () => string[] } {
  const sink: string[] = [];
  return { sink, collected: () => sink };
}

/** A snapshot whose one namespace, NAMESPACE, enables an XRD (a namespace enabling none is not a render's input). */
const snapshot = (namespace: string): ClusterSnapshot => ({
  xrds: [],
  providerRevisions: [],
  deployments: [],
  namespaces: [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: namespace,
        annotations: { 'rbac.crossplane.io/xdbs.example.org': 'xrd-claim-accepted' },
      },
    },
  ],
  clusterRoles: [],
  clusterRoleBindings: [],
  roleBindings: [],
  configMaps: [],
  others: [],
});

describe('runFleet', () => {
  it('runs at most PARALLEL contexts at once, shares one RenderShare, and counts the renders shared at -v=4', async () => {
    const warnings: Warning[] = [];
    let inFlight = 0;
    let most = 0;
    let renders = 0;
    const shares = new Set<unknown>();
    const contexts = ['a', 'b', 'c', 'd', 'e'];
    const runs = await runFleet(
      contexts,
      2,
      base(warnings),
      capture,
      async (context, deps, out) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        shares.add(deps.renderShare);
        // Contexts a-d are alike, e differs.
        deps.renderShare?.render(snapshot(context === 'e' ? 'other' : 'same'), {}, () => {
          renders++;
          // Only counted here: the shared result's other fields are never read.
          return { objects: [] } as unknown as DesiredState;
        });
        out.push(`answer of ${context}`);
        inFlight--;
        return 0;
      },
      undefined,
      false,
      4,
    );
    expect(most).toBe(2);
    expect([...shares]).toHaveLength(1);
    expect([...shares][0]).toBeDefined();
    expect(renders).toBe(2);
    expect(runs.map((r) => [r.context, r.output])).toEqual(contexts.map((c) => [c, [`answer of ${c}`]]));
    expect(warnings).toEqual([{ kind: 'renders-shared', contexts: 5, rendered: 2, shared: 3 }]);
  });

  it("forms each context's kept output as soon as its run is over, before the next context starts", async () => {
    // The CLI keeps a context's output printed (a synced cluster's plan holds tens of megabytes of live roles): the
    // form is made when the context ends, not when the last one does.
    const events: string[] = [];
    const runs = await runFleet(
      ['a', 'b', 'c'],
      1,
      base([]),
      (context) => {
        const sink: string[] = [];
        return {
          sink,
          collected: async () => {
            await new Promise((r) => setTimeout(r, 2));
            events.push(`kept ${context}`);
            return sink.map((s) => s.toUpperCase());
          },
        };
      },
      (context, _deps, out) => {
        events.push(`run ${context}`);
        out.push(`answer of ${context}`);
        return context === 'b' ? Promise.reject(new Error('b failed')) : Promise.resolve(0);
      },
    );
    expect(events).toEqual(['run a', 'kept a', 'run b', 'kept b', 'run c', 'kept c']);
    expect(runs.map((r) => [r.context, r.output, r.exitCode])).toEqual([
      ['a', ['ANSWER OF A'], 0],
      ['b', ['ANSWER OF B'], 2],
      ['c', ['ANSWER OF C'], 0],
    ]);
  });

  it('says nothing below -v=4', async () => {
    const warnings: Warning[] = [];
    await runFleet(['a'], 1, base(warnings), capture, () => Promise.resolve(0), undefined, false, 3);
    expect(warnings).toEqual([]);
  });
});
