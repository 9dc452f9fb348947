/**
 * Renders shared across contexts: six clusters seeded from examples/cluster, four alike by content and two not.
 * The alike differ in what each API server stamps (resourceVersions, creation times), in one in every uid, and in one
 * in when its XRDs' and packages' conditions last changed, in its Deployments' rollouts and in its applications'
 * namespaces (as any two real clusters do); one has two XRDs' uids swapped (the same content up to a renaming of
 * uids); one lacks an XRD. Whatever is shared, each context's
 * answer must be exactly what `--context` alone prints, its own uids in its owner references; `-v=4` says how many
 * renders were shared.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { exampleCluster, runPlugin } from './harness.js';

interface Seeded {
  metadata?: { name?: string; uid?: string };
  kind?: string;
}

const servers: TestApiServer[] = [];
const dir = mkdtempSync(join(tmpdir(), 'xrbac-fleet-share-'));
let kubeconfig: string;

/** Every `uid` string member of VALUE (a seed object) mapped through TO, at any depth. */
function mapUids(value: unknown, to: (uid: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapUids(v, to));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === 'uid' && typeof v === 'string' ? to(v) : mapUids(v, to)]),
  );
}

const xrdUid = (seed: readonly unknown[], name: string): string => {
  const x = (seed as Seeded[]).find(
    (o) => o.kind === 'CompositeResourceDefinition' && o.metadata?.name === name,
  );
  const uid = x?.metadata?.uid;
  if (uid === undefined) throw new Error(`the example has no uid on XRD ${name}`);
  return uid;
};

beforeAll(async () => {
  const seed = loadSeedFiles([exampleCluster]);
  const fresh = new Map<string, string>();
  const renamed = seed.map((o) =>
    mapUids(o, (u) => {
      const v = fresh.get(u) ?? randomUUID();
      fresh.set(u, v);
      return v;
    }),
  );
  const a = xrdUid(seed, 'xclusters.aws.platformref.upbound.io');
  const b = xrdUid(seed, 'xsqlinstances.aws.platform.upbound.io');
  const swapped = seed.map((o) => mapUids(o, (u) => (u === a ? b : u === b ? a : u)));
  const fewer = seed.filter(
    (o) =>
      (o as Seeded).kind !== 'CompositeResourceDefinition' ||
      (o as Seeded).metadata?.name !== 'xlegacybuckets.storage.platform.acme.io',
  );
  expect(fewer.length).toBe(seed.length - 1);
  // Every condition of the XRDs and ProviderRevisions a day later (their controllers set them, each cluster's own),
  // each Deployment at a rollout of its own, and namespaces of applications of its own (they enable no XRD).
  const later = [
    ...seed.map((o) => {
      const moved = JSON.parse(
        JSON.stringify(o).replace(
          /"lastTransitionTime":"([^"]*)"/g,
          (_m, t: string) => `"lastTransitionTime":"${new Date(Date.parse(t) + 86_400_000).toISOString()}"`,
        ),
      ) as { kind?: string; metadata: { annotations?: Record<string, string> } };
      if (moved.kind === 'Deployment') {
        moved.metadata.annotations = {
          ...moved.metadata.annotations,
          'deployment.kubernetes.io/revision': '7',
        };
      }
      return moved;
    }),
    ...['shop', 'billing'].map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
  ];
  expect(JSON.stringify(later)).not.toBe(JSON.stringify(seed));
  const seeds: [string, unknown[]][] = [
    ['alike-1', seed],
    ['alike-2', seed],
    ['uids-renamed', renamed],
    ['uids-swapped', swapped],
    ['one-xrd-fewer', fewer],
    ['own-conditions-and-apps', later],
  ];
  const config = { clusters: [] as unknown[], users: [] as unknown[], contexts: [] as unknown[] };
  for (const [name, objects] of seeds) {
    const server = await startApiServer({ seed: objects });
    servers.push(server);
    const file = join(dir, `${name}.kubeconfig`);
    server.writeKubeconfig(file);
    const one = parse(readFileSync(file, 'utf8')) as {
      clusters: { cluster: unknown }[];
      users: { user: unknown }[];
    };
    config.clusters.push({ name, cluster: one.clusters[0]?.cluster });
    config.users.push({ name, user: one.users[0]?.user });
    config.contexts.push({ name, context: { cluster: name, user: name } });
  }
  kubeconfig = join(dir, 'fleet.kubeconfig');
  writeFileSync(
    kubeconfig,
    stringify({ apiVersion: 'v1', kind: 'Config', ...config, 'current-context': 'alike-1' }),
  );
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

/** The owner references' uids in a sync -o json answer. */
function ownerUids(result: unknown): Set<string> {
  const items = (result as { items: { metadata: { ownerReferences?: { uid?: string }[] } }[] }).items;
  return new Set(items.flatMap((i) => (i.metadata.ownerReferences ?? []).map((r) => r.uid ?? '')));
}

describe('sync across contexts shares renders whose inputs are equal by content', () => {
  it('gives each context the answer --context alone gives, and -v=4 counts the renders shared', async () => {
    const check = ['sync', '--check', '-o', 'json', '--kubeconfig', kubeconfig];
    const accepted = (): number[] => servers.map((s) => s.acceptedConnections());
    const before = accepted();
    const fleet = await runPlugin([...check, '--all-contexts', '-v=4']);
    const fleetConnections = accepted().map((n, i) => n - (before[i] ?? 0));
    expect(fleet.code, fleet.stderr).toBe(1);
    const list = JSON.parse(fleet.stdout) as { items: { context: string; result: unknown }[] };
    expect(list.items.map((i) => i.context)).toEqual([
      'alike-1',
      'alike-2',
      'uids-renamed',
      'uids-swapped',
      'one-xrd-fewer',
      'own-conditions-and-apps',
    ]);
    const alone = new Map<string, unknown>();
    const aloneConnections: number[] = [];
    for (const [i, item] of list.items.entries()) {
      const ahead = servers[i]?.acceptedConnections() ?? 0;
      const one = await runPlugin([...check, '--context', item.context]);
      aloneConnections.push((servers[i]?.acceptedConnections() ?? 0) - ahead);
      expect(one.code, one.stderr).toBe(1);
      alone.set(item.context, JSON.parse(one.stdout));
      expect(item.result, item.context).toEqual(alone.get(item.context));
    }
    // The renamed uids are in its owner references: a result handed over with another context's would show.
    const [first, renamed] = ['alike-1', 'uids-renamed'].map((c) => ownerUids(alone.get(c)));
    expect(renamed?.size).toBeGreaterThan(10);
    expect([...(renamed ?? [])].some((u) => first?.has(u) === true)).toBe(false);
    expect(fleet.stderr).toMatch(
      /^fleet: 6 renders for 6 contexts: 2 rendered, 4 shared \(inputs equal by content\)$/m,
    );
    // Alone, a context sends its LISTs at once, a connection each; in a fleet it has at most 4 in flight, so its
    // server accepts no more connections than that (fewer TLS handshakes on both sides).
    expect(Math.min(...aloneConnections), `alone: ${aloneConnections.join(', ')}`).toBeGreaterThan(4);
    expect(Math.max(...fleetConnections), `in the fleet: ${fleetConnections.join(', ')}`).toBeLessThanOrEqual(
      4,
    );
    expect(Math.min(...fleetConnections)).toBeGreaterThan(0);
  });

  it('counts one context as one (a glob that names one)', async () => {
    const r = await runPlugin([
      'sync',
      '--check',
      '--contexts',
      'alike-1*',
      '-v=4',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^1 context: 0 ok, 1 drifted or denied, 0 failed$/m);
    expect(r.stderr).toMatch(
      /^fleet: 1 render for 1 context: 1 rendered, 0 shared \(inputs equal by content\)$/m,
    );
  });

  it('says nothing of it below -v=4', async () => {
    const r = await runPlugin(['sync', '--check', '--all-contexts', '-v=3', '--kubeconfig', kubeconfig]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/^fleet: /m);
  });
});
