import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { assertBuilt, kubectl, repoRoot, tempDir } from './harness.js';

let server: TestApiServer;
let env: Record<string, string>;

beforeAll(async () => {
  assertBuilt();
  server = await startApiServer({ seed: loadSeedFiles([join(repoRoot, 'examples', 'cluster')]) });
  const dir = tempDir();
  const kubeconfig = join(dir, 'kubeconfig');
  server.writeKubeconfig(kubeconfig);
  env = { KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'cache') };
});

afterAll(async () => {
  await server.stop();
});

describe('bind through the real kubectl', () => {
  it('BindsTheRootSyncRoleRefsAndKubectlSeesThemByTheirInventoryLabel', async () => {
    const bind = await kubectl(
      ['crossplane-rbac', 'bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes'],
      { env },
    );
    expect(bind.code, bind.stderr).toBe(0);
    expect(bind.stdout).toMatch(/ClusterRoleBinding\s+2\s+0\s+0\s+0\s+0\s+0/);
    expect(bind.stderr).toMatch(
      /still bound to cluster-admin by ClusterRoleBinding configsync\.gke\.io:root-reconciler/,
    );

    const crbs = await kubectl(
      [
        'get',
        'clusterrolebindings',
        '-l',
        'configsync.gke.io/sync-name=root-sync',
        '-o',
        'jsonpath={range .items[*]}{.roleRef.name}{"\\n"}{end}',
      ],
      { env },
    );
    expect(crbs.code, crbs.stderr).toBe(0);
    expect(crbs.stdout.trim().split('\n').sort()).toStrictEqual(['crossplane-edit', 'view']);

    const rbs = await kubectl(
      [
        'get',
        'rolebindings',
        '-A',
        '-l',
        'configsync.gke.io/sync-name=root-sync',
        '-o',
        'jsonpath={range .items[*]}{.metadata.namespace}/{.roleRef.name}{"\\n"}{end}',
      ],
      { env },
    );
    expect(rbs.code, rbs.stderr).toBe(0);
    expect(rbs.stdout.trim().split('\n').sort()).toStrictEqual(['team-a/edit', 'team-b/gitops-deployer']);

    const again = await kubectl(
      ['crossplane-rbac', 'bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes'],
      { env },
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/ClusterRoleBinding\s+0\s+0\s+2\s+0\s+0\s+0/);
  });

  it('AMisspeltRoleIsNamedWithTheBindingItWouldPruneAndNothingIsWritten', async () => {
    const names = async (): Promise<string[]> => {
      const r = await kubectl(
        [
          'get',
          'clusterrolebindings,rolebindings',
          '-A',
          '-l',
          'configsync.gke.io/sync-name=root-sync',
          '-o',
          'name',
        ],
        { env },
      );
      expect(r.code, r.stderr).toBe(0);
      return r.stdout.trim().split('\n').sort();
    };
    const before = await names();
    expect(before).toHaveLength(4);
    const r = await kubectl(
      [
        'crossplane-rbac',
        'bind',
        '--root-sync',
        'root-sync',
        '--role-ref',
        'ClusterRole/crossplane-edt',
        '--role-ref',
        'ClusterRole/view',
        '--yes',
      ],
      { env },
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^warning: ClusterRoleBinding root-reconciler-clusterrole-crossplane-edit-\S+ would be deleted; the new list names "ClusterRole\/crossplane-edt", did you mean "ClusterRole\/crossplane-edit"\?$/m,
    );
    expect(r.stderr).toMatch(/^missing: ClusterRole crossplane-edt \(did you mean "crossplane-edit"\?\)$/m);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error: '))).toStrictEqual([
      'error: 1 object the bindings need does not exist, nothing was written: ClusterRole crossplane-edt',
    ]);
    expect(await names()).toStrictEqual(before);
  });

  it('BadInputIsOneErrorLineAndExitCode2', async () => {
    const r = await kubectl(
      ['crossplane-rbac', 'bind', '--service-account', 'no-namespace', '--role-ref', 'ClusterRole/view'],
      {
        env,
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error: '))).toStrictEqual([
      'error: invalid --service-account "no-namespace": expected NAMESPACE/NAME',
    ]);
    expect(r.stdout).toBe('');
  });
});
