import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { TestApiServer } from './server.js';
import { startApiServer } from './server.js';
import { loadSeedFiles } from './seed.js';
import { fixturePath } from '../support/fixtures.js';

const bootstrap = fixturePath('kubernetes', 'bootstrap-cluster-roles.yaml');
const computed = fixturePath('kubernetes', 'computed-bootstrap-aggregated-admin-edit-view.yaml');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let server: TestApiServer;
let dir: string;

function kubectl(args: string[], kubeconfig = join(dir, 'admin.kubeconfig'), input?: string): Promise<Run> {
  return new Promise((done) => {
    const child = execFile(
      'kubectl',
      ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args],
      { timeout: 30_000 },
      (err, stdout, stderr) => {
        done({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

function userKubeconfig(token: string, user: string, groups: string[] = []): string {
  server.addUser(token, user, groups);
  const file = join(dir, `${user}.kubeconfig`);
  server.writeKubeconfig(file, { token, context: user });
  return file;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'apiserver-kubectl-'));
  server = await startApiServer();
  server.writeKubeconfig(join(dir, 'admin.kubeconfig'));
});

afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('kubectl against the test API server', () => {
  it('applies the bootstrap roles and aggregates admin exactly as the controller does', async () => {
    const applied = await kubectl(['apply', '-f', bootstrap]);
    // The roles every user is authorized by are stored at start, as on a real cluster, where kubectl warns the
    // same way about objects it did not create.
    const stored = ['system:basic-user', 'system:discovery', 'system:public-info-viewer'];
    expect(applied.stderr).toBe(
      stored
        .map(
          (name) =>
            `Warning: resource clusterroles/${name} is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n`,
        )
        .join(''),
    );
    expect(applied.code).toBe(0);
    const got = await kubectl(['get', 'clusterrole', 'admin', '-o', 'yaml']);
    expect(got.code).toBe(0);
    const want = YAML.parseAllDocuments(readFileSync(computed, 'utf8'))
      .map((d) => d.toJS() as Record<string, any>)
      .filter((d) => d.kind === 'ClusterRole');
    for (const name of ['admin', 'edit', 'view']) {
      const role =
        name === 'admin'
          ? YAML.parse(got.stdout)
          : YAML.parse((await kubectl(['get', 'clusterrole', name, '-o', 'yaml'])).stdout);
      expect(role.rules, name).toStrictEqual(want.find((w) => w.metadata.name === name)?.rules);
    }
  });

  it('serves discovery that kubectl api-resources reads, CRDs included once created', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'rootsyncs.configsync.gke.io' },
      spec: {
        group: 'configsync.gke.io',
        names: { kind: 'RootSync', plural: 'rootsyncs', singular: 'rootsync', listKind: 'RootSyncList' },
        scope: 'Namespaced',
        versions: [
          { name: 'v1beta1', served: true, storage: true, subresources: { status: {} } },
          { name: 'v1alpha1', served: true, storage: false },
        ],
      },
    };
    expect((await kubectl(['apply', '-f', '-'], undefined, JSON.stringify(crd))).code).toBe(0);
    const res = await kubectl(['api-resources', '--no-headers']);
    expect(res.code).toBe(0);
    const lines = res.stdout.split('\n').map((l) => l.trim().split(/\s+/));
    expect(lines).toContainEqual([
      'customresourcedefinitions',
      'crd,crds',
      'apiextensions.k8s.io/v1',
      'false',
      'CustomResourceDefinition',
    ]);
    expect(lines).toContainEqual(['rootsyncs', 'configsync.gke.io/v1beta1', 'true', 'RootSync']);
    expect(lines).toContainEqual(['clusterroles', 'rbac.authorization.k8s.io/v1', 'false', 'ClusterRole']);
    const rs = {
      apiVersion: 'configsync.gke.io/v1beta1',
      kind: 'RootSync',
      metadata: { name: 'root-sync', namespace: 'config-management-system' },
      spec: { sourceType: 'git' },
    };
    expect((await kubectl(['apply', '--server-side', '-f', '-'], undefined, JSON.stringify(rs))).code).toBe(
      0,
    );
    const got = await kubectl([
      'get',
      'rootsyncs.v1alpha1.configsync.gke.io',
      '-n',
      'config-management-system',
      'root-sync',
      '-o',
      'json',
    ]);
    expect(JSON.parse(got.stdout)).toMatchObject({
      apiVersion: 'configsync.gke.io/v1alpha1',
      spec: { sourceType: 'git' },
    });
  });

  it('serves aggregated discovery, which kubectl reads in two requests as the same resources as the legacy lists', async () => {
    // The example cluster's CRDs (Crossplane's, its providers', XRs and claims) besides the built-in groups.
    const seed = loadSeedFiles([
      join(fileURLToPath(import.meta.url), '..', '..', '..', 'examples', 'cluster'),
    ]);
    const [aggregatedServer, legacyServer] = await Promise.all([
      startApiServer({ seed }),
      startApiServer({ seed, aggregatedDiscovery: false }),
    ]);
    try {
      const configs = [join(dir, 'aggregated.kubeconfig'), join(dir, 'legacy.kubeconfig')] as const;
      aggregatedServer.writeKubeconfig(configs[0]);
      legacyServer.writeKubeconfig(configs[1]);
      const gets = (log: string): string[] =>
        log
          .split('\n')
          .filter((l) => / GET https:/.test(l))
          .map((l) => new URL(/GET (\S+)/.exec(l)?.[1] ?? '').pathname);
      const run = (config: string) =>
        kubectl(
          ['api-resources', '-o', 'wide', '-v=6', '--cache-dir', mkdtempSync(join(dir, 'cache-'))],
          config,
        );
      const [aggregated, legacy] = await Promise.all([run(configs[0]), run(configs[1])]);
      expect(aggregated.code).toBe(0);
      expect(legacy.code).toBe(0);
      expect(gets(aggregated.stderr)).toEqual(['/api', '/apis']);
      // The legacy lists: /api, /apis, then every group version.
      expect(gets(legacy.stderr).length).toBeGreaterThan(40);
      expect(gets(legacy.stderr)).toContain('/apis/rbac.authorization.k8s.io/v1');
      expect(aggregated.stdout).toBe(legacy.stdout);
      expect(aggregated.stdout).toMatch(
        /^clusterroles\s+rbac\.authorization\.k8s\.io\/v1\s+false\s+ClusterRole\s+/m,
      );
      expect(aggregated.stdout).toMatch(/^compositeresourcedefinitions\s+xrd,xrds\s+/m);
    } finally {
      await Promise.all([aggregatedServer.stop(), legacyServer.stop()]);
    }
  });

  it('edits objects with create, label, annotate, patch and delete', async () => {
    expect((await kubectl(['create', 'namespace', 'team-a'])).code).toBe(0);
    expect(
      (await kubectl(['create', 'configmap', 'settings', '-n', 'team-a', '--from-literal=a=1'])).code,
    ).toBe(0);
    expect((await kubectl(['label', 'configmap', 'settings', '-n', 'team-a', 'tier=web'])).code).toBe(0);
    expect((await kubectl(['annotate', 'configmap', 'settings', '-n', 'team-a', 'note=hi'])).code).toBe(0);
    expect(
      (await kubectl(['patch', 'configmap', 'settings', '-n', 'team-a', '-p', '{"data":{"b":"2"}}'])).code,
    ).toBe(0);
    expect(server.get('configmaps', 'settings', 'team-a')).toMatchObject({
      metadata: { labels: { tier: 'web' }, annotations: { note: 'hi' } },
      data: { a: '1', b: '2' },
    });
    const listed = await kubectl(['get', 'configmaps', '-A', '-l', 'tier in (web,api)', '-o', 'name']);
    expect(listed.stdout.trim()).toBe('configmap/settings');
    expect((await kubectl(['delete', 'configmap', 'settings', '-n', 'team-a'])).code).toBe(0);
    const missing = await kubectl(['get', 'configmap', 'settings', '-n', 'team-a']);
    expect(missing.stderr).toContain('Error from server (NotFound): configmaps "settings" not found');
  });

  it('refuses a role granting more than its creator holds, with the real message, until given escalate', async () => {
    const cfg = userKubeconfig('carol-token', 'carol');
    server.seed([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'clusterrole-creator' },
        rules: [
          { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['create', 'get'] },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'carol-creates' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'clusterrole-creator' },
        subjects: [{ kind: 'User', name: 'carol', apiGroup: 'rbac.authorization.k8s.io' }],
      },
    ]);
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'secret-reader' },
      rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }],
    };
    const denied = await kubectl(['create', '-f', '-'], cfg, JSON.stringify(role));
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain(
      'clusterroles.rbac.authorization.k8s.io "secret-reader" is forbidden: user "carol" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
    );
    expect(server.get('clusterroles', 'secret-reader')).toBeUndefined();
    server.seed([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'clusterrole-creator' },
        rules: [
          {
            apiGroups: ['rbac.authorization.k8s.io'],
            resources: ['clusterroles'],
            verbs: ['create', 'get', 'escalate'],
          },
        ],
      },
    ]);
    const allowed = await kubectl(['create', '-f', '-'], cfg, JSON.stringify(role));
    expect(allowed.stderr).toBe('');
    expect(server.get('clusterroles', 'secret-reader')).toMatchObject({ rules: role.rules });
  });

  it('answers kubectl auth can-i for impersonated users, namespaces and --list', async () => {
    server.seed([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'cm-editor', namespace: 'team-b' },
        rules: [
          { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'update'], resourceNames: ['app'] },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'dave-cm', namespace: 'team-b' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-editor' },
        subjects: [{ kind: 'User', name: 'dave', apiGroup: 'rbac.authorization.k8s.io' }],
      },
    ]);
    const cases: { name: string; args: string[]; want: string; reason: string }[] = [
      {
        name: 'NamedInNamespace',
        args: ['update', 'configmaps/app', '-n', 'team-b'],
        want: 'yes',
        reason: 'the Role grants update on app in team-b',
      },
      {
        name: 'OtherName',
        args: ['update', 'configmaps/other', '-n', 'team-b'],
        want: 'no',
        reason: 'resourceNames limit the rule to app',
      },
      {
        name: 'OtherNamespace',
        args: ['get', 'configmaps/app', '-n', 'default'],
        want: 'no',
        reason: 'a RoleBinding grants only in its namespace',
      },
      {
        name: 'OtherVerb',
        args: ['delete', 'configmaps/app', '-n', 'team-b'],
        want: 'no',
        reason: 'delete is not granted',
      },
    ];
    for (const tc of cases) {
      const res = await kubectl(['auth', 'can-i', ...tc.args, '--as', 'dave']);
      expect(res.stdout.trim(), `${tc.name}: ${tc.reason}`).toBe(tc.want);
    }
    const list = await kubectl(['auth', 'can-i', '--list', '-n', 'team-b', '--as', 'dave']);
    expect(list.stdout).toMatch(/configmaps\s+\[\]\s+\[app\]\s+\[get update\]/);
    const nobody = userKubeconfig('erin-token', 'erin');
    const impersonating = await kubectl(['get', 'configmaps', '-n', 'team-b', '--as', 'dave'], nobody);
    expect(impersonating.stderr).toContain(
      'users "dave" is forbidden: User "erin" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
  });

  it('gives kubectl the real 403 text for a plain forbidden request', async () => {
    const cfg = userKubeconfig('frank-token', 'frank');
    const res = await kubectl(['get', 'clusterroles'], cfg);
    expect(res.stderr).toContain(
      'Error from server (Forbidden): clusterroles.rbac.authorization.k8s.io is forbidden: User "frank" cannot list resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope',
    );
  });

  it('writes a kubeconfig file usable as is', () => {
    const file = join(dir, 'plain.kubeconfig');
    server.writeKubeconfig(file);
    const cfg = YAML.parse(readFileSync(file, 'utf8'));
    expect(cfg['current-context']).toBe('admin');
    expect(cfg.clusters[0].cluster.server).toBe(server.url.replace('http:', 'https:'));
    writeFileSync(file, '');
  });
});
