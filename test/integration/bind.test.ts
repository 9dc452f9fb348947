import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Kinds } from '../../src/port/cluster.js';
import { connect } from '../support/connect.js';
import { ApiError } from '../../src/port/translate-error.js';
import type { KubeObject } from '../../src/kube/types.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { loadSeedFiles } from '../apiserver/seed.js';
import { runPlugin } from './harness.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const examples = loadSeedFiles([path.join(repoRoot, 'examples', 'cluster')]);
const SYNC_SELECTOR_LABEL = 'configsync.gke.io/sync-name';

interface Result {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

interface BindingObj {
  kind: string;
  metadata: { name: string; namespace?: string; uid?: string; labels?: Record<string, string> };
  roleRef: { kind: string; name: string };
  subjects?: { kind: string; name: string; namespace?: string }[];
}

let server: TestApiServer;
let dir: string;
let adminKubeconfig: string;

/** Runs the CLI in-process with the real client, as composition-root.ts wires it, against the test API server. */
async function run(argv: readonly string[], kubeconfig = adminKubeconfig): Promise<Result> {
  const r = await runPlugin(['--kubeconfig', kubeconfig, ...argv]);
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.code };
}

function ours(syncName = 'root-sync'): BindingObj[] {
  const all = [
    ...(server.list('clusterrolebindings') as BindingObj[]),
    ...(server.list('rolebindings') as BindingObj[]),
  ];
  return all.filter((b) => b.metadata.labels?.[SYNC_SELECTOR_LABEL] === syncName);
}

function refsOf(bs: readonly BindingObj[]): string[] {
  return bs.map((b) => `${b.kind} ${b.metadata.namespace ?? '-'} ${b.roleRef.kind}/${b.roleRef.name}`).sort();
}

const FOUR = [
  'ClusterRoleBinding - ClusterRole/crossplane-edit',
  'ClusterRoleBinding - ClusterRole/view',
  'RoleBinding team-a ClusterRole/edit',
  'RoleBinding team-b Role/gitops-deployer',
];

/**
 * Config Sync's query for the bindings of RootSync NAME, run by the real kubectl against the server: the label
 * selector of listCurrentRoleRefs, labels.SelectorFromSet(ManagedObjectLabelMap("RootSync", rsRef))
 * (GoogleContainerTools/kpt-config-sync pkg/reconcilermanager/controllers/rootsync_controller.go and
 * reconciler_base.go @ bd5fadf7ec196a27a637179d0c5f757e3ee49db6), over ClusterRoleBindings and every namespace's
 * RoleBindings. Lines are KIND NAMESPACE/NAME ROLEKIND/ROLENAME, sorted.
 */
async function configSyncQuery(name: string): Promise<string[]> {
  const selector = [
    'configsync.gke.io/managed-by=reconciler-manager',
    'configsync.gke.io/sync-namespace=config-management-system',
    `configsync.gke.io/sync-name=${name}`,
    'configsync.gke.io/sync-kind=RootSync',
  ].join(',');
  const out = await new Promise<string>((done, fail) => {
    execFile(
      'kubectl',
      [
        'get',
        'clusterrolebindings,rolebindings',
        '-A',
        '-l',
        selector,
        '--kubeconfig',
        adminKubeconfig,
        '-o',
        'jsonpath={range .items[*]}{.kind} {.metadata.namespace}/{.metadata.name} {.roleRef.kind}/{.roleRef.name}{"\\n"}{end}',
      ],
      { timeout: 30_000, env: { ...process.env, HOME: dir } },
      (err, stdout, stderr) => {
        if (err === null) done(stdout);
        else fail(new Error(`${err.message}: ${stderr}`));
      },
    );
  });
  return out
    .split('\n')
    .filter((l) => l !== '')
    .sort();
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'xrbac-bind-int-'));
  adminKubeconfig = path.join(dir, 'admin.kubeconfig');
});

describe('bind against the test API server', () => {
  // A fresh cluster per case, seeded with the example.
  beforeEach(async () => {
    server = await startApiServer({ seed: examples });
    server.writeKubeconfig(adminKubeconfig);
  });
  afterEach(async () => {
    await server.stop();
  });

  it('ColdRunBindsTheRootSyncRoleRefsThenASecondRunChangesNothing', async () => {
    expect(ours()).toHaveLength(0);
    const first = await run(['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(refsOf(ours())).toStrictEqual(FOUR);
    for (const b of ours()) {
      expect(b.subjects).toStrictEqual([
        { kind: 'ServiceAccount', name: 'root-reconciler', namespace: 'config-management-system' },
      ]);
      expect(b.metadata.labels?.['configsync.gke.io/managed-by']).toBe('reconciler-manager');
    }
    expect(first.stderr).toMatch(
      /warning: .*still bound to cluster-admin by ClusterRoleBinding configsync\.gke\.io:root-reconciler/,
    );

    server.counters.reset();
    const second = await run(['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes']);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(server.counters.writes(), JSON.stringify(server.counters.snapshot())).toBe(0);
    expect(second.stdout).toMatch(/ClusterRoleBinding\s+0\s+0\s+2\s+0\s+0\s+0/);
  });

  it('FourRefsThenOneRefPrunesThree', async () => {
    const first = await run(['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(ours()).toHaveLength(4);
    server.counters.reset();
    const one = await run([
      'bind',
      '--root-sync',
      'root-sync',
      '--allow-privileged',
      '--role-ref',
      'ClusterRole/view',
      '--yes',
    ]);
    expect(one.exitCode, one.stderr).toBe(0);
    expect(refsOf(ours())).toStrictEqual(['ClusterRoleBinding - ClusterRole/view']);
    expect(server.counters.get('delete', 'clusterrolebindings')).toBe(1);
    expect(server.counters.get('delete', 'rolebindings')).toBe(2);
    expect(server.counters.writes()).toBe(3);
    expect(
      server.get('clusterrolebindings', 'configsync.gke.io:root-reconciler'),
      "Config Sync's own binding is not ours",
    ).toBeDefined();
  });

  it('ABindingWithoutOurLabelsIsNeverDeletedEvenWhenNameAndRoleRefMatch', async () => {
    const plan = await run([
      'bind',
      '--root-sync',
      'root-sync',
      '--allow-privileged',
      '--dry-run=client',
      '-o',
      'json',
    ]);
    const items = (JSON.parse(plan.stdout) as { items: BindingObj[] }).items;
    const view = items.find((i) => i.roleRef.name === 'view');
    expect(view).toBeDefined();
    const handMade = {
      ...view,
      metadata: { name: view?.metadata.name ?? '', labels: { team: 'platform' } },
    };
    server.seed([handMade]);
    const uid = (server.get('clusterrolebindings', handMade.metadata.name) as BindingObj).metadata.uid;
    server.counters.reset();

    const r = await run(['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes']);
    // The rest is written; the hand-made binding is reported and the run fails so that CI notices.
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^refused ClusterRoleBinding/${handMade.metadata.name}`, 'm'));
    const prune = await run([
      'bind',
      '--root-sync',
      'root-sync',
      '--allow-privileged',
      '--role-ref',
      'ClusterRole/edit@team-a',
      '--yes',
    ]);
    expect(prune.exitCode, prune.stderr).toBe(0);
    const after = server.get('clusterrolebindings', handMade.metadata.name) as BindingObj | undefined;
    expect(after?.metadata.uid, 'the same object, never deleted or recreated').toBe(uid);
    expect(after?.metadata.labels).toStrictEqual({ team: 'platform' });
    expect(refsOf(ours())).toStrictEqual(['RoleBinding team-a ClusterRole/edit']);
  });

  it('ACallerWithoutBindGetsThePredictedRefusalBeforeAnyWrite', async () => {
    server.seed([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'binding-writer' },
        rules: [
          {
            apiGroups: ['rbac.authorization.k8s.io'],
            resources: ['clusterrolebindings', 'rolebindings', 'clusterroles', 'roles'],
            verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'],
          },
          { apiGroups: ['configsync.gke.io'], resources: ['rootsyncs'], verbs: ['get', 'list'] },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'binding-writer' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'binding-writer' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'jane' }],
      },
    ]);
    server.addUser('jane-token', 'jane');
    const janeKubeconfig = path.join(dir, 'jane.kubeconfig');
    server.writeKubeconfig(janeKubeconfig, { token: 'jane-token', context: 'jane' });
    server.counters.reset();

    const r = await run(['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes'], janeKubeconfig);
    expect(r.exitCode).toBe(2);
    expect(server.counters.writes(), JSON.stringify(server.counters.snapshot())).toBe(0);
    const forbidden = r.stderr
      .split('\n')
      .filter((l) => l.startsWith('forbidden: '))
      .map((l) => /\(to ([^)]*)\)/.exec(l)?.[1]);
    expect(forbidden.sort()).toStrictEqual([
      'ClusterRole/crossplane-edit',
      'ClusterRole/edit',
      'ClusterRole/view',
      'Role/team-b/gitops-deployer',
    ]);
    expect(r.stderr).toMatch(/error: not allowed to bind 4 of 4 roles, nothing was written/);
    expect(ours()).toHaveLength(0);

    // The prediction is the server's own verdict: each binding, sent anyway as a server dry run, gets a 403.
    const plan = await run(
      ['bind', '--root-sync', 'root-sync', '--allow-privileged', '--dry-run=client', '-o', 'json'],
      janeKubeconfig,
    );
    const items = (JSON.parse(plan.stdout) as { items: KubeObject[] }).items;
    expect(items).toHaveLength(4);
    const jane = connect({ kubeconfig: janeKubeconfig }, {});
    for (const item of items) {
      const kind = item.kind === 'RoleBinding' ? Kinds.roleBinding : Kinds.clusterRoleBinding;
      const code = await jane.create(kind, item, { dryRun: true }).then(
        () => 0,
        (err: unknown) => (err instanceof ApiError ? err.code : -1),
      );
      expect(code, `${item.kind} to ${JSON.stringify(item['roleRef'])}`).toBe(403);
    }
    expect(server.counters.writes(), 'dry runs persist nothing but count as requests').toBe(4);
  });

  it('ACallerWithTheBindVerbOnEachRoleMayBindThem', async () => {
    const rbac = 'rbac.authorization.k8s.io';
    server.seed([
      {
        apiVersion: `${rbac}/v1`,
        kind: 'ClusterRole',
        metadata: { name: 'binder' },
        rules: [
          {
            apiGroups: [rbac],
            resources: ['clusterrolebindings', 'rolebindings'],
            verbs: ['get', 'list', 'create', 'update', 'delete'],
          },
          { apiGroups: [rbac], resources: ['clusterroles'], verbs: ['get', 'list'] },
          {
            apiGroups: [rbac],
            resources: ['clusterroles'],
            verbs: ['bind'],
            resourceNames: ['crossplane-edit', 'view', 'edit'],
          },
          { apiGroups: [rbac], resources: ['roles'], verbs: ['bind'], resourceNames: ['gitops-deployer'] },
          { apiGroups: ['configsync.gke.io'], resources: ['rootsyncs'], verbs: ['get', 'list'] },
        ],
      },
      {
        apiVersion: `${rbac}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'binder' },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'binder' },
        subjects: [{ apiGroup: rbac, kind: 'User', name: 'sam' }],
      },
    ]);
    server.addUser('sam-token', 'sam');
    const samKubeconfig = path.join(dir, 'sam.kubeconfig');
    server.writeKubeconfig(samKubeconfig, { token: 'sam-token', context: 'sam' });
    const r = await run(['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes'], samKubeconfig);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(refsOf(ours())).toStrictEqual(FOUR);

    const more = await run(
      ['bind', '--root-sync', 'root-sync', '--allow-privileged', '--role-ref', 'ClusterRole/admin', '--yes'],
      samKubeconfig,
    );
    expect(more.exitCode).toBe(2);
    expect(more.stderr).toMatch(
      /^forbidden: ClusterRoleBinding\/\S+ \(to ClusterRole\/admin\): no bind verb on ClusterRole\/admin cluster-wide/m,
    );
    expect(refsOf(ours()), 'nothing pruned when the run is refused').toStrictEqual(FOUR);
  });

  it('ARunCutByAServerFaultAfterItsCreatesConvergesWhenReRun', async () => {
    const first = await run(['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes']);
    expect(first.exitCode, first.stderr).toBe(0);
    server.faults = { ...server.faults, failNext: { count: 100, code: 403, verbs: ['delete'] } };
    const cut = await run([
      'bind',
      '--root-sync',
      'root-sync',
      '--allow-privileged',
      '--role-ref',
      'ClusterRole/view',
      '--role-ref',
      'ClusterRole/crossplane-view',
      '--yes',
    ]);
    server.faults = { ...server.faults, failNext: undefined };
    expect(cut.exitCode).toBe(2);
    expect(cut.stderr).toMatch(/error: 3 of 4 writes failed; everything else was written/);
    expect(refsOf(ours()), 'the create went through, the deletes did not').toStrictEqual([
      'ClusterRoleBinding - ClusterRole/crossplane-edit',
      'ClusterRoleBinding - ClusterRole/crossplane-view',
      'ClusterRoleBinding - ClusterRole/view',
      'RoleBinding team-a ClusterRole/edit',
      'RoleBinding team-b Role/gitops-deployer',
    ]);

    const again = await run([
      'bind',
      '--root-sync',
      'root-sync',
      '--allow-privileged',
      '--role-ref',
      'ClusterRole/view',
      '--role-ref',
      'ClusterRole/crossplane-view',
      '--yes',
    ]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(refsOf(ours())).toStrictEqual([
      'ClusterRoleBinding - ClusterRole/crossplane-view',
      'ClusterRoleBinding - ClusterRole/view',
    ]);
    server.counters.reset();
    const third = await run([
      'bind',
      '--root-sync',
      'root-sync',
      '--allow-privileged',
      '--role-ref',
      'ClusterRole/view',
      '--role-ref',
      'ClusterRole/crossplane-view',
      '--yes',
    ]);
    expect(third.exitCode, third.stderr).toBe(0);
    expect(server.counters.writes()).toBe(0);
  });

  it('AForeignSubjectAddedToOurBindingIsRemoved', async () => {
    await run(['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes']);
    const view = ours().find((b) => b.roleRef.name === 'view');
    expect(view).toBeDefined();
    server.seed([
      {
        ...view,
        subjects: [
          ...(view?.subjects ?? []),
          { kind: 'ServiceAccount', name: 'intruder', namespace: 'default' },
        ],
      },
    ]);
    server.counters.reset();
    const r = await run(['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(server.counters.get('update', 'clusterrolebindings')).toBe(1);
    expect(ours().find((b) => b.roleRef.name === 'view')?.subjects).toStrictEqual([
      { kind: 'ServiceAccount', name: 'root-reconciler', namespace: 'config-management-system' },
    ]);
  });

  it('ConfigSyncsLabelQueryFindsExactlyThePluginsBindings', async () => {
    expect(await configSyncQuery('root-sync')).toStrictEqual([]);
    const r = await run(['bind', '--root-sync', 'root-sync', '--base-role', '--allow-privileged', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const plugins = ours()
      .map(
        (b) =>
          `${b.kind} ${b.metadata.namespace ?? ''}/${b.metadata.name} ${b.roleRef.kind}/${b.roleRef.name}`,
      )
      .sort();
    expect(plugins).toHaveLength(4);
    expect(
      await configSyncQuery('root-sync'),
      "Config Sync's query finds exactly the plugin's bindings",
    ).toStrictEqual(plugins);
    expect(await configSyncQuery('other-sync')).toStrictEqual([]);
    // The base role went to Config Sync's shared binding, which its query for one RootSync does not list.
    const base = server.get('clusterrolebindings', 'configsync.gke.io:root-reconciler-base') as BindingObj;
    expect(base.roleRef).toMatchObject({ kind: 'ClusterRole', name: 'configsync.gke.io:root-reconciler' });
    expect(base.subjects).toStrictEqual([
      { kind: 'ServiceAccount', name: 'root-reconciler', namespace: 'config-management-system' },
    ]);
  });

  it('TheSharedBaseBindingKeepsTheOtherReconcilersWhenBindCleansUp', async () => {
    const other = {
      kind: 'ServiceAccount',
      name: 'root-reconciler-tenant',
      namespace: 'config-management-system',
    };
    const mine = { kind: 'ServiceAccount', name: 'root-reconciler', namespace: 'config-management-system' };
    // As reconciler-manager made it for another RootSync with roleRefs (upsertSharedClusterRoleBinding).
    server.seed([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: {
          name: 'configsync.gke.io:root-reconciler-base',
          labels: {
            'configsync.gke.io/managed-by': 'reconciler-manager',
            'configsync.gke.io/sync-namespace': 'config-management-system',
            'configsync.gke.io/sync-kind': 'RootSync',
          },
        },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'configsync.gke.io:root-reconciler',
        },
        subjects: [other],
      },
    ]);
    const uid = (server.get('clusterrolebindings', 'configsync.gke.io:root-reconciler-base') as BindingObj)
      .metadata.uid;
    const add = await run(['bind', '--root-sync', 'root-sync', '--base-role', '--allow-privileged', '--yes']);
    expect(add.exitCode, add.stderr).toBe(0);
    const shared = (): BindingObj | undefined =>
      server.get('clusterrolebindings', 'configsync.gke.io:root-reconciler-base') as BindingObj | undefined;
    expect(shared()?.subjects, 'added and sorted, as addSubject does').toStrictEqual([mine, other]);

    // Without --base-role, pruning takes only our subject off; the binding the other reconciler relies on stays.
    const off = await run(['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes']);
    expect(off.exitCode, off.stderr).toBe(0);
    expect(shared()?.metadata.uid, 'the same binding, never deleted').toBe(uid);
    expect(shared()?.subjects).toStrictEqual([other]);
    expect(refsOf(ours()), 'our roleRef bindings stay').toStrictEqual(FOUR);
  });
});
