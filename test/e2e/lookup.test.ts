/**
 * lookup through the real kubectl, against the test API server seeded with examples/cluster, a few bindings of our
 * own, and what `sync` writes. The oracle is real kubectl: the rows lookup prints must be exactly the subjects of
 * `kubectl get clusterrolebindings,rolebindings -A -o json` whose name matches (decided here, from rbac-lookup's
 * documented behaviour), and an aggregated ClusterRole's sources exactly the ClusterRoles `kubectl get clusterroles
 * -l SELECTOR` finds for its selectors, followed role by role; its rule count what the server's aggregation
 * controller (test/apiserver/aggregation.ts, no code shared with the plugin) stored. Then -f on the same files must
 * give the same answer as the live cluster.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { kubectl, repoRoot, type RunResult } from './harness.js';
import { ok, startSeeded, type SeededCluster } from './seeded-cluster.js';

const examples = join(repoRoot, 'examples', 'cluster');
const RBAC = 'rbac.authorization.k8s.io';

/** Our own bindings: RoleBindings (one ServiceAccount without a namespace), a Role, aggregated Crossplane roles. */
const EXTRA = [
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { name: 'team-a-devs', namespace: 'team-a' },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'crossplane-edit' },
    subjects: [
      { apiGroup: RBAC, kind: 'Group', name: 'team-a-devs' },
      { apiGroup: RBAC, kind: 'User', name: 'alice@example.com' },
      { kind: 'ServiceAccount', name: 'deployer' },
    ],
  },
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { name: 'gitops', namespace: 'team-b' },
    roleRef: { apiGroup: RBAC, kind: 'Role', name: 'gitops-deployer' },
    subjects: [
      { kind: 'ServiceAccount', name: 'root-reconciler', namespace: 'config-management-system' },
      { apiGroup: RBAC, kind: 'User', name: 'alice@example.com' },
    ],
  },
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { name: 'team-b-viewers', namespace: 'team-b' },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' },
    subjects: [{ apiGroup: RBAC, kind: 'Group', name: 'team-b-devs' }],
  },
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'crossplane-viewers' },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'crossplane-view' },
    subjects: [
      { apiGroup: RBAC, kind: 'Group', name: 'crossplane:viewers' },
      { apiGroup: RBAC, kind: 'User', name: 'bob@example.com' },
    ],
  },
];

interface Ref {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

interface LookupJson {
  readonly subjects: readonly (Ref & {
    readonly grants: readonly {
      readonly binding: Ref;
      readonly role: Ref;
      readonly scope: string;
      readonly roleFound: boolean;
      readonly aggregated: boolean;
      readonly ruleCount: number;
      readonly aggregatedFrom: readonly string[];
      readonly chains: readonly (readonly string[])[];
      readonly sourcesRead?: false;
    }[];
  })[];
}

interface BindingJson {
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly roleRef: { readonly kind: string; readonly name: string };
  readonly subjects?: readonly Ref[];
}

interface ClusterRoleJson {
  readonly metadata: { readonly name: string };
  readonly rules?: readonly unknown[];
  readonly aggregationRule?: {
    readonly clusterRoleSelectors?: readonly { readonly matchLabels?: Readonly<Record<string, string>> }[];
  };
}

let cluster: SeededCluster;
let kubeconfig: string;
let extraFile: string;
let syncedFile: string;
let bootstrapFile: string;
/** The same server under two contexts, for --contexts and --all-contexts. */
let fleetKubeconfig: string;

const run = (args: readonly string[], input?: string): Promise<RunResult> => cluster.run(args, input);

/**
 * Once beforeAll has written what it writes, no test changes the cluster: a command line, the plugin's or kubectl's,
 * gives the same answer every time, so each is run once and its output shared by the tests that ask it.
 */
const ran = new Map<string, Promise<RunResult>>();
function runOnce(args: readonly string[]): Promise<RunResult> {
  const key = JSON.stringify(args);
  const known = ran.get(key);
  if (known !== undefined) return known;
  const r = run(args);
  ran.set(key, r);
  return r;
}

/** `lookup ARGS -o json` through kubectl, live or with -f. */
async function lookup(args: readonly string[]): Promise<LookupJson> {
  const r = ok(
    await runOnce(['crossplane-rbac', 'lookup', ...args, '-o', 'json']),
    `lookup ${args.join(' ')}`,
  );
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as LookupJson;
}

/** One line per subject and binding, as the rows below compare: SUBJECT SCOPE ROLE BINDING. */
function rowsOf(r: LookupJson): string[] {
  return r.subjects.flatMap((s) =>
    s.grants.map((g) =>
      [
        [s.kind, ...(s.namespace !== undefined ? [s.namespace] : []), s.name].join('/'),
        g.scope,
        `${g.role.kind}/${g.role.name}`,
        `${g.binding.kind}/${g.binding.name}`,
      ].join(' '),
    ),
  );
}

/**
 * The rows kubectl's bindings give for PATTERN, written from rbac-lookup's behaviour: every subject of every
 * binding whose name (or a ServiceAccount's NS:NAME) matches, scope `cluster-wide` or the RoleBinding's namespace;
 * a ServiceAccount without a namespace is the RoleBinding's. Sorted by kind, namespace, name, then cluster-wide
 * first, namespace, binding name.
 */
async function expectedRows(
  pattern: string | undefined,
  opts: { kind?: string; namespace?: string } = {},
): Promise<string[]> {
  const r = ok(await runOnce(['get', 'clusterrolebindings,rolebindings', '-A', '-o', 'json']), 'kubectl get');
  const re = pattern !== undefined ? new RegExp(pattern) : undefined;
  const found = new Map<string, string[]>();
  for (const b of (JSON.parse(r.stdout) as { items: BindingJson[] }).items) {
    const ns = b.kind === 'RoleBinding' ? (b.metadata.namespace ?? '') : '';
    if (opts.namespace !== undefined && ns !== '' && ns !== opts.namespace) continue;
    for (const s of b.subjects ?? []) {
      if (opts.kind !== undefined && s.kind !== opts.kind) continue;
      const sns = s.kind === 'ServiceAccount' ? (s.namespace ?? '') || ns : '';
      if (s.kind === 'ServiceAccount' && sns === '') continue;
      const hit =
        re === undefined || re.test(s.name) || (s.kind === 'ServiceAccount' && re.test(`${sns}:${s.name}`));
      if (!hit) continue;
      const key = [s.kind, sns, s.name, ns, b.metadata.name];
      const row = [
        [s.kind, ...(sns !== '' ? [sns] : []), s.name].join('/'),
        ns === '' ? 'cluster-wide' : ns,
        `${b.roleRef.kind}/${b.roleRef.name}`,
        `${b.kind}/${b.metadata.name}`,
      ].join(' ');
      found.set(JSON.stringify(key), [...key, row]);
    }
  }
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...found.values()]
    .sort((a, b) => {
      for (let i = 0; i < 5; i++) {
        const c = cmp(a[i] ?? '', b[i] ?? '');
        if (c !== 0) return c;
      }
      return 0;
    })
    .map((k) => k[5] ?? '');
}

let clusterRoles: Map<string, ClusterRoleJson> | undefined;
const selected = new Map<string, string[]>();

/** A ClusterRole as `kubectl get clusterroles -o json` shows it (one call for all); null when there is none. */
async function clusterRole(name: string): Promise<ClusterRoleJson | null> {
  if (clusterRoles === undefined) {
    const r = ok(await run(['get', 'clusterroles', '-o', 'json']), 'kubectl get clusterroles');
    const items = (JSON.parse(r.stdout) as { items: ClusterRoleJson[] }).items;
    clusterRoles = new Map(items.map((i) => [i.metadata.name, i]));
  }
  return clusterRoles.get(name) ?? null;
}

/** The ClusterRoles NAME's selectors match, as `kubectl get clusterroles -l` finds them (NAME itself left out). */
async function directSources(name: string): Promise<string[]> {
  const role = await clusterRole(name);
  const out = new Set<string>();
  for (const sel of role?.aggregationRule?.clusterRoleSelectors ?? []) {
    const labels = Object.entries(sel.matchLabels ?? {});
    expect(labels.length, `${name}: a selector with matchLabels only`).toBeGreaterThan(0);
    const l = labels.map(([k, v]) => `${k}=${v}`).join(',');
    let names = selected.get(l);
    if (names === undefined) {
      const r = ok(
        await run(['get', 'clusterroles', '-l', l, '-o', 'name']),
        `kubectl get clusterroles -l ${l}`,
      );
      names = r.stdout
        .split('\n')
        .filter((x) => x !== '')
        .map((x) => x.replace(/^clusterrole\.rbac\.authorization\.k8s\.io\//, ''));
      selected.set(l, names);
    }
    for (const n of names) if (n !== name) out.add(n);
  }
  return [...out];
}

/** Every ClusterRole NAME draws from, following kubectl's answers role by role. */
async function allSources(name: string): Promise<string[]> {
  const seen = new Set<string>();
  const todo = [name];
  for (let n = todo.pop(); n !== undefined; n = todo.pop()) {
    for (const m of await directSources(n)) {
      if (seen.has(m)) continue;
      seen.add(m);
      todo.push(m);
    }
  }
  return [...seen].sort();
}

beforeAll(async () => {
  cluster = await startSeeded('xrbac-e2e-lookup-', ['cluster']);
  const { dir } = cluster;
  kubeconfig = cluster.kubeconfig;
  extraFile = join(dir, 'extra.json');
  writeFileSync(extraFile, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: EXTRA }));
  ok(await run(['apply', '-f', extraFile]), 'kubectl apply our bindings');
  // What sync writes, as files (offline) and into the cluster (live): the same objects both ways.
  const offline = ok(
    await kubectl(['crossplane-rbac', 'sync', '-f', examples, '-f', extraFile, '-o', 'yaml']),
    'sync -o yaml',
  );
  syncedFile = join(dir, 'synced.yaml');
  writeFileSync(syncedFile, offline.stdout);
  ok(await run(['crossplane-rbac', 'sync', '--yes']), 'sync --yes');
  // The bootstrap policy every API server stores at its start, which examples/cluster does not hold: as files too.
  const bootstrap = ok(
    await run([
      'get',
      ...['system:basic-user', 'system:discovery', 'system:public-info-viewer'].flatMap((name) => [
        `clusterrole/${name}`,
        `clusterrolebinding/${name}`,
      ]),
      '-o',
      'yaml',
    ]),
    'kubectl get the bootstrap policy',
  );
  bootstrapFile = join(dir, 'bootstrap.yaml');
  writeFileSync(bootstrapFile, bootstrap.stdout);
  const k = parse(readFileSync(kubeconfig, 'utf8')) as Record<string, unknown> & {
    contexts: { name: string; context: object }[];
  };
  const admin = k.contexts[0]?.context ?? {};
  fleetKubeconfig = join(dir, 'fleet.kubeconfig');
  writeFileSync(
    fleetKubeconfig,
    stringify({
      ...k,
      contexts: ['one', 'two'].map((name) => ({ name, context: admin })),
      'current-context': 'one',
    }),
  );
}, 120_000);

afterAll(async () => {
  await cluster.server.stop();
});

describe('lookup through the real kubectl, checked against kubectl get', () => {
  const cases: { name: string; args: string[]; pattern?: string; kind?: string; namespace?: string }[] = [
    { name: 'crossplane', args: ['crossplane'], pattern: 'crossplane' },
    { name: 'every subject', args: [] },
    { name: 'an anchored pattern', args: ['^team-'], pattern: '^team-' },
    { name: 'a service account by NS:NAME', args: ['^team-a:'], pattern: '^team-a:' },
    { name: 'a user in two namespaces', args: ['alice'], pattern: 'alice' },
    { name: '--kind', args: ['example', '--kind', 'user'], pattern: 'example', kind: 'User' },
    { name: '-n', args: ['-n', 'team-b'], namespace: 'team-b' },
    { name: '-A', args: ['-A', 'e'], pattern: 'e' },
  ];

  it.each(cases)('$name: the subjects and bindings kubectl get shows', async (c) => {
    const got = rowsOf(await lookup(c.args));
    const want = await expectedRows(c.pattern, {
      ...(c.kind !== undefined ? { kind: c.kind } : {}),
      ...(c.namespace !== undefined ? { namespace: c.namespace } : {}),
    });
    expect(want.length, 'the case finds something').toBeGreaterThan(0);
    expect(got).toStrictEqual(want);
  });

  it('by default the bound ClusterRoles are read as they stand: an aggregated one counts its stored rules, its sources unread', async () => {
    const r = await lookup([]);
    const aggregated = r.subjects.flatMap((s) => s.grants).filter((g) => g.aggregated);
    expect(aggregated.map((g) => g.role.name)).toContain('crossplane-admin');
    for (const g of aggregated) {
      const role = await clusterRole(g.role.name);
      expect(role?.aggregationRule, g.role.name).toBeDefined();
      expect(g, g.role.name).toMatchObject({
        ruleCount: role?.rules?.length ?? 0,
        aggregatedFrom: [],
        chains: [],
        sourcesRead: false,
      });
    }
  });

  it('--converged: an aggregated ClusterRole comes with what kubectl get clusterroles -l finds for its selectors', async () => {
    const r = await lookup(['--converged']);
    const grants = r.subjects.flatMap((s) => s.grants);
    const checked = new Set<string>();
    for (const g of grants) {
      if (g.role.kind !== 'ClusterRole' || checked.has(g.role.name)) continue;
      checked.add(g.role.name);
      const role = await clusterRole(g.role.name);
      expect(g.roleFound, g.role.name).toBe(role !== null);
      expect(g.aggregated, g.role.name).toBe(role?.aggregationRule !== undefined);
      // The server's aggregation controller has stored the rules lookup counts.
      expect(g.ruleCount, g.role.name).toBe(role?.rules?.length ?? 0);
      expect(g.aggregatedFrom, g.role.name).toStrictEqual(await allSources(g.role.name));
      // Every chain starts at the role and follows the selectors hop by hop; together they reach every source.
      const reached = new Set<string>();
      for (const chain of g.chains) {
        expect(chain[0]).toBe(g.role.name);
        for (let i = 1; i < chain.length; i++) {
          expect(await directSources(chain[i - 1] ?? ''), chain.join(' → ')).toContain(chain[i]);
          reached.add(chain[i] ?? '');
        }
      }
      expect([...reached].sort(), g.role.name).toStrictEqual(g.aggregatedFrom);
    }
    // Crossplane's aggregation is there to check: crossplane-admin draws on what sync made for every provider.
    const admin = grants.find((g) => g.role.name === 'crossplane-admin');
    expect(admin?.aggregatedFrom.length).toBeGreaterThan(20);
    expect(admin?.aggregatedFrom).toContain('crossplane:aggregate-to-admin');
    expect(checked.has('view')).toBe(true);
  }, 120_000);

  it('a Role bound in a namespace counts the rules kubectl get role shows', async () => {
    const r = await lookup(['alice']);
    const viaRole = r.subjects.flatMap((s) => s.grants).find((g) => g.role.kind === 'Role');
    const role = ok(await run(['get', 'role', 'gitops-deployer', '-n', 'team-b', '-o', 'json']), 'get role');
    expect(viaRole).toMatchObject({
      role: { kind: 'Role', name: 'gitops-deployer', namespace: 'team-b' },
      scope: 'team-b',
      roleFound: true,
      aggregated: false,
      ruleCount: (JSON.parse(role.stdout) as { rules: unknown[] }).rules.length,
      chains: [],
    });
  });

  it('-f on the same files gives what the live cluster gives with --converged (every ClusterRole at hand)', async () => {
    const files = ['-f', examples, '-f', extraFile, '-f', syncedFile, '-f', bootstrapFile];
    for (const args of [[], ['crossplane', '--kind', 'group', '-n', 'team-a']]) {
      const live = await lookup([...args, '--converged']);
      expect(await lookup([...args, ...files, '--converged']), args.join(' ')).toStrictEqual(live);
      // Without --converged the files' objects stand for the stored ones: the same but for the rules counted,
      // which are those the files store (an aggregated role there stores what it held before sync).
      const uncounted = (r: LookupJson): unknown =>
        r.subjects.map((x) => ({ ...x, grants: x.grants.map(({ ruleCount: _n, ...g }) => g) }));
      expect(uncounted(await lookup([...args, ...files])), args.join(' ')).toStrictEqual(uncounted(live));
    }
  }, 60_000);

  it('the table: rbac-lookup columns, one row per subject and binding, as in -o json', async () => {
    const r = ok(await run(['crossplane-rbac', 'lookup', 'crossplane']), 'lookup table');
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    expect(lines[0]).toMatch(/^SUBJECT +SCOPE +ROLE +BINDING +AGGREGATES$/);
    const cells = lines.slice(1).map((l) => l.split(/ {2,}/).slice(0, 4).join(' '));
    const json = rowsOf(await lookup(['crossplane']));
    expect(cells).toStrictEqual(json);
    expect(r.stdout).toMatch(
      /^Group\/crossplane:masters +cluster-wide +ClusterRole\/crossplane-admin +ClusterRoleBinding\/crossplane-admin +\(not read: --converged reads them\)$/m,
    );
    const converged = ok(await run(['crossplane-rbac', 'lookup', 'crossplane', '--converged']), 'converged');
    expect(converged.stdout).toMatch(
      /^Group\/crossplane:masters +cluster-wide +ClusterRole\/crossplane-admin +ClusterRoleBinding\/crossplane-admin +crossplane:aggregate-to-admin \(\+\d+ more\)$/m,
    );
    const wide = ok(
      await run(['crossplane-rbac', 'lookup', '^crossplane:masters$', '-o', 'wide', '--converged']),
      'wide',
    );
    expect(wide.stdout).toMatch(/ crossplane-admin → crossplane:aggregate-to-admin$/m);
  });

  it('--all-contexts: each context answers as --context does, the table gains a CONTEXT column', async () => {
    const fleet = (args: string[]) =>
      kubectl(['crossplane-rbac', 'lookup', 'alice', '--all-contexts', ...args], {
        env: { KUBECONFIG: fleetKubeconfig },
      });
    const alone = await lookup(['alice']);
    const json = await fleet(['-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toStrictEqual({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { context: 'one', result: alone },
        { context: 'two', result: alone },
      ],
    });
    const table = await fleet([]);
    const lines = table.stdout.split('\n').filter((l) => l !== '');
    expect(lines[0]).toMatch(/^CONTEXT +SUBJECT +SCOPE +ROLE +BINDING +AGGREGATES$/);
    const rows = rowsOf(alone);
    expect(lines.slice(1).map((l) => l.split(/ {2,}/).slice(0, 5).join(' '))).toStrictEqual([
      ...rows.map((r) => `one ${r}`),
      ...rows.map((r) => `two ${r}`),
    ]);
  }, 60_000);

  it('bad input: one error line, exit 2, nothing on stdout', async () => {
    const r = await run(['crossplane-rbac', 'lookup', 'team-(a']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: invalid PATTERN "team-\(a": unterminated group \(\nhint: [^\n]+\n$/);
  });
});
