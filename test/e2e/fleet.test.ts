import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
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
