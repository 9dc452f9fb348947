// Issue #12 safety behaviour of the commands against a fake cluster: privileged binds, the cluster-admin warning,
// the summarised missing-permissions error and its full list with -o yaml|json, invalid objects from a cluster.
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_INPUT_SIZE, readManifests } from '../../../src/input/read-manifests.js';
import type { KubeObject, PolicyRule } from '../../../src/kube/types.js';
import { exampleCluster, FakeCluster, runWithFakes } from './bind-fakes.js';

let examples: KubeObject[];
beforeAll(async () => {
  ({ objects: examples } = await readManifests([exampleCluster], {
    readStdin: () => Promise.resolve(''),
    maxBytes: DEFAULT_MAX_INPUT_SIZE,
  }));
});

function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.startsWith('error:'));
}

const SA = ['--service-account', 'flux-system/kustomize-controller'];
/** The account SA names and its namespace: bind checks they exist. */
const FLUX: KubeObject[] = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'flux-system' } },
  {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'kustomize-controller', namespace: 'flux-system' },
  },
];

describe('bind: privileged roles', () => {
  it('RefusedBeforeAnyWriteOrAccessCheck', async () => {
    const cluster = new FakeCluster(examples);
    const r = await runWithFakes(
      ['bind', ...SA, '--role-ref', 'ClusterRole/cluster-admin', '--yes'],
      cluster,
    );
    expect(r.exitCode).toBe(2);
    expect(errorLines(r.stderr)).toStrictEqual([
      'error: refusing to bind a privileged role without --allow-privileged, nothing was written: ClusterRole/cluster-admin grants * on * in every API group',
    ]);
    expect(cluster.writes).toStrictEqual([]);
    expect(cluster.checks).toStrictEqual([]);
  });

  it('AllowPrivilegedBindsItAndSaysSo', async () => {
    const cluster = new FakeCluster([...examples, ...FLUX]);
    const r = await runWithFakes(
      ['bind', ...SA, '--role-ref', 'ClusterRole/cluster-admin', '--allow-privileged', '--yes'],
      cluster,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'warning: binding a privileged role (--allow-privileged): ClusterRole/cluster-admin grants * on * in every API group\n',
    );
    expect(cluster.writes.map((w) => `${w.verb} ${w.kind}`)).toStrictEqual(['create ClusterRoleBinding']);
  });

  it('AnOrdinaryRoleNeedsNoFlag', async () => {
    const cluster = new FakeCluster([...examples, ...FLUX]);
    const r = await runWithFakes(
      ['bind', ...SA, '--role-ref', 'ClusterRole/crossplane-edit', '--yes'],
      cluster,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/privileged/);
  });

  it('ARoleFromTheClusterIsReadToJudgeIt', async () => {
    const role: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'binder', namespace: 'team-a' },
      rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['bind'] }],
    };
    const cluster = new FakeCluster([...examples, ...FLUX, role]);
    const r = await runWithFakes(['bind', ...SA, '--role-ref', 'Role/binder@team-a', '--yes'], cluster);
    expect(errorLines(r.stderr)).toStrictEqual([
      'error: refusing to bind a privileged role without --allow-privileged, nothing was written: Role/team-a/binder grants bind on roles.rbac.authorization.k8s.io',
    ]);
    expect(cluster.writes).toStrictEqual([]);
  });
});

describe('bind: the cluster-admin warning', () => {
  it('DoesNotNameABindingThisRunDeletes', async () => {
    const cluster = new FakeCluster([...examples, ...FLUX]);
    const first = await runWithFakes(
      ['bind', ...SA, '--role-ref', 'ClusterRole/cluster-admin', '--allow-privileged', '--yes'],
      cluster,
    );
    expect(first.exitCode, first.stderr).toBe(0);
    const second = await runWithFakes(['bind', ...SA, '--role-ref', 'ClusterRole/view', '--yes'], cluster);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(cluster.writes.map((w) => `${w.verb} ${w.kind}`)).toStrictEqual([
      'create ClusterRoleBinding',
      'create ClusterRoleBinding',
      'delete ClusterRoleBinding',
    ]);
    expect(second.stderr).not.toMatch(/still bound to cluster-admin/);
  });

  it('StillNamesABindingThatStays', async () => {
    const cluster = new FakeCluster([...examples, ...FLUX]);
    await runWithFakes(
      ['bind', ...SA, '--role-ref', 'ClusterRole/cluster-admin', '--allow-privileged', '--yes'],
      cluster,
    );
    const kept = await runWithFakes(
      ['bind', ...SA, '--role-ref', 'ClusterRole/view', '--no-prune', '--yes'],
      cluster,
    );
    expect(kept.stderr).toMatch(
      /warning: ServiceAccount flux-system\/kustomize-controller is still bound to cluster-admin by ClusterRoleBinding kustomize-controller-clusterrole-cluster-admin-/,
    );
  });
});

describe('sync: missing permissions', () => {
  const noEscalate = (): FakeCluster =>
    new FakeCluster(examples, {
      canI: (c) => c.verb !== 'escalate',
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
    });

  it('TheErrorIsOneShortLineWithCounts', async () => {
    const cluster = noEscalate();
    const r = await runWithFakes(['sync', '--yes'], cluster);
    expect(r.exitCode).toBe(2);
    const [line, ...more] = errorLines(r.stderr);
    expect(more).toStrictEqual([]);
    expect(line).toMatch(
      /^error: not allowed to apply the Crossplane RBAC, nothing was written; missing: escalate clusterroles\.rbac\.authorization\.k8s\.io \(to write roles with an aggregationRule\); escalate clusterroles\.rbac\.authorization\.k8s\.io, or hold the [\d,]+ rules the roles grant that you lack: \* on [\d,]+ resources \(.*\) \(-o yaml or -o json prints them all\)$/,
    );
    expect(line?.length).toBeLessThan(1500);
    expect(line).not.toMatch(/"\*" "\*"/);
    expect(cluster.writes).toStrictEqual([]);
  });

  it('YamlPrintsEveryMissingRule', async () => {
    const planned = await runWithFakes(['sync', '-f', exampleCluster, '-o', 'json']);
    const wanted = new Set<string>();
    for (const o of (JSON.parse(planned.stdout) as { items: { kind: string; rules?: PolicyRule[] }[] })
      .items) {
      if (o.kind !== 'ClusterRole') continue;
      for (const rule of o.rules ?? []) {
        for (const g of rule.apiGroups ?? [])
          for (const res of rule.resources ?? []) {
            for (const v of rule.verbs) wanted.add(`${v} ${res}.${g}`);
          }
      }
    }
    const r = await runWithFakes(['sync', '--yes', '-o', 'yaml'], noEscalate());
    expect(r.exitCode).toBe(2);
    const role = parse(r.stdout) as { kind: string; rules: PolicyRule[] };
    expect(role.kind).toBe('ClusterRole');
    const listed = new Set<string>();
    for (const rule of role.rules) {
      for (const g of rule.apiGroups ?? [])
        for (const res of rule.resources ?? []) {
          for (const v of rule.verbs) listed.add(`${v} ${res}.${g}`);
        }
    }
    const held = 'get configmaps.';
    const unlisted = [...wanted].filter((w) => w !== held && !listed.has(w));
    expect(unlisted).toStrictEqual([]);
    expect(wanted.size).toBeGreaterThan(100);
  });
});

describe('invalid objects from a cluster', () => {
  it('AnXrdWithAWildcardGroupIsHeldAndEverythingElseIsWritten', async () => {
    const bad = {
      apiVersion: 'apiextensions.crossplane.io/v1',
      kind: 'CompositeResourceDefinition',
      metadata: { name: 'evil', uid: 'u-evil' },
      spec: { group: '*', names: { kind: 'X', plural: '*' } },
    } as KubeObject;
    const without = new FakeCluster(examples);
    const alone = await runWithFakes(['sync', '--yes'], without);
    const cluster = new FakeCluster([...examples, bad]);
    const r = await runWithFakes(['sync', '--yes'], cluster);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      'held https://fake.example (context fake): CompositeResourceDefinition "evil": spec.group "*" is not a valid API group: only lower-case letters, digits, "-" and ".", starting and ending with a letter or digit\n',
    );
    expect(errorLines(r.stderr)).toStrictEqual([
      'error: 1 owner is held: its roles were left untouched (listed above); everything else was written',
    ]);
    expect(alone.exitCode).toBe(0);
    const keys = (c: FakeCluster): string[] =>
      c.writes.map((w) => `${w.kind}/${w.namespace ?? ''}/${w.name}`).sort();
    expect(keys(without).length).toBeGreaterThan(200);
    expect(keys(cluster), 'every other object is written, exactly as without the bad XRD').toStrictEqual(
      keys(without),
    );
  });
});
