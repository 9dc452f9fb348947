/**
 * who-can against the test API server's SubjectAccessReview, after `sync` and `enable-xrd` of examples/cluster:
 * every subject who-can lists must be allowed by the server, and every subject of every binding it leaves out must
 * be denied. The server's authorizer shares no code with the plugin (test/apiserver/README.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { identityHolding, subjectAccessReview, type Identity } from '../support/access-review.js';
import { runPlugin, startSeeded } from './harness.js';

interface Listed {
  kind: string;
  name: string;
  namespace?: string;
  always: boolean;
  paths: { stored: boolean }[];
}

interface Result {
  request: {
    verb: string;
    apiGroup?: string;
    resource?: string;
    subresource?: string;
    name?: string;
    namespace?: string;
    path?: string;
  };
  subjects: Listed[];
}

const RBAC = 'rbac.authorization.k8s.io';
const SQL_XRD = 'xsqlinstances.aws.platform.upbound.io';

describe('who-can against SubjectAccessReview', () => {
  let server: TestApiServer;
  let kubeconfig: string;

  beforeAll(async () => {
    ({ server, kubeconfig } = await startSeeded());
    expect((await runPlugin(['sync', '--kubeconfig', kubeconfig, '--yes'])).code).toBe(0);
    const enable = await runPlugin([
      'enable-xrd',
      SQL_XRD,
      '-n',
      'team-a',
      '--kubeconfig',
      kubeconfig,
      '--yes',
    ]);
    expect(enable.code, enable.stderr).toBe(0);
    server.seed([
      {
        apiVersion: `${RBAC}/v1`,
        kind: 'RoleBinding',
        metadata: { name: 'team-a-devs', namespace: 'team-a' },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'crossplane-ns-team-a-edit' },
        subjects: [{ apiGroup: RBAC, kind: 'Group', name: 'team-a-devs' }],
      },
      {
        apiVersion: `${RBAC}/v1`,
        kind: 'Role',
        metadata: { name: 'config-reader', namespace: 'team-b' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['settings'] }],
      },
      {
        apiVersion: `${RBAC}/v1`,
        kind: 'RoleBinding',
        metadata: { name: 'config-reader', namespace: 'team-b' },
        roleRef: { apiGroup: RBAC, kind: 'Role', name: 'config-reader' },
        subjects: [
          { apiGroup: RBAC, kind: 'User', name: 'alice' },
          { kind: 'ServiceAccount', name: 'reader' },
        ],
      },
    ]);
  });
  afterAll(async () => {
    await server.stop();
  });

  const sar = (identity: Identity, r: Result['request']): Promise<boolean> =>
    subjectAccessReview(server.url, identity, r);

  /** The identity that holds exactly the subject: a User alone, a Group on a user nobody binds, a bare SA. */
  const identityOf = (s: { kind: string; name: string; namespace?: string }): Identity =>
    identityHolding(s, 'who-can-probe');

  /** Every subject any binding names, plus some nobody names. */
  function everySubject(): { kind: string; name: string; namespace?: string }[] {
    const out = new Map<string, { kind: string; name: string; namespace?: string }>();
    const add = (s: { kind: string; name: string; namespace?: string }): void => {
      out.set(JSON.stringify([s.kind, s.namespace ?? '', s.name]), s);
    };
    for (const b of server.list('clusterrolebindings') as any[]) {
      for (const s of b.subjects ?? []) {
        if (s.kind === 'ServiceAccount' && (s.namespace ?? '') === '') continue;
        add({
          kind: s.kind,
          name: s.name,
          ...(s.kind === 'ServiceAccount' ? { namespace: s.namespace } : {}),
        });
      }
    }
    for (const b of server.list('rolebindings') as any[]) {
      for (const s of b.subjects ?? []) {
        const ns = s.kind === 'ServiceAccount' ? s.namespace || b.metadata.namespace : undefined;
        add({ kind: s.kind, name: s.name, ...(ns !== undefined ? { namespace: ns } : {}) });
      }
    }
    add({ kind: 'User', name: 'mallory' });
    add({ kind: 'Group', name: 'team-b-devs' });
    add({ kind: 'ServiceAccount', name: 'default', namespace: 'team-a' });
    return [...out.values()];
  }

  const queries: [string, string[], string[]][] = [
    [
      'team-a-devs may claim SQL instances in team-a',
      ['create', 'sqlinstances.aws.platform.upbound.io', '-n', 'team-a'],
      ['Group/team-a-devs'],
    ],
    ['but not in team-b', ['create', 'sqlinstance.aws.platform.upbound.io', '-n', 'team-b'], []],
    [
      'provider service accounts may update their buckets',
      ['update', 'buckets.s3.aws.upbound.io'],
      ['ServiceAccount/crossplane-system/upbound-provider-aws-s3-e7585f0184b8'],
    ],
    [
      'nobody but admins may delete them',
      ['delete', 'buckets.s3.aws.upbound.io'],
      ['Group/crossplane:masters'],
    ],
    [
      'a Role reaches only its namespace and names',
      ['get', 'cm', 'settings', '-n', 'team-b'],
      ['User/alice', 'ServiceAccount/team-b/reader'],
    ],
    ['a resourceNames rule does not grant other names', ['get', 'configmaps', 'other', '-n', 'team-b'], []],
    ['subresources by kind', ['get', 'Deployment.apps/scale', '-n', 'team-a'], []],
    ['namespaced XRs of a v2 XRD', ['delete', 'xnetworks.aws.platform.upbound.io'], []],
    ['a non-resource URL', ['get', '/healthz'], []],
  ];

  it.each(queries)('%s', async (_reason, args, mustList) => {
    const r = await runPlugin(['who-can', ...args, '--kubeconfig', kubeconfig, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as Result;
    const listed = new Set(
      result.subjects.map((s) =>
        [s.kind, ...(s.namespace !== undefined ? [s.namespace] : []), s.name].join('/'),
      ),
    );
    for (const want of mustList) expect(listed, `${want} should be listed`).toContain(want);
    expect(result.subjects[0]).toMatchObject({ kind: 'Group', name: 'system:masters', always: true });
    for (const s of result.subjects) {
      const allowed = await sar(identityOf(s), result.request);
      expect(allowed, `listed ${s.kind} ${s.name}: SubjectAccessReview disagrees`).toBe(true);
    }
    for (const s of everySubject()) {
      const key = [s.kind, ...(s.namespace !== undefined ? [s.namespace] : []), s.name].join('/');
      if (listed.has(key)) continue;
      const allowed = await sar(identityOf(s), result.request);
      expect(allowed, `left out ${key}, but SubjectAccessReview allows it`).toBe(false);
    }
  });

  const subjectCases: [string, string[], string, boolean, string | undefined][] = [
    [
      'a team group may claim in its namespace',
      [
        'Group:team-a-devs',
        '-n',
        'team-a',
        '--for',
        'sqlinstances.aws.platform.upbound.io',
        '--verb',
        'create',
      ],
      'Group/team-a-devs',
      true,
      undefined,
    ],
    [
      'not in another one',
      [
        'Group:team-a-devs',
        '-n',
        'team-b',
        '--for',
        'sqlinstances.aws.platform.upbound.io',
        '--verb',
        'create',
      ],
      'Group/team-a-devs',
      false,
      'other-namespace',
    ],
    [
      'nor a claim its namespace does not enable',
      ['Group:team-a-devs', '-n', 'team-a', '--for', 'caches.platform.acme.io', '--verb', 'create'],
      'Group/team-a-devs',
      false,
      'xrd-not-enabled',
    ],
    [
      'a provider may update its buckets',
      [
        'ServiceAccount:crossplane-system/upbound-provider-aws-s3-e7585f0184b8',
        '--for',
        'buckets.s3.aws.upbound.io',
        '--verb',
        'update',
      ],
      'ServiceAccount/crossplane-system/upbound-provider-aws-s3-e7585f0184b8',
      true,
      undefined,
    ],
    [
      'but not delete them',
      [
        'ServiceAccount:crossplane-system/upbound-provider-aws-s3-e7585f0184b8',
        '--for',
        'buckets.s3.aws.upbound.io',
        '--verb',
        'delete',
      ],
      'ServiceAccount/crossplane-system/upbound-provider-aws-s3-e7585f0184b8',
      false,
      'other-verbs',
    ],
    [
      'crossplane:masters may, through aggregation',
      ['Group:crossplane:masters', '--for', 'buckets.s3.aws.upbound.io', '--verb', 'delete'],
      'Group/crossplane:masters',
      true,
      undefined,
    ],
    [
      'a user bound to nothing',
      ['User:mallory', '-n', 'team-a', '--for', 'sqlinstances.aws.platform.upbound.io', '--verb', 'create'],
      'User/mallory',
      false,
      'not-bound',
    ],
  ];

  it.each(subjectCases)('explain --subject: %s', async (_reason, args, subject, allowed, reason) => {
    const r = await runPlugin(['explain', '--subject', ...args, '--kubeconfig', kubeconfig, '-o', 'json']);
    // As kubectl auth can-i: 0 when allowed, 1 when denied; the answer is printed either way.
    expect(r.code, r.stderr).toBe(allowed ? 0 : 1);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as {
      user: { name: string; groups: string[] };
      access: { request: Result['request']; allowed: boolean; whyNot: { reason: string; fix?: string }[] };
    };
    const [kind, ...rest] = subject.split('/');
    const s =
      kind === 'ServiceAccount'
        ? { kind, namespace: rest[0], name: rest[1] ?? '' }
        : { kind: kind ?? '', name: rest.join('/') };
    // The server decides for the subject alone (a service account with its implicit groups, as its token has them).
    const identity =
      s.kind === 'ServiceAccount'
        ? {
            user: `system:serviceaccount:${s.namespace ?? ''}:${s.name}`,
            groups: [
              'system:serviceaccounts',
              `system:serviceaccounts:${s.namespace ?? ''}`,
              'system:authenticated',
            ],
          }
        : s.kind === 'User'
          ? { user: s.name, groups: ['system:authenticated'] }
          : { user: 'who-can-probe', groups: [s.name] };
    expect(await sar(identity, doc.access.request)).toBe(allowed);
    expect(doc.access.allowed).toBe(allowed);
    if (reason !== undefined) expect(doc.access.whyNot.map((w) => w.reason)).toContain(reason);
    else expect(doc.access.whyNot).toEqual([]);
  });

  it('refuses an unknown resource, and -n with -A, with one error line and exit 2', async () => {
    const unknown = await runPlugin([
      'who-can',
      'get',
      'bukets.s3.aws.upbound.io',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^error: the server doesn't have a resource type "bukets.s3.aws.upbound.io"\n/,
    );
    const both = await runPlugin(['who-can', 'get', 'pods', '-n', 'x', '-A', '--kubeconfig', kubeconfig]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^error: -n and -A cannot be used together\n/);
  });

  it('reads one LIST per kind it needs (ClusterRoles: the bound ones, a GET each; no Crossplane kind for a core resource) and writes nothing', async () => {
    server.counters.reset();
    const r = await runPlugin(['who-can', 'get', 'configmaps', '-n', 'team-a', '--kubeconfig', kubeconfig]);
    expect(r.code, r.stderr).toBe(0);
    const lists = Object.entries(server.counters.snapshot()).filter(([k]) => k.startsWith('list '));
    expect(Object.fromEntries(lists)).toEqual({
      'list clusterrolebindings': 1,
      'list roles': 1,
      'list rolebindings': 1,
    });
    expect(server.counters.get('get', 'clusterroles')).toBeGreaterThan(0);
    expect(server.counters.writes()).toBe(0);
    server.counters.reset();
    const c = await runPlugin([
      'who-can',
      'get',
      'configmaps',
      '-n',
      'team-a',
      '--converged',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(c.code, c.stderr).toBe(0);
    expect(server.counters.get('list', 'clusterroles')).toBe(1);
    expect(server.counters.get('get', 'clusterroles')).toBe(0);
  });
});
