import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { analyseComposed, type ComposedInput } from '../../../src/composed/analyse.js';
import { composedView } from '../../../src/composed/report.js';
// The report in words is the CLI's (cli/composed-report.ts); the core returns the analysis.
import { formatComposedReport, REPORTED_ONLY } from '../../../src/cli/composed-report.js';
import { builtinResources } from '../../../src/crossplane/resolve-resource.js';
import type { ClusterRole, ClusterRoleBinding, KubeObject } from '../../../src/kube/types.js';

// The chart's roles as examples/cluster holds them (Crossplane 2.1.0): `crossplane` aggregates
// rbac.crossplane.io/aggregate-to-crossplane and is bound to crossplane-system/crossplane.
const chart = parseAllDocuments(
  readFileSync(path.join(import.meta.dirname, '../../../examples/cluster/20-crossplane.yaml'), 'utf8'),
).map((d) => d.toJS() as KubeObject);
const clusterRoles = chart.filter((o): o is ClusterRole => o.kind === 'ClusterRole');
const clusterRoleBindings = chart.filter((o): o is ClusterRoleBinding => o.kind === 'ClusterRoleBinding');
const ALL_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

function composition(kinds: [string, string][]): KubeObject {
  return {
    apiVersion: 'apiextensions.crossplane.io/v1',
    kind: 'Composition',
    metadata: { name: 'c' },
    spec: {
      mode: 'Pipeline',
      pipeline: [
        {
          step: 'pt',
          functionRef: { name: 'function-patch-and-transform' },
          input: {
            apiVersion: 'pt.fn.crossplane.io/v1beta1',
            kind: 'Resources',
            resources: kinds.map(([apiVersion, kind], i) => ({
              name: `r${String(i)}`,
              base: { apiVersion, kind },
            })),
          },
        },
      ],
    },
  };
}

/** A ClusterRole aggregated into Crossplane's (labelled), granting every compose verb on RESOURCE of GROUP. */
function labelled(name: string, group: string, resource: string, managed = false): ClusterRole {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name,
      labels: {
        'rbac.crossplane.io/aggregate-to-crossplane': 'true',
        ...(managed ? { 'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac' } : {}),
      },
    },
    rules: [{ apiGroups: [group], resources: [resource], verbs: ALL_VERBS }],
  };
}

const rbacWith = (extra: ClusterRole[]): ComposedInput['rbac'] => ({
  clusterRoles: [...clusterRoles, ...extra],
  clusterRoleBindings,
  roleBindings: [],
  roles: [],
});

function input(over: Partial<ComposedInput>): ComposedInput {
  return {
    compositions: [
      composition([
        ['batch/v1', 'CronJob'],
        ['batch/v1', 'Job'],
        ['apps/v1', 'Deployment'],
      ]),
    ],
    composites: [],
    compositeKinds: [{ group: 'platform.acme.io', kind: 'App' }],
    events: [],
    operations: [],
    known: builtinResources(),
    rbac: rbacWith([]),
    account: { namespace: 'crossplane-system', name: 'crossplane' },
    allowPrivileged: false,
    ...over,
  };
}

const statuses = (i: ComposedInput): Record<string, string> =>
  Object.fromEntries(composedView(analyseComposed(i), []).resources.map((r) => [r.resource, r.status]));

describe('composed: the status a user reads', () => {
  it('GrantedMissingAndGrantedOnlyAfterAPlainSync', () => {
    // Judged against sync's other roles (RBAC), a provider-like role grants jobs; it is not in the cluster yet (NOW).
    const jobs = labelled('provider-like', 'batch', 'jobs');
    const i = input({ rbac: rbacWith([jobs]), now: rbacWith([]) });
    expect(statuses(i)).toStrictEqual({
      'deployments.apps': 'granted', // the chart's own role
      'cronjobs.batch': 'missing',
      'jobs.batch': 'after-sync',
    });
    const view = composedView(analyseComposed(i), []);
    const jobsRow = view.resources.find((r) => r.resource === 'jobs.batch');
    // What the account lacks now: every verb; nothing for the composed part to write.
    expect(jobsRow?.lacking).toStrictEqual(ALL_VERBS);
    expect(jobsRow?.role).toBeUndefined();
    expect(view.resources.find((r) => r.resource === 'cronjobs.batch')?.role).toBe(
      'crossplane:composed:batch',
    );
    const report = formatComposedReport(analyseComposed(i), []).join('\n');
    expect(report).toMatch(
      /^ {2}after-sync jobs\.batch \(the provider or XRD roles a plain sync writes grant it\)/m,
    );
    expect(report).toMatch(
      /^ {2}missing cronjobs\.batch \[lacks get, list, watch, create, update, patch, delete\]/m,
    );
  });

  it('TheComposedRoleInTheClusterMakesItGrantedStillRendered', () => {
    // The analysis leaves the plugin's own composed roles out (so sync keeps rendering them); NOW has them.
    const own = labelled('crossplane:composed:batch', 'batch', 'cronjobs', true);
    const a = analyseComposed(input({ now: rbacWith([own]) }));
    expect(a.grants.find((g) => g.resource === 'cronjobs')?.status).toBe('missing');
    expect(a.roles.map((r) => r.metadata.name)).toStrictEqual(['crossplane:composed:batch']);
    const view = composedView(a, []);
    const row = view.resources.find((r) => r.resource === 'cronjobs.batch');
    expect(row).toMatchObject({ status: 'granted', lacking: [], role: 'crossplane:composed:batch' });
    expect(formatComposedReport(a, []).join('\n')).toMatch(
      /^ {2}granted cronjobs\.batch \(crossplane:composed:batch\)/m,
    );
  });

  it('RefusedStaysRefusedUntilSomethingElseGrantsIt', () => {
    const comp = composition([['rbac.authorization.k8s.io/v1', 'RoleBinding']]);
    expect(statuses(input({ compositions: [comp] }))).toStrictEqual({
      'rolebindings.rbac.authorization.k8s.io': 'refused',
    });
    expect(statuses(input({ compositions: [comp], allowPrivileged: true }))).toStrictEqual({
      'rolebindings.rbac.authorization.k8s.io': 'missing',
    });
  });

  it('ReportedOnlyHasNoRoleAndSaysWhy', () => {
    // An XR names Pods (forgeable): lacking, reported with the XR as evidence, never a role; the authors of what
    // grants are not named for it (they steer nothing here), the reason is.
    const xr: KubeObject = {
      apiVersion: 'platform.acme.io/v1alpha1',
      kind: 'App',
      metadata: { name: 'forged', namespace: 'team-a' },
      spec: { crossplane: { resourceRefs: [{ apiVersion: 'v1', kind: 'Pod', name: 'p' }] } },
    };
    const a = analyseComposed(input({ compositions: [], composites: [xr] }));
    const view = composedView(a, [{ kind: 'Group', name: 'platform' }]);
    expect(view.resources).toStrictEqual([
      {
        resource: 'pods',
        group: '',
        kind: 'Pod',
        access: 'write',
        status: 'reported-only',
        lacking: ALL_VERBS,
        neededBy: [{ source: 'Composite', kind: 'App', name: 'forged', namespace: 'team-a', composed: 'p' }],
      },
    ]);
    const report = formatComposedReport(a, [{ kind: 'Group', name: 'platform' }]);
    expect(report).toStrictEqual([
      'composed resources of Crossplane (system:serviceaccount:crossplane-system:crossplane):',
      '  reported-only pods [lacks get, list, watch, create, update, patch, delete]: App/team-a/forged (composed p)',
      `  ${REPORTED_ONLY}`,
    ]);
    // With a kind to grant, the authors who steer it are named: those of Compositions, revisions and operations.
    const both = formatComposedReport(analyseComposed(input({ composites: [xr] })), [
      { kind: 'Group', name: 'platform' },
    ]);
    expect(both.at(-1)).toBe(
      '  who may create or change Compositions, CompositionRevisions or Operations (CronOperations, WatchOperations), and so steer what Crossplane is granted: Group/platform',
    );
  });

  it('ARevisionStepNotAnalysedIsNamedAsARevision', () => {
    const revision: KubeObject = {
      apiVersion: 'apiextensions.crossplane.io/v1',
      kind: 'CompositionRevision',
      metadata: { name: 'c-1a2b3c' },
      spec: { mode: 'Pipeline', pipeline: [{ step: 'render', functionRef: { name: 'function-kcl' } }] },
    };
    expect(formatComposedReport(analyseComposed(input({ compositions: [revision] })), [])).toContain(
      '  not analysed: CompositionRevision/c-1a2b3c step render (function function-kcl): what it composes cannot be read statically',
    );
  });

  it('AuthorsAreNamedAsKubectlNamesThem', () => {
    const view = composedView(analyseComposed(input({})), [
      { kind: 'Group', name: 'platform' },
      { kind: 'ServiceAccount', name: 'root-reconciler', namespace: 'config-management-system' },
    ]);
    expect(view.grantAuthors).toStrictEqual([
      { kind: 'Group', name: 'platform' },
      { kind: 'ServiceAccount', name: 'root-reconciler', namespace: 'config-management-system' },
    ]);
  });
});
