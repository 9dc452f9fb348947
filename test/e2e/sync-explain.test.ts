import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { assertBuilt, kubectl, repoRoot, tempDir } from './harness.js';

const examples = join(repoRoot, 'examples', 'cluster');

describe('sync and explain through the real kubectl', () => {
  let server: TestApiServer;
  let kubeconfig: string;

  beforeAll(async () => {
    assertBuilt();
    server = await startApiServer({ seed: loadSeedFiles([examples]) });
    kubeconfig = join(tempDir(), 'kubeconfig');
    server.writeKubeconfig(kubeconfig);
  });
  afterAll(async () => {
    await server.stop();
  });

  const run = (args: string[], input?: string) =>
    kubectl(args, { env: { KUBECONFIG: kubeconfig }, ...(input !== undefined ? { input } : {}) });

  it('runs the README quick start on the examples without a cluster', async () => {
    const r = await kubectl(['crossplane-rbac', 'sync', '-f', examples]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^KIND\s+TO CREATE\s+TO UPDATE\s+UNCHANGED\s+TO DELETE\s+REFUSED\s+FAILED\n/);
    expect(r.stdout).toMatch(/ClusterRole\s+212\s+0\s+0\s+0\s+0\s+0/);
    expect(r.stderr).toContain('nothing was written');
  });

  it('refuses to write without --yes when not on a terminal', async () => {
    const r = await run(['crossplane-rbac', 'sync']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: refusing to apply the Crossplane RBAC without confirmation: not running on a terminal\nhint: pass --yes/,
    );
    expect(server.list('clusterroles').length).toBeLessThan(100);
  });

  it('applies, then kubectl sees the roles, and a second run changes nothing', async () => {
    const r = await run(['crossplane-rbac', 'sync', '--yes']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ClusterRole\s+212\s+0\s+0\s+0\s+0\s+0/);
    const get = await run([
      'get',
      'clusterrole',
      'crossplane:composite:xnopresources.nop.example.org:aggregate-to-view',
      '-o',
      'yaml',
    ]);
    expect(get.code).toBe(0);
    const role = parse(get.stdout) as { metadata: { labels: Record<string, string> }; rules: unknown[] };
    expect(role.metadata.labels).toEqual({
      'rbac.crossplane.io/aggregate-to-ns-view': 'true',
      'rbac.crossplane.io/aggregate-to-view': 'true',
    });
    const again = await run(['crossplane-rbac', 'sync', '--check']);
    expect(again.code).toBe(0);
  });

  it('explains a live role as a tree and as a graph', async () => {
    const tree = await run(['crossplane-rbac', 'explain', 'crossplane-view']);
    expect(tree.code).toBe(0);
    expect(tree.stdout).toMatch(/^crossplane-view \(aggregated, \d+ rules\)\n/);
    expect(tree.stdout).toContain('crossplane:composite:xnopresources.nop.example.org:aggregate-to-view');
    const dot = await run(['crossplane-rbac', 'explain', 'crossplane-view', '-o', 'dot']);
    expect(dot.stdout).toMatch(/^digraph /);
  });

  it('reads objects from stdin with -f -', async () => {
    const roles = await run(['get', 'clusterroles', '-o', 'yaml']);
    const r = await kubectl(['crossplane-rbac', 'explain', 'admin', '-f', '-', '-o', 'json'], {
      input: roles.stdout,
    });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { effectiveRules: unknown[] }).effectiveRules.length).toBeGreaterThan(20);
  });

  it('names the file and line of malformed input', async () => {
    const dir = tempDir();
    const file = join(dir, 'bad.yaml');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, 'apiVersion: v1\nkind: List\nitems:\n  - {a: [\n');
    const r = await kubectl(['crossplane-rbac', 'sync', '-f', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: malformed YAML\/JSON in .*bad\.yaml at line \d+: /);
  });
});
