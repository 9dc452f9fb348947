/**
 * What who-can reads by default (the authorizer's view): the bindings, then only the ClusterRoles they bind, one GET
 * each while they are few or a small share of the ClusterRoles (counted with a one-item page, remainingItemCount),
 * one LIST once they are most of them. Counted at the test API server (its request counters), with the server's own
 * SubjectAccessReview as the oracle of the answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { subjectAccessReview } from '../support/access-review.js';
import { runPlugin, startSeeded } from './harness.js';

const RBAC = 'rbac.authorization.k8s.io';
const rbac = `${RBAC}/v1`;

/** BOUND ClusterRoles each bound to its own user (user-N may get secrets named sN), and UNBOUND others. */
function seedRoles(server: TestApiServer, bound: number, unbound: number): void {
  const objects: object[] = [];
  for (let i = 0; i < bound + unbound; i++) {
    objects.push({
      apiVersion: rbac,
      kind: 'ClusterRole',
      metadata: { name: `xrbac-reads-${String(i)}` },
      rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: [`s${String(i)}`] }],
    });
    if (i >= bound) continue;
    objects.push({
      apiVersion: rbac,
      kind: 'ClusterRoleBinding',
      metadata: { name: `xrbac-reads-${String(i)}` },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: `xrbac-reads-${String(i)}` },
      subjects: [{ apiGroup: RBAC, kind: 'User', name: `user-${String(i)}` }],
    });
  }
  server.seed(objects);
}

let server: TestApiServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function whoCanGetSecret(kubeconfig: string, name: string): Promise<string[]> {
  const r = await runPlugin([
    'who-can',
    'get',
    'secrets',
    name,
    '-n',
    'default',
    '--kubeconfig',
    kubeconfig,
    '-o',
    'json',
  ]);
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as { subjects: { kind: string; name: string }[] };
  return out.subjects.map((s) => `${s.kind}/${s.name}`);
}

describe('who-can reads only the ClusterRoles the bindings reach', () => {
  it('200 bound among 1,200 (more than 8 rounds of GETs, a sixth of them): one GET each, after a one-item count', async () => {
    const started = await startSeeded([]);
    server = started.server;
    seedRoles(server, 200, 1_000);
    server.counters.reset();
    const listed = await whoCanGetSecret(started.kubeconfig, 's7');
    // One GET per ClusterRole a stored binding names: the 200 seeded, and the 3 of the bootstrap policy every
    // server stores (system:basic-user, system:discovery, system:public-info-viewer).
    const bound = new Set(
      server.list('clusterrolebindings').map((b) => (b as { roleRef: { name: string } }).roleRef.name),
    );
    expect(bound.size).toBe(203);
    expect(server.counters.get('get', 'clusterroles')).toBe(bound.size);
    // The one-item page that counts them; never the whole list.
    expect(server.counters.get('list', 'clusterroles')).toBe(1);
    expect(listed).toContain('User/user-7');
    for (const user of ['user-7', 'user-8']) {
      const allowed = await subjectAccessReview(
        server.url,
        { user, groups: ['system:authenticated'] },
        { verb: 'get', apiGroup: '', resource: 'secrets', name: 's7', namespace: 'default' },
      );
      expect(allowed, user).toBe(listed.includes(`User/${user}`));
    }
  }, 60_000);

  it('200 bound among 250 (most of them): one LIST instead of the GETs', async () => {
    const started = await startSeeded([]);
    server = started.server;
    seedRoles(server, 200, 50);
    server.counters.reset();
    const listed = await whoCanGetSecret(started.kubeconfig, 's9');
    expect(server.counters.get('get', 'clusterroles')).toBe(0);
    // The count, then the list (its pages: 500 a page holds all 250).
    expect(server.counters.get('list', 'clusterroles')).toBe(2);
    expect(listed).toContain('User/user-9');
    expect(listed).not.toContain('User/user-10');
  }, 60_000);
});
