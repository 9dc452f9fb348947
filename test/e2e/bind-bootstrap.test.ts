import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { fixturePath } from '../support/fixtures.js';
import { assertBuilt, kubectl, repoRoot, tempDir, type RunResult } from './harness.js';

// bind's preview from -f files fails as its live run does for Kubernetes' bootstrap roles, which the files do not
// hold. The live side is the test API server serving Kubernetes' own bootstrap roles (the golden
// bootstrappolicy/testdata/cluster-roles.yaml, aggregated by the server's own controller); the files are the
// example cluster without its copy of those roles.
const EXAMPLES = join(repoRoot, 'examples', 'cluster');
const BOOTSTRAP_FILE = '10-kubernetes-bootstrap-rbac.yaml';

let server: TestApiServer;
let env: Record<string, string>;
let files: string;

beforeAll(async () => {
  assertBuilt();
  const dir = tempDir('xrbac-e2e-bind-bootstrap-');
  files = join(dir, 'files');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(files);
  for (const f of readdirSync(EXAMPLES)) {
    if (f.endsWith('.yaml') && f !== BOOTSTRAP_FILE) copyFileSync(join(EXAMPLES, f), join(files, f));
  }
  server = await startApiServer({
    aggregation: true,
    seed: loadSeedFiles([files, fixturePath('kubernetes', 'bootstrap-cluster-roles.yaml')]),
  });
  const kubeconfig = join(dir, 'kubeconfig');
  server.writeKubeconfig(kubeconfig);
  env = { KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'cache') };
});

afterAll(async () => {
  await server.stop();
});

const errors = (r: RunResult): string[] => r.stderr.split('\n').filter((l) => l.startsWith('error: '));

describe('bind: the preview from files judges bootstrap roles as the live run does', () => {
  // admin and edit may impersonate service accounts (system:aggregate-to-edit), cluster-admin grants everything;
  // view, system:aggregate-to-view and system:basic-user grant nothing privileged.
  it.each([
    ['admin', 2],
    ['edit', 2],
    ['cluster-admin', 2],
    ['system:aggregate-to-edit', 2],
    ['view', 0],
    ['system:aggregate-to-view', 0],
    ['system:basic-user', 0],
  ])('ClusterRole/%s: exit %i from -f and live, with the same error', async (role, code) => {
    const args = [
      'crossplane-rbac',
      'bind',
      '--service-account',
      'team-a/deployer',
      '--role-ref',
      `ClusterRole/${role}@team-a`,
      '--allow-missing',
    ];
    const preview = await kubectl([...args, '-f', files], { env });
    const live = await kubectl([...args, '--yes'], { env });
    expect(live.code, live.stderr).toBe(code);
    expect(preview.code, preview.stderr).toBe(code);
    expect(errors(preview)).toStrictEqual(errors(live));
    if (code === 2) expect(errors(live).join('\n')).toMatch(/^error: refusing to bind a privileged role/);
    // A bootstrap role exists on every cluster: neither side calls it missing.
    expect(preview.stderr).not.toMatch(/ClusterRole \S+ does not exist/);
  });
});
