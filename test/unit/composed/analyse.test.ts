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
// The source component of composite resources' events: crossplane/crossplane
// internal/controller/apiextensions/definition/reconciler.go Setup, "defined/" +
// strings.ToLower(CompositeResourceDefinitionGroupKind) (@2d040d2daf4e001799c4154a4a09b9e1f40d7fde).
const XR_SOURCE = 'defined/compositeresourcedefinition.apiextensions.crossplane.io';
const APP = { group: 'platform.acme.io', kind: 'App' };

/** A Warning Event as Crossplane's composite controller records it about App team-a/web, with MESSAGE. */
function crossplaneEvent(name: string, message: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: 'team-a' },
    type: 'Warning',
    involvedObject: {
      apiVersion: 'platform.acme.io/v1alpha1',
      kind: 'App',
      name: 'web',
      namespace: 'team-a',
    },
    source: { component: XR_SOURCE },
    reportingComponent: XR_SOURCE,
    message,
  };
}

/** The API server's forbidden message for USER (apiserver responsewriters forbiddenMessage, NewForbidden). */
function forbidden(user: string, verb: string, resource: string, group: string, ns?: string): string {
  const scope = ns === undefined ? 'at the cluster scope' : `in the namespace "${ns}"`;
  const qualified = group === '' ? resource : `${resource}.${group}`;
  return `${qualified} "x" is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "${group}" ${scope}`;
}

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
    compositeKinds: [APP],
    events: [],
    operations: [],
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

  it('GrantsFromV1ResourcesModeAndWatchesAndOnlyReportsRefsConditionsAndEvents', () => {
    // Before issue 37 the XR's resourceRefs, its condition and the Event each added a rule: whoever could create the
    // XR or an Event steered Crossplane's grants. Now they are evidence, reported with what the account lacks.
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
            message: `cannot apply composed resource "netpol": ${forbidden(USER, 'patch', 'networkpolicies', 'networking.k8s.io', 'team-a')}`,
          },
        ],
      },
    };
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
        events: [
          crossplaneEvent('e1', forbidden(USER, 'get', 'ingresses', 'networking.k8s.io', 'team-a')),
          crossplaneEvent('e2', forbidden('alice', 'get', 'cronjobs', 'batch', 'team-a')),
        ],
        operations: [watch],
      }),
    );
    expect(a.grants.map((g) => `${g.status} ${g.resource}.${g.group} ${g.access}`)).toEqual([
      'missing statefulsets.apps read',
      'missing jobs.batch write',
      'reported ingresses.networking.k8s.io write',
      'reported networkpolicies.networking.k8s.io write',
      'reported poddisruptionbudgets.policy write',
    ]);
    expect(a.grants[0]?.lacking).toEqual(['get', 'list', 'watch']);
    expect(a.grants.find((g) => g.resource === 'ingresses')?.lacking).toEqual(ALL_VERBS);
    // alice's denial is not Crossplane's: no cronjobs at all.
    expect(a.grants.some((g) => g.resource === 'cronjobs')).toBe(false);
    expect(a.roles.map((r) => [r.metadata.name, r.rules])).toEqual([
      [
        'crossplane:composed:apps',
        [{ apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['get', 'list', 'watch'] }],
      ],
      ['crossplane:composed:batch', [{ apiGroups: ['batch'], resources: ['jobs'], verbs: ALL_VERBS }]],
    ]);
    expect(a.grants.find((g) => g.resource === 'networkpolicies')?.evidence).toEqual([
      { source: 'Denial', via: 'Condition', kind: 'App', name: 'web', namespace: 'team-a', verb: 'patch' },
    ]);
  });

  it('NoForgedEventOrReferenceGrantsHoldsOrRefuses', () => {
    // The attack of issue 37: an Event mimicking Crossplane's, and a paused XR with forged references.
    const event = crossplaneEvent(
      'forged',
      [
        forbidden(USER, 'patch', 'nodes', ''),
        forbidden(USER, 'patch', 'persistentvolumes', ''),
        forbidden(USER, 'patch', 'daemonsets', 'apps', 'team-a'),
        forbidden(USER, 'create', 'clusterrolebindings', 'rbac.authorization.k8s.io'),
      ].join('; '),
    );
    const xr: KubeObject = {
      apiVersion: 'platform.acme.io/v1alpha1',
      kind: 'App',
      metadata: { name: 'forged', namespace: 'team-a', annotations: { 'crossplane.io/paused': 'true' } },
      spec: {
        crossplane: {
          resourceRefs: [
            { apiVersion: 'v1', kind: 'Pod', name: 'x' },
            { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: 'x' },
            { apiVersion: 'v1', kind: 'Secret', name: 'x' },
          ],
        },
      },
    };
    for (const allowPrivileged of [false, true]) {
      const a = analyseComposed(input({ events: [event], composites: [xr], allowPrivileged }));
      expect(a.roles, `allowPrivileged ${String(allowPrivileged)}`).toEqual([]);
      expect(a.grants.map((g) => `${g.status} ${g.resource}`)).toEqual([
        'reported nodes',
        'reported persistentvolumeclaims',
        'reported persistentvolumes',
        'reported pods',
        'granted secrets', // the chart's role grants secrets: nothing lacking, nothing to report as missing
        'reported daemonsets',
        'reported clusterrolebindings',
      ]);
      expect(a.grants.every((g) => g.privileged === undefined)).toBe(true);
    }
  });

  it('AnEventNotCrossplanesOrNotAboutAnXrIsNoEvidence', () => {
    const about = (kind: string, apiVersion: string): KubeObject => ({
      ...crossplaneEvent(`e-${kind}`, forbidden(USER, 'patch', 'nodes', '')),
      involvedObject: { apiVersion, kind, name: 'web', namespace: 'team-a' },
    });
    const otherComponent: KubeObject = {
      ...crossplaneEvent('e-other', forbidden(USER, 'patch', 'nodes', '')),
      source: { component: 'kubelet' },
      reportingComponent: 'kubelet',
    };
    const a = analyseComposed(
      input({
        events: [about('Deployment', 'apps/v1'), about('App', 'evil.example.org/v1'), otherComponent],
      }),
    );
    expect(a.grants).toEqual([]);
    expect(a.unresolved).toEqual([]);
  });

  it('EvidenceNeverWidensAGrant', () => {
    // A WatchOperation watches StatefulSets (read); an XR naming one as composed does not make the rule write.
    const watch: KubeObject = {
      apiVersion: 'ops.crossplane.io/v1alpha1',
      kind: 'WatchOperation',
      metadata: { name: 'w' },
      spec: { watch: { apiVersion: 'apps/v1', kind: 'StatefulSet' } },
    };
    const xr: KubeObject = {
      apiVersion: 'platform.acme.io/v1alpha1',
      kind: 'App',
      metadata: { name: 'web', namespace: 'team-a' },
      spec: { crossplane: { resourceRefs: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' }] } },
    };
    const a = analyseComposed(input({ operations: [watch], composites: [xr] }));
    expect(a.grants.map((g) => `${g.status} ${g.resource} ${g.access}`)).toEqual([
      'missing statefulsets read',
    ]);
    expect(a.roles[0]?.rules).toEqual([
      { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['get', 'list', 'watch'] },
    ]);
  });

  it('RevisionsAndOperationsGrant', () => {
    const revision: KubeObject = {
      ...pt('app-1a2b3c', [['cron', 'batch/v1', 'CronJob']]),
      kind: 'CompositionRevision',
    };
    const op: KubeObject = {
      apiVersion: 'ops.crossplane.io/v1alpha1',
      kind: 'CronOperation',
      metadata: { name: 'nightly' },
      spec: {
        operationTemplate: {
          spec: {
            mode: 'Pipeline',
            pipeline: [
              {
                step: 'scan',
                functionRef: { name: 'function-python' },
                requirements: {
                  requiredResources: [{ requirementName: 'pvs', apiVersion: 'v1', kind: 'PersistentVolume' }],
                },
              },
            ],
          },
        },
      },
    };
    const a = analyseComposed(input({ compositions: [revision], operations: [op] }));
    expect(a.grants.map((g) => `${g.status} ${g.resource} ${g.access}`)).toEqual([
      'missing persistentvolumes read',
      'missing cronjobs write',
    ]);
    expect(a.roles.map((r) => r.metadata.name)).toEqual([
      'crossplane:composed:batch',
      'crossplane:composed:core',
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
    const event = crossplaneEvent(
      'e',
      `x is forbidden: User "${USER}" cannot get resource "*" in API group "*" at the cluster scope`,
    );
    const a = analyseComposed(input({ events: [event] }));
    expect(a.roles).toEqual([]);
    expect(a.unresolved.map((u) => u.name)).toEqual(['*.*']);
  });
});

function fail(): never {
  throw new Error('unreachable');
}
