/**
 * What who-can reads by default (the authorizer's view): the bindings, then only the ClusterRoles they bind, one GET
 * each while they are few or a small share of the ClusterRoles (counted with a one-item page, remainingItemCount),
 * one LIST once they are most of them; and the XRDs and ProviderRevisions only as far as resolving RESOURCE needs them.
 * Counted at the test API server (its request counters), with the server's own SubjectAccessReview as the oracle of
 * the answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { identityHolding, subjectAccessReview } from '../support/access-review.js';
import { xrd } from '../support/cluster-state.js';
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

/**
 * RESOURCE is resolved as kubectl resolves it, by what discovery serves; the XRDs are read only to say which one
 * defines it (those of its group: an XRD is named <plural>.<group>), every XRD and ProviderRevision only when
 * discovery does not know the name. The example's objects are the oracle: the CRD serving a claim names its XRD as
 * its owner (examples/cluster/45-defined-crds.yaml), and the XRDs of a group are counted from the server's store.
 */
describe('who-can reads the XRDs and ProviderRevisions only as far as RESOURCE needs them', () => {
  interface Answer {
    resource: { kind: string; xrd?: string };
    request: { verb: string; apiGroup: string; resource: string; namespace: string };
    subjects: { kind: string; name: string; namespace?: string }[];
  }

  async function whoCan(kubeconfig: string, args: readonly string[]): Promise<Answer> {
    const r = await runPlugin(['who-can', ...args, '--kubeconfig', kubeconfig, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Answer;
  }

  /** Every subject listed is allowed, as the server's SubjectAccessReview answers. */
  async function allAllowed(url: string, answer: Answer): Promise<void> {
    for (const s of answer.subjects) {
      const allowed = await subjectAccessReview(
        url,
        identityHolding(s, 'who-can-reads-probe'),
        answer.request,
      );
      expect(allowed, `${s.kind}/${s.name}`).toBe(true);
    }
  }

  /** The request counts of the Crossplane kinds who-can may read to resolve RESOURCE. */
  function crossplaneReads(s: TestApiServer): Record<string, number> {
    return {
      listXrds: s.counters.get('list', 'compositeresourcedefinitions'),
      getXrds: s.counters.get('get', 'compositeresourcedefinitions'),
      listRevisions: s.counters.get('list', 'providerrevisions'),
      getRevisions: s.counters.get('get', 'providerrevisions'),
    };
  }

  it('a resource of a Kubernetes group: no XRD and no ProviderRevision is read', async () => {
    const started = await startSeeded();
    server = started.server;
    server.counters.reset();
    const answer = await whoCan(started.kubeconfig, ['create', 'deployments.apps', '-n', 'team-a']);
    expect(crossplaneReads(server)).toStrictEqual({
      listXrds: 0,
      getXrds: 0,
      listRevisions: 0,
      getRevisions: 0,
    });
    expect(answer.resource.xrd).toBeUndefined();
    await allAllowed(server.url, answer);
  }, 60_000);

  it('a claim discovery serves: the names of the XRDs, then a GET of each of its group; no ProviderRevision', async () => {
    const started = await startSeeded();
    server = started.server;
    const crd = server
      .list('customresourcedefinitions')
      .find(
        (c) => (c as { metadata: { name: string } }).metadata.name === 'buckets.storage.platform.acme.io',
      ) as { metadata: { ownerReferences?: { kind: string; name: string }[] } } | undefined;
    const owner = crd?.metadata.ownerReferences?.find((o) => o.kind === 'CompositeResourceDefinition')?.name;
    expect(owner).toBe('xbuckets.storage.platform.acme.io');
    const inGroup = server
      .list('compositeresourcedefinitions')
      .filter((x) => (x as { spec: { group: string } }).spec.group === 'storage.platform.acme.io').length;
    expect(inGroup).toBeGreaterThan(0);
    server.counters.reset();
    const answer = await whoCan(started.kubeconfig, [
      'create',
      'buckets.storage.platform.acme.io',
      '-n',
      'team-a',
    ]);
    expect(crossplaneReads(server)).toStrictEqual({
      listXrds: 1,
      getXrds: inGroup,
      listRevisions: 0,
      getRevisions: 0,
    });
    expect(answer.resource.xrd).toBe(owner);
    await allAllowed(server.url, answer);
  }, 60_000);

  it('a claim discovery does not serve (its XRD not established yet): every XRD and ProviderRevision, one LIST each', async () => {
    const started = await startSeeded();
    server = started.server;
    // An XRD whose CRDs do not exist yet, and a user bound to create its claims.
    server.seed([
      xrd(
        'unserved.acme.io',
        { kind: 'XWidget', plural: 'xwidgets' },
        { kind: 'Widget', plural: 'widgets' },
        'v1alpha1',
      ),
      {
        apiVersion: rbac,
        kind: 'ClusterRole',
        metadata: { name: 'widget-maker' },
        rules: [{ apiGroups: ['unserved.acme.io'], resources: ['widgets'], verbs: ['create'] }],
      },
      {
        apiVersion: rbac,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'widget-maker' },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'widget-maker' },
        subjects: [{ apiGroup: RBAC, kind: 'User', name: 'widget-maker' }],
      },
    ]);
    server.counters.reset();
    const answer = await whoCan(started.kubeconfig, ['create', 'widgets.unserved.acme.io', '-n', 'team-a']);
    expect(crossplaneReads(server)).toStrictEqual({
      listXrds: 1,
      getXrds: 0,
      listRevisions: 1,
      getRevisions: 0,
    });
    expect(answer.resource.xrd).toBe('xwidgets.unserved.acme.io');
    expect(answer.subjects.map((s) => `${s.kind}/${s.name}`)).toContain('User/widget-maker');
    await allAllowed(server.url, answer);
  }, 60_000);
});

/**
 * Roles whose rules cannot allow the request (no rule's apiGroups holds its group or "*") are not decoded: the roles
 * below put the group where a filter on the raw answer could go wrong. The server's SubjectAccessReview is the
 * oracle for every user bound, listed or not.
 */
describe('who-can decodes only the bound roles whose rules may allow the request', () => {
  const roles: Record<string, { apiGroups?: string[]; resources: string[]; verbs: string[] }[]> = {
    star: [{ apiGroups: ['*'], resources: ['deployments'], verbs: ['create'] }],
    exact: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }],
    'after-others': [
      { apiGroups: ['batch'], resources: ['jobs'], verbs: ['*'] },
      { apiGroups: ['', 'extensions', 'apps'], resources: ['deployments'], verbs: ['create'] },
    ],
    prefix: [{ apiGroups: ['app'], resources: ['deployments'], verbs: ['create'] }],
    suffix: [{ apiGroups: ['pps'], resources: ['deployments'], verbs: ['create'] }],
    longer: [{ apiGroups: ['apps.acme.io', 'xapps'], resources: ['*'], verbs: ['*'] }],
    'split-rules': [
      { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['create'] },
      { apiGroups: ['batch'], resources: ['deployments'], verbs: ['create'] },
    ],
    'star-elsewhere': [{ apiGroups: ['other.io'], resources: ['*'], verbs: ['*'] }],
    'group-as-resource': [{ apiGroups: ['batch'], resources: ['apps', 'deployments'], verbs: ['create'] }],
  };

  it('every bound user listed exactly when the server allows it', async () => {
    const started = await startSeeded([]);
    server = started.server;
    const objects: object[] = [];
    for (const [name, rules] of Object.entries(roles)) {
      objects.push(
        // An annotation with a quote: its answer holds a backslash escape, so this role is decoded whatever it holds.
        {
          apiVersion: rbac,
          kind: 'ClusterRole',
          metadata: { name, ...(name === 'exact' ? { annotations: { note: 'say "hi"' } } : {}) },
          rules,
        },
        {
          apiVersion: rbac,
          kind: 'RoleBinding',
          metadata: { name, namespace: 'default' },
          roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name },
          subjects: [{ apiGroup: RBAC, kind: 'User', name: `user-${name}` }],
        },
      );
    }
    server.seed(objects);
    const r = await runPlugin([
      'who-can',
      'create',
      'deployments.apps',
      '-n',
      'default',
      '--kubeconfig',
      started.kubeconfig,
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const listed = (JSON.parse(r.stdout) as { subjects: { name: string }[] }).subjects.map((s) => s.name);
    const request = { verb: 'create', apiGroup: 'apps', resource: 'deployments', namespace: 'default' };
    const allowed: string[] = [];
    for (const name of Object.keys(roles)) {
      const user = `user-${name}`;
      if (await subjectAccessReview(server.url, { user, groups: [] }, request)) allowed.push(user);
      expect(listed.includes(user), user).toBe(allowed.includes(user));
    }
    // The oracle's own answer, so that the roles above test both sides.
    expect(allowed).toStrictEqual(['user-star', 'user-exact', 'user-after-others']);
  }, 60_000);
});
