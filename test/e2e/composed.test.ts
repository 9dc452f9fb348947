import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { CROSSPLANE_PATCH_CRONJOBS, startExampleServer } from './example-server.js';
import { assertBuilt, discoveryCache, kubectl, repoRoot, tempDir, type RunResult } from './harness.js';

// sync --only composed on examples/cluster (60-compositions.yaml): the kinds its compositions, XRs, events and
// WatchOperation name, judged by the test API server's own authorizer through `kubectl auth can-i --as`.
const CROSSPLANE = 'system:serviceaccount:crossplane-system:crossplane';
const MANAGED = 'app.kubernetes.io/managed-by=kubectl-crossplane-rbac';

/** [verb, resource, namespace or '' for cluster scope]: what Crossplane must be able to do after the sync. */
const COMPOSED: readonly (readonly [string, string, string])[] = [
  ['patch', 'cronjobs.batch', 'team-a'],
  ['create', 'jobs.batch', 'payments'],
  ['patch', 'ingresses.networking.k8s.io', 'team-a'],
  ['patch', 'networkpolicies.networking.k8s.io', 'team-a'],
  ['delete', 'poddisruptionbudgets.policy', 'team-a'],
  ['create', 'resourcequotas', 'team-a'],
  ['create', 'namespaces', ''],
  ['watch', 'statefulsets.apps', ''],
];
/** Never granted without --allow-privileged: a RoleBinding (tenant-namespace); a watched kind is never written. */
const STILL_DENIED: readonly (readonly [string, string, string])[] = [
  ['create', 'rolebindings.rbac.authorization.k8s.io', 'team-a'],
  ['patch', 'statefulsets.apps', 'team-a'],
];

/** `composed -o json`, as far as this test reads it. */
interface ComposedJson {
  account: string;
  resources: {
    resource: string;
    access: 'write' | 'read';
    status: string;
    lacking: string[];
    neededBy: { source: string; name: string }[];
  }[];
  unresolved: { name: string; neededBy: { source: string; name: string }[] }[];
  notAnalysed: { composition: string; step: string; function: string }[];
}

let server: TestApiServer;
let dir: string;
let kubeconfig: string;

const run = (args: string[]): Promise<RunResult> =>
  kubectl(args, { env: { KUBECONFIG: kubeconfig, KUBECACHEDIR: discoveryCache(kubeconfig) } });

/** NAMESPACE '' asks at cluster scope, '*' in every namespace (kubectl auth can-i -A). */
async function canI([verb, resource, namespace]: readonly [string, string, string]): Promise<boolean> {
  const ns = namespace === '' ? [] : namespace === '*' ? ['--all-namespaces'] : ['-n', namespace];
  const r = await run(['auth', 'can-i', verb, resource, ...ns, '--as', CROSSPLANE]);
  if (r.code !== 0 && r.code !== 1) throw new Error(`kubectl auth can-i failed (${r.code}): ${r.stderr}`);
  return r.code === 0;
}

/** The aggregation controller runs asynchronously: ask until every answer is WANT (or 10 s pass). */
async function eventually(
  checks: readonly (readonly [string, string, string])[],
  want: boolean,
): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const wrong: string[] = [];
    for (const c of checks) if ((await canI(c)) !== want) wrong.push(c.join(' '));
    if (wrong.length === 0 || Date.now() > deadline) return wrong;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function composedRoles(): Promise<string[]> {
  const r = await run(['get', 'clusterroles', '-l', MANAGED, '-o', 'name']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .split('\n')
    .filter((l) => l.includes('crossplane:composed:'))
    .sort();
}

beforeAll(async () => {
  assertBuilt();
  dir = tempDir('xrbac-e2e-composed-');
  kubeconfig = join(dir, 'kubeconfig');
  server = await startExampleServer(kubeconfig);
});

afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('sync --only composed through the real kubectl', () => {
  it('composed -o json: what kubectl auth can-i says Crossplane lacks, live and offline alike', async () => {
    const live = await run(['crossplane-rbac', 'composed', '-o', 'json']);
    expect(live.code, live.stderr).toBe(0);
    const offline = await run([
      'crossplane-rbac',
      'composed',
      '-f',
      join(repoRoot, 'examples', 'cluster'),
      '-o',
      'json',
    ]);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toBe(live.stdout);
    const view = JSON.parse(live.stdout) as ComposedJson;
    expect(view.account).toBe(CROSSPLANE);

    // Every verb the view says the account lacks, the API server denies; every other verb of the kind's access it
    // allows (cluster-wide: Crossplane composes into any namespace).
    // Two verbs per resource (the first Crossplane needs and the last), four kubectl processes at a time.
    const verbsOf = { write: ['get', 'delete'], read: ['get', 'watch'] };
    const asks = view.resources.flatMap((r) => verbsOf[r.access].map((verb) => ({ r, verb })));
    const answers: boolean[] = [];
    for (let i = 0; i < asks.length; i += 4) {
      const batch = asks.slice(i, i + 4);
      answers.push(...(await Promise.all(batch.map(({ r, verb }) => canI([verb, r.resource, '*'])))));
    }
    const wrong = asks.flatMap(({ r, verb }, i) =>
      answers[i] === r.lacking.includes(verb)
        ? [`${verb} ${r.resource}: can-i ${String(answers[i])}, view ${r.status}`]
        : [],
    );
    for (const r of view.resources) expect(r.status === 'granted', r.resource).toBe(r.lacking.length === 0);
    expect(wrong).toEqual([]);
    // The kinds the e2e sync below must grant are exactly the ones the view calls missing; the privileged one refused.
    const byStatus = (status: string): string[] =>
      view.resources
        .filter((r) => r.status === status)
        .map((r) => r.resource)
        .sort();
    expect(byStatus('missing')).toEqual([...new Set(COMPOSED.map(([, resource]) => resource))].sort());
    expect(byStatus('refused')).toEqual(['rolebindings.rbac.authorization.k8s.io']);
    // Managed resources: their providers' roles, which a plain sync writes (the RBAC manager is off), grant them.
    expect(byStatus('after-sync')).toEqual([
      'instances.rds.aws.upbound.io',
      'objects.kubernetes.m.crossplane.io',
    ]);
    // Everything it names as evidence or leaves unanalysed is a Composition kubectl lists.
    const listed = await run(['get', 'compositions', '-o', 'jsonpath={.items[*].metadata.name}']);
    const compositions = new Set(listed.stdout.split(' '));
    const named = [
      ...view.resources.flatMap((r) => r.neededBy),
      ...view.unresolved.flatMap((u) => u.neededBy),
    ].flatMap((e) => (e.source === 'Composition' ? [e.name] : []));
    expect(named.length).toBeGreaterThan(0);
    for (const n of [...named, ...view.notAnalysed.map((n) => n.composition)])
      expect(compositions).toContain(n);
    expect(view.notAnalysed.map((n) => `${n.composition}/${n.step}`)).toContain(
      'webservice-templated/render',
    );

    // The table: one row per resource, unknown kind and unanalysed step; who steers grants on stderr.
    const table = await run(['crossplane-rbac', 'composed', '--no-headers']);
    expect(table.code, table.stderr).toBe(0);
    const rows = table.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(view.resources.length + view.unresolved.length + view.notAnalysed.length);
    expect(rows).toContainEqual(
      expect.stringMatching(
        /^missing\s+cronjobs\.batch\s+write\s+get,list,watch,create,update,patch,delete\s+\S/,
      ),
    );
    expect(table.stderr).toMatch(
      /^who may create or change Compositions, CompositionRevisions or Operations .*Group\/system:masters/m,
    );
  });

  it('finds, grants and explains exactly the kinds Crossplane composes', async () => {
    // Before: the API server forbids every composed kind to Crossplane's account.
    expect(await eventually([...COMPOSED, ...STILL_DENIED], false)).toEqual([]);
    const why = await run(['crossplane-rbac', ...CROSSPLANE_PATCH_CRONJOBS]);
    expect(why.stdout).toMatch(/patch batch\/cronjobs in namespace team-a: denied/);
    expect(why.stdout).toMatch(/fix: kubectl crossplane-rbac sync --only composed$/m);

    // Live and offline render the same objects.
    const offline = await run([
      'crossplane-rbac',
      'sync',
      '-f',
      join(repoRoot, 'examples', 'cluster'),
      '--only',
      'composed',
      '-o',
      'yaml',
    ]);
    const live = await run([
      'crossplane-rbac',
      'sync',
      '--only',
      'composed',
      '--dry-run=client',
      '-o',
      'yaml',
    ]);
    expect(offline.stdout).toBe(live.stdout);
    // The RoleBinding kind is held (privileged): both runs say so and fail after everything else.
    expect(offline.code).toBe(2);
    expect(live.code).toBe(2);
    expect(live.stderr).toMatch(
      /^held ClusterRole "crossplane:composed:rbac\.authorization\.k8s\.io": .*--allow-privileged/m,
    );
    expect(live.stderr).toMatch(
      /^ {2}not analysed: Composition\/webservice-templated step render \(function function-go-templating\)/m,
    );
    expect(live.stderr).toMatch(/^ {2}unknown Cluster\.v1\.postgresql\.cnpg\.io: /m);

    const apply = await run(['crossplane-rbac', 'sync', '--only', 'composed', '--yes']);
    expect(apply.code, apply.stderr).toBe(2);
    expect(apply.stdout).toMatch(/^ClusterRole\s+5\s+0\s+0\s+0\s+0\s+0$/m);
    // One role per API group that was missing; none for the provider-kubernetes Object (a managed resource its
    // provider's roles grant) or for deployments and configmaps (the chart's role grants them).
    expect(await composedRoles()).toEqual([
      'clusterrole.rbac.authorization.k8s.io/crossplane:composed:apps',
      'clusterrole.rbac.authorization.k8s.io/crossplane:composed:batch',
      'clusterrole.rbac.authorization.k8s.io/crossplane:composed:core',
      'clusterrole.rbac.authorization.k8s.io/crossplane:composed:networking.k8s.io',
      'clusterrole.rbac.authorization.k8s.io/crossplane:composed:policy',
    ]);
    expect(await eventually(COMPOSED, true)).toEqual([]);
    expect(await eventually(STILL_DENIED, false)).toEqual([]);

    // who-can names the new role on Crossplane's path.
    const who = await run([
      'crossplane-rbac',
      'who-can',
      'patch',
      'cronjobs.batch',
      '-n',
      'team-a',
      // The chain down to crossplane:composed:batch is the convergence view's.
      '--converged',
      '-o',
      'json',
    ]);
    expect(who.code, who.stderr).toBe(0);
    const answer = JSON.parse(who.stdout) as {
      subjects: { kind: string; name: string; paths: { chain: string[] }[] }[];
    };
    const crossplane = answer.subjects.find((s) => s.kind === 'ServiceAccount' && s.name === 'crossplane');
    expect(crossplane?.paths.some((p) => p.chain.includes('crossplane:composed:batch'))).toBe(true);

    // A second run has nothing to do; a plain sync neither renders nor prunes the composed roles.
    const again = await run(['crossplane-rbac', 'sync', '--only', 'composed', '--check']);
    expect(again.stdout).toMatch(/^ClusterRole\s+0\s+0\s+5\s+0\s+0\s+0$/m);
    const plain = await run(['crossplane-rbac', 'sync', '--prune', '--yes']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(await composedRoles()).toHaveLength(5);
    expect(plain.stderr).not.toMatch(/composed/);
    // Now the view has nothing left but the refused kind, and can-i agrees (checked in the first test).
    const after = await run(['crossplane-rbac', 'composed', '-o', 'json']);
    expect(after.code, after.stderr).toBe(0);
    const left = (JSON.parse(after.stdout) as ComposedJson).resources.filter((r) => r.status !== 'granted');
    expect(left.map((r) => `${r.status} ${r.resource}`)).toEqual([
      'refused rolebindings.rbac.authorization.k8s.io',
    ]);
  });

  it('--prune removes the role of a group nothing composes any more', async () => {
    // app-web is the only Composition that composes PodDisruptionBudgets, Ingresses and NetworkPolicies. The XR
    // App team-a/web still names Ingresses (resourceRefs, an Event) and NetworkPolicies (a condition): evidence,
    // which grants nothing, so the networking.k8s.io role goes too.
    const del = await run(['delete', 'composition', 'app-web']);
    expect(del.code, del.stderr).toBe(0);
    const keep = await run(['crossplane-rbac', 'sync', '--only', 'composed', '--yes']);
    // Without --prune the roles nothing needs any more stay; only the three still needed are planned.
    expect(keep.stdout).toMatch(/^ClusterRole\s+0\s+0\s+3\s+0\s+0\s+0$/m);
    const gone = [
      'clusterrole.rbac.authorization.k8s.io/crossplane:composed:networking.k8s.io',
      'clusterrole.rbac.authorization.k8s.io/crossplane:composed:policy',
    ];
    expect(await composedRoles()).toEqual(expect.arrayContaining(gone));
    const prune = await run(['crossplane-rbac', 'sync', '--only', 'composed', '--prune', '--yes']);
    expect(prune.stdout).toMatch(/^ClusterRole\s+0\s+0\s+3\s+2\s+0\s+0$/m);
    const left = await composedRoles();
    for (const role of gone) expect(left).not.toContain(role);
    expect(
      await eventually(
        [
          ['delete', 'poddisruptionbudgets.policy', 'team-a'],
          ['patch', 'ingresses.networking.k8s.io', 'team-a'],
        ],
        false,
      ),
    ).toEqual([]);
    // What only the XR and its Event name is now reported, with what the account lacks, and never given a role.
    const view = await run(['crossplane-rbac', 'composed', '-o', 'json']);
    expect(view.code, view.stderr).toBe(0);
    const rows = (JSON.parse(view.stdout) as ComposedJson).resources;
    expect(
      rows
        .filter((r) => r.status === 'reported-only')
        .map((r) => [r.resource, r.neededBy.map((e) => e.source).join(',')]),
    ).toEqual([
      ['ingresses.networking.k8s.io', 'Composite,Denial'],
      ['networkpolicies.networking.k8s.io', 'Denial'],
    ]);
  });
});
