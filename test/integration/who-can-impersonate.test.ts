/**
 * `who-can impersonate users|groups|serviceaccounts|uids|userextras/KEY` and `explain --subject --for users --verb
 * impersonate` against the test API server. The resources are those the API server's impersonation filter asks
 * its authorizer about (kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation/
 * impersonation.go@4f6fdb4551e8dd7b783d29e4d936d3756e4813ed: users, groups and serviceaccounts in the core group,
 * uids and userextras/KEY in authentication.k8s.io), also where CRDs serve the same plurals: the example cluster has
 * provider-aws's users.iam.aws.upbound.io, users.cognitoidp.aws.upbound.io, groups.iam.aws.upbound.io and more.
 * Oracles: the server's SubjectAccessReview, its impersonation filter (a request with Impersonate-User), and, on
 * a cluster without such CRDs, the real `kubectl auth can-i impersonate users --as X` (kubectl maps `users` through
 * discovery, so with those CRDs served it would ask about one of them instead: staging/src/k8s.io/kubectl/pkg/cmd/
 * auth/cani.go@41762c588fc92e5d310649d2fa6133523a045f19, resourceFor).
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { identityHolding, subjectAccessReview } from '../support/access-review.js';
import { runPlugin, startSeeded } from './harness.js';

const RBAC = 'rbac.authorization.k8s.io';
const AUTHN = 'authentication.k8s.io';

interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}

interface Request {
  verb: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  namespace?: string;
}

interface WhoCan {
  request: Request;
  subjects: Subject[];
}

const keyOf = (s: Subject): string =>
  [s.kind, ...(s.namespace !== undefined ? [s.namespace] : []), s.name].join('/');

/** A ClusterRole with one impersonate rule, bound cluster-wide to one user. */
function granted(name: string, apiGroup: string, resource: string, user: string): object[] {
  return [
    {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name },
      rules: [{ apiGroups: [apiGroup], resources: [resource], verbs: ['impersonate'] }],
    },
    {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name },
      subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
    },
  ];
}

/** Who may impersonate what: each right in its group, and decoys with the same plural in another group. */
const GRANTS = [
  ...granted('imp-users', '', 'users', 'user-impersonator'),
  ...granted('imp-aws-users', 'iam.aws.upbound.io', 'users', 'aws-user-admin'),
  ...granted('imp-groups', '', 'groups', 'group-impersonator'),
  ...granted('imp-aws-groups', 'iam.aws.upbound.io', 'groups', 'aws-group-admin'),
  ...granted('imp-uids', AUTHN, 'uids', 'uid-impersonator'),
  ...granted('imp-core-uids', '', 'uids', 'core-uid-decoy'),
  ...granted('imp-scopes', AUTHN, 'userextras/scopes', 'scopes-impersonator'),
  ...granted('imp-core-scopes', '', 'userextras/scopes', 'core-scopes-decoy'),
];

function sar(server: TestApiServer, s: Subject, r: Request): Promise<boolean> {
  return subjectAccessReview(server.url, identityHolding(s, 'impersonate-probe'), r);
}

/** Every subject a binding names (service accounts with their namespace), plus one nobody names. */
function everySubject(server: TestApiServer): Subject[] {
  const out = new Map<string, Subject>();
  const add = (s: Subject): void => void out.set(keyOf(s), s);
  type B = { metadata: { namespace?: string }; subjects?: Subject[] };
  for (const b of [...server.list('clusterrolebindings'), ...server.list('rolebindings')] as B[]) {
    for (const s of b.subjects ?? []) {
      if (s.kind !== 'ServiceAccount') add({ kind: s.kind, name: s.name });
      else {
        const ns = s.namespace !== undefined && s.namespace !== '' ? s.namespace : b.metadata.namespace;
        if (ns !== undefined) add({ kind: s.kind, name: s.name, namespace: ns });
      }
    }
  }
  add({ kind: 'User', name: 'mallory' });
  return [...out.values()];
}

async function whoCan(kubeconfig: string, args: readonly string[]): Promise<WhoCan> {
  const r = await runPlugin(['who-can', ...args, '--kubeconfig', kubeconfig, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as WhoCan;
}

/** Every listed subject is allowed by the server, every other one denied. */
async function expectServerAgrees(server: TestApiServer, result: WhoCan): Promise<void> {
  const listed = new Set(result.subjects.map(keyOf));
  const disagree: string[] = [];
  for (const s of everySubject(server)) {
    const allowed = await sar(server, s, result.request);
    if (allowed !== listed.has(keyOf(s)))
      disagree.push(`${keyOf(s)}: listed ${String(listed.has(keyOf(s)))}, server ${String(allowed)}`);
  }
  expect(disagree).toEqual([]);
}

describe('who-can impersonate, where CRDs share the plurals', () => {
  let server: TestApiServer;
  let kubeconfig: string;

  beforeAll(async () => {
    ({ server, kubeconfig } = await startSeeded());
    server.seed(GRANTS);
  });
  afterAll(async () => {
    await server.stop();
  });

  const cases: [string, string[], Request, string[], string[]][] = [
    [
      'users: the core group, not users.iam.aws.upbound.io',
      ['impersonate', 'users'],
      { verb: 'impersonate', apiGroup: '', resource: 'users' },
      ['User/user-impersonator'],
      ['User/aws-user-admin'],
    ],
    [
      'groups: the core group, not groups.iam.aws.upbound.io',
      ['impersonate', 'groups'],
      { verb: 'impersonate', apiGroup: '', resource: 'groups' },
      ['User/group-impersonator'],
      ['User/aws-group-admin'],
    ],
    [
      'uids: authentication.k8s.io',
      ['impersonate', 'uids'],
      { verb: 'impersonate', apiGroup: AUTHN, resource: 'uids' },
      ['User/uid-impersonator'],
      ['User/core-uid-decoy'],
    ],
    [
      'userextras/KEY: authentication.k8s.io, the key as subresource',
      ['impersonate', 'userextras/scopes'],
      { verb: 'impersonate', apiGroup: AUTHN, resource: 'userextras', subresource: 'scopes' },
      ['User/scopes-impersonator'],
      ['User/core-scopes-decoy'],
    ],
    [
      'serviceaccounts: the core group, in the namespace (edit and admin grant it)',
      ['impersonate', 'serviceaccounts', '-n', 'team-a'],
      { verb: 'impersonate', apiGroup: '', resource: 'serviceaccounts', namespace: 'team-a' },
      [],
      ['User/user-impersonator'],
    ],
  ];

  it.each(cases)('%s', async (_reason, args, request, listed, left) => {
    const r = await whoCan(kubeconfig, args);
    expect({ apiGroup: '', ...r.request }).toMatchObject(request);
    const keys = r.subjects.map(keyOf);
    for (const k of listed) expect(keys).toContain(k);
    for (const k of left) expect(keys).not.toContain(k);
    await expectServerAgrees(server, r);
  });

  it("the server's impersonation filter agrees: only who-can's subject may act as another user", async () => {
    const r = await whoCan(kubeconfig, ['impersonate', 'users', 'bob']);
    const keys = r.subjects.map(keyOf);
    for (const [user, expected] of [
      ['user-impersonator', 200],
      ['aws-user-admin', 403],
    ] as const) {
      server.addUser(`token-${user}`, user);
      const res = await fetch(`${server.url}/api`, {
        headers: { Authorization: `Bearer token-${user}`, 'Impersonate-User': 'bob' },
      });
      expect(res.status, user).toBe(expected);
      expect(keys.includes(`User/${user}`), user).toBe(expected === 200);
    }
  });

  it('a name with its group still names the CRD', async () => {
    const r = await whoCan(kubeconfig, ['impersonate', 'users.iam.aws.upbound.io']);
    expect(r.request).toMatchObject({ apiGroup: 'iam.aws.upbound.io', resource: 'users' });
    expect(r.subjects.map(keyOf)).toContain('User/aws-user-admin');
    expect(r.subjects.map(keyOf)).not.toContain('User/user-impersonator');
  });

  it("other verbs take kubectl's choice, the first CRD group in discovery order, and warn of the others", async () => {
    const r = await runPlugin(['who-can', 'get', 'users', '--kubeconfig', kubeconfig, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as WhoCan).request).toMatchObject({
      apiGroup: 'cognitoidp.aws.upbound.io',
      resource: 'users',
    });
    expect(r.stderr.split('\n').filter((l) => l.includes('could also match'))).toHaveLength(2);
  });

  it.each([
    ['user-impersonator', true],
    ['aws-user-admin', false],
  ] as const)('explain --subject User:%s --for users --verb impersonate', async (user, allowed) => {
    const r = await runPlugin([
      'explain',
      '--subject',
      `User:${user}`,
      '--for',
      'users',
      '--verb',
      'impersonate',
      '--kubeconfig',
      kubeconfig,
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(allowed ? 0 : 1);
    const doc = JSON.parse(r.stdout) as { access: { request: Request; allowed: boolean } };
    expect({ apiGroup: '', ...doc.access.request }).toMatchObject({ apiGroup: '', resource: 'users' });
    expect(doc.access.allowed).toBe(allowed);
    expect(await sar(server, { kind: 'User', name: user }, doc.access.request)).toBe(allowed);
  });
});

describe('who-can impersonate, checked with kubectl auth can-i --as', () => {
  let server: TestApiServer;
  let kubeconfig: string;
  let dir: string;

  beforeAll(async () => {
    // Only the grants: no CRD serves users or groups, so kubectl asks about the core group's (cani.go resourceFor).
    ({ server, kubeconfig, dir } = await startSeeded([]));
    server.seed(GRANTS);
  });
  afterAll(async () => {
    await server.stop();
  });

  function canI(resource: string, s: Subject): Promise<boolean> {
    const as = s.kind === 'User' ? ['--as', s.name] : ['--as', 'impersonate-probe', '--as-group', s.name];
    return new Promise((done, fail) => {
      execFile(
        'kubectl',
        ['auth', 'can-i', 'impersonate', resource, '--kubeconfig', kubeconfig, ...as],
        { timeout: 30_000, env: { ...process.env, HOME: dir } },
        (err, stdout, stderr) => {
          if (stderr.includes("doesn't have a resource type")) fail(new Error(stderr));
          else if (err === null || err.code === 1) done(stdout.trim() === 'yes');
          else fail(new Error(`${err.message}: ${stderr}`));
        },
      );
    });
  }

  it.each(['users', 'groups'])('impersonate %s: listed exactly when kubectl says yes', async (resource) => {
    const r = await whoCan(kubeconfig, ['impersonate', resource]);
    const listed = new Set(r.subjects.map(keyOf));
    const subjects = [...everySubject(server), { kind: 'Group', name: 'system:masters' }];
    const disagree: string[] = [];
    for (const s of subjects) {
      const yes = await canI(resource, s);
      if (yes !== listed.has(keyOf(s)))
        disagree.push(`${keyOf(s)}: listed ${String(listed.has(keyOf(s)))}, kubectl ${String(yes)}`);
    }
    expect(disagree).toEqual([]);
    expect(listed).toContain(resource === 'users' ? 'User/user-impersonator' : 'User/group-impersonator');
  });
});
