// Every kind the plugin lists, against a server that pages at 500: each list here needs at least a second page.
// The reference for "everything" is real kubectl with the same kubeconfig (it follows continue tokens itself).
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../support/connect.js';
import { Kinds, type ResourceKind } from '../../src/port/cluster.js';
import type { TestApiServer } from '../apiserver/server.js';
import { repoRoot, runPlugin, startSeeded } from './harness.js';

type Obj = Record<string, unknown>;

const COUNT = 1_100;

function many(kind: string, apiVersion: string, count: number, extra: (i: number) => Obj): Obj[] {
  return Array.from({ length: count }, (_, i) => ({ apiVersion, kind, ...extra(i) }));
}

function pad(i: number): string {
  return String(i).padStart(4, '0');
}

/** Objects of every listed kind, more than two pages of each (names sort after the example's own objects). */
function pagingSeed(): Obj[] {
  const rbac = 'rbac.authorization.k8s.io/v1';
  const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' };
  return [
    ...many('Namespace', 'v1', COUNT, (i) => ({ metadata: { name: `page-ns-${pad(i)}` } })),
    // Named like the settings ConfigMap the plugin looks for, in namespaces that sort before crossplane-system,
    // so the one it needs is on a later page of the field-selected list.
    ...many('Namespace', 'v1', 600, (i) => ({ metadata: { name: `a-page-${pad(i)}` } })),
    ...many('ConfigMap', 'v1', 600, (i) => ({
      metadata: { name: 'crossplane-rbac', namespace: `a-page-${pad(i)}` },
      data: {},
    })),
    ...many('ClusterRole', rbac, COUNT, (i) => ({ metadata: { name: `page-role-${pad(i)}` }, rules: [] })),
    ...many('ClusterRoleBinding', rbac, COUNT, (i) => ({
      metadata: { name: `page-crb-${pad(i)}` },
      roleRef,
      subjects: [{ kind: 'User', name: `u${pad(i)}`, apiGroup: 'rbac.authorization.k8s.io' }],
    })),
    ...many('RoleBinding', rbac, COUNT, (i) => ({
      metadata: { name: `page-rb-${pad(i)}`, namespace: `page-ns-${pad(i % 3)}` },
      roleRef,
      subjects: [{ kind: 'User', name: `u${pad(i)}`, apiGroup: 'rbac.authorization.k8s.io' }],
    })),
    ...many('Deployment', 'apps/v1', COUNT, (i) => ({
      metadata: { name: `page-deploy-${pad(i)}`, namespace: `page-ns-${pad(i % 5)}` },
      spec: {
        selector: { matchLabels: { app: 'x' } },
        template: {
          metadata: { labels: { app: 'x' } },
          spec: { containers: [{ name: 'x', image: 'example.org/x:v1' }] },
        },
      },
    })),
    ...many('CompositeResourceDefinition', 'apiextensions.crossplane.io/v1', COUNT, (i) => ({
      metadata: { name: `xpages${pad(i)}.page.example.org` },
      spec: {
        group: 'page.example.org',
        names: { kind: `XPage${pad(i)}`, plural: `xpages${pad(i)}` },
        claimNames: { kind: `Page${pad(i)}`, plural: `pages${pad(i)}` },
        versions: [{ name: 'v1', served: true, referenceable: true }],
      },
    })),
    ...many('ProviderRevision', 'pkg.crossplane.io/v1', COUNT, (i) => ({
      metadata: { name: `provider-page-${pad(i)}-abc123` },
      spec: { desiredState: 'Inactive', package: `example.org/provider-page-${pad(i)}:v1`, revision: 1 },
    })),
  ];
}

function kubectlCount(kubeconfig: string, resource: string, extra: readonly string[] = []): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      'kubectl',
      ['--kubeconfig', kubeconfig, 'get', resource, '-o', 'name', '--chunk-size=500', ...extra],
      { maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH ?? '', HOME: tmpdir() } },
      (err, stdout, stderr) => {
        if (err !== null) reject(new Error(`kubectl get ${resource}: ${stderr}`));
        else resolve(stdout.split('\n').filter((l) => l !== '').length);
      },
    );
  });
}

describe('lists that need more than one page', () => {
  let server: TestApiServer;
  let kubeconfig: string;

  beforeAll(async () => {
    ({ server, kubeconfig } = await startSeeded());
    server.seed(pagingSeed());
  });
  afterAll(async () => {
    await server.stop();
  });

  const cases: readonly [string, ResourceKind, string, readonly string[]][] = [
    ['Namespaces', Kinds.namespace, 'namespaces', []],
    [
      'ConfigMaps by field selector',
      Kinds.configMap,
      'configmaps',
      ['-A', '--field-selector', 'metadata.name=crossplane-rbac'],
    ],
    ['ClusterRoles', Kinds.clusterRole, 'clusterroles', []],
    ['ClusterRoleBindings', Kinds.clusterRoleBinding, 'clusterrolebindings', []],
    ['RoleBindings', Kinds.roleBinding, 'rolebindings', ['-A']],
    ['Deployments', Kinds.deployment, 'deployments.apps', ['-A']],
    ['CompositeResourceDefinitions', Kinds.xrd, 'compositeresourcedefinitions', []],
    ['ProviderRevisions', Kinds.providerRevision, 'providerrevisions', []],
  ];

  it.each(cases)('lists every %s, as kubectl does', async (_name, kind, resource, kubectlArgs) => {
    const want = await kubectlCount(kubeconfig, resource, kubectlArgs);
    expect(want, 'the seed must need a second page').toBeGreaterThan(500);
    const fieldSelector = kubectlArgs.includes('--field-selector')
      ? 'metadata.name=crossplane-rbac'
      : undefined;
    server.counters.reset();
    const got = await connect({ kubeconfig }, {}).list(
      kind,
      fieldSelector === undefined ? {} : { fieldSelector },
    );
    expect(got).toHaveLength(want);
    expect(new Set(got.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`)).size).toBe(want);
    expect(server.counters.get('list', kind.plural)).toBe(Math.ceil(want / 500));
  });

  it('enable-xrd finds a namespace that is on the second page', async () => {
    // The CRDs Crossplane makes for the XRD, controlled by it: live, enable-xrd holds an XRD without them.
    const xrd = server.get('compositeresourcedefinitions', 'xpages0999.page.example.org') as Obj;
    const owner = {
      apiVersion: 'apiextensions.crossplane.io/v1',
      kind: 'CompositeResourceDefinition',
      name: 'xpages0999.page.example.org',
      uid: (xrd.metadata as { uid: string }).uid,
      controller: true,
    };
    const crd = (plural: string, kind: string, scope: string): Obj => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${plural}.page.example.org`, ownerReferences: [owner] },
      spec: {
        group: 'page.example.org',
        scope,
        names: { plural, kind, singular: plural.slice(0, -1), listKind: `${kind}List` },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    });
    server.seed([crd('xpages0999', 'XPage0999', 'Cluster'), crd('pages0999', 'Page0999', 'Namespaced')]);
    const r = await runPlugin([
      'enable-xrd',
      'xpages0999.page.example.org',
      '-n',
      'page-ns-1099',
      '--kubeconfig',
      kubeconfig,
      '--dry-run=client',
      '-o',
      'name',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('namespace/page-ns-1099');
  });
});

describe('a server that repeats its continue token', () => {
  let http: Server;
  let kubeconfig: string;
  let requests = 0;

  beforeAll(async () => {
    http = createServer((req, res) => {
      requests++;
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'NamespaceList',
          metadata: { continue: 'the-same-token' },
          items: [{ metadata: { name: `ns-${String(requests)}` } }],
        }),
      );
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    kubeconfig = join(mkdtempSync(join(tmpdir(), 'xrbac-paging-')), 'kubeconfig');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "http://127.0.0.1:' + String(port) + '"}}]',
        'users: [{name: u, user: {}}]',
        'contexts: [{name: x, context: {cluster: c, user: u}}]',
        'current-context: x',
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await new Promise((resolve) => http.close(resolve));
  });

  it('stops with one error instead of looping', async () => {
    requests = 0;
    const err = await connect({ kubeconfig }, {})
      .list(Kinds.namespace)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/same continue token twice while listing namespaces/);
    expect(requests).toBe(2);
  });
});

describe('examples/large (606 namespaces) live', () => {
  let server: TestApiServer;
  let kubeconfig: string;

  beforeAll(async () => {
    ({ server, kubeconfig } = await startSeeded([join(repoRoot, 'examples', 'large')]));
  });
  afterAll(async () => {
    await server.stop();
  });

  it('renders the same objects as sync -f on the same files', async () => {
    const offline = await runPlugin(['sync', '-f', join(repoRoot, 'examples', 'large'), '-o', 'json']);
    const live = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--dry-run=client', '-o', 'json']);
    expect(live.stderr).toBe('');
    const names = (out: string): string[] =>
      (JSON.parse(out) as { items: { kind: string; metadata: { name: string } }[] }).items.map(
        (o) => `${o.kind}/${o.metadata.name}`,
      );
    expect(names(offline.stdout).length).toBeGreaterThan(3_000);
    expect(names(live.stdout).sort()).toStrictEqual(names(offline.stdout).sort());
  });
});
