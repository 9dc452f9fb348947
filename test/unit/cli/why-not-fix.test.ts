/**
 * The fix explain --subject offers is one bind would write: never a privileged role (Kubernetes' edit and admin
 * impersonate service accounts and create their tokens; kubernetes/kubernetes
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go), nor one with every resource of every group. On
 * examples/cluster (which stores Kubernetes' bootstrap roles), a user bound to nothing asks to create deployments.
 */
import { describe, expect, it } from 'vitest';
import { runCaptured } from '../../support/run-cli.js';

interface SubjectJson {
  readonly access: {
    readonly allowed: boolean;
    readonly whyNot: readonly { reason: string; fix?: string }[];
  };
}

describe('explain --subject: the fix offered', () => {
  it('is never Kubernetes edit or admin', async () => {
    const r = await runCaptured([
      'explain',
      '--subject',
      'User:nobody',
      '-n',
      'team-a',
      '--for',
      'deployments.apps',
      '--verb',
      'create',
      '-f',
      'examples/cluster',
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(1);
    const j = JSON.parse(r.stdout) as SubjectJson;
    const notBound = j.access.whyNot.find((w) => w.reason === 'not-bound');
    expect(notBound).toBeDefined();
    expect(notBound?.fix).toBeUndefined();
    for (const w of j.access.whyNot) expect(w.fix ?? '').not.toMatch(/--clusterrole (edit|admin)\b/);
  });

  it('is still offered where a role made for the resource grants it', async () => {
    const r = await runCaptured([
      'explain',
      '--subject',
      'User:nobody',
      '--for',
      'compositions',
      '--verb',
      'create',
      '-f',
      'examples/cluster',
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(1);
    const j = JSON.parse(r.stdout) as SubjectJson;
    expect(j.access.whyNot.find((w) => w.reason === 'not-bound')?.fix).toBe(
      'kubectl create clusterrolebinding NAME --clusterrole crossplane-edit --user nobody',
    );
  });
});
