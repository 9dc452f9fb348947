/**
 * who-can and explain --subject through the real kubectl, after `sync --yes` and `enable-xrd` of examples/cluster.
 * The oracle is the test API server's own authorizer (test/apiserver/authz.ts, no code shared with the plugin),
 * asked through `kubectl auth can-i ... --as USER [--as-group GROUP]`: kubectl impersonates the subject and sends a
 * SelfSubjectAccessReview. Every subject who-can lists must be allowed, every other subject of every binding (and
 * some no binding names) denied; explain --subject's allowed/denied must be kubectl's answer, and the fix it prints
 * for a denial, run as printed, must turn kubectl's answer to yes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectAccessReview } from '../support/access-review.js';
import type { RunResult } from './harness.js';
import {
  applyList,
  asFlags as asFlagsOf,
  crd,
  ok,
  startSeeded,
  type SeededCluster,
} from './seeded-cluster.js';

const SQL_XRD = 'xsqlinstances.aws.platform.upbound.io'; // enabled in team-b by the examples; here also in team-a
const CLAIM = 'sqlinstances.aws.platform.upbound.io';
const MYSQL_XRD = 'xmysqlinstances.database.platform.acme.io'; // enabled in no namespace of the examples
const MYSQL_CLAIM = 'mysqlinstances.database.platform.acme.io';
const BUCKETS = 'buckets.s3.aws.upbound.io'; // managed resources of provider-aws-s3 (family provider-family-aws)
const S3_SA = 'crossplane-system/upbound-provider-aws-s3-e7585f0184b8';
/** A user name no binding names: impersonated with --as-group to ask about a Group alone. */
const PROBE_USER = 'xrbac-probe';

interface SubjectId {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

interface Listed extends SubjectId {
  readonly always: boolean;
  readonly paths: readonly {
    readonly binding: { kind: string; name: string; namespace?: string };
    readonly role: { kind: string; name: string };
    readonly chain: readonly string[];
    readonly stored: boolean;
  }[];
}

interface WhoCanJson {
  readonly request: { verb: string; apiGroup?: string; resource?: string; namespace?: string };
  readonly subjects: readonly Listed[];
}

interface SubjectJson {
  readonly access: {
    readonly allowed: boolean;
    readonly whyNot: readonly { reason: string; message: string; fix?: string }[];
  };
}

let cluster: SeededCluster;
let server: SeededCluster['server'];

/**
 * While a describe block that writes nothing runs, the answers of its command lines (without stdin), set here: each
 * is run once and its output shared by the tests that ask it. Undefined elsewhere: a run after a write asks again.
 */
let readOnly: Map<string, Promise<RunResult>> | undefined;

const run = (args: readonly string[], input?: string): Promise<RunResult> => {
  if (readOnly === undefined || input !== undefined) return cluster.run(args, input);
  const key = JSON.stringify(args);
  const known = readOnly.get(key);
  if (known !== undefined) return known;
  const r = cluster.run(args);
  readOnly.set(key, r);
  return r;
};

const keyOf = (s: SubjectId): string =>
  [s.kind, ...(s.namespace !== undefined ? [s.namespace] : []), s.name].join('/');

/** The kubectl impersonation flags for exactly the subject (the server adds system:authenticated, and a service account's groups). */
function asFlags(s: SubjectId): string[] {
  return asFlagsOf(s, PROBE_USER);
}

/** The user the server sees for the impersonated identity of asFlags(s). */
function userOf(s: SubjectId): string {
  if (s.kind === 'User') return s.name;
  if (s.kind === 'Group') return PROBE_USER;
  return `system:serviceaccount:${s.namespace ?? ''}:${s.name}`;
}

/** The groups the server gives the impersonated identity of asFlags(s). */
function groupsOf(s: SubjectId): string[] {
  if (s.kind === 'Group') return [s.name, 'system:authenticated'];
  if (s.kind === 'User') return ['system:authenticated'];
  return ['system:serviceaccounts', `system:serviceaccounts:${s.namespace ?? ''}`, 'system:authenticated'];
}

/**
 * `kubectl auth can-i VERB RESOURCE (-n NS | -A) --as ...`: exit 0 and "yes", or exit 1 and "no". A cluster-scoped
 * resource is asked with -A (namespace ""), as the authorizer sees a cluster-scoped request; kubectl must resolve
 * RESOURCE (no "doesn't have a resource type" warning, which would make it ask about the raw argument).
 */
async function canI(
  verb: string,
  resource: string,
  namespace: string | undefined,
  s: SubjectId,
): Promise<boolean> {
  return (await canIRun(verb, resource, namespace, s)).stdout.trim() === 'yes';
}

/** canI's run of kubectl auth can-i, checked as canI describes, with its exit code. */
async function canIRun(
  verb: string,
  resource: string,
  namespace: string | undefined,
  s: SubjectId,
): Promise<RunResult> {
  const scope = namespace !== undefined ? ['-n', namespace] : ['-A'];
  const r = await run(['auth', 'can-i', verb, resource, ...scope, ...asFlags(s)]);
  if (r.code !== 0 && r.code !== 1)
    throw new Error(`kubectl auth can-i failed (${String(r.code)}): ${r.stderr}`);
  expect(r.stderr, `kubectl auth can-i ${verb} ${resource}`).not.toMatch(/doesn't have a resource type/);
  expect(r.stdout.trim()).toBe(r.code === 0 ? 'yes' : 'no');
  return r;
}

/** Runs FN over ITEMS, at most `limit` at a time (each call is a kubectl process). */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Every subject a ClusterRoleBinding or RoleBinding names, as `kubectl get` shows them, plus some nobody names. */
async function everySubject(): Promise<SubjectId[]> {
  const r = ok(
    await run(['get', 'clusterrolebindings,rolebindings', '-A', '-o', 'json']),
    'kubectl get bindings',
  );
  const list = JSON.parse(r.stdout) as {
    items: {
      kind: string;
      metadata: { namespace?: string };
      subjects?: { kind: string; name: string; namespace?: string }[];
    }[];
  };
  const out = new Map<string, SubjectId>();
  const add = (s: SubjectId): void => {
    out.set(keyOf(s), s);
  };
  for (const b of list.items) {
    for (const s of b.subjects ?? []) {
      if (s.kind === 'ServiceAccount') {
        const ns = s.namespace !== undefined && s.namespace !== '' ? s.namespace : b.metadata.namespace;
        if (ns === undefined || ns === '') continue; // names nobody
        add({ kind: s.kind, name: s.name, namespace: ns });
      } else add({ kind: s.kind, name: s.name });
    }
  }
  add({ kind: 'User', name: 'mallory' });
  add({ kind: 'Group', name: 'team-c-devs' });
  add({ kind: 'ServiceAccount', name: 'default', namespace: 'team-a' });
  add({ kind: 'ServiceAccount', name: 'upbound-provider-aws-ec2-84a79a0c96bd', namespace: 'team-a' });
  return [...out.values()];
}

/** `who-can ARGS -o json` through kubectl, its stderr STDERR exactly. */
async function whoCanRun(args: readonly string[], stderr: string): Promise<RunResult> {
  const r = ok(await run(['crossplane-rbac', 'who-can', ...args, '-o', 'json']), `who-can ${args.join(' ')}`);
  expect(r.stderr).toBe(stderr);
  return r;
}

/** `who-can ARGS -o json` through kubectl, nothing on stderr. */
async function whoCan(args: readonly string[]): Promise<WhoCanJson> {
  return JSON.parse((await whoCanRun(args, '')).stdout) as WhoCanJson;
}

/**
 * who-can ARGS in both modes: the default (the stored rules of the bound roles, as the authorizer) and --converged
 * (every ClusterRole, converged rules). Where the controller has caught up (every path stored) they list the same
 * subjects through the same bindings; the server (and kubectl auth can-i) must agree with the default answer
 * (expectServerAgrees: a caller need not ask again). Returns the converged one (its paths name the aggregation
 * chains).
 */
async function bothModes(args: readonly string[]): Promise<WhoCanJson> {
  const [stored, converged] = await Promise.all([whoCan(args), whoCan([...args, '--converged'])]);
  const bindings = (r: WhoCanJson): string[] =>
    r.subjects.map(
      (s) => `${keyOf(s)} ${s.paths.map((p) => `${p.binding.kind}/${p.binding.name}`).join(',')}`,
    );
  expect(converged.subjects.every((s) => s.paths.every((p) => p.stored))).toBe(true);
  expect(bindings(stored)).toEqual(bindings(converged));
  const [plural = '', ...group] = (args[1] ?? '').split('.');
  const namespace = args.includes('-n') ? args[args.indexOf('-n') + 1] : undefined;
  // sqlinstance.aws... (the singular) asks about the plural.
  const resource = plural.endsWith('s') ? (args[1] ?? '') : `${plural}s.${group.join('.')}`;
  // -A (RoleBindings of every namespace) is no single request the server could be asked about.
  if (!args.includes('-A')) await expectServerAgrees(stored, args[0] ?? '', resource, namespace);
  return converged;
}

/**
 * Asks the server about every subject who-can lists and every other one a binding names: listed ones (and those a
 * listed group covers) must be allowed, the rest denied. Each is one SubjectAccessReview for the identity kubectl's
 * impersonation makes (asFlags, groupsOf); real `kubectl auth can-i` asks for every subject who-can lists and the
 * first few it leaves out, and must give the same answers. (kubectl for all of them, a process per subject and
 * verb, was most of this file's time.)
 */
async function expectServerAgrees(
  result: WhoCanJson,
  verb: string,
  resource: string,
  namespace: string | undefined,
): Promise<void> {
  const listed = new Set(result.subjects.map(keyOf));
  const listedGroups = new Set(result.subjects.filter((s) => s.kind === 'Group').map((s) => s.name));
  const subjects = new Map<string, SubjectId>();
  for (const s of [...result.subjects, ...(await everySubject())]) subjects.set(keyOf(s), s);
  const all = [...subjects.values()];
  // RESOURCE is always written plural.group here: the request kubectl resolves it to, without the plugin's help.
  const [plural = '', ...group] = resource.split('.');
  const review = { verb, apiGroup: group.join('.'), resource: plural, namespace: namespace ?? '' };
  const answers = await mapLimit(all, 16, (s) =>
    subjectAccessReview(server.url, { user: userOf(s), groups: groupsOf(s) }, review),
  );
  const disagree: string[] = [];
  all.forEach((s, i) => {
    const want = listed.has(keyOf(s)) || groupsOf(s).some((g) => listedGroups.has(g));
    if (answers[i] !== want) {
      disagree.push(
        `${keyOf(s)}: who-can ${want ? 'lists' : 'leaves out'} it, the server says ${answers[i] === true ? 'yes' : 'no'}`,
      );
    }
  });
  expect(disagree, `${verb} ${resource} ${namespace ?? '(cluster)'}`).toEqual([]);
  const asked = [
    ...all.filter((s) => listed.has(keyOf(s))),
    ...all.filter((s) => !listed.has(keyOf(s))).slice(0, 4),
  ];
  const kubectlSays = await mapLimit(asked, 4, (s) => canI(verb, resource, namespace, s));
  asked.forEach((s, i) => {
    expect(kubectlSays[i], `kubectl auth can-i ${verb} ${resource} ${asFlags(s).join(' ')}`).toBe(
      answers[all.indexOf(s)],
    );
  });
}

/**
 * `explain --subject ... -o json` and its text form, both through kubectl. With --for/--verb each exits as
 * `kubectl auth can-i` does, 0 when allowed and 1 when denied (`code`); the answer is printed either way.
 */
async function explainSubject(
  args: readonly string[],
): Promise<{ json: SubjectJson; text: string; code: number }> {
  const j = await run(['crossplane-rbac', 'explain', '--subject', ...args, '-o', 'json']);
  const t = await run(['crossplane-rbac', 'explain', '--subject', ...args]);
  expect(j.stderr, args.join(' ')).toBe('');
  expect(t.stderr, args.join(' ')).toBe('');
  const json = JSON.parse(j.stdout) as SubjectJson;
  expect(j.code, args.join(' ')).toBe(json.access.allowed ? 0 : 1);
  expect(t.code, args.join(' ')).toBe(j.code);
  return { json, text: t.stdout, code: j.code };
}

/** The why/fix pairs of the text form, in order. */
function whyLines(text: string): { why: string; fix?: string }[] {
  const out: { why: string; fix?: string }[] = [];
  for (const line of text.split('\n')) {
    const why = /^ {2}why: (.*)$/.exec(line);
    const fix = /^ {4}fix: (.*)$/.exec(line);
    if (why !== null) out.push({ why: why[1] ?? '' });
    else if (fix !== null && out.length > 0) (out[out.length - 1] as { fix?: string }).fix = fix[1] ?? '';
  }
  return out;
}

/** Splits a printed fix into argv (they are plain words, no quoting) and names the binding NAME. */
function fixArgv(fix: string, name: string): string[] {
  return fix.split(' ').map((w) => (w === 'NAME' ? name : w));
}

/** stderr of a refused command: exactly one `error: ` line, optionally one `hint: ` line; exit 2, nothing on stdout. */
function expectOneError(r: RunResult, message: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines.length, r.stderr).toBeGreaterThanOrEqual(1);
  expect(lines.length, r.stderr).toBeLessThanOrEqual(2);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(message);
  if (lines.length === 2) expect(lines[1]).toMatch(/^hint: /);
  expect(r.stdout).toBe('');
}

beforeAll(async () => {
  cluster = await startSeeded('xrbac-e2e-who-can-', ['cluster']);
  server = cluster.server;
  const crds = [
    crd('aws.platform.upbound.io', 'sqlinstances', 'SQLInstance', 'Namespaced'),
    crd('database.platform.acme.io', 'mysqlinstances', 'MySQLInstance', 'Namespaced'),
    crd('s3.aws.upbound.io', 'buckets', 'Bucket', 'Cluster'),
  ];
  await applyList(cluster, crds, 'kubectl apply CRDs');
  const sync = ok(await run(['crossplane-rbac', 'sync', '--yes']), 'sync');
  expect(sync.stderr).toBe('');
  ok(await run(['crossplane-rbac', 'enable-xrd', SQL_XRD, '-n', 'team-a', '--yes']), 'enable-xrd');
  for (const team of ['a', 'b']) {
    ok(
      await run([
        'create',
        'rolebinding',
        `team-${team}-devs`,
        '--clusterrole',
        `crossplane-ns-team-${team}-edit`,
        '--group',
        `team-${team}-devs`,
        '-n',
        `team-${team}`,
      ]),
      'kubectl create rolebinding',
    );
  }
}, 120_000);

afterAll(async () => {
  await server.stop();
});

describe('who-can through the real kubectl, checked with kubectl auth can-i --as', () => {
  // No test here writes to the cluster: the same question (who-can, kubectl auth can-i, kubectl get) is asked once.
  beforeAll(() => {
    readOnly = new Map();
  });
  afterAll(() => {
    readOnly = undefined;
  });

  it('a team group may create claims in its own namespace only', async () => {
    const a = await bothModes(['create', CLAIM, '-n', 'team-a']);
    const inA = a.subjects.map(keyOf);
    expect(inA).toContain('Group/team-a-devs');
    expect(inA).not.toContain('Group/team-b-devs');
    expect(a.request).toMatchObject({
      verb: 'create',
      apiGroup: 'aws.platform.upbound.io',
      resource: 'sqlinstances',
      namespace: 'team-a',
    });
    const devs = a.subjects.find((s) => keyOf(s) === 'Group/team-a-devs');
    expect(devs?.paths[0]).toMatchObject({
      binding: { kind: 'RoleBinding', name: 'team-a-devs', namespace: 'team-a' },
      role: { kind: 'ClusterRole', name: 'crossplane-ns-team-a-edit' },
      chain: ['crossplane-ns-team-a-edit', `crossplane:composite:${SQL_XRD}:aggregate-to-ns-edit`],
      stored: true,
    });

    const b = await bothModes(['create', 'sqlinstance.aws.platform.upbound.io', '-n', 'team-b']);
    const inB = b.subjects.map(keyOf);
    expect(inB).toContain('Group/team-b-devs');
    expect(inB).not.toContain('Group/team-a-devs');
    expect(await canI('create', CLAIM, 'team-b', { kind: 'Group', name: 'team-a-devs' })).toBe(false);
  }, 120_000);

  it("the provider's service account may get and update its managed resources, not delete them", async () => {
    for (const verb of ['get', 'update']) {
      const r = await bothModes([verb, BUCKETS]);
      expect(r.subjects.map(keyOf)).toContain(`ServiceAccount/${S3_SA}`);
      const sa = r.subjects.find((s) => keyOf(s) === `ServiceAccount/${S3_SA}`);
      expect(sa?.paths.map((p) => `${p.binding.kind}/${p.binding.name}`)).toContain(
        `ClusterRoleBinding/crossplane:provider:${S3_SA.split('/')[1] ?? ''}:system`,
      );
    }
    const del = await bothModes(['delete', BUCKETS]);
    expect(del.subjects.map(keyOf)).not.toContain(`ServiceAccount/${S3_SA}`);
  }, 180_000);

  it('crossplane:masters may delete them through the aggregated crossplane-admin role', async () => {
    const del = await whoCan(['delete', BUCKETS, '--converged']);
    const masters = del.subjects.find((s) => keyOf(s) === 'Group/crossplane:masters');
    expect(masters).toBeDefined();
    const path = masters?.paths.find((p) => p.binding.name === 'crossplane-admin');
    expect(path).toMatchObject({
      binding: { kind: 'ClusterRoleBinding', name: 'crossplane-admin' },
      role: { kind: 'ClusterRole', name: 'crossplane-admin' },
      stored: true,
    });
    // crossplane-admin holds no rule of its own on buckets: the chain names the provider role it aggregates.
    expect(path?.chain[0]).toBe('crossplane-admin');
    expect(path?.chain.at(-1)).toMatch(/^crossplane:provider:upbound-provider-.*:aggregate-to-edit$/);
    expect(await canI('delete', BUCKETS, undefined, { kind: 'Group', name: 'crossplane:masters' })).toBe(
      true,
    );

    const table = ok(
      await run(['crossplane-rbac', 'who-can', 'delete', BUCKETS, '--converged']),
      'who-can table',
    );
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^SUBJECT\s+KIND\s+VIA$/);
    expect(lines[1]).toMatch(/^system:masters\s+Group\s+built in: /);
    expect(table.stdout).toMatch(
      /^crossplane:masters\s+Group\s+ClusterRoleBinding\/crossplane-admin → ClusterRole\/crossplane-admin → crossplane:provider:\S+:aggregate-to-edit/m,
    );
    expect(table.stdout).not.toContain('not stored yet');
  }, 60_000);

  it('-A counts the RoleBindings of every namespace', async () => {
    const r = await bothModes(['create', CLAIM, '-A']);
    const keys = r.subjects.map(keyOf);
    expect(keys).toContain('Group/team-a-devs');
    expect(keys).toContain('Group/team-b-devs');
    expect(r.request.namespace).toBeUndefined();
  });

  it('-o json lists every subject with its paths; system:masters first, always', async () => {
    const r = await whoCan(['update', BUCKETS]);
    expect(r.subjects[0]).toMatchObject({ kind: 'Group', name: 'system:masters', always: true, paths: [] });
    for (const s of r.subjects.slice(1)) {
      expect(s.always, keyOf(s)).toBe(false);
      expect(s.paths.length, keyOf(s)).toBeGreaterThan(0);
      for (const p of s.paths) expect(p.stored, keyOf(s)).toBe(true);
    }
    const yaml = ok(await run(['crossplane-rbac', 'who-can', 'update', BUCKETS, '-o', 'yaml']), 'yaml');
    expect(yaml.stdout).toMatch(/^request:\n/);
  });
});

/** The ClusterRoles the bindings name (ClusterRoleBindings, and RoleBindings of NAMESPACE), as kubectl gets them. */
async function boundClusterRoles(namespace: string): Promise<Set<string>> {
  const r = ok(
    await run(['get', 'clusterrolebindings,rolebindings', '-A', '-o', 'json']),
    'kubectl get bindings',
  );
  const list = JSON.parse(r.stdout) as {
    items: { kind: string; metadata: { namespace?: string }; roleRef: { kind: string; name: string } }[];
  };
  return new Set(
    list.items
      .filter((b) => b.kind === 'ClusterRoleBinding' || b.metadata.namespace === namespace)
      .filter((b) => b.roleRef.kind === 'ClusterRole')
      .map((b) => b.roleRef.name),
  );
}

describe("who-can answers from the rules the server stores; --converged from the controller's", () => {
  it('by default reads only the ClusterRoles the bindings reach, one GET each; --converged lists them all', async () => {
    const bound = await boundClusterRoles('team-a');
    const all = JSON.parse(ok(await run(['get', 'clusterroles', '-o', 'json']), 'get').stdout) as {
      items: unknown[];
    };
    expect(bound.size).toBeLessThan(all.items.length / 2);
    server.counters.reset();
    await whoCan(['create', CLAIM, '-n', 'team-a']);
    expect(server.counters.get('list', 'clusterroles')).toBe(0);
    expect(server.counters.get('get', 'clusterroles')).toBe(bound.size);
    server.counters.reset();
    await whoCan(['create', CLAIM, '-n', 'team-a', '--converged']);
    expect(server.counters.get('list', 'clusterroles')).toBe(1);
    expect(server.counters.get('get', 'clusterroles')).toBe(0);
  });

  it('an aggregated role whose stored rules lag: the default answers as the server, --converged marks the paths not stored yet', async () => {
    const resource = 'gadgets.lag.example.io';
    const source = 'xrbac-lag-gadgets-admin';
    server.setAggregation(false);
    try {
      const objects = [
        crd('lag.example.io', 'gadgets', 'Gadget', 'Cluster'),
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: { name: source, labels: { 'rbac.crossplane.io/aggregate-to-admin': 'true' } },
          rules: [{ apiGroups: ['lag.example.io'], resources: ['gadgets'], verbs: ['delete'] }],
        },
      ];
      ok(
        await run(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects })),
        'kubectl apply',
      );
      const stored = await whoCan(['delete', resource]);
      const converged = JSON.parse(
        (
          await whoCanRun(
            ['delete', resource, '--converged'],
            'warning: ClusterRole crossplane-admin does not store all the rules it aggregates yet; subjects whose path says "not stored yet" are denied until the aggregation controller catches up\n',
          )
        ).stdout,
      ) as WhoCanJson;
      await expectServerAgrees(stored, 'delete', resource, undefined);
      expect(stored.subjects.map(keyOf)).not.toContain('Group/crossplane:masters');
      expect(await canI('delete', resource, undefined, { kind: 'Group', name: 'crossplane:masters' })).toBe(
        false,
      );
      // explain --subject answers as the server too (exit 1, as kubectl auth can-i); --converged allows it, marked.
      const explainMasters = ['crossplane-rbac', 'explain', '--subject', 'Group:crossplane:masters'];
      const asked = ['--for', resource, '--verb', 'delete'];
      const denied = await run([...explainMasters, ...asked]);
      expect(denied.code, denied.stderr).toBe(1);
      expect(denied.stdout).toMatch(/^delete lag\.example\.io\/gadgets: denied$/m);
      const pending = await run([...explainMasters, ...asked, '--converged', '-o', 'wide']);
      expect(pending.code, pending.stderr).toBe(0);
      expect(pending.stdout).toMatch(
        /^ {6}delete lag\.example\.io\/gadgets {2}← xrbac-lag-gadgets-admin {2}\(not stored yet\)$/m,
      );
      const masters = converged.subjects.find((s) => keyOf(s) === 'Group/crossplane:masters');
      expect(masters?.paths.find((p) => p.binding.name === 'crossplane-admin')).toMatchObject({
        role: { kind: 'ClusterRole', name: 'crossplane-admin' },
        chain: ['crossplane-admin', source],
        stored: false,
      });
      // The two answers differ by the paths not stored yet, and by nothing else.
      const storedOnly = converged.subjects
        .map((s) => ({ ...s, paths: s.paths.filter((p) => p.stored) }))
        .filter((s) => s.always || s.paths.length > 0);
      const view = (subjects: readonly Listed[]): string[] =>
        subjects.map(
          (s) => `${keyOf(s)} ${s.paths.map((p) => `${p.binding.name}/${p.role.name}`).join(',')}`,
        );
      expect(view(storedOnly)).toEqual(view(stored.subjects));
      const table = ok(await run(['crossplane-rbac', 'who-can', 'delete', resource, '--converged']), 'table');
      expect(table.stdout).toMatch(/^crossplane:masters\s+Group\s+.*not stored yet/m);
      expect(ok(await run(['crossplane-rbac', 'who-can', 'delete', resource]), 'table').stdout).not.toContain(
        'not stored yet',
      );
    } finally {
      server.setAggregation(true);
    }
    // Once the controller has stored the rules, the server and the default answer allow crossplane:masters.
    const after = await whoCan(['delete', resource]);
    expect(after.subjects.map(keyOf)).toContain('Group/crossplane:masters');
    await expectServerAgrees(after, 'delete', resource, undefined);
  }, 120_000);
});

describe('explain --subject through the real kubectl, checked with kubectl auth can-i --as', () => {
  const cases: {
    readonly name: string;
    readonly subject: SubjectId;
    readonly flag: string;
    readonly verb: string;
    readonly resource: string;
    readonly namespace?: string;
    readonly allowed: boolean;
  }[] = [
    {
      name: 'a team group may claim in its namespace',
      subject: { kind: 'Group', name: 'team-a-devs' },
      flag: 'Group:team-a-devs',
      verb: 'create',
      resource: CLAIM,
      namespace: 'team-a',
      allowed: true,
    },
    {
      name: "not in another team's namespace",
      subject: { kind: 'Group', name: 'team-a-devs' },
      flag: 'Group:team-a-devs',
      verb: 'create',
      resource: CLAIM,
      namespace: 'team-b',
      allowed: false,
    },
    {
      name: 'a provider may update its managed resources',
      subject: { kind: 'ServiceAccount', name: S3_SA.split('/')[1] ?? '', namespace: 'crossplane-system' },
      flag: `ServiceAccount:${S3_SA}`,
      verb: 'update',
      resource: BUCKETS,
      allowed: true,
    },
    {
      name: 'but not delete them',
      subject: { kind: 'ServiceAccount', name: S3_SA.split('/')[1] ?? '', namespace: 'crossplane-system' },
      flag: `ServiceAccount:${S3_SA}`,
      verb: 'delete',
      resource: BUCKETS,
      allowed: false,
    },
    {
      name: 'crossplane:masters may delete them',
      subject: { kind: 'Group', name: 'crossplane:masters' },
      flag: 'Group:crossplane:masters',
      verb: 'delete',
      resource: BUCKETS,
      allowed: true,
    },
    {
      name: 'a claim its namespace does not enable',
      subject: { kind: 'Group', name: 'team-a-devs' },
      flag: 'Group:team-a-devs',
      verb: 'create',
      resource: MYSQL_CLAIM,
      namespace: 'team-a',
      allowed: false,
    },
  ];

  it.each(cases)('$name: explain says what kubectl auth can-i says, and exits as it does', async (c) => {
    const ns = c.namespace !== undefined ? ['-n', c.namespace] : [];
    const { json, text, code } = await explainSubject([c.flag, ...ns, '--for', c.resource, '--verb', c.verb]);
    const can = await canIRun(c.verb, c.resource, c.namespace, c.subject);
    // The same question, the same exit code: 0 allowed, 1 denied.
    expect(code).toBe(can.code);
    expect(can.code).toBe(c.allowed ? 0 : 1);
    expect(json.access.allowed).toBe(can.code === 0);
    expect(json.access.allowed).toBe(c.allowed);
    expect(text).toMatch(new RegExp(`: ${c.allowed ? 'allowed' : 'denied'}$`, 'm'));
    if (c.allowed) expect(json.access.whyNot).toEqual([]);
    else expect(json.access.whyNot.length).toBeGreaterThan(0);
  });

  it("a team group in another team's namespace: why not, and the fix, run as printed, allows it", async () => {
    const { json, text } = await explainSubject([
      'Group:team-a-devs',
      '-n',
      'team-b',
      '--for',
      CLAIM,
      '--verb',
      'create',
    ]);
    expect(json.access.whyNot.map((w) => w.reason)).toEqual(['not-bound', 'other-namespace']);
    const why = whyLines(text);
    expect(why[0]?.why).toMatch(
      /grants? it, but no binding in team-b or cluster-wide gives one to the subject$/,
    );
    // The namespace's own Crossplane role, not the Crossplane controller's: the least privilege that grants it.
    expect(why[0]?.fix).toBe(
      'kubectl create rolebinding NAME --clusterrole crossplane-ns-team-b-edit --group team-a-devs -n team-b',
    );
    expect(why[1]).toEqual({ why: 'allowed in namespace team-a, not in team-b' });

    const subject = { kind: 'Group', name: 'team-a-devs' };
    expect(await canI('create', CLAIM, 'team-b', subject)).toBe(false);
    const fix = fixArgv(why[0]?.fix ?? '', 'team-a-devs-in-b');
    expect(fix[0]).toBe('kubectl');
    ok(await run(fix.slice(1)), fix.join(' '));
    try {
      expect(await canI('create', CLAIM, 'team-b', subject)).toBe(true);
    } finally {
      ok(await run(['delete', 'rolebinding', 'team-a-devs-in-b', '-n', 'team-b']), 'delete the fix');
    }
  }, 60_000);

  it("a provider's delete: why not, and the fix, run as printed, allows it", async () => {
    const { json, text } = await explainSubject([
      `ServiceAccount:${S3_SA}`,
      '--for',
      BUCKETS,
      '--verb',
      'delete',
    ]);
    expect(json.access.whyNot.map((w) => w.reason)).toEqual(['not-bound', 'other-verbs']);
    const why = whyLines(text);
    expect(why[0]?.why).toMatch(/grants? it, but no binding gives one to the subject$/);
    expect(why[0]?.fix).toMatch(
      /^kubectl create clusterrolebinding NAME --clusterrole \S+ --serviceaccount crossplane-system:upbound-provider-aws-s3-e7585f0184b8$/,
    );
    // Not the Crossplane controller's own role (secrets, every XR and more), nor cluster-admin.
    expect(why[0]?.fix).not.toMatch(/--clusterrole (crossplane|cluster-admin) /);
    expect(why[1]).toEqual({
      why: `the subject's roles allow create, get, list, patch, update, watch on ${BUCKETS}, not delete`,
    });

    const subject = {
      kind: 'ServiceAccount',
      name: S3_SA.split('/')[1] ?? '',
      namespace: 'crossplane-system',
    };
    expect(await canI('delete', BUCKETS, undefined, subject)).toBe(false);
    const fix = fixArgv(why[0]?.fix ?? '', 'xrbac-e2e-s3-delete');
    ok(await run(fix.slice(1)), fix.join(' '));
    try {
      expect(await canI('delete', BUCKETS, undefined, subject)).toBe(true);
    } finally {
      ok(await run(['delete', 'clusterrolebinding', 'xrbac-e2e-s3-delete']), 'delete the fix');
    }
  }, 60_000);

  it('a claim whose XRD the namespace does not enable: why not, and enable-xrd, run as printed, allows it', async () => {
    const { json, text } = await explainSubject([
      'Group:team-a-devs',
      '-n',
      'team-a',
      '--for',
      MYSQL_CLAIM,
      '--verb',
      'create',
    ]);
    expect(json.access.whyNot.map((w) => w.reason)).toContain('xrd-not-enabled');
    const why = whyLines(text);
    expect(why[0]).toEqual({
      why: `XRD ${MYSQL_XRD} is not enabled in namespace team-a, so crossplane-ns-team-a-edit does not aggregate crossplane:composite:${MYSQL_XRD}:aggregate-to-ns-edit`,
      fix: `kubectl crossplane-rbac enable-xrd ${MYSQL_XRD} -n team-a`,
    });

    const subject = { kind: 'Group', name: 'team-a-devs' };
    expect(await canI('create', MYSQL_CLAIM, 'team-a', subject)).toBe(false);
    const fix = fixArgv(why[0]?.fix ?? '', '');
    ok(await run([...fix.slice(1), '--yes']), fix.join(' '));
    try {
      expect(await canI('create', MYSQL_CLAIM, 'team-a', subject)).toBe(true);
      const after = await explainSubject([
        'Group:team-a-devs',
        '-n',
        'team-a',
        '--for',
        MYSQL_CLAIM,
        '--verb',
        'create',
      ]);
      expect(after.json.access).toMatchObject({ allowed: true, whyNot: [] });
    } finally {
      ok(
        await run(['crossplane-rbac', 'enable-xrd', MYSQL_XRD, '-n', 'team-a', '--disable', '--yes']),
        'disable again',
      );
    }
    expect(await canI('create', MYSQL_CLAIM, 'team-a', subject)).toBe(false);
  }, 60_000);

  it('a claim whose XRD is not enabled where no binding reaches the subject: one fix of two steps, run in order, allows it', async () => {
    const { json, text } = await explainSubject([
      'Group:team-a-devs',
      '-n',
      'team-b',
      '--for',
      MYSQL_CLAIM,
      '--verb',
      'create',
    ]);
    const enable = `kubectl crossplane-rbac enable-xrd ${MYSQL_XRD} -n team-b`;
    const bindIt =
      'kubectl create rolebinding NAME --clusterrole crossplane-ns-team-b-edit --group team-a-devs -n team-b';
    // Enabling alone leaves the group unbound, binding alone leaves the role without the XRD: one fix, both steps.
    const reason = json.access.whyNot.find((w) => w.reason === 'xrd-not-enabled') as
      { fix?: string; steps?: string[] } | undefined;
    expect(reason?.steps).toStrictEqual([enable, bindIt]);
    const why = whyLines(text);
    expect(why[0]).toEqual({
      why: `XRD ${MYSQL_XRD} is not enabled in namespace team-b, so crossplane-ns-team-b-edit does not aggregate crossplane:composite:${MYSQL_XRD}:aggregate-to-ns-edit, and no binding gives crossplane-ns-team-b-edit to the subject`,
      fix: `${enable} && ${bindIt}`,
    });
    // No other reason offers a fix of its own (a broader role bound in one step).
    expect(why.slice(1).filter((w) => w.fix !== undefined)).toStrictEqual([]);

    const subject = { kind: 'Group', name: 'team-a-devs' };
    expect(await canI('create', MYSQL_CLAIM, 'team-b', subject)).toBe(false);
    // The printed fix, step by step in order (enable-xrd with --yes: not on a terminal).
    const steps = (why[0]?.fix ?? '').split(' && ').map((step) => fixArgv(step, 'team-a-devs-mysql-in-b'));
    expect(steps).toHaveLength(2);
    try {
      for (const step of steps) {
        expect(step[0]).toBe('kubectl');
        const args = step.slice(1);
        ok(await run(args[0] === 'crossplane-rbac' ? [...args, '--yes'] : args), step.join(' '));
        // After the first step alone the group is still denied: the second is needed.
        if (step === steps[0]) expect(await canI('create', MYSQL_CLAIM, 'team-b', subject)).toBe(false);
      }
      expect(await canI('create', MYSQL_CLAIM, 'team-b', subject)).toBe(true);
    } finally {
      await run(['delete', 'rolebinding', 'team-a-devs-mysql-in-b', '-n', 'team-b']);
      ok(
        await run(['crossplane-rbac', 'enable-xrd', MYSQL_XRD, '-n', 'team-b', '--disable', '--yes']),
        'disable again',
      );
    }
    expect(await canI('create', MYSQL_CLAIM, 'team-b', subject)).toBe(false);
  }, 90_000);

  it('a user no binding names: not bound, and the fix names the user', async () => {
    const { json, text } = await explainSubject([
      'User:mallory',
      '-n',
      'team-a',
      '--for',
      CLAIM,
      '--verb',
      'create',
    ]);
    expect(json.access.allowed).toBe(
      await canI('create', CLAIM, 'team-a', { kind: 'User', name: 'mallory' }),
    );
    expect(json.access.whyNot.map((w) => w.reason)).toEqual(['not-bound']);
    expect(whyLines(text)[0]?.fix).toBe(
      'kubectl create rolebinding NAME --clusterrole crossplane-ns-team-a-edit --user mallory -n team-a',
    );
  });
});

describe('bad input through the binary: one error line, exit 2', () => {
  it('who-can with both -n and -A', async () => {
    expectOneError(
      await run(['crossplane-rbac', 'who-can', 'get', 'pods', '-n', 'team-a', '-A']),
      /-n and -A cannot be used together/,
    );
  });

  it('who-can of a resource the server does not have', async () => {
    expectOneError(
      await run(['crossplane-rbac', 'who-can', 'get', 'bukets.s3.aws.upbound.io']),
      /the server doesn't have a resource type "bukets.s3.aws.upbound.io"/,
    );
  });

  it('who-can with an output it does not know', async () => {
    expectOneError(
      await run(['crossplane-rbac', 'who-can', 'get', 'pods', '-o', 'svg']),
      /unknown output format "svg"/,
    );
  });

  it('explain --subject with a malformed subject', async () => {
    expectOneError(
      await run([
        'crossplane-rbac',
        'explain',
        '--subject',
        'ServiceAccount:default',
        '--for',
        'pods',
        '--verb',
        'get',
      ]),
      /invalid --subject "ServiceAccount:default"/,
    );
  });
});
