/**
 * The plugin and kubectl agree about what every signed-in user may do through Kubernetes' bootstrap policy
 * (system:basic-user, system:discovery, system:public-info-viewer), which the test API server stores as a real one
 * does (test/apiserver/bootstrap.ts, from the golden files in test/fixtures/kubernetes/). The oracle is
 * `kubectl auth can-i --as erin`, answered by the server's own authorizer; erin has no binding of her own.
 * (system:basic-user's `selfsubjectreviews` is left out: the server does not serve authentication.k8s.io's
 * SelfSubjectReview, so kubectl cannot resolve it.)
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { assertBuilt, kubectl, repoRoot, tempDir } from './harness.js';

let server: TestApiServer;
let env: Record<string, string>;

beforeAll(async () => {
  assertBuilt();
  const dir = tempDir('xrbac-e2e-bootstrap-policy-');
  server = await startApiServer({ seed: loadSeedFiles([join(repoRoot, 'examples', 'cluster')]) });
  const kubeconfig = join(dir, 'kubeconfig');
  server.writeKubeconfig(kubeconfig);
  env = { KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'cache') };
});

afterAll(async () => {
  await server.stop();
});

describe('the bootstrap policy, as the plugin and kubectl see it', () => {
  it.each([
    ['create', 'selfsubjectaccessreviews.authorization.k8s.io', true],
    ['create', 'selfsubjectrulesreviews.authorization.k8s.io', true],
    ['create', 'subjectaccessreviews.authorization.k8s.io', false],
    ['list', 'pods', false],
  ])(
    '%s %s: explain --subject User:erin and kubectl auth can-i --as erin agree',
    async (verb, resource, yes) => {
      const canI = await kubectl(['auth', 'can-i', verb, resource, '--as', 'erin'], { env });
      expect(canI.stdout, canI.stderr).toBe(yes ? 'yes\n' : 'no\n');
      const explained = await kubectl(
        ['crossplane-rbac', 'explain', '--subject', 'User:erin', '--for', resource, '--verb', verb],
        { env },
      );
      expect(explained.code, explained.stdout + explained.stderr).toBe(canI.code);
    },
  );

  it('who-can names the bootstrap binding to system:authenticated, as the server allows it', async () => {
    const r = await kubectl(
      ['crossplane-rbac', 'who-can', 'create', 'selfsubjectrulesreviews.authorization.k8s.io', '-o', 'json'],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    const subjects = (
      JSON.parse(r.stdout) as {
        subjects: { kind: string; name: string; paths: { binding: { name: string } }[] }[];
      }
    ).subjects;
    const everyone = subjects.find((s) => s.kind === 'Group' && s.name === 'system:authenticated');
    expect(everyone?.paths.map((p) => p.binding.name)).toStrictEqual(['system:basic-user']);
    const asked = await kubectl(
      [
        'auth',
        'can-i',
        'create',
        'selfsubjectrulesreviews.authorization.k8s.io',
        '--as',
        'xrbac-probe',
        '--as-group',
        'system:authenticated',
      ],
      { env },
    );
    expect(asked.stdout).toBe('yes\n');
  });
});
