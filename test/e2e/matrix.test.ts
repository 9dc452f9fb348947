/**
 * explain --subject --matrix through the real kubectl, live against the test API server seeded with examples/cluster.
 * The oracle is the server's own RBAC authorizer (test/apiserver/authz.ts, no code shared with the plugin), asked
 * through `kubectl auth can-i VERB RESOURCE (-n NS | -A) --as ... [--as-group ...]`: for a sample of cells across
 * every group of the matrix (Kubernetes' groups, Crossplane's, the provider family, the XRDs), for a service account
 * and (through --diff-with) a group, with -n and cluster-wide, each cell must be kubectl's answer.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { assertBuilt, discoveryCache, kubectl, repoRoot, tempDir, type RunResult } from './harness.js';

const SA = 'ServiceAccount:crossplane-system/crossplane';
const SA_USER = 'system:serviceaccount:crossplane-system:crossplane';
const GROUP = 'crossplane:masters';
/** A user no binding names: impersonated with --as-group to ask about the group alone. */
const PROBE_USER = 'xrbac-probe';
const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'] as const;

interface Row {
  readonly resource: string;
  readonly group: string;
  readonly namespaced: boolean;
  readonly allowed: Record<string, boolean>;
  readonly otherAllowed?: Record<string, boolean>;
  readonly notStoredYet?: readonly string[];
  readonly otherNotStoredYet?: readonly string[];
}

interface MatrixJson {
  readonly namespace?: string;
  readonly groups: readonly { kind: string; name: string; resources: readonly Row[] }[];
  readonly hidden: number;
}

interface Cell {
  readonly verb: string;
  readonly row: Row;
  readonly groupName: string;
}

let server: TestApiServer;
let kubeconfig: string;
let cacheDir: string;
/** Each grouped resource's version (`plural.group` -> version), as kubectl api-resources lists it. */
const versions = new Map<string, string>();

const run = (args: readonly string[]): Promise<RunResult> =>
  kubectl(args, { env: { KUBECONFIG: kubeconfig, KUBECACHEDIR: discoveryCache(kubeconfig) } });

function ok(r: RunResult, what: string): RunResult {
  expect(r.code, `${what}\n${r.stderr}`).toBe(0);
  return r;
}

async function matrix(args: readonly string[]): Promise<MatrixJson> {
  const r = ok(
    await run(['crossplane-rbac', 'explain', '--subject', SA, '--matrix', '--all', '-o', 'json', ...args]),
    `explain --matrix ${args.join(' ')}`,
  );
  return JSON.parse(r.stdout) as MatrixJson;
}

/** The aggregation controller runs asynchronously: ask until no cell waits for it (or 10 s pass). */
async function settledMatrix(args: readonly string[]): Promise<MatrixJson> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const m = await matrix(args);
    const pending = m.groups
      .flatMap((g) => g.resources)
      .some((r) => (r.notStoredYet ?? []).length > 0 || (r.otherNotStoredYet ?? []).length > 0);
    if (!pending || Date.now() > deadline) return m;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * `kubectl auth can-i`: exit 0 and "yes", or exit 1 and "no". A namespaced resource is asked in NAMESPACE, else
 * with -A (namespace ""), as the authorizer sees a cluster-wide request. kubectl must resolve the resource (no
 * "doesn't have a resource type" warning, which would make it ask about the raw argument).
 */
async function canI(
  verb: string,
  row: Row,
  namespace: string | undefined,
  as: readonly string[],
): Promise<boolean> {
  // RESOURCE.VERSION.GROUP: kubectl first takes a name with two dots as that, and when the lookup misses (a group
  // with dots read as VERSION.GROUP) it throws its discovery cache away and reads every group again.
  const resource =
    row.group === ''
      ? row.resource
      : `${row.resource}.${versions.get(`${row.resource}.${row.group}`) ?? 'v1'}.${row.group}`;
  const scope = row.namespaced && namespace !== undefined ? ['-n', namespace] : ['-A'];
  const r = await run(['auth', 'can-i', verb, resource, ...scope, ...as, '--cache-dir', cacheDir]);
  if (r.code !== 0 && r.code !== 1)
    throw new Error(`kubectl auth can-i failed (${String(r.code)}): ${r.stderr}`);
  expect(r.stderr, `kubectl auth can-i ${verb} ${resource}`).not.toMatch(/doesn't have a resource type/);
  expect(r.stdout.trim()).toBe(r.code === 0 ? 'yes' : 'no');
  return r.code === 0;
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

/**
 * A sample of cells: from every group of the matrix its first and middle resource, each with a verb that turns with
 * the group, so every verb and every kind of group is asked; then at most `max`, spread over the sample.
 */
function sample(m: MatrixJson, max: number, offset: number): Cell[] {
  const cells: Cell[] = [];
  m.groups.forEach((g, gi) => {
    const picks = [...new Set([0, Math.floor(g.resources.length / 2)])];
    picks.forEach((ri, k) => {
      const row = g.resources[ri];
      if (row === undefined) return;
      const verb = VERBS[(gi * 3 + k * 5 + offset) % VERBS.length] ?? 'get';
      cells.push({ verb, row, groupName: `${g.kind} ${g.name}` });
    });
  });
  if (cells.length <= max) return cells;
  const step = cells.length / max;
  return Array.from({ length: max }, (_, i) => cells[Math.floor(i * step)] as Cell);
}

const name = (c: Cell): string =>
  `${c.verb} ${c.row.group === '' ? c.row.resource : `${c.row.resource}.${c.row.group}`} (${c.groupName})`;

/** Every cell where the plugin and kubectl disagree, named. */
async function disagreements(
  cells: readonly Cell[],
  namespace: string | undefined,
  as: readonly string[],
  which: 'allowed' | 'otherAllowed',
): Promise<string[]> {
  const answers = await mapLimit(cells, 4, (c) => canI(c.verb, c.row, namespace, as));
  return cells.flatMap((c, i) => {
    const plugin = c.row[which]?.[c.verb];
    return plugin === answers[i]
      ? []
      : [
          `${name(c)}: the matrix says ${String(plugin)}, kubectl auth can-i ${answers[i] === true ? 'yes' : 'no'}`,
        ];
  });
}

beforeAll(async () => {
  assertBuilt();
  server = await startApiServer({
    aggregation: true,
    seed: loadSeedFiles([join(repoRoot, 'examples', 'cluster')]),
  });
  const dir = tempDir('xrbac-e2e-matrix-');
  kubeconfig = join(dir, 'kubeconfig');
  cacheDir = join(dir, 'kubectl-cache');
  server.writeKubeconfig(kubeconfig);
  // The RBAC sync writes (provider, XRD and base roles), and a RoleBinding of Kubernetes' aggregated view for
  // Crossplane's account in team-a: namespaced cells then differ with -n.
  ok(await run(['crossplane-rbac', 'sync', '--yes']), 'sync');
  ok(
    await run([
      'create',
      'rolebinding',
      'crossplane-view',
      '--clusterrole',
      'view',
      '--serviceaccount',
      'crossplane-system:crossplane',
      '-n',
      'team-a',
    ]),
    'create rolebinding',
  );
  // Discovery once, so the can-i calls share kubectl's cache; each resource's version as kubectl api-resources
  // picks it (the preferred version of its group, or the first that serves it: compositions are v1 only).
  const listed = ok(await run(['api-resources', '--cache-dir', cacheDir, '--no-headers']), 'api-resources');
  for (const line of listed.stdout.split('\n')) {
    const [resource, ...rest] = line.trim().split(/\s+/);
    const apiVersion = rest.find((t) => /^[a-z0-9.-]+\/v\d/.test(t));
    if (resource === undefined || apiVersion === undefined) continue;
    const [group, version] = apiVersion.split('/');
    versions.set(`${resource}.${group ?? ''}`, version ?? 'v1');
  }
});

afterAll(async () => {
  await server.stop();
});

describe('explain --subject --matrix against kubectl auth can-i', () => {
  it('-n team-a: a service account and, with --diff-with, a group, cell by cell', async () => {
    const m = await settledMatrix(['-n', 'team-a', '--diff-with', `Group:${GROUP}`]);
    expect(m.namespace).toBe('team-a');
    expect(m.hidden).toBe(0);
    // Grouped the Crossplane way, live: discovery's resources with the ProviderRevisions and XRDs read.
    const kinds = new Set(m.groups.map((g) => g.kind));
    for (const k of ['kubernetes', 'crossplane', 'provider-family', 'provider', 'xrd'])
      expect(kinds).toContain(k);
    expect(m.groups.map((g) => `${g.kind} ${g.name}`)).toContain('provider-family provider-family-aws');
    expect(m.groups[0]?.name).toBe('core');

    const cells = sample(m, 32, 0);
    expect(cells.length).toBeGreaterThanOrEqual(30);
    // A sample that is all yes or all no would prove little.
    expect(cells.filter((c) => c.row.allowed[c.verb] === true).length).toBeGreaterThanOrEqual(5);
    expect(cells.filter((c) => c.row.allowed[c.verb] === false).length).toBeGreaterThanOrEqual(5);
    // The RoleBinding of view in team-a is asked about too: Crossplane's own role grants no cronjobs.
    const cronjobs = m.groups.flatMap((g) => g.resources).find((r) => r.resource === 'cronjobs') as Row;
    expect(cronjobs.allowed.list).toBe(true);
    expect(cronjobs.allowed.create).toBe(false);
    const extra = (['list', 'create'] as const).map((verb) => ({
      verb,
      row: cronjobs,
      groupName: 'kubernetes batch',
    }));
    expect(await disagreements([...cells, ...extra], 'team-a', ['--as', SA_USER], 'allowed')).toStrictEqual(
      [],
    );

    const groupCells = sample(m, 8, 3);
    expect(
      await disagreements(groupCells, 'team-a', ['--as', PROBE_USER, '--as-group', GROUP], 'otherAllowed'),
    ).toStrictEqual([]);
  });

  it('cluster-wide: namespaced resources by ClusterRoleBindings only', async () => {
    const m = await settledMatrix([]);
    expect(m.namespace).toBeUndefined();
    const cells = sample(m, 6, 1);
    const cronjobs = m.groups.flatMap((g) => g.resources).find((r) => r.resource === 'cronjobs') as Row;
    // view reaches Crossplane's account in team-a only: cluster-wide it may not list cronjobs.
    expect(cronjobs.allowed.list).toBe(false);
    const extra = [{ verb: 'list', row: cronjobs, groupName: 'kubernetes batch' }];
    expect(await disagreements([...cells, ...extra], undefined, ['--as', SA_USER], 'allowed')).toStrictEqual(
      [],
    );
  });

  it('the table: headings per group, yes/no off a terminal, hidden rows counted', async () => {
    const r = ok(await run(['crossplane-rbac', 'explain', '--subject', SA, '--matrix']), 'explain --matrix');
    const lines = r.stdout.split('\n');
    expect(lines[1]).toMatch(/^cluster-wide: ClusterRoleBindings only/);
    expect(lines).toContain('Kubernetes core');
    expect(lines).toContain('provider family provider-family-aws');
    expect(r.stdout).toMatch(/^ {2}secrets {2,}yes {2}yes {3}yes {4}yes {5}yes {5}yes {4}yes {5}no$/m);
    expect(r.stdout).toMatch(/^\d+ resources hidden: everything denied \(--all shows them\)$/m);
  });
});
