import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { killLeftovers, survivors, writeHangingPlugin } from '../support/exec-plugin.js';
import { assertBuilt, discoveryCache, kubectl, repoRoot, tempDir, type RunResult } from './harness.js';

// --all-contexts through the real kubectl: two clusters in one kubeconfig, the plugin's per-context answers beside
// kubectl's own answer for each context.
interface Named {
  name: string;
  [k: string]: unknown;
}

let servers: TestApiServer[] = [];
let dir: string;
let kubeconfig: string;
const CONTEXTS = ['stage', 'prod'];

const run = (args: string[]): Promise<RunResult> =>
  kubectl(args, { env: { KUBECONFIG: kubeconfig, KUBECACHEDIR: discoveryCache(kubeconfig) } });

beforeAll(async () => {
  assertBuilt();
  dir = tempDir('xrbac-e2e-fleet-');
  servers = await Promise.all(
    CONTEXTS.map(() =>
      startApiServer({ aggregation: true, seed: loadSeedFiles([join(repoRoot, 'examples', 'cluster')]) }),
    ),
  );
  const parts = servers.map((s, i) => {
    const file = join(dir, `${String(i)}.kubeconfig`);
    s.writeKubeconfig(file);
    const k = parse(readFileSync(file, 'utf8')) as { clusters: Named[]; users: Named[] };
    const name = CONTEXTS[i] ?? '';
    return {
      cluster: { ...(k.clusters[0] as Named), name },
      user: { ...(k.users[0] as Named), name },
      context: { name, context: { cluster: name, user: name } },
    };
  });
  kubeconfig = join(dir, 'fleet.kubeconfig');
  writeFileSync(
    kubeconfig,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: parts.map((p) => p.cluster),
      users: parts.map((p) => p.user),
      contexts: parts.map((p) => p.context),
      'current-context': 'stage',
    }),
  );
  // Only prod is synced: stage has drifted.
  const sync = await run(['crossplane-rbac', 'sync', '--context', 'prod', '--yes']);
  expect(sync.code, sync.stderr).toBe(0);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

describe('fleets through the real kubectl', () => {
  it('answers each context as kubectl does for that context', async () => {
    const r = await run([
      'crossplane-rbac',
      'who-can',
      'create',
      'buckets.s3.aws.upbound.io',
      '-A',
      '--all-contexts',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^CONTEXT\s+SUBJECT\s+KIND\s+VIA$/);
    for (const context of CONTEXTS) {
      // Group crossplane:masters is bound to crossplane-admin, which aggregates the provider's edit role once sync made
      // it: only prod lets it create buckets.
      const listed = rows.some((l) => new RegExp(`^${context}\\s+crossplane:masters\\s+Group`).test(l));
      const can = await run([
        'auth',
        'can-i',
        'create',
        'buckets.s3.aws.upbound.io',
        '--context',
        context,
        '--as',
        'someone',
        '--as-group',
        'crossplane:masters',
      ]);
      expect(listed, `${context}: ${r.stdout}`).toBe(can.code === 0);
    }
    expect(rows.some((l) => /^prod\s+crossplane:masters\s+Group/.test(l))).toBe(true);
  });

  it('exits 1 when a context drifted, and says which', async () => {
    const r = await run(['crossplane-rbac', 'sync', '--check', '--all-contexts']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^stage\s+ClusterRole\s+[1-9]\d*\s+/m);
    expect(r.stdout).toMatch(/^prod\s+ClusterRole\s+0\s+0\s+[1-9]\d*\s+0\s+0\s+0$/m);
    expect(r.stderr).toMatch(/^2 contexts: 1 ok, 1 drifted or denied, 0 failed$/m);
  });
});

describe('one context never silences the others', () => {
  it('stops a context whose exec credential plugin never exits at its deadline, and prints the others', async () => {
    // `hang` authenticates with a plugin that never exits (and keeps a child of its own): client-go would wait for it
    // forever. With --request-timeout 3s its run is stopped after 3s, its whole process group killed.
    const plugin = writeHangingPlugin();
    const hanging = join(dir, 'hang.kubeconfig');
    const k = parse(readFileSync(kubeconfig, 'utf8')) as {
      clusters: Named[];
      users: Named[];
      contexts: Named[];
    };
    writeFileSync(
      hanging,
      stringify({
        ...k,
        clusters: [
          ...k.clusters,
          { name: 'hang', cluster: { server: 'https://127.0.0.1:1', 'insecure-skip-tls-verify': true } },
        ],
        users: [
          ...k.users,
          {
            name: 'hang',
            user: {
              exec: {
                apiVersion: 'client.authentication.k8s.io/v1',
                interactiveMode: 'Never',
                command: plugin.path,
              },
            },
          },
        ],
        contexts: [...k.contexts, { name: 'hang', context: { cluster: 'hang', user: 'hang' } }],
      }),
    );
    const env = { KUBECONFIG: hanging, KUBECACHEDIR: discoveryCache(kubeconfig) };
    const lookup = (args: string[]): Promise<RunResult> =>
      kubectl(['crossplane-rbac', 'lookup', 'crossplane', '--request-timeout', '3s', ...args], {
        env,
        timeoutMs: 30_000,
      });
    try {
      const alone = await lookup(['--context', 'prod']);
      expect(alone.code, alone.stderr).toBe(0);
      const r = await lookup(['--contexts', 'prod,hang']);
      // A partial failure across contexts: exit 2, as for a context whose server cannot be reached.
      expect(r.code, r.stderr).toBe(2);
      const cells = (text: string): string[] =>
        text
          .trimEnd()
          .split('\n')
          .map((l) => l.split(/ {2,}/).join(' | '));
      const [head, ...rows] = cells(alone.stdout);
      expect(rows.length).toBeGreaterThan(0);
      expect(cells(r.stdout)).toStrictEqual([
        `CONTEXT | ${head ?? ''}`,
        ...rows.map((row) => `prod | ${row}`),
      ]);
      const stderr = r.stderr.split('\n').filter((l) => l !== '');
      expect(stderr.filter((l) => l.includes('hang'))).toStrictEqual([
        `error: context hang: getting credentials for user "hang": exec: executable ${plugin.path} did not exit within --request-timeout 3s: it was stopped`,
      ]);
      expect(stderr).toContain('2 contexts: 1 ok, 0 drifted or denied, 1 failed');
      const pids = plugin.pids();
      expect(pids).toHaveLength(2);
      expect(await survivors(pids)).toStrictEqual([]);
      // Alone, the same context fails the same way rather than hanging.
      const one = await lookup(['--context', 'hang']);
      expect(one.code).toBe(2);
      expect(one.stderr).toMatch(
        /^error: getting credentials for user "hang": exec: .* did not exit within --request-timeout 3s: it was stopped$/m,
      );
    } finally {
      killLeftovers(plugin.pids());
    }
  }, 90_000);

  it("-v=6: each request line names its context, and its requests went to that context's server", async () => {
    const r = await run(['crossplane-rbac', 'lookup', 'crossplane', '--all-contexts', '-v=6']);
    expect(r.code, r.stderr).toBe(0);
    const logged = r.stderr.split('\n').filter((l) => /^I\d{4} /.test(l));
    expect(logged.length).toBeGreaterThan(0);
    const line = new RegExp(
      String.raw`^I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ [^\]]+\] \[context (stage|prod)\] GET (https://[^/\s]+)/\S* \d{3} `,
    );
    const seen = new Set<string>();
    for (const l of logged) {
      const m = line.exec(l);
      expect(m, l).not.toBeNull();
      const context = m?.[1] ?? '';
      seen.add(context);
      expect(m?.[2]).toBe(servers[CONTEXTS.indexOf(context)]?.httpsUrl());
    }
    expect([...seen].sort()).toStrictEqual(['prod', 'stage']);
  });
});
