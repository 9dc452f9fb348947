/**
 * Read commands for a user with namespace-only rights: listing ClusterRoles, ClusterRoleBindings and every
 * namespace's RoleBindings is forbidden, RoleBindings and Roles of one namespace are not. The commands answer from
 * what may be read, name what could not, and (who-can) give the server's own answer for the caller. The oracle is
 * the test API server's authorizer (SubjectAccessReview as the administrator), which shares no code with the plugin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { subjectAccessReview } from '../support/access-review.js';
import { runKubectl } from '../support/kubectl.js';
import { runPlugin, startSeeded, userKubeconfig } from './harness.js';

const RBAC = 'rbac.authorization.k8s.io';
const rbac = `${RBAC}/v1`;
const ref = (kind: string, name: string) => ({ apiGroup: RBAC, kind, name });
const user = (name: string) => ({ kind: 'User', apiGroup: RBAC, name });

describe('read commands with namespace-only rights', () => {
  let server: TestApiServer;
  let caller: string;
  let nobody: string;
  let admin: string;

  beforeAll(async () => {
    const started = await startSeeded();
    server = started.server;
    admin = started.kubeconfig;
    caller = userKubeconfig(server, started.dir, 'ns-reader');
    nobody = userKubeconfig(server, started.dir, 'no-rights');
    server.seed([
      // The caller may read the RBAC of team-a, nothing cluster-wide...
      {
        apiVersion: rbac,
        kind: 'Role',
        metadata: { name: 'rbac-reader', namespace: 'team-a' },
        rules: [{ apiGroups: [RBAC], resources: ['roles', 'rolebindings'], verbs: ['get', 'list'] }],
      },
      {
        apiVersion: rbac,
        kind: 'RoleBinding',
        metadata: { name: 'rbac-readers', namespace: 'team-a' },
        roleRef: ref('Role', 'rbac-reader'),
        subjects: [user('ns-reader')],
      },
      // ...and may create deployments through a ClusterRoleBinding it cannot see.
      {
        apiVersion: rbac,
        kind: 'ClusterRole',
        metadata: { name: 'deployment-creator' },
        rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }],
      },
      {
        apiVersion: rbac,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'ns-reader-deploys' },
        roleRef: ref('ClusterRole', 'deployment-creator'),
        subjects: [user('ns-reader')],
      },
      // In team-a: alice through a Role (visible), bob through a ClusterRole (its rules are not).
      {
        apiVersion: rbac,
        kind: 'Role',
        metadata: { name: 'deployer', namespace: 'team-a' },
        rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create', 'delete'] }],
      },
      {
        apiVersion: rbac,
        kind: 'RoleBinding',
        metadata: { name: 'deployers', namespace: 'team-a' },
        roleRef: ref('Role', 'deployer'),
        subjects: [user('alice')],
      },
      {
        apiVersion: rbac,
        kind: 'RoleBinding',
        metadata: { name: 'bob-creates', namespace: 'team-a' },
        roleRef: ref('ClusterRole', 'deployment-creator'),
        subjects: [user('bob')],
      },
      // In team-b, which the caller may not read: carol.
      {
        apiVersion: rbac,
        kind: 'RoleBinding',
        metadata: { name: 'carol-creates', namespace: 'team-b' },
        roleRef: ref('ClusterRole', 'deployment-creator'),
        subjects: [user('carol')],
      },
    ]);
  });
  afterAll(async () => {
    await server.stop();
  });

  const request = { verb: 'create', apiGroup: 'apps', resource: 'deployments', namespace: 'team-a' };

  it('who-can answers from the namespace, names what it could not list, and asks the server for the caller', async () => {
    const r = await runPlugin([
      'who-can',
      'create',
      'deployments.apps',
      '-n',
      'team-a',
      '-o',
      'json',
      '--kubeconfig',
      caller,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      subjects: { kind: string; name: string }[];
      incomplete: { unseen: { what: string; readIn?: string }[]; callerAllowed: boolean };
    };
    const listed = out.subjects.map((s) => `${s.kind}/${s.name}`);
    // alice's Role is visible: listed. bob's ClusterRole is not: named in a warning instead.
    expect(listed).toContain('User/alice');
    expect(listed).not.toContain('User/bob');
    for (const s of out.subjects.filter((x) => x.kind === 'User')) {
      expect(await subjectAccessReview(server.url, { user: s.name, groups: [] }, request), s.name).toBe(true);
    }
    expect(await subjectAccessReview(server.url, { user: 'bob', groups: [] }, request)).toBe(true);
    expect(r.stderr).toMatch(
      /^warning: RoleBinding team-a\/bob-creates binds ClusterRole deployment-creator, whose rules could not be read: what it grants \(to User bob\) is not in this answer$/m,
    );
    // Exactly what could not be listed. RoleBindings and Roles are not among it: without -A who-can lists them in
    // the namespace only (the authorizer counts no others), which the caller may. Nor are the XRDs and
    // ProviderRevisions: discovery resolves deployments.apps, which no XRD may define, so they are not read.
    expect(out.incomplete.unseen.map((u) => [u.what, u.readIn ?? null])).toStrictEqual([
      ['ClusterRoles', null],
      ['ClusterRoleBindings', null],
    ]);
    expect(r.stderr).toMatch(/^warning: could not list ClusterRoleBindings: .*forbidden/m);
    expect(r.stderr).not.toMatch(/RoleBindings outside namespace/);
    expect(r.stderr).toMatch(/^warning: this answer is partial: /m);
    // The server's own answer for the caller counts the ClusterRoleBinding the caller cannot list.
    expect(await subjectAccessReview(server.url, { user: 'ns-reader', groups: [] }, request)).toBe(true);
    expect(out.incomplete.callerAllowed).toBe(true);
    expect(r.stderr).toMatch(/^you \(the caller\) may make this request, as the server answers for you/m);
    // carol (team-b) is neither listed nor read.
    expect(listed).not.toContain('User/carol');
  });

  it('who-can of a claim: the XRDs it may not list are named too, and the claim still resolves through discovery', async () => {
    const r = await runPlugin([
      'who-can',
      'create',
      'buckets.storage.platform.acme.io',
      '-n',
      'team-a',
      '-o',
      'json',
      '--kubeconfig',
      caller,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      resource: { kind: string; xrd?: string };
      incomplete: { unseen: { what: string; readIn?: string }[] };
    };
    // Served by the example's CRD (examples/cluster/45-defined-crds.yaml); which XRD defines it could not be read.
    expect(out.resource.kind).toBe('Bucket');
    expect(out.resource.xrd).toBeUndefined();
    expect(out.incomplete.unseen.map((u) => [u.what, u.readIn ?? null])).toStrictEqual([
      ['ClusterRoles', null],
      ['ClusterRoleBindings', null],
      ['CompositeResourceDefinitions', null],
    ]);
    expect(r.stderr).toMatch(/^warning: could not list CompositeResourceDefinitions: .*forbidden/m);
  });

  it("a namespace that cannot be a path: kubectl get's refusal, one error line, exit 2", async () => {
    for (const ns of ['a/b', '..', 'team-a%2F..']) {
      const ours = await runPlugin(['who-can', 'get', 'pods', '-n', ns, '--kubeconfig', admin]);
      const theirs = await runKubectl(['get', 'rolebindings', '-n', ns, '--kubeconfig', admin]);
      expect(theirs.code, ns).not.toBe(0);
      const refusal = theirs.stderr.trim();
      expect(refusal, ns).toMatch(/^invalid namespace /);
      expect(ours.code, ns).toBe(2);
      expect(ours.stdout, ns).toBe('');
      expect(
        ours.stderr.split('\n').filter((l) => l.startsWith('error: ')),
        ns,
      ).toStrictEqual([`error: ${refusal}`]);
    }
  });

  it('an administrator gets the whole answer and no warning', async () => {
    const whole = await runPlugin([
      'who-can',
      'create',
      'deployments.apps',
      '-n',
      'team-a',
      '-o',
      'json',
      '--kubeconfig',
      admin,
    ]);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stderr).toBe('');
    const out = JSON.parse(whole.stdout) as { subjects: { name: string }[]; incomplete?: unknown };
    expect(out.incomplete).toBeUndefined();
    expect(out.subjects.map((s) => s.name)).toEqual(expect.arrayContaining(['alice', 'bob', 'ns-reader']));
  });

  it('lookup and explain --subject read the namespace and say what they could not', async () => {
    const l = await runPlugin(['lookup', 'alice', '-n', 'team-a', '-o', 'json', '--kubeconfig', caller]);
    expect(l.code, l.stderr).toBe(0);
    expect(l.stdout).toContain('deployers');
    expect(l.stderr).toMatch(/^warning: could not list ClusterRoleBindings: /m);
    // lookup -n counts the subject's bindings of every namespace, so it names where it fell back to.
    expect(l.stderr).toMatch(
      /^warning: could not list RoleBindings outside namespace team-a \(read there only\): /m,
    );
    const e = await runPlugin([
      'explain',
      '--subject',
      'User:alice',
      '-n',
      'team-a',
      '--for',
      'deployments.apps',
      '--verb',
      'delete',
      '--kubeconfig',
      caller,
    ]);
    expect(e.code, e.stderr).toBe(0);
    expect(
      await subjectAccessReview(server.url, { user: 'alice', groups: [] }, { ...request, verb: 'delete' }),
    ).toBe(true);
    expect(e.stderr).toMatch(/^warning: this answer is partial: /m);
  });

  it('explain ROLE needs the ClusterRoles: without them it fails with one error line', async () => {
    const r = await runPlugin(['explain', 'deployment-creator', '--kubeconfig', caller]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: forbidden while listing ClusterRoles: /m);
  });

  it('a user who may read no RBAC at all gets the server refusal, not an empty answer', async () => {
    const r = await runPlugin([
      'who-can',
      'create',
      'deployments.apps',
      '-n',
      'team-a',
      '--kubeconfig',
      nobody,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: forbidden while listing /m);
    expect(r.stdout).toBe('');
  });
});
