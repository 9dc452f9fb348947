import { beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { Kinds } from '../../../src/port/cluster.js';
import { DEFAULT_MAX_INPUT_SIZE, readManifests } from '../../../src/input/read-manifests.js';
import type { KubeObject } from '../../../src/kube/types.js';
import { exampleCluster, FakeCluster, runWithFakes, tempFile } from './bind-fakes.js';

let examples: KubeObject[];
beforeAll(async () => {
  ({ objects: examples } = await readManifests([exampleCluster], {
    readStdin: () => Promise.resolve(''),
    maxBytes: DEFAULT_MAX_INPUT_SIZE,
  }));
});

function rootSync(name: string, override: unknown): KubeObject {
  return {
    apiVersion: 'configsync.gke.io/v1beta1',
    kind: 'RootSync',
    metadata: { name, namespace: 'config-management-system' },
    spec: { override },
  };
}

/** The namespace and ServiceAccount of a CI deployer, which bind checks exist. */
const CI_ACCOUNT: KubeObject[] = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ci' } },
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'deployer', namespace: 'ci' } },
];

function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.startsWith('error:'));
}

describe('bind: bad input', () => {
  const cases: Record<string, { reason: string; argv: () => string[]; extra?: KubeObject[]; want: RegExp }> =
    {
      MalformedRoleRef: {
        reason: 'a --role-ref without KIND/ shows the accepted forms',
        argv: () => ['--root-sync', 'root-sync', '--role-ref', 'crossplane-edit'],
        want: /invalid --role-ref "crossplane-edit".*accepted forms: ClusterRole\/NAME, ClusterRole\/NAME@NAMESPACE or Role\/NAME@NAMESPACE/,
      },
      UnknownRoleRefKind: {
        reason: 'only roles can be bound',
        argv: () => ['--root-sync', 'root-sync', '--role-ref', 'Group/admins'],
        want: /kind must be ClusterRole or Role, got "Group".*accepted forms/,
      },
      RoleRefKindInLowerCase: {
        reason:
          "kinds are case-sensitive, as the RootSync CRD's enum (GoogleContainerTools/kpt-config-sync " +
          'pkg/api/configsync/v1beta1/resource_override.go@bd5fadf7ec196a27a637179d0c5f757e3ee49db6: Enum=Role;ClusterRole)',
        argv: () => ['--root-sync', 'root-sync', '--role-ref', 'clusterrole/view'],
        want: /invalid --role-ref "clusterrole\/view": kind "clusterrole" must be spelt ClusterRole/,
      },
      RoleRefsFileKindInLowerCase: {
        reason: 'the same enum holds in a roleRefs file',
        argv: () => [
          '--service-account',
          'a/b',
          '--role-refs-file',
          tempFile('lower.yaml', '- kind: role\n  name: deployer\n  namespace: team-b\n'),
        ],
        want: /lower\.yaml: entry 0: kind "role" must be spelt Role/,
      },
      RootSyncKindInLowerCase: {
        reason: 'and in the RootSync itself (the API server would have refused it)',
        argv: () => ['--root-sync', 'lower'],
        extra: [rootSync('lower', { roleRefs: [{ kind: 'clusterrole', name: 'view' }] })],
        want: /spec\.override\.roleRefs\[0\]: kind "clusterrole" must be spelt ClusterRole/,
      },
      RootSyncWithOnlySpecOverrides: {
        reason: 'spec.overrides is no field: nothing to bind (and a warning names the right field)',
        argv: () => ['--root-sync', 'misspelt'],
        extra: [
          {
            apiVersion: 'configsync.gke.io/v1beta1',
            kind: 'RootSync',
            metadata: { name: 'misspelt', namespace: 'config-management-system' },
            spec: { overrides: { roleRefs: [{ kind: 'ClusterRole', name: 'view' }] } },
          },
        ],
        want: /RootSync misspelt declares no spec\.override\.roleRefs/,
      },
      BaseRoleOtherThanConfigSyncsForRootSync: {
        reason: "a RootSync's base role is Config Sync's, bound through its shared binding",
        argv: () => ['--root-sync', 'root-sync', '--base-role', 'crossplane-view'],
        want: /--base-role with --root-sync binds Config Sync's base role configsync\.gke\.io:root-reconciler/,
      },
      RoleRefRoleWithoutNamespace: {
        reason: 'a Role flag needs @NAMESPACE',
        argv: () => ['--service-account', 'flux-system/kustomize-controller', '--role-ref', 'Role/deployer'],
        want: /a Role needs a namespace/,
      },
      UnknownRootSync: {
        reason: 'a typo in the RootSync name must not bind a made-up reconciler account',
        argv: () => ['--root-sync', 'root-sync-typo'],
        want: /RootSync config-management-system\/root-sync-typo not found/,
      },
      MalformedRoleRefsFileYaml: {
        reason: 'a file that is not YAML names the file',
        argv: () => [
          '--root-sync',
          'root-sync',
          '--role-refs-file',
          tempFile('bad.yaml', '- kind: [ClusterRole\n'),
        ],
        want: /bad\.yaml: not valid YAML/,
      },
      RoleRefsFileNotAList: {
        reason: 'the file holds a list',
        argv: () => [
          '--root-sync',
          'root-sync',
          '--role-refs-file',
          tempFile('map.yaml', 'kind: ClusterRole\nname: view\n'),
        ],
        want: /map\.yaml: expected a list of roleRefs/,
      },
      RoleRefsFileUnknownField: {
        reason: 'a misspelt field is not silently dropped',
        argv: () => [
          '--root-sync',
          'root-sync',
          '--role-refs-file',
          tempFile('typo.yaml', '- kind: ClusterRole\n  nmae: view\n'),
        ],
        want: /typo\.yaml: entry 0: unknown field "nmae"/,
      },
      RoleRefsFileMissing: {
        reason: 'a missing file is a bad input, not a crash',
        argv: () => ['--root-sync', 'root-sync', '--role-refs-file', '/nonexistent/roles.yaml'],
        want: /^error: cannot read --role-refs-file \/nonexistent\/roles\.yaml: no such file or directory$/,
      },
      ServiceAccountWithoutNamespace: {
        reason: 'a service account is always NAMESPACE/NAME',
        argv: () => ['--service-account', 'kustomize-controller', '--role-ref', 'ClusterRole/view'],
        want: /invalid --service-account "kustomize-controller": expected NAMESPACE\/NAME/,
      },
      BothTargets: {
        reason: 'one account per run',
        argv: () => [
          '--root-sync',
          'root-sync',
          '--service-account',
          'a/b',
          '--role-ref',
          'ClusterRole/view',
        ],
        want: /either --root-sync or --service-account, not both/,
      },
      NeitherTarget: {
        reason: 'bind needs an account',
        argv: () => ['--role-ref', 'ClusterRole/view'],
        want: /bind needs --root-sync NAME or --service-account NAMESPACE\/NAME/,
      },
      RootSyncRoleWithoutNamespace: {
        reason: "Config Sync's own error names the field",
        argv: () => ['--root-sync', 'tenant'],
        extra: [rootSync('tenant', { roleRefs: [{ kind: 'Role', name: 'deployer' }] })],
        want: /spec\.override\.roleRefs\.namespace/,
      },
      RootSyncWithoutRoleRefs: {
        reason: 'an empty list never falls back to cluster-admin',
        argv: () => ['--root-sync', 'bare'],
        extra: [rootSync('bare', {})],
        want: /declares no spec\.override\.roleRefs.*nothing to bind/,
      },
      ServiceAccountWithoutRoleRefs: {
        reason: 'an empty list is an error for any account',
        argv: () => ['--service-account', 'flux-system/kustomize-controller'],
        want: /no roleRefs given: nothing to bind/,
      },
      EmptyRoleRefsFile: {
        reason: 'an empty list from a file is still empty',
        argv: () => ['--service-account', 'a/b', '--role-refs-file', tempFile('empty.yaml', '[]\n')],
        want: /no roleRefs given/,
      },
      BadDryRun: {
        reason: 'kubectl spells dry-run modes none, client, server',
        argv: () => ['--root-sync', 'root-sync', '--dry-run=maybe'],
        want: /invalid --dry-run "maybe"/,
      },
      BaseRoleBareForServiceAccount: {
        reason: 'only a RootSync has a known base role',
        argv: () => ['--service-account', 'a/b', '--role-ref', 'ClusterRole/view', '--base-role'],
        want: /--base-role needs a ClusterRole name/,
      },
    };

  it.each(Object.entries(cases))('%s', async (_name, tc) => {
    const cluster = new FakeCluster([...examples, ...(tc.extra ?? [])]);
    const r = await runWithFakes(['bind', ...tc.argv(), '--yes'], cluster);
    expect(r.exitCode, tc.reason).toBe(2);
    const errors = errorLines(r.stderr);
    expect(errors, tc.reason).toHaveLength(1);
    expect(errors[0], tc.reason).toMatch(tc.want);
    expect(r.stdout, 'nothing printed as data').toBe('');
    expect(cluster.writes, 'nothing written').toStrictEqual([]);
  });
});

describe('bind: against a fake cluster', () => {
  it('ColdRunCreatesTheRootSyncRoleRefsAndWarnsAboutClusterAdmin', async () => {
    const cluster = new FakeCluster(examples);
    const r = await runWithFakes(
      ['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes'],
      cluster,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const created = cluster.writes.map((w) => `${w.verb} ${w.kind} ${w.namespace ?? ''}`).sort();
    expect(created).toStrictEqual([
      'create ClusterRoleBinding ',
      'create ClusterRoleBinding ',
      'create RoleBinding team-a',
      'create RoleBinding team-b',
    ]);
    expect(r.stderr).toMatch(
      /warning: ServiceAccount config-management-system\/root-reconciler is still bound to cluster-admin by ClusterRoleBinding configsync\.gke\.io:root-reconciler/,
    );
    expect(r.stdout).toMatch(/ClusterRoleBinding\s+2\s+0\s+0\s+0\s+0\s+0/);
    const roleRefs = cluster
      .all('ClusterRoleBinding')
      .filter((b) => b.metadata.labels?.['configsync.gke.io/sync-name'] === 'root-sync')
      .map((b) => (b as unknown as { roleRef: { name: string } }).roleRef.name)
      .sort();
    expect(roleRefs).toStrictEqual(['crossplane-edit', 'view']);

    const again = await runWithFakes(
      ['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes'],
      cluster,
    );
    expect(again.exitCode, again.stderr).toBe(0);
    expect(cluster.writes, 'a second run writes nothing').toHaveLength(4);
  });

  it('WithoutATerminalWritingNeedsYes', async () => {
    const cluster = new FakeCluster(examples);
    const r = await runWithFakes(['bind', '--root-sync', 'root-sync', '--allow-privileged'], cluster);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
    expect(cluster.writes).toStrictEqual([]);
  });

  it('PreflightReportsEveryForbiddenBindingBeforeWriting', async () => {
    const cluster = new FakeCluster(examples, {
      canI: (c) => c.verb !== 'bind',
      rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }],
    });
    const r = await runWithFakes(
      ['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes'],
      cluster,
    );
    expect(r.exitCode).toBe(2);
    expect(cluster.writes).toStrictEqual([]);
    const forbidden = r.stderr.split('\n').filter((l) => l.startsWith('forbidden: '));
    expect(forbidden.map((l) => /\(to ([^)]*)\)/.exec(l)?.[1]).sort()).toStrictEqual([
      'ClusterRole/crossplane-edit',
      'ClusterRole/edit',
      'ClusterRole/view',
      'Role/team-b/gitops-deployer',
    ]);
    expect(errorLines(r.stderr)[0]).toMatch(/not allowed to bind 4 of 4 roles, nothing was written/);
    const binds = cluster.checks.filter((c) => c.verb === 'bind');
    expect(binds).toContainEqual({
      verb: 'bind',
      group: 'rbac.authorization.k8s.io',
      resource: 'roles',
      name: 'gitops-deployer',
      namespace: 'team-b',
    });
    expect(binds).toContainEqual({
      verb: 'bind',
      group: 'rbac.authorization.k8s.io',
      resource: 'clusterroles',
      name: 'view',
    });
  });

  it('PreflightAcceptsACallerHoldingTheRolesRules', async () => {
    const cluster = new FakeCluster(examples, {
      canI: (c) => c.verb !== 'bind',
      rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    });
    const r = await runWithFakes(
      ['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes'],
      cluster,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(cluster.writes).toHaveLength(4);
  });

  it('RefusedBindingIsReportedAndNeverTouched', async () => {
    const plan = await runWithFakes([
      'bind',
      '--service-account',
      'ci/deployer',
      '--role-ref',
      'ClusterRole/view',
      '-f',
      exampleCluster,
      '-o',
      'json',
      '--allow-missing',
    ]);
    const item = (JSON.parse(plan.stdout) as { items: KubeObject[] }).items[0];
    expect(item).toBeDefined();
    const foreign = {
      ...item,
      metadata: { name: item?.metadata.name ?? '', labels: { team: 'ci' } },
    } as KubeObject;
    const cluster = new FakeCluster([...examples, ...CI_ACCOUNT, foreign]);
    const r = await runWithFakes(
      ['bind', '--service-account', 'ci/deployer', '--role-ref', 'ClusterRole/view', '--yes'],
      cluster,
    );
    // Left alone, reported, and the run fails after doing everything else so that CI notices.
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^refused ClusterRoleBinding/${item?.metadata.name ?? ''}: `, 'm'));
    expect(r.stderr).toMatch(/^error: 1 object is not the plugin's to change/m);
    expect(cluster.writes).toStrictEqual([]);
  });

  it('NoPruneKeepsBindingsNoLongerDeclared', async () => {
    const cluster = new FakeCluster(examples);
    await runWithFakes(['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes'], cluster);
    const before = cluster.writes.length;
    const keep = await runWithFakes(
      [
        'bind',
        '--root-sync',
        'root-sync',
        '--allow-privileged',
        '--role-ref',
        'ClusterRole/view',
        '--no-prune',
        '--yes',
      ],
      cluster,
    );
    expect(keep.exitCode, keep.stderr).toBe(0);
    expect(cluster.writes.length).toBe(before);
    expect(keep.stderr.match(/^kept \(--no-prune\): /gm)).toHaveLength(3);
    const prune = await runWithFakes(
      ['bind', '--root-sync', 'root-sync', '--allow-privileged', '--role-ref', 'ClusterRole/view', '--yes'],
      cluster,
    );
    expect(prune.exitCode, prune.stderr).toBe(0);
    expect(cluster.writes.slice(before).map((w) => w.verb)).toStrictEqual(['delete', 'delete', 'delete']);
  });

  it('SpecOverridesIsWarnedAboutAndNamesTheRightField', async () => {
    const misspelt: KubeObject = {
      apiVersion: 'configsync.gke.io/v1beta1',
      kind: 'RootSync',
      metadata: { name: 'misspelt', namespace: 'config-management-system' },
      spec: { overrides: { roleRefs: [{ kind: 'ClusterRole', name: 'view' }] } },
    };
    const reconciler: KubeObject = {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'root-reconciler-misspelt', namespace: 'config-management-system' },
    };
    const cluster = new FakeCluster([...examples, misspelt, reconciler]);
    const r = await runWithFakes(
      ['bind', '--root-sync', 'misspelt', '--role-ref', 'ClusterRole/crossplane-view', '--yes'],
      cluster,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^warning: RootSync config-management-system\/misspelt: spec\.overrides is not a RootSync field and is ignored .*roleRefs go in spec\.override\.roleRefs$/m,
    );
  });

  it('AdoptTakesOverABindingNobodyOwns', async () => {
    const argv = ['bind', '--service-account', 'ci/deployer', '--role-ref', 'ClusterRole/view'];
    const plan = await runWithFakes([...argv, '-f', exampleCluster, '-o', 'json', '--allow-missing']);
    const item = (JSON.parse(plan.stdout) as { items: KubeObject[] }).items[0]!;
    const unowned = { ...item, metadata: { name: item.metadata.name, labels: { team: 'ci' } } } as KubeObject;
    const cluster = new FakeCluster([...examples, ...CI_ACCOUNT, unowned]);
    const refused = await runWithFakes([...argv, '--yes'], cluster);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/^refused ClusterRoleBinding\/\S+: .*\(--adopt takes it over\)$/m);
    expect(cluster.writes).toStrictEqual([]);

    const adopted = await runWithFakes([...argv, '--adopt', '--yes'], cluster);
    expect(adopted.exitCode, adopted.stderr).toBe(0);
    expect(adopted.stderr).toMatch(new RegExp(`^adopting ClusterRoleBinding/${item.metadata.name}$`, 'm'));
    expect(cluster.writes.map((w) => `${w.verb} ${w.name}`)).toStrictEqual([`update ${item.metadata.name}`]);
    const now = cluster.all('ClusterRoleBinding').find((b) => b.metadata.name === item.metadata.name);
    expect(now?.metadata.labels?.['app.kubernetes.io/managed-by']).toBe('kubectl-crossplane-rbac');
  });

  it('AdoptNeverTakesABindingSomeoneManages', async () => {
    const argv = ['bind', '--service-account', 'ci/deployer', '--role-ref', 'ClusterRole/view'];
    const plan = await runWithFakes([...argv, '-f', exampleCluster, '-o', 'json', '--allow-missing']);
    const item = (JSON.parse(plan.stdout) as { items: KubeObject[] }).items[0]!;
    const helms = {
      ...item,
      metadata: { name: item.metadata.name, labels: { 'app.kubernetes.io/managed-by': 'Helm' } },
    } as KubeObject;
    const cluster = new FakeCluster([...examples, ...CI_ACCOUNT, helms]);
    const r = await runWithFakes([...argv, '--adopt', '--yes'], cluster);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^refused ClusterRoleBinding\//m);
    expect(r.stderr).not.toMatch(/--adopt takes it over/);
    expect(cluster.writes).toStrictEqual([]);
  });

  it('ARefusedRoleRefStopsPruningSoTheAccountKeepsItsRoles', async () => {
    const cluster = new FakeCluster(examples);
    const first = await runWithFakes(
      ['bind', '--root-sync', 'root-sync', '--allow-privileged', '--yes'],
      cluster,
    );
    expect(first.exitCode, first.stderr).toBe(0);
    expect(cluster.writes).toHaveLength(4);
    // Someone else's binding holds the name of the one roleRef the next run declares.
    const argv = ['bind', '--root-sync', 'root-sync', '--role-ref', 'ClusterRole/crossplane-view'];
    const plan = await runWithFakes([...argv, '-f', exampleCluster, '-o', 'json']);
    const item = (JSON.parse(plan.stdout) as { items: KubeObject[] }).items[0]!;
    const foreign = {
      ...item,
      metadata: { name: item.metadata.name, labels: { 'app.kubernetes.io/managed-by': 'Helm' } },
    } as KubeObject;
    await cluster.create(Kinds.clusterRoleBinding, foreign);
    const writesBefore = cluster.writes.length;

    const r = await runWithFakes([...argv, '--yes'], cluster);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^refused ClusterRoleBinding\//m);
    expect(r.stderr).toMatch(
      /^warning: 1 binding is refused \(listed below\): pruning is skipped in this run, so that ServiceAccount config-management-system\/root-reconciler keeps the bindings it has$/m,
    );
    expect(r.stderr.match(/^kept \(pruning skipped\): /gm)).toHaveLength(4);
    expect(cluster.writes.slice(writesBefore), 'none of its four bindings deleted').toStrictEqual([]);
  });

  it('DryRunClientWritesNothing', async () => {
    const cluster = new FakeCluster(examples);
    const r = await runWithFakes(
      ['bind', '--root-sync', 'root-sync', '--allow-privileged', '--dry-run=client'],
      cluster,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/TO CREATE/);
    expect(cluster.writes).toStrictEqual([]);
  });
});

describe('bind: output from -f', () => {
  it('YamlListsTheBindingsItWouldWrite', async () => {
    const r = await runWithFakes([
      'bind',
      '--root-sync',
      'root-sync',
      '--allow-privileged',
      '-f',
      exampleCluster,
      '-o',
      'yaml',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.connected, '-f needs no cluster').toBe(0);
    const docs = parseAllDocuments(r.stdout);
    expect(docs).toHaveLength(1);
    const list = parse(r.stdout) as { kind: string; items: KubeObject[] };
    expect(list.kind).toBe('List');
    const items = list.items as unknown as {
      kind: string;
      metadata: { namespace?: string; labels: Record<string, string> };
      roleRef: { kind: string; name: string };
      subjects: unknown[];
    }[];
    expect(
      items.map((i) => `${i.kind} ${i.metadata.namespace ?? '-'} ${i.roleRef.kind}/${i.roleRef.name}`).sort(),
    ).toStrictEqual([
      'ClusterRoleBinding - ClusterRole/crossplane-edit',
      'ClusterRoleBinding - ClusterRole/view',
      'RoleBinding team-a ClusterRole/edit',
      'RoleBinding team-b Role/gitops-deployer',
    ]);
    for (const i of items) {
      expect(i.subjects).toStrictEqual([
        { kind: 'ServiceAccount', name: 'root-reconciler', namespace: 'config-management-system' },
      ]);
      // Config Sync's own labels (ManagedObjectLabelMap, GoogleContainerTools/kpt-config-sync
      // pkg/reconcilermanager/controllers/reconciler_base.go@bd5fadf7ec196a27a637179d0c5f757e3ee49db6) and ours.
      expect(i.metadata.labels).toStrictEqual({
        'configsync.gke.io/managed-by': 'reconciler-manager',
        'configsync.gke.io/sync-namespace': 'config-management-system',
        'configsync.gke.io/sync-name': 'root-sync',
        'configsync.gke.io/sync-kind': 'RootSync',
        'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
      });
    }
  });

  it('JsonIsParseableAndSameAsYaml', async () => {
    const y = await runWithFakes([
      'bind',
      '--root-sync',
      'root-sync',
      '--allow-privileged',
      '-f',
      exampleCluster,
      '-o',
      'yaml',
    ]);
    const j = await runWithFakes([
      'bind',
      '--root-sync',
      'root-sync',
      '--allow-privileged',
      '-f',
      exampleCluster,
      '-o',
      'json',
    ]);
    expect(JSON.parse(j.stdout)).toStrictEqual(parse(y.stdout));
  });

  it('DiffShowsNewBindings', async () => {
    const r = await runWithFakes([
      'bind',
      '--root-sync',
      'root-sync',
      '--allow-privileged',
      '-f',
      exampleCluster,
      '-o',
      'diff',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^\+\+\+ desired\/clusterrolebinding\.rbac\.authorization\.k8s\.io\/root-reconciler-clusterrole-view-/m,
    );
    expect(r.stdout).toMatch(/^\+roleRef:/m);
  });

  it('BaseRoleBareBindsTheConfigSyncBaseRole', async () => {
    const r = await runWithFakes([
      'bind',
      '--root-sync',
      'root-sync',
      '--allow-privileged',
      '--base-role',
      '-f',
      exampleCluster,
      '-o',
      'json',
    ]);
    type Item = { metadata: { name: string; labels: unknown }; roleRef: { name: string }; subjects: unknown };
    const items = (JSON.parse(r.stdout) as { items: Item[] }).items;
    expect(items).toHaveLength(5);
    // Config Sync's shared base binding (build_names.go RootSyncBaseClusterRoleBindingName, reconciler_base.go
    // upsertSharedClusterRoleBinding: ManagedObjectLabelMap without sync-name; GoogleContainerTools/kpt-config-sync
    // pkg/reconcilermanager/controllers@bd5fadf7ec196a27a637179d0c5f757e3ee49db6).
    const base = items.find((i) => i.roleRef.name === 'configsync.gke.io:root-reconciler');
    expect(base?.metadata.name).toBe('configsync.gke.io:root-reconciler-base');
    expect(base?.metadata.labels).toStrictEqual({
      'configsync.gke.io/managed-by': 'reconciler-manager',
      'configsync.gke.io/sync-namespace': 'config-management-system',
      'configsync.gke.io/sync-kind': 'RootSync',
    });
    expect(base?.subjects).toStrictEqual([
      { kind: 'ServiceAccount', name: 'root-reconciler', namespace: 'config-management-system' },
    ]);
  });

  it('FlagsOverrideTheRootSyncRoleRefs', async () => {
    const file = tempFile('refs.yaml', '- kind: Role\n  name: gitops-deployer\n  namespace: team-b\n');
    const r = await runWithFakes([
      'bind',
      '--root-sync',
      'root-sync',
      '--allow-privileged',
      '--role-ref',
      'ClusterRole/view',
      '--role-refs-file',
      file,
      '-f',
      exampleCluster,
      '-o',
      'json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const refs = (JSON.parse(r.stdout) as { items: { roleRef: { kind: string; name: string } }[] }).items
      .map((i) => `${i.roleRef.kind}/${i.roleRef.name}`)
      .sort();
    expect(refs).toStrictEqual(['ClusterRole/view', 'Role/gitops-deployer']);
  });

  it('HelpShowsRealExamples', async () => {
    const r = await runWithFakes(['bind', '--help']);
    expect(r.exitCode).toBe(0);
    const examples = r.stdout.slice(r.stdout.indexOf('Examples:'));
    for (const want of [
      'bind --root-sync root-sync',
      'examples/cluster',
      'ClusterRole/crossplane-edit',
      '--base-role',
    ]) {
      expect(examples).toContain(want);
    }
  });
});
