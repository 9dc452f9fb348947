/**
 * One run of every command through the real kubectl, with the executable under test (E2E_BIN_DIR: the standalone
 * executable, which runs on bun) beside the npm bundle on Node (dist/bin): both must print the same bytes and exit
 * with the same code. The e2e-standalone project runs this file and the e2e files whose code differs between
 * runtimes (connections, TLS, exec plugins, proxies, signals, child processes, files, pipes and terminals); every
 * other e2e file runs once, on Node (vitest.config.ts). In the e2e project both sides are the same bundle, so the
 * file runs only in the standalone project.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { CROSSPLANE_PATCH_CRONJOBS, startExampleServer } from './example-server.js';
import {
  assertBuilt,
  binDir,
  discoveryCache,
  kubectl,
  repoRoot,
  tempDir,
  type RunResult,
} from './harness.js';

const examples = join(repoRoot, 'examples', 'cluster');
const bundleDir = join(repoRoot, 'dist', 'bin');

/** Each command once, offline on the example cluster (what a reader runs first). */
const OFFLINE: readonly (readonly string[])[] = [
  ['version'],
  ['completion', 'bash'],
  ['sync', '-f', examples, '-o', 'name'],
  ['sync', '-f', examples, '-o', 'yaml'],
  ['composed', '-f', examples, '-o', 'json'],
  ['explain', 'crossplane-edit', '-f', examples, '-o', 'wide'],
  [
    'explain',
    '--subject',
    'Group:crossplane:masters',
    '--for',
    'compositions',
    '--verb',
    'update',
    '-f',
    examples,
  ],
  ['explain', '--subject', 'Group:team-a-devs', '-n', 'team-b', '--matrix', '-f', examples],
  ['who-can', 'update', 'compositions', '-f', examples, '-o', 'json'],
  ['lookup', 'crossplane', '-f', examples, '-o', 'wide'],
  ['enable-xrd', 'xsqlinstances.aws.platform.upbound.io', '-n', 'team-a', '-f', examples, '-o', 'name'],
  [
    'bind',
    '--root-sync',
    'root-sync',
    '--role-ref',
    'ClusterRole/crossplane-view',
    '-f',
    examples,
    '--dry-run=client',
  ],
  ['sync', '--no-such-flag'],
];

/** Read commands against a live server, after the sync of each side. */
const LIVE: readonly (readonly string[])[] = [
  ['sync', '--check', '-o', 'name'],
  ['who-can', 'delete', 'buckets.s3.aws.upbound.io', '-A'],
  CROSSPLANE_PATCH_CRONJOBS,
  ['lookup', 'crossplane', '-o', 'json'],
];

describe('every command, standalone against the npm bundle', () => {
  const servers: TestApiServer[] = [];
  const kubeconfigs: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    for (const side of ['under-test', 'bundle']) {
      const file = join(tempDir(), `kubeconfig-${side}`);
      servers.push(await startExampleServer(file));
      kubeconfigs.push(file);
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  /** ARGS through kubectl with the plugin of DIR first on PATH, on the server of KUBECONFIG. */
  const run = (dir: string, args: readonly string[], kubeconfig?: string): Promise<RunResult> =>
    kubectl(['crossplane-rbac', ...args], {
      env: {
        PATH: `${dir}:${process.env.PATH ?? ''}`,
        ...(kubeconfig !== undefined
          ? { KUBECONFIG: kubeconfig, KUBECACHEDIR: discoveryCache(kubeconfig) }
          : { KUBECONFIG: '/nonexistent' }),
      },
    });

  const same = (a: RunResult, b: RunResult): void => {
    expect({ code: a.code, stdout: a.stdout, stderr: a.stderr }).toEqual({
      code: b.code,
      stdout: b.stdout,
      stderr: b.stderr,
    });
  };

  for (const args of OFFLINE) {
    it(`offline: ${args.join(' ').replace(examples, 'examples/cluster')}`, async () => {
      same(await run(binDir, args), await run(bundleDir, args));
    });
  }

  it('writes: sync --yes on a fresh server each, then the read commands on each', async () => {
    const [testKc, bundleKc] = kubeconfigs as [string, string];
    const wrote = await run(binDir, ['sync', '--yes'], testKc);
    expect(wrote.code, wrote.stderr).toBe(0);
    same(wrote, await run(bundleDir, ['sync', '--yes'], bundleKc));
    for (const args of LIVE) same(await run(binDir, args, testKc), await run(bundleDir, args, bundleKc));
  });
});
