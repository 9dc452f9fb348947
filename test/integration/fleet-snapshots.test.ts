/**
 * A run across contexts holds at most --parallel contexts' snapshots: each context's objects are released once its
 * result (its captured text) is formed. Counted, not guessed: a weak reference to one object of each context's reads
 * (its first Namespace, which no render keeps) and to each live ClusterRole (the plan's entries name those it compared
 * with the rendered roles: the cluster is synced first), and a full garbage collection each time a context starts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { contextNames } from '../../src/cluster/connection/kubeconfig.js';
import { connect } from '../support/connect.js';
import { runCaptured } from '../support/run-cli.js';
import { startSeeded } from './harness.js';
import type { TestApiServer } from '../apiserver/server.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CONTEXTS = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
let server: TestApiServer;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  const seeded = await startSeeded();
  server = seeded.server;
  dir = mkdtempSync(join(tmpdir(), 'xrbac-fleet-snapshots-'));
  const one = parse(readFileSync(seeded.kubeconfig, 'utf8')) as {
    clusters: { cluster: unknown }[];
    users: { user: unknown }[];
  };
  kubeconfig = join(dir, 'fleet.kubeconfig');
  writeFileSync(
    kubeconfig,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: CONTEXTS.map((name) => ({ name, cluster: one.clusters[0]?.cluster })),
      users: CONTEXTS.map((name) => ({ name, user: one.users[0]?.user })),
      contexts: CONTEXTS.map((name) => ({ name, context: { cluster: name, user: name } })),
      'current-context': 'c1',
    }),
  );
  // Synced (the contexts are one cluster): each context's plan compares the live roles with the rendered ones.
  const synced = await runCaptured(['sync', '--yes', '--kubeconfig', seeded.kubeconfig], {
    env: {},
    connect: (flags) => Promise.resolve(connect(flags, {})),
  });
  expect(synced.code, synced.stderr).toBe(0);
  rmSync(seeded.dir, { recursive: true, force: true });
});

afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('sync --check across contexts', () => {
  it('holds at most --parallel contexts’ objects at once, and none once the run is over', async () => {
    const env = {};
    const read: { context: string; ref: WeakRef<object> }[] = [];
    const liveRoles: { context: string; ref: WeakRef<object> }[] = [];
    const held = (refs: typeof read): string[] => [
      ...new Set(refs.filter((r) => r.ref.deref() !== undefined).map((r) => r.context)),
    ];
    const alive = (): string[] => {
      gc();
      const roles = held(liveRoles);
      return [...new Set([...held(read), ...roles])];
    };
    let most: string[] = [];
    const r = await runCaptured(
      ['sync', '--check', '--all-contexts', '--parallel', '2', '--kubeconfig', kubeconfig],
      {
        env,
        contextNames: (flags) => Promise.resolve(contextNames(flags, env)),
        connect: async (flags) => {
          // A context starts: every context before it that is no longer running must be released by now.
          await new Promise((resolve) => setImmediate(resolve));
          const now = alive();
          if (now.length > most.length) most = now;
          const cluster = connect(flags, env);
          const list = cluster.list.bind(cluster);
          cluster.list = async (kind, opts) => {
            const items = await list(kind, opts);
            const first = items[0];
            if (kind.plural === 'namespaces' && first !== undefined) {
              read.push({ context: flags.context ?? '', ref: new WeakRef(first) });
            }
            // And every live ClusterRole: the plan compares some with the roles sync renders and its entries name
            // them (unchanged, to update), so a result kept as data would keep them.
            if (kind.plural === 'clusterroles') {
              for (const role of items)
                liveRoles.push({ context: flags.context ?? '', ref: new WeakRef(role) });
            }
            return items;
          };
          return cluster;
        },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^6 contexts: 6 ok, 0 drifted or denied, 0 failed$/m);
    // Every context was read, and counted (the weak references are the test's only hold on them).
    expect(read.map((x) => x.context).sort()).toEqual(CONTEXTS);
    expect(new Set(liveRoles.map((x) => x.context)).size).toBe(CONTEXTS.length);
    expect(most.length, `alive at once: ${most.join(', ')}`).toBeLessThanOrEqual(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(alive()).toEqual([]);
  });
});
