// The Crossplane Helm chart's settings that change which user-facing roles exist: rbacManager.deploy,
// rbacManager.skipAggregatedClusterRoles and nameOverride (cluster/charts/crossplane/templates @ v2.3.4).
import { describe, expect, it } from 'vitest';
import {
  crossplaneAggregatesXrs,
  hasChartUserRoles,
  renderBaseRoles,
  renderCrossplaneAggregated,
} from '../../../src/crossplane/base-roles.js';
import { renderSync } from '../../../src/sync/render.js';
import type { SyncOptions } from '../../../src/sync/settings.js';
import { SyncInputError } from '../../../src/crossplane/input-error.js';
import type { ClusterRole, ClusterRoleBinding, ConfigMap } from '../../../src/kube/types.js';
import {
  chartClusterRoleBindings,
  chartClusterRoles,
  loadFixture,
  type ChartFixture,
} from './fidelity-fixtures.js';
import { snapshot } from '../sync/sync-fixtures.js';
import { objectKey } from '../../../src/kube/meta.js';
import { readSyncConfig } from '../../../src/sync/settings.js';

const USER_FACING = [
  'ClusterRole/crossplane-admin',
  'ClusterRole/crossplane-edit',
  'ClusterRole/crossplane-view',
  'ClusterRole/crossplane-browse',
  'ClusterRoleBinding/crossplane-admin',
];
const BASE = [
  'ClusterRole/crossplane:aggregate-to-admin',
  'ClusterRole/crossplane:aggregate-to-edit',
  'ClusterRole/crossplane:aggregate-to-view',
  'ClusterRole/crossplane:aggregate-to-browse',
];

function configMap(data: Record<string, string>): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'crossplane-rbac', namespace: 'crossplane-system' },
    data,
  };
}

/** The base family of a sync over a chart fixture (its ClusterRoles and bindings as the live cluster). */
function baseObjects(chart: ChartFixture, opts: SyncOptions = {}, data?: Record<string, string>): string[] {
  const snap = snapshot({
    clusterRoles: chartClusterRoles(chart),
    clusterRoleBindings: chartClusterRoleBindings(chart),
    ...(data !== undefined ? { configMaps: [configMap(data)] } : {}),
  });
  return renderSync(snap, { only: ['base'], ...opts }).objects.map(objectKey);
}

describe('rbacManager.skipAggregatedClusterRoles', () => {
  const cases: Record<
    string,
    { reason: string; chart: ChartFixture; opts?: SyncOptions; data?: Record<string, string>; want: string[] }
  > = {
    ChartDefaultsRenderAllNine: {
      reason:
        'Without the RBAC manager (rbacManager.deploy=false) the chart renders none of rbac-manager-managed-clusterroles.yaml: sync makes all nine.',
      chart: 'crossplane-chart-rbac-no-rbac-manager.yaml',
      want: [
        'ClusterRole/crossplane:aggregated',
        'ClusterRoleBinding/crossplane:aggregated',
        ...USER_FACING,
        ...BASE,
      ],
    },
    SkipAggregatedKeepsUserFacingRoles: {
      reason:
        'rbacManager.skipAggregatedClusterRoles drops only the four crossplane:aggregate-to-* roles; crossplane-admin/edit/view/browse and the admin binding stay.',
      chart: 'crossplane-chart-rbac-no-rbac-manager.yaml',
      data: { skipAggregatedClusterRoles: 'true' },
      want: ['ClusterRole/crossplane:aggregated', 'ClusterRoleBinding/crossplane:aggregated', ...USER_FACING],
    },
    SkipAggregatedAsAnOption: {
      reason: 'The setting is an option of renderSync too, like the other opt-outs.',
      chart: 'crossplane-chart-rbac-no-rbac-manager.yaml',
      opts: { skipAggregatedClusterRoles: true },
      want: ['ClusterRole/crossplane:aggregated', 'ClusterRoleBinding/crossplane:aggregated', ...USER_FACING],
    },
    DisableBaseRolesStillDropsAllNine: {
      reason: 'disableBaseRoles keeps its meaning: none of the nine.',
      chart: 'crossplane-chart-rbac-no-rbac-manager.yaml',
      data: { disableBaseRoles: 'true', skipAggregatedClusterRoles: 'false' },
      want: ['ClusterRole/crossplane:aggregated', 'ClusterRoleBinding/crossplane:aggregated'],
    },
    ChartWithSkipAggregatedIsStillTheChart: {
      reason:
        'A chart installed with rbacManager.deploy=true and skipAggregatedClusterRoles=true has its crossplane-admin: sync adds no second set.',
      chart: 'crossplane-chart-rbac-skip-aggregated.yaml',
      want: ['ClusterRole/crossplane:aggregated', 'ClusterRoleBinding/crossplane:aggregated'],
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(baseObjects(tc.chart, tc.opts, tc.data).sort(), tc.reason).toEqual([...tc.want].sort());
  });

  it('RendersWhatTheChartRendersWithTheSetting (names, aggregation, roleRef, subjects)', () => {
    const shape = (o: ClusterRole | ClusterRoleBinding) =>
      o.kind === 'ClusterRole'
        ? { kind: o.kind, name: o.metadata.name, aggregationRule: o.aggregationRule, rules: o.rules }
        : { kind: o.kind, name: o.metadata.name, roleRef: o.roleRef, subjects: o.subjects };
    const chart = loadFixture('crossplane-chart-rbac-skip-aggregated.yaml') as unknown as (
      ClusterRole | ClusterRoleBinding
    )[];
    const ours = renderBaseRoles({ skipAggregatedClusterRoles: true });
    const byName = (a: { name: string; kind: string }, b: { name: string; kind: string }) =>
      `${a.kind}/${a.name}`.localeCompare(`${b.kind}/${b.name}`);
    expect(ours.map(shape).sort(byName)).toEqual(chart.map(shape).sort(byName));
  });

  it('rejects a bad value naming the key', () => {
    expect(() => readSyncConfig(configMap({ skipAggregatedClusterRoles: 'yes' }))).toThrow(SyncInputError);
    expect(() => readSyncConfig(configMap({ skipAggregatedClusterRoles: 'yes' }))).toThrow(
      /skipAggregatedClusterRoles/,
    );
    expect(readSyncConfig(configMap({ skipAggregatedClusterRoles: 'True' }))).toEqual({
      skipAggregatedClusterRoles: true,
    });
  });
});

describe('nameOverride: the chart detected by what its roles are, not by name', () => {
  const cases: Record<
    string,
    { reason: string; chart: ChartFixture; userRoles: boolean; aggregates: boolean }
  > = {
    DefaultName: {
      reason: 'The chart with rbacManager.deploy=true: crossplane aggregates, crossplane-admin aggregates.',
      chart: 'crossplane-chart-rbac.yaml',
      userRoles: true,
      aggregates: true,
    },
    NameOverride: {
      reason:
        'nameOverride renames crossplane to xp and crossplane-admin to xp-admin (_helpers.tpl crossplane.name); their aggregation selectors are the same.',
      chart: 'crossplane-chart-rbac-name-override.yaml',
      userRoles: true,
      aggregates: true,
    },
    NoRbacManager: {
      reason: 'rbacManager.deploy=false: no user-facing roles, and crossplane does not aggregate.',
      chart: 'crossplane-chart-rbac-no-rbac-manager.yaml',
      userRoles: false,
      aggregates: false,
    },
    V120Chart: {
      reason: 'The v1.20 chart has the same roles and selectors.',
      chart: 'crossplane-chart-v1.20-rbac.yaml',
      userRoles: true,
      aggregates: true,
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    const roles = chartClusterRoles(tc.chart);
    expect(hasChartUserRoles(roles), tc.reason).toBe(tc.userRoles);
    expect(crossplaneAggregatesXrs(roles), tc.reason).toBe(tc.aggregates);
  });

  it('NameOverrideGetsNoSecondSet: sync adds neither crossplane-admin nor crossplane:aggregated', () => {
    expect(baseObjects('crossplane-chart-rbac-name-override.yaml')).toEqual([]);
  });

  it("NeverMistakesItsOwnRolesForTheChart's: a second run renders the same", () => {
    const first = renderSync(
      snapshot({ clusterRoles: chartClusterRoles('crossplane-chart-rbac-no-rbac-manager.yaml') }),
      {
        only: ['base'],
      },
    ).objects;
    const live = [
      ...chartClusterRoles('crossplane-chart-rbac-no-rbac-manager.yaml'),
      ...first.filter((o): o is ClusterRole => o.kind === 'ClusterRole'),
    ];
    expect(hasChartUserRoles(live)).toBe(false);
    const [aggregated] = renderCrossplaneAggregated({ namespace: 'x', serviceAccountName: 'y' });
    expect(crossplaneAggregatesXrs([aggregated])).toBe(false);
    const second = renderSync(snapshot({ clusterRoles: live }), { only: ['base'] }).objects;
    expect(second.map(objectKey)).toEqual(first.map(objectKey));
  });

  it('IgnoresAnUnrelatedRoleNamedLikeTheChart: a crossplane-admin that aggregates nothing is not the chart one', () => {
    const impostor: ClusterRole = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'crossplane-admin' },
      rules: [],
    };
    expect(hasChartUserRoles([impostor])).toBe(false);
  });
});

describe("the base roles' labels, as rbac-manager-managed-clusterroles.yaml sets them", () => {
  // crossplane-chart-rbac.yaml is that template's text with {{ }} filled (test/fixtures/README.md). Each of its nine
  // objects is labelled `app: {{ template "crossplane.name" . }}` (crossplane), its aggregate-to-* label where it
  // has one, and `{{- include "crossplane.labels" . }}`: crossplane/crossplane
  // cluster/charts/crossplane/templates/_helpers.tpl @2d040d2daf4e001799c4154a4a09b9e1f40d7fde defines those as
  // helm.sh/chart and app.kubernetes.io/{managed-by,component,part-of,name,instance,version} (and customLabels).
  // The plugin carries the rest, and its own managed-by instead of Helm's.
  const isHelmLabel = (key: string): boolean =>
    key.startsWith('helm.sh/') || key.startsWith('app.kubernetes.io/');
  const chart = new Map(
    loadFixture('crossplane-chart-rbac.yaml').map((o) => [
      objectKey(o as ClusterRole),
      o.metadata.labels ?? {},
    ]),
  );
  const ours = renderBaseRoles();

  it.each(ours.map((o) => [objectKey(o), o] as const))('%s', (key, o) => {
    const want = chart.get(key);
    expect(want, `${key} is one of the chart's objects`).toBeDefined();
    const chartLabels = Object.fromEntries(Object.entries(want!).filter(([k]) => !isHelmLabel(k)));
    expect(chartLabels).toHaveProperty('app', 'crossplane');
    expect(o.metadata.labels).toStrictEqual({
      ...chartLabels,
      'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
    });
  });

  it('-l app=crossplane finds all nine, as it finds the chart ones', () => {
    expect(ours).toHaveLength(9);
    expect(ours.filter((o) => o.metadata.labels?.app === 'crossplane').map(objectKey)).toEqual(
      ours.map(objectKey),
    );
  });
});
