import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { assertBuilt, kubectl, repoRoot, tempDir, type RunResult } from './harness.js';

// sync --output-dir: the directory a GitOps engine applies. The oracle is kubectl: `kubectl apply -k DIR` on one
// cluster must leave the same RBAC objects as `sync --yes` on an identical one.
const EXAMPLES = join(repoRoot, 'examples', 'cluster');

let applied: TestApiServer;
let synced: TestApiServer;
let dir: string;
const kubeconfigs: Record<string, string> = {};

const run = (which: 'applied' | 'synced' | 'none', args: string[]): Promise<RunResult> =>
  kubectl(args, { env: { KUBECONFIG: kubeconfigs[which] ?? join(dir, 'missing') } });

function filesOf(d: string): Map<string, string> {
  return new Map(
    readdirSync(d)
      .sort()
      .map((f) => [f, readFileSync(join(d, f), 'utf8')]),
  );
}

/** The RBAC objects as kubectl lists them, without what the server or kubectl apply adds. */
async function rbacObjects(which: 'applied' | 'synced'): Promise<unknown[]> {
  const r = await run(which, ['get', 'clusterroles,clusterrolebindings,rolebindings', '-A', '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  const list = JSON.parse(r.stdout) as { items: { metadata: Record<string, unknown> }[] };
  return list.items
    .map((o) => {
      const {
        uid: _u,
        resourceVersion: _r,
        creationTimestamp: _c,
        managedFields: _m,
        annotations,
        ...meta
      } = o.metadata;
      const rest = Object.fromEntries(
        Object.entries((annotations ?? {}) as Record<string, string>).filter(
          ([k]) => k !== 'kubectl.kubernetes.io/last-applied-configuration',
        ),
      );
      return { ...o, metadata: { ...meta, ...(Object.keys(rest).length > 0 ? { annotations: rest } : {}) } };
    })
    .sort((a, b) => JSON.stringify(a.metadata).localeCompare(JSON.stringify(b.metadata)));
}

beforeAll(async () => {
  assertBuilt();
  dir = tempDir('xrbac-e2e-output-dir-');
  [applied, synced] = await Promise.all([
    startApiServer({ aggregation: true, seed: loadSeedFiles([EXAMPLES]) }),
    startApiServer({ aggregation: true, seed: loadSeedFiles([EXAMPLES]) }),
  ]);
  kubeconfigs.applied = join(dir, 'applied.kubeconfig');
  kubeconfigs.synced = join(dir, 'synced.kubeconfig');
  applied.writeKubeconfig(kubeconfigs.applied);
  synced.writeKubeconfig(kubeconfigs.synced);
});

afterAll(async () => {
  await Promise.all([applied.stop(), synced.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('sync --output-dir', () => {
  it('renders the same bytes twice, and kubectl apply -k gives what sync --yes gives', async () => {
    const out = join(dir, 'gitops');
    const first = await run('none', ['crossplane-rbac', 'sync', '-f', EXAMPLES, '--output-dir', out]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe('');
    expect(first.stderr).toMatch(/^wrote \d+ objects to .*gitops \(listed in kustomization\.yaml\)$/m);
    const once = filesOf(out);
    const again = await run('none', ['crossplane-rbac', 'sync', '-f', EXAMPLES, '--output-dir', out]);
    expect(again.code, again.stderr).toBe(0);
    expect(filesOf(out)).toEqual(once);
    const kustomization = parse(once.get('kustomization.yaml') ?? '') as { resources: string[] };
    expect([...kustomization.resources, 'kustomization.yaml'].sort()).toEqual([...once.keys()]);

    const apply = await run('applied', ['apply', '-k', out]);
    expect(apply.code, apply.stderr).toBe(0);
    const sync = await run('synced', ['crossplane-rbac', 'sync', '--yes']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(await rbacObjects('applied')).toEqual(await rbacObjects('synced'));
  });

  it('removes what an earlier render wrote and this one does not, and nothing else', async () => {
    const out = join(dir, 'shrink');
    expect((await run('none', ['crossplane-rbac', 'sync', '-f', EXAMPLES, '--output-dir', out])).code).toBe(
      0,
    );
    const before = filesOf(out).size;
    const r = await run('none', [
      'crossplane-rbac',
      'sync',
      '-f',
      EXAMPLES,
      '--manage',
      'serviceaccounts',
      '--output-dir',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/removed \d+ no longer rendered/);
    const after = filesOf(out);
    expect(after.size).toBeLessThan(before);
    const kustomization = parse(after.get('kustomization.yaml') ?? '') as { resources: string[] };
    expect([...kustomization.resources, 'kustomization.yaml'].sort()).toEqual([...after.keys()]);
  });

  it('refuses what it cannot do with one clear error', async () => {
    for (const flag of [['--yes'], ['--check'], ['--prune'], ['-o', 'yaml'], ['--dry-run=server']]) {
      const r = await run('none', [
        'crossplane-rbac',
        'sync',
        '-f',
        EXAMPLES,
        '--output-dir',
        join(dir, 'x'),
        ...flag,
      ]);
      expect(r.code, flag.join(' ')).toBe(2);
      expect(r.stderr).toMatch(
        /^error: --output-dir and (--yes|--check|--prune|-o|--dry-run) cannot be used together$/m,
      );
    }
  });
});
