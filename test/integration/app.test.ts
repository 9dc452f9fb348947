// The application layer runs a use case without the CLI: runSync with AppDeps of its own (no yargs, no prompt, no
// terminal), against the test API server over HTTP. Its outcome is data (previewed, declined, applied, drift), and
// what it says it wrote is checked against what real kubectl then reads from the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps, ConfirmRequest } from '../../src/app/deps.js';
import { runSync, type SyncRunOptions } from '../../src/app/sync.js';
import type { WriteOptions } from '../../src/app/write.js';
import type { Warning } from '../../src/app/warning.js';
import { connect } from '../support/connect.js';
import type { TestApiServer } from '../apiserver/server.js';
import { runKubectl } from '../support/kubectl.js';
import { startSeeded } from './harness.js';

let server: TestApiServer;
let kubeconfig: string;

beforeAll(async () => {
  ({ server, kubeconfig } = await startSeeded());
});
afterAll(async () => {
  await server.stop();
});

/** AppDeps that record what the use case asked and warned about, answering every question with ANSWER. */
function deps(answer: boolean): { deps: AppDeps; asked: ConfirmRequest[]; warnings: Warning[] } {
  const asked: ConfirmRequest[] = [];
  const warnings: Warning[] = [];
  return {
    asked,
    warnings,
    deps: {
      readStdin: () => Promise.resolve(''),
      connect: (flags) => Promise.resolve(connect(flags, {})),
      confirm: (request) => {
        asked.push(request);
        return Promise.resolve(answer);
      },
      choose: () => Promise.reject(new Error('nothing to choose in sync')),
      startProgress: () => Promise.resolve({ update: () => undefined, stop: () => undefined }),
      warn: (w) => {
        warnings.push(w);
      },
    },
  };
}

function options(write: Partial<WriteOptions>): SyncRunOptions {
  return {
    source: { maxInputBytes: 1 << 28, connection: { kubeconfig } },
    render: {},
    prune: false,
    adopt: false,
    write: {
      dryRun: 'none',
      check: false,
      yes: false,
      concurrency: 8,
      what: 'apply the Crossplane RBAC',
      ...write,
    },
  };
}

/** The names kubectl lists for KIND on the server. */
async function names(kind: string): Promise<string[]> {
  const r = await runKubectl(['get', kind, '-o', 'name', '--kubeconfig', kubeconfig]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe('runSync, without the CLI', () => {
  it('previews with --dry-run=client: drift as data, nothing asked, nothing written', async () => {
    const before = await names('clusterroles');
    const d = deps(true);
    const outcome = await runSync(options({ dryRun: 'client' }), d.deps);
    expect(outcome.status).toBe('previewed');
    expect(outcome.hasChanges).toBe(true);
    expect(outcome.plan.entries.some((e) => e.action === 'create')).toBe(true);
    expect(d.asked).toStrictEqual([]);
    expect(await names('clusterroles')).toStrictEqual(before);
  });

  it('asks once, and a no writes nothing', async () => {
    const before = await names('clusterroles');
    const d = deps(false);
    const outcome = await runSync(options({}), d.deps);
    expect(outcome.status).toBe('declined');
    expect(d.asked).toHaveLength(1);
    expect(d.asked[0]?.yes).toBe(false);
    expect(d.asked[0]?.message).toMatch(/^apply the Crossplane RBAC: \d+ writes on /);
    expect(await names('clusterroles')).toStrictEqual(before);
  });

  it('applies after a yes: the report counts the writes kubectl then sees, and a second run finds no drift', async () => {
    const before = new Set(await names('clusterroles'));
    const d = deps(true);
    const outcome = await runSync(options({}), d.deps);
    expect(outcome.status).toBe('applied');
    const creates = outcome.plan.entries.filter((e) => e.action === 'create' && e.kind === 'ClusterRole');
    const wanted = (d.asked[0]?.message ?? '').match(/: (\d+) writes on /)?.[1];
    expect(creates.length).toBeGreaterThan(0);
    expect(outcome.report?.written).toBe(Number(wanted));
    expect(outcome.report?.failedKeys.size).toBe(0);
    const after = await names('clusterroles');
    const made = after.filter((n) => !before.has(n)).sort();
    expect(made).toStrictEqual(creates.map((e) => `clusterrole.rbac.authorization.k8s.io/${e.name}`).sort());
    const again = await runSync(options({ check: true }), deps(true).deps);
    expect(again.status).toBe('previewed');
    expect(again.hasChanges).toBe(false);
  });
});
