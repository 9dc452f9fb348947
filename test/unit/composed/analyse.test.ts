import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { analyseComposed, type ComposedInput } from '../../../src/composed/analyse.js';
import { builtinResources, resourceOfCrd } from '../../../src/crossplane/resolve-resource.js';
import type { ClusterRole, ClusterRoleBinding, KubeObject, RoleBinding } from '../../../src/kube/types.js';

// Crossplane 2.1.0's chart as the example cluster holds it: the `crossplane` ClusterRole aggregating
// `rbac.crossplane.io/aggregate-to-crossplane`, its system role, and the binding to the crossplane account.
const chart = parseAllDocuments(
  readFileSync(path.join(import.meta.dirname, '../../../examples/cluster/20-crossplane.yaml'), 'utf8'),
).map((d) => d.toJS() as KubeObject);
const clusterRoles = chart.filter((o): o is ClusterRole => o.kind === 'ClusterRole');
const clusterRoleBindings = chart.filter((o): o is ClusterRoleBinding => o.kind === 'ClusterRoleBinding');

const ACCOUNT = { namespace: 'crossplane-system', name: 'crossplane' };
const USER = 'system:serviceaccount:crossplane-system:crossplane';

function pt(name: string, resources: [string, string, string][]): KubeObject {
  return {
    apiVersion: 'apiextensions.crossplane.io/v1',
    kind: 'Composition',
    metadata: { name },
    spec: {
      mode: 'Pipeline',
      pipeline: [
        {
          step: 'patch-and-transform',
          functionRef: { name: 'function-patch-and-transform' },
          input: {
            apiVersion: 'pt.fn.crossplane.io/v1beta1',
            kind: 'Resources',
            resources: resources.map(([n, apiVersion, kind]) => ({ name: n, base: { apiVersion, kind } })),
          },
        },
      ],
    },
  };
}

function input(over: Partial<ComposedInput>): ComposedInput {
  return {
    compositions: [],
    composites: [],
    events: [],
    watchOperations: [],
    known: builtinResources(),
    rbac: { clusterRoles, clusterRoleBindings, roleBindings: [], roles: [] },
    account: ACCOUNT,
    allowPrivileged: false,
    ...over,
  };
}

const ALL_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

describe('analyseComposed', () => {
  it('GrantsOnlyWhatTheChartRoleLacks', () => {
    const a = analyseComposed(
      input({
        compositions: [
          pt('app', [
            ['deploy', 'apps/v1', 'Deployment'], // the chart grants deployments
            ['cm', 'v1', 'ConfigMap'], // and configmaps
            ['cron', 'batch/v1', 'CronJob'],
            ['job', 'batch/v1', 'Job'],
            ['ing', 'networking.k8s.io/v1', 'Ingress'],
            ['quota', 'v1', 'ResourceQuota'],
          ]),
        ],
      }),
    );
    expect(a.account).toBe(USER);
    expect(a.grants.map((g) => [g.status, g.group, g.resource])).toEqual([
      ['granted', '', 'configmaps'],
      ['missing', '', 'resourcequotas'],
      ['granted', 'apps', 'deployments'],
      ['missing', 'batch', 'cronjobs'],
      ['missing', 'batch', 'jobs'],
      ['missing', 'networking.k8s.io', 'ingresses'],
    ]);
    const labels = {
      'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
      'rbac.crossplane.io/aggregate-to-crossplane': 'true',
    };
    expect(a.roles).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'crossplane:composed:batch', labels },
        rules: [{ apiGroups: ['batch'], resources: ['cronjobs', 'jobs'], verbs: ALL_VERBS }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'crossplane:composed:core', labels },
        rules: [{ apiGroups: [''], resources: ['resourcequotas'], verbs: ALL_VERBS }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'crossplane:composed:networking.k8s.io', labels },
        rules: [{ apiGroups: ['networking.k8s.io'], resources: ['ingresses'], verbs: ALL_VERBS }],
      },
    ]);
  });

  it('AsksOnlyForTheVerbsTheAccountLacks', () => {
    // The chart grants events create, update, patch and delete, not get, list or watch.
    const a = analyseComposed(input({ compositions: [pt('ev', [['e', 'v1', 'Event']])] }));
    expect(a.grants[0]).toMatchObject({
      status: 'missing',
      resource: 'events',
      lacking: ['get', 'list', 'watch'],
    });
  });

  it('CountsOnlyClusterWideGrantsAndOnlyThisAccount', () => {
    const role: ClusterRole = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'cron' },
      rules: [{ apiGroups: ['batch'], resources: ['cronjobs'], verbs: ['*'] }],
    };
    const other: ClusterRoleBinding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'cron-other' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cron' },
      subjects: [{ kind: 'ServiceAccount', name: 'crossplane', namespace: 'elsewhere' }],
    };
    const comp = [pt('c', [['cron', 'batch/v1', 'CronJob']])];
    const inNamespace: RoleBinding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'cron', namespace: 'team-a' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cron' },
      subjects: [{ kind: 'ServiceAccount', name: 'crossplane', namespace: 'crossplane-system' }],
    };
    const rbac = {
      clusterRoles: [...clusterRoles, role],
      clusterRoleBindings: [...clusterRoleBindings, other],
      roleBindings: [inNamespace],
      roles: [],
    };
    expect(analyseComposed(input({ compositions: comp, rbac })).grants[0]?.status).toBe('missing');
    const bound: ClusterRoleBinding = {
      ...other,
      metadata: { name: 'cron-mine' },
      subjects: [{ kind: 'ServiceAccount', name: 'crossplane', namespace: 'crossplane-system' }],
    };
    const granted = analyseComposed(
      input({
        compositions: comp,
        rbac: { ...rbac, clusterRoleBindings: [...rbac.clusterRoleBindings, bound] },
      }),
    );
    expect(granted.grants[0]?.status).toBe('granted');
    expect(granted.roles).toEqual([]);
  });

  it('CountsWhatAggregationWillBring', () => {
    // A role labelled for aggregation into `crossplane` that the controller has not stored yet still counts.
    const labelled: ClusterRole = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'extra', labels: { 'rbac.crossplane.io/aggregate-to-crossplane': 'true' } },
      rules: [{ apiGroups: ['batch'], resources: ['cronjobs'], verbs: ALL_VERBS }],
    };
    const a = analyseComposed(
      input({
        compositions: [pt('c', [['cron', 'batch/v1', 'CronJob']])],
        rbac: { clusterRoles: [...clusterRoles, labelled], clusterRoleBindings, roleBindings: [], roles: [] },
      }),
    );
    expect(a.grants[0]?.status).toBe('granted');
  });

  it('RefusesRbacWritesWithoutTheFlag', () => {
    const comp = [pt('tenant', [['rb', 'rbac.authorization.k8s.io/v1', 'RoleBinding']])];
    const refused = analyseComposed(input({ compositions: comp }));
    expect(refused.grants[0]).toMatchObject({ status: 'refused', resource: 'rolebindings' });
    expect(refused.grants[0]?.privileged).toMatch(/rolebindings\.rbac\.authorization\.k8s\.io/);
    expect(refused.roles).toEqual([]);
    const allowed = analyseComposed(input({ compositions: comp, allowPrivileged: true }));
    expect(allowed.roles.map((r) => r.metadata.name)).toEqual([
      'crossplane:composed:rbac.authorization.k8s.io',
    ]);
  });

  it('ListsOtherFunctionsAsNotAnalysed', () => {
    const templated: KubeObject = {
      apiVersion: 'apiextensions.crossplane.io/v1',
      kind: 'Composition',
      metadata: { name: 'templated' },
      spec: {
        mode: 'Pipeline',
        pipeline: [
          {
            step: 'render',
            functionRef: { name: 'function-go-templating' },
            input: { apiVersion: 'gotemplating.fn.crossplane.io/v1beta1', kind: 'GoTemplate' },
          },
          { step: 'ready', functionRef: { name: 'function-auto-ready' } },
        ],
      },
    };
    const a = analyseComposed(input({ compositions: [templated] }));
    expect(a.notAnalysed).toEqual([
      { composition: 'templated', step: 'ready', function: 'function-auto-ready' },
      { composition: 'templated', step: 'render', function: 'function-go-templating' },
    ]);
    expect(a.grants).toEqual([]);
  });

  it('ReadsV1ResourcesModeCompositeRefsWatchesAndDenials', () => {
    const v1: KubeObject = {
      apiVersion: 'apiextensions.crossplane.io/v1',
      kind: 'Composition',
      metadata: { name: 'legacy' },
      spec: { resources: [{ name: 'migrate', base: { apiVersion: 'batch/v1', kind: 'Job' } }] },
    };
    const xr: KubeObject = {
      apiVersion: 'platform.acme.io/v1alpha1',
      kind: 'App',
      metadata: { name: 'web', namespace: 'team-a' },
      spec: {
        crossplane: { resourceRefs: [{ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', name: 'web' }] },
      },
      status: {
        conditions: [
          {
            type: 'Synced',
            status: 'False',
            message: `cannot apply composed resource "netpol": networkpolicies.networking.k8s.io "web" is forbidden: User "${USER}" cannot patch resource "networkpolicies" in API group "networking.k8s.io" in the namespace "team-a"`,
          },
        ],
      },
    };
    const event = (user: string, resource: string, group: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `e-${resource}`, namespace: 'team-a' },
      type: 'Warning',
      involvedObject: { kind: 'App', name: 'web', namespace: 'team-a' },
      message: `${resource}.${group} "x" is forbidden: User "${user}" cannot get resource "${resource}" in API group "${group}" in the namespace "team-a"`,
    });
    const watch: KubeObject = {
      apiVersion: 'ops.crossplane.io/v1alpha1',
      kind: 'WatchOperation',
      metadata: { name: 'w' },
      spec: { watch: { apiVersion: 'apps/v1', kind: 'StatefulSet' } },
    };
    const a = analyseComposed(
      input({
        compositions: [v1],
        composites: [xr],
        events: [event(USER, 'ingresses', 'networking.k8s.io'), event('alice', 'cronjobs', 'batch')],
        watchOperations: [watch],
      }),
    );
    expect(a.grants.map((g) => `${g.status} ${g.resource}.${g.group} ${g.access}`)).toEqual([
      'missing statefulsets.apps read',
      'missing jobs.batch write',
      'missing ingresses.networking.k8s.io write',
      'missing networkpolicies.networking.k8s.io write',
      'missing poddisruptionbudgets.policy write',
    ]);
    expect(a.grants[0]?.lacking).toEqual(['get', 'list', 'watch']);
    // alice's denial is not Crossplane's: no cronjobs.
    expect(a.grants.some((g) => g.resource === 'cronjobs')).toBe(false);
    const apps = a.roles.find((r) => r.metadata.name === 'crossplane:composed:apps');
    expect(apps?.rules).toEqual([
      { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['get', 'list', 'watch'] },
    ]);
    expect(a.grants.find((g) => g.resource === 'networkpolicies')?.evidence).toEqual([
      { source: 'Denial', via: 'Condition', kind: 'App', name: 'web', namespace: 'team-a', verb: 'patch' },
    ]);
  });

  it('ListsKindsTheClusterDoesNotServe', () => {
    const crd: KubeObject = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'clusters.postgresql.cnpg.io' },
      spec: {
        group: 'postgresql.cnpg.io',
        names: { plural: 'clusters', singular: 'cluster', kind: 'Cluster' },
        scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true }],
      },
    };
    const comp = [pt('db', [['pg', 'postgresql.cnpg.io/v1', 'Cluster']])];
    const without = analyseComposed(input({ compositions: comp }));
    expect(without.unresolved.map((u) => u.name)).toEqual(['Cluster.v1.postgresql.cnpg.io']);
    expect(without.roles).toEqual([]);
    const withCrd = analyseComposed(
      input({ compositions: comp, known: [...builtinResources(), resourceOfCrd(crd) ?? fail()] }),
    );
    expect(withCrd.unresolved).toEqual([]);
    expect(withCrd.roles[0]?.rules).toEqual([
      { apiGroups: ['postgresql.cnpg.io'], resources: ['clusters'], verbs: ALL_VERBS },
    ]);
  });

  it('NeverGrantsAResourceOnlyAMessageNames', () => {
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e', namespace: 'a' },
      type: 'Warning',
      message: `x is forbidden: User "${USER}" cannot get resource "*" in API group "*" at the cluster scope`,
    };
    const a = analyseComposed(input({ events: [event] }));
    expect(a.roles).toEqual([]);
    expect(a.unresolved.map((u) => u.name)).toEqual(['*.*']);
  });
});

function fail(): never {
  throw new Error('unreachable');
}
