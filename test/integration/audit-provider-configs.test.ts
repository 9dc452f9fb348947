/**
 * A live audit reads the in-cluster providers' ProviderConfigs: provider-kubernetes' Objects act as the provider's
 * own account only through a ProviderConfig whose credentials source is InjectedIdentity. The server is seeded with
 * a provider-kubernetes revision whose objectRefs name its CRDs (test/fixtures/real/provider-kubernetes-config-crds
 * .yaml: the cluster ProviderConfig in kubernetes.crossplane.io, and in the `.m.` group of Crossplane v2 the
 * namespaced ProviderConfig and the cluster-scoped ClusterProviderConfig, crossplane-contrib/provider-kubernetes
 * package/crds/kubernetes.m.crossplane.io_clusterproviderconfigs.yaml @ 070dae77dcd3368a8cc257a1283ee88c4eb41c68),
 * the provider's Deployment running as an account bound to cluster-admin, and a user who may create Objects
 * (audit-provider-seed.ts). Each
 * case adds ProviderConfigs with another credentials source; the audit is checked against what was seeded.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { TestApiServer } from '../apiserver/server.js';
import { subjectAccessReview } from '../support/access-review.js';
import { exampleCluster, runPlugin, startSeeded, userKubeconfig } from './harness.js';
import {
  CRDS,
  RBAC,
  REVISION,
  grantToUser,
  installedRevision,
  providerSeed,
  rbac,
} from './audit-provider-seed.js';

interface Step {
  readonly mechanism: string;
  readonly trigger: { readonly resource: string };
  readonly actsAs: { readonly name: string };
  readonly why: string;
}
interface Report {
  readonly findings: readonly { readonly capability: string; readonly steps: readonly Step[] }[];
  readonly unseen: readonly { readonly part: string; readonly what: string }[];
}

const source = (s: string) => ({
  source: s,
  ...(s === 'Secret' ? { secretRef: { namespace: 'crossplane-system', name: 'kc', key: 'kubeconfig' } } : {}),
});

describe('audit reads the in-cluster providers’ ProviderConfigs live', () => {
  let server: TestApiServer;
  let admin: string;
  let limited: string;
  let dir: string;

  beforeAll(async () => {
    const started = await startSeeded([
      join(exampleCluster, '05-crds.yaml'),
      join(exampleCluster, '00-namespaces.yaml'),
    ]);
    server = started.server;
    admin = started.kubeconfig;
    dir = started.dir;
    limited = userKubeconfig(server, started.dir, 'auditor');
    server.seed([...CRDS, installedRevision(), ...providerSeed()]);
  });
  afterAll(async () => {
    await server.stop();
  });

  async function audit(
    kubeconfig: string,
    subject = 'objector',
  ): Promise<{ code: number; report: Report; stderr: string }> {
    const r = await runPlugin([
      'audit',
      '--kubeconfig',
      kubeconfig,
      '--subject',
      `User:${subject}`,
      '-o',
      'json',
    ]);
    return { code: r.code, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
  }
  const identitySteps = (report: Report): Step[] =>
    report.findings.flatMap((f) => f.steps).filter((s) => s.mechanism === 'provider-identity');

  it('none exists: the step stays "may", saying that whoever may create a ProviderConfig decides', async () => {
    const r = await audit(admin);
    expect(r.code).toBe(0);
    const [step, ...more] = identitySteps(r.report);
    expect(more).toStrictEqual([]);
    expect(step?.trigger.resource).toBe('objects.kubernetes.crossplane.io');
    expect(step?.actsAs.name).toBe('provider-kubernetes');
    expect(step?.why).toContain('may: no ProviderConfig exists');
  });

  it('every ProviderConfig uses a Secret: no provider-identity step', async () => {
    server.seed([
      {
        apiVersion: 'kubernetes.crossplane.io/v1alpha1',
        kind: 'ProviderConfig',
        metadata: { name: 'remote' },
        spec: { credentials: source('Secret') },
      },
      {
        apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
        kind: 'ProviderConfig',
        metadata: { name: 'remote', namespace: 'team-a' },
        spec: { credentials: source('Secret') },
      },
    ]);
    const r = await audit(admin);
    expect(r.code).toBe(0);
    expect(r.report.unseen).toStrictEqual([]);
    expect(identitySteps(r.report)).toStrictEqual([]);
  });

  it('a RoleBinding grants no cluster-scoped ProviderConfig kind: the step follows the server’s SubjectAccessReview', async () => {
    // Only team-a's ProviderConfig (a Secret) serves the namespaced Objects made there; the user's RoleBinding in
    // team-a names a role with create on ClusterProviderConfigs, which it grants on none (cluster-scoped).
    const M = 'kubernetes.m.crossplane.io';
    const role = (resources: string[]) => ({
      apiVersion: rbac,
      kind: 'ClusterRole',
      metadata: { name: 'team-a-objects' },
      rules: [{ apiGroups: [M], resources: ['objects', ...resources], verbs: ['create'] }],
    });
    server.seed([
      role(['clusterproviderconfigs']),
      {
        apiVersion: rbac,
        kind: 'RoleBinding',
        metadata: { name: 'team-a-objects', namespace: 'team-a' },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'team-a-objects' },
        subjects: [{ apiGroup: RBAC, kind: 'User', name: 'ns-objector' }],
      },
    ]);
    const may = (resource: string, namespace?: string) =>
      subjectAccessReview(
        server.url,
        { user: 'ns-objector', groups: ['system:authenticated'] },
        { verb: 'create', apiGroup: M, resource, ...(namespace !== undefined ? { namespace } : {}) },
      );
    expect(await may('clusterproviderconfigs')).toBe(false);
    const before = await audit(admin, 'ns-objector');
    expect(identitySteps(before.report)).toStrictEqual([]);
    // With create on namespaced ProviderConfigs, one of its own in team-a makes the step certain.
    server.seed([role(['providerconfigs'])]);
    expect(await may('providerconfigs', 'team-a')).toBe(true);
    const [step, ...more] = identitySteps((await audit(admin, 'ns-objector')).report);
    expect(more).toStrictEqual([]);
    expect(step?.trigger.resource).toBe(`objects.${M}`);
    expect(step?.why).toContain(
      `every ProviderConfig uses another credentials source, but it may create providerconfigs.${M} in team-a with credentials source InjectedIdentity`,
    );
  });

  it('a ClusterProviderConfig of the .m. group uses InjectedIdentity: the step is certain', async () => {
    server.seed([
      {
        apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
        kind: 'ClusterProviderConfig',
        metadata: { name: 'in-cluster' },
        spec: { credentials: source('InjectedIdentity') },
      },
    ]);
    const r = await audit(admin);
    const [step, ...more] = identitySteps(r.report);
    expect(more).toStrictEqual([]);
    // It serves the namespaced Objects only; a cluster-scoped Object names a ProviderConfig of its own group.
    expect(step?.trigger.resource).toBe('objects.kubernetes.m.crossplane.io');
    expect(step?.why).toContain(
      '(ClusterProviderConfig in-cluster (kubernetes.m.crossplane.io) uses InjectedIdentity)',
    );
    expect(step?.why).not.toContain('may:');
    expect(r.report.findings.find((f) => f.steps[0] === step)?.capability).toBe('cluster-admin');
  });

  it('a caller who may not read ProviderConfigs: "may", each kind unseen, exit 2 as any partial audit', async () => {
    const r = await audit(limited);
    expect(r.code).toBe(2);
    expect(r.report.unseen.filter((u) => u.part === 'providerConfigs').map((u) => u.what)).toStrictEqual([
      'clusterproviderconfigs.kubernetes.m.crossplane.io',
      'providerconfigs.kubernetes.crossplane.io',
      'providerconfigs.kubernetes.m.crossplane.io',
    ]);
    const [step] = identitySteps(r.report);
    expect(step?.why).toContain('may: its ProviderConfigs could not all be read');
    expect(r.stderr).toContain('the audit is partial');
  });

  it('a caller who may list Namespaces but Deployments in team-a only: one LIST there, no refused LIST per namespace', async () => {
    const lister = userKubeconfig(server, dir, 'ns-lister');
    const bind = (kind: string, name: string, namespace?: string) => ({
      apiVersion: rbac,
      kind: namespace === undefined ? 'ClusterRoleBinding' : 'RoleBinding',
      metadata: { name: `ns-lister-${name}`, ...(namespace !== undefined ? { namespace } : {}) },
      roleRef: { apiGroup: RBAC, kind, name },
      subjects: [{ apiGroup: RBAC, kind: 'User', name: 'ns-lister' }],
    });
    server.seed([
      {
        apiVersion: rbac,
        kind: 'ClusterRole',
        metadata: { name: 'audit-reader-no-deployments' },
        rules: [
          {
            apiGroups: [RBAC],
            resources: ['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings'],
            verbs: ['get', 'list'],
          },
          { apiGroups: [''], resources: ['namespaces'], verbs: ['list'] },
          { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] },
          {
            apiGroups: [
              'pkg.crossplane.io',
              'apiextensions.crossplane.io',
              'kubernetes.crossplane.io',
              'kubernetes.m.crossplane.io',
            ],
            resources: ['*'],
            verbs: ['list'],
          },
        ],
      },
      bind('ClusterRole', 'audit-reader-no-deployments'),
      {
        apiVersion: rbac,
        kind: 'Role',
        metadata: { name: 'deployment-lister', namespace: 'team-a' },
        rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['list'] }],
      },
      bind('Role', 'deployment-lister', 'team-a'),
    ]);
    const before = server.counters.get('list', 'deployments');
    const r = await audit(lister);
    // The cluster-wide LIST (refused), then team-a's alone: 13 namespaces, no refused LIST in the other 12.
    expect(server.counters.get('list', 'deployments') - before).toBe(2);
    const deployments = r.report.unseen.find((u) => u.part === 'deployments') as
      { readIn?: string } | undefined;
    expect(deployments?.readIn).toBe('team-a');
    expect(r.code).toBe(2);
  });

  it('across contexts, a partial context prints its report marked partial, and the run exits 2 as one partial run', async () => {
    const contexts = (file: string, name: string) => {
      const k = parse(readFileSync(file, 'utf8')) as Record<string, { name: string }[]>;
      const one = (key: string) => (k[key] ?? []).slice(0, 1).map((e) => ({ ...e, name }));
      return {
        clusters: one('clusters'),
        users: one('users'),
        contexts: [{ name, context: { cluster: name, user: name } }],
      };
    };
    const [whole, part] = [contexts(admin, 'whole'), contexts(limited, 'part')];
    const both = join(dir, 'both.kubeconfig');
    writeFileSync(
      both,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        'current-context': 'whole',
        clusters: [...whole.clusters, ...part.clusters],
        users: [...whole.users, ...part.users],
        contexts: [...whole.contexts, ...part.contexts],
      }),
    );
    const alone = await audit(limited);
    const args = ['audit', '--kubeconfig', both, '--contexts', 'whole,part', '--subject', 'User:objector'];
    const json = await runPlugin([...args, '-o', 'json']);
    expect(json.code).toBe(alone.code);
    const items = (
      JSON.parse(json.stdout) as { items: { context: string; result?: Report; partial?: boolean }[] }
    ).items;
    const partial = items.find((i) => i.context === 'part');
    expect(partial?.partial).toBe(true);
    expect(partial?.result).toStrictEqual(alone.report);
    expect(items.find((i) => i.context === 'whole')?.partial).toBeUndefined();
    expect(json.stderr).toContain('2 contexts: 1 ok, 0 drifted or denied, 1 partial, 0 failed');
    const table = await runPlugin(args);
    expect(table.code).toBe(2);
    expect(table.stdout.split('\n').filter((l) => l.startsWith('part '))).not.toStrictEqual([]);
  });

  it('a revision whose status.objectRefs a status writer emptied: its package still names provider-kubernetes, so its ProviderConfigs are read and the step stays, as "may"', async () => {
    // status.objectRefs is reported by the package manager through the status subresource; spec.image is the
    // package (crossplane apis/pkg/v1/revision_types.go@07b8dfc66a53814fe9ff3e3d17735928a8d45064).
    const revision = server.get('providerrevisions', REVISION) as { status: unknown };
    server.seed([{ ...revision, status: { objectRefs: [] } }]);
    const r = await audit(admin);
    expect(r.report.unseen).toStrictEqual([]);
    const [step, ...more] = identitySteps(r.report);
    expect(more).toStrictEqual([]);
    expect(step?.actsAs.name).toBe('provider-kubernetes');
    expect(step?.why).toContain(
      `(may: ProviderRevision ${REVISION}'s package is provider-kubernetes (spec.image xpkg.crossplane.io/crossplane-contrib/provider-kubernetes:v1.2.1), but its status.objectRefs name none of its kinds`,
    );
    expect(step?.why).toContain(
      'ClusterProviderConfig in-cluster (kubernetes.m.crossplane.io) uses InjectedIdentity',
    );
  });
  it('a renamed package (a mirror’s name) whose status.objectRefs were emptied: the CRD it controls still names it, as "may"', async () => {
    // The package manager makes the active revision the controller of each CRD it installs (crossplane
    // internal/controller/pkg/revision/establisher.go@2d040d2daf4e001799c4154a4a09b9e1f40d7fde, create); only
    // administrators write CRDs, so a status writer cannot move it.
    const revision = server.get('providerrevisions', REVISION) as {
      metadata: { uid: string };
      spec: Record<string, unknown>;
    };
    const mirror = 'registry.example.com/platform/k8s-provider:v1.2.1';
    server.seed([{ ...revision, spec: { ...revision.spec, image: mirror }, status: { objectRefs: [] } }]);
    expect(identitySteps((await audit(admin)).report)).toStrictEqual([]);
    const crd = server.get('customresourcedefinitions', 'objects.kubernetes.m.crossplane.io') as {
      metadata: Record<string, unknown>;
    };
    const owner = { apiVersion: 'pkg.crossplane.io/v1', kind: 'ProviderRevision', name: REVISION };
    server.seed([
      {
        ...crd,
        metadata: {
          ...crd.metadata,
          ownerReferences: [
            { ...owner, uid: revision.metadata.uid, controller: true, blockOwnerDeletion: true },
          ],
        },
      },
    ]);
    const r = await audit(admin);
    expect(r.report.unseen).toStrictEqual([]);
    const [step, ...more] = identitySteps(r.report);
    expect(more).toStrictEqual([]);
    expect(step?.trigger.resource).toBe('objects.kubernetes.m.crossplane.io');
    expect(step?.actsAs.name).toBe('provider-kubernetes');
    expect(step?.why).toContain(
      `(may: CustomResourceDefinition objects.kubernetes.m.crossplane.io's controller is ProviderRevision ${REVISION}, but its status.objectRefs do not name it`,
    );
    expect(step?.why).toContain(
      'ClusterProviderConfig in-cluster (kubernetes.m.crossplane.io) uses InjectedIdentity',
    );
  });
  it('a reader who may list namespaced ProviderConfigs in team-a only: for Objects made in team-a they are known, as an administrator sees them', async () => {
    const M = 'kubernetes.m.crossplane.io';
    // The revision as installed (its status restored), and no ProviderConfig using InjectedIdentity.
    server.seed([
      installedRevision(),
      {
        apiVersion: `${M}/v1alpha1`,
        kind: 'ClusterProviderConfig',
        metadata: { name: 'in-cluster' },
        spec: { credentials: source('Secret') },
      },
      ...grantToUser('pc-reader', 'pc-reader', [
        {
          apiGroups: [RBAC],
          resources: ['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings'],
          verbs: ['get', 'list'],
        },
        { apiGroups: ['', 'apps'], resources: ['namespaces', 'deployments'], verbs: ['list'] },
        { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get'] },
        {
          apiGroups: ['pkg.crossplane.io', 'apiextensions.crossplane.io', 'kubernetes.crossplane.io'],
          resources: ['*'],
          verbs: ['list'],
        },
        { apiGroups: [M], resources: ['clusterproviderconfigs'], verbs: ['list'] },
      ]),
      {
        apiVersion: rbac,
        kind: 'Role',
        metadata: { name: 'pc-lister', namespace: 'team-a' },
        rules: [{ apiGroups: [M], resources: ['providerconfigs'], verbs: ['list'] }],
      },
      {
        apiVersion: rbac,
        kind: 'RoleBinding',
        metadata: { name: 'pc-lister', namespace: 'team-a' },
        roleRef: { apiGroup: RBAC, kind: 'Role', name: 'pc-lister' },
        subjects: [{ apiGroup: RBAC, kind: 'User', name: 'pc-reader' }],
      },
    ]);
    const asAdmin = identitySteps((await audit(admin, 'ns-objector')).report);
    const r = await audit(userKubeconfig(server, dir, 'pc-reader'), 'ns-objector');
    expect(r.report.unseen).toStrictEqual([
      expect.objectContaining({ part: 'providerConfigs', what: `providerconfigs.${M}`, readIn: 'team-a' }),
    ]);
    const steps = identitySteps(r.report);
    expect(steps[0]?.why).toContain('every ProviderConfig uses another credentials source');
    expect(steps.map((s) => s.why)).toStrictEqual(asAdmin.map((s) => s.why));
  });
});
