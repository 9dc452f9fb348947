import { describe, expect, it } from 'vitest';
import {
  enabledXrdsOf,
  fitsAnnotationKey,
  isXrdNamespaceable,
  planAnnotationPatch,
  renderNamespaceBaseRoles,
  renderNamespaceRoles,
  renderXrdNamespaceRoles,
} from '../../../src/crossplane/namespace/roles.js';
import { xrdLabelValue } from '../../../src/crossplane/definition/roles.js';
import {
  chartBaseRules,
  crossplaneAggregatesXrs,
  hasChartUserRoles,
  renderBaseRoles,
} from '../../../src/crossplane/base-roles.js';
import type { ClusterRole, Xrd } from '../../../src/kube/types.js';
import { loadYaml, namespace, xrd, xrdOwner } from '../sync/sync-fixtures.js';

const LONG = `${'x'.repeat(70)}.example.org`;

describe('namespace annotations', () => {
  it('reads both annotation values and the list form', () => {
    const ns = namespace('team', {
      'rbac.crossplane.io/a.example.org': 'xrd-claim-accepted',
      'rbac.crossplane.io/b.example.org': 'xrd-enabled',
      'rbac.crossplane.io/c.example.org': 'something-else',
      'rbac.crossplane.io/enabled-xrds': ` ${LONG}, d.example.org ,`,
    });
    expect(enabledXrdsOf(ns)).toEqual(['a.example.org', 'b.example.org', 'd.example.org', LONG]);
  });

  const cases: Record<
    string,
    { reason: string; ann: Record<string, string>; names: string[]; enable: boolean; want: unknown }
  > = {
    EnableKey: {
      reason: 'A name that fits an annotation key gets the key form.',
      ann: { other: 'kept' },
      names: ['a.example.org'],
      enable: true,
      want: {
        patch: { metadata: { annotations: { 'rbac.crossplane.io/a.example.org': 'xrd-claim-accepted' } } },
        alreadyInState: [],
      },
    },
    EnableLong: {
      reason: 'A name longer than 63 characters goes to the list annotation.',
      ann: { 'rbac.crossplane.io/enabled-xrds': 'z.example.org' },
      names: [LONG],
      enable: true,
      want: {
        patch: { metadata: { annotations: { 'rbac.crossplane.io/enabled-xrds': `${LONG},z.example.org` } } },
        alreadyInState: [],
      },
    },
    AlreadyEnabled: {
      reason: 'Enabling an enabled XRD (either value) is a no-op that says so.',
      ann: { 'rbac.crossplane.io/a.example.org': 'xrd-enabled' },
      names: ['a.example.org'],
      enable: true,
      want: { patch: null, alreadyInState: ['a.example.org'] },
    },
    DisableKey: {
      reason: 'Disabling removes the key form.',
      ann: { 'rbac.crossplane.io/a.example.org': 'xrd-claim-accepted' },
      names: ['a.example.org'],
      enable: false,
      want: {
        patch: { metadata: { annotations: { 'rbac.crossplane.io/a.example.org': null } } },
        alreadyInState: [],
      },
    },
    DisableList: {
      reason: 'Disabling the last listed XRD removes the list annotation.',
      ann: { 'rbac.crossplane.io/enabled-xrds': LONG },
      names: [LONG, 'n.example.org'],
      enable: false,
      want: {
        patch: { metadata: { annotations: { 'rbac.crossplane.io/enabled-xrds': null } } },
        alreadyInState: ['n.example.org'],
      },
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(planAnnotationPatch(namespace('team', tc.ann), tc.names, tc.enable), tc.reason).toEqual(tc.want);
  });
});

describe('isXrdNamespaceable', () => {
  const cases: Record<string, { reason: string; xrd: Xrd; ok: boolean; plural?: string }> = {
    V1Claims: {
      reason: 'A v1 XRD with claims offers claims.',
      xrd: xrd('xs.a.io', { claimNames: { kind: 'C', plural: 'cs' } }),
      ok: true,
      plural: 'cs',
    },
    V1NoClaims: { reason: 'A v1 XRD without claims is cluster scoped.', xrd: xrd('xs.a.io'), ok: false },
    V2Default: {
      reason: 'v2 XRDs default to Namespaced.',
      xrd: xrd('xs.a.io', {}, {}, 'apiextensions.crossplane.io/v2'),
      ok: true,
      plural: 'xs',
    },
    V2Cluster: {
      reason: 'A v2 Cluster XRD offers nothing namespaced.',
      xrd: xrd('xs.a.io', { scope: 'Cluster' }, {}, 'apiextensions.crossplane.io/v2'),
      ok: false,
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    const got = isXrdNamespaceable(tc.xrd);
    expect(got.ok, tc.reason).toBe(tc.ok);
    if (got.ok) expect(got.plural, tc.reason).toBe(tc.plural);
    else expect(got.reason, tc.reason).toContain('xs.a.io');
  });

  it('classifies the real XRD fixtures by their file names', () => {
    for (const f of [
      'v1-claim-xnopresources.nop.example.org.yaml',
      'v2-namespaced-tests.example.org.yaml',
      'v2-cluster-clustertests.example.org.yaml',
      'v1-noclaim-xnetworks.aws.platform.upbound.io.yaml',
    ]) {
      const [x] = loadYaml(`xrds/${f}`) as unknown as Xrd[];
      expect(isXrdNamespaceable(x!).ok, f).toBe(f.includes('-claim-') || f.includes('-namespaced-'));
    }
  });
});

describe('namespace roles', () => {
  it('renders crossplane-ns-<ns>-edit with labels, owner and one selector per enabled XRD', () => {
    const [edit, view] = renderNamespaceRoles(namespace('team'), ['b.example.org', LONG]);
    expect(edit).toStrictEqual({
      aggregationRule: {
        clusterRoleSelectors: [
          {
            matchLabels: {
              'rbac.crossplane.io/aggregate-to-ns-edit': 'true',
              'rbac.crossplane.io/base-of-ns-edit': 'true',
            },
          },
          {
            matchLabels: {
              'rbac.crossplane.io/aggregate-to-ns-edit': 'true',
              'rbac.crossplane.io/xrd': 'b.example.org',
            },
          },
          {
            matchLabels: {
              'rbac.crossplane.io/aggregate-to-ns-edit': 'true',
              'rbac.crossplane.io/xrd': xrdLabelValue(LONG),
            },
          },
        ],
      },
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {
        labels: {
          'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
          'crossplane.io/scope': 'namespace',
          'namespace.crossplane.io/team': 'true',
        },
        name: 'crossplane-ns-team-edit',
        ownerReferences: [
          {
            apiVersion: 'v1',
            blockOwnerDeletion: true,
            controller: true,
            kind: 'Namespace',
            name: 'team',
            uid: 'uid-ns-team',
          },
        ],
      },
    });
    expect(view!.metadata.name).toBe('crossplane-ns-team-view');
    expect(view!.aggregationRule!.clusterRoleSelectors![0]!.matchLabels).toHaveProperty(
      'rbac.crossplane.io/base-of-ns-view',
      'true',
    );
  });

  it('renders per-XRD namespace roles over the claim (v1) or the namespaced XR (v2)', () => {
    const [edit] = renderXrdNamespaceRoles(xrd('xs.a.io', { claimNames: { kind: 'C', plural: 'cs' } }));
    expect(edit!.metadata.name).toBe('crossplane:composite:xs.a.io:aggregate-to-ns-edit');
    expect(edit!.metadata.labels).toEqual({
      'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
      'rbac.crossplane.io/aggregate-to-ns-edit': 'true',
      'rbac.crossplane.io/xrd': 'xs.a.io',
    });
    expect(edit!.rules).toEqual([{ apiGroups: ['a.io'], resources: ['cs', 'cs/status'], verbs: ['*'] }]);
    const [, view] = renderXrdNamespaceRoles(xrd('xs.a.io', {}, {}, 'apiextensions.crossplane.io/v2'));
    expect(view!.rules).toEqual([
      { apiGroups: ['a.io'], resources: ['xs', 'xs/status'], verbs: ['get', 'list', 'watch'] },
    ]);
    expect(renderXrdNamespaceRoles(xrd('xs.a.io'))).toEqual([]);
  });
});

describe('base roles', () => {
  it("uses the chart's base-role rules (chart 2.3.4 and v1.20)", () => {
    for (const [file, version] of [
      ['crossplane-chart-rbac.yaml', 'v2'],
      ['crossplane-chart-v1.20-rbac.yaml', 'v1'],
    ] as const) {
      const chart = loadYaml(file) as unknown as ClusterRole[];
      for (const role of ['admin', 'edit', 'view', 'browse'] as const) {
        const real = chart.find((r) => r.metadata.name === `crossplane:aggregate-to-${role}`)!;
        expect(chartBaseRules(role, version), `${file} ${role}`).toEqual(real.rules);
      }
    }
  });

  it('detects the chart roles with and without the RBAC manager', () => {
    const roles = (f: string) =>
      loadYaml(f).filter((o) => o.kind === 'ClusterRole') as unknown as ClusterRole[];
    const withManager = roles('crossplane-chart-rbac.yaml');
    const without = roles('crossplane-chart-rbac-no-rbac-manager.yaml');
    expect(hasChartUserRoles(withManager)).toBe(true);
    expect(crossplaneAggregatesXrs(withManager)).toBe(true);
    expect(hasChartUserRoles(without)).toBe(false);
    expect(crossplaneAggregatesXrs(without)).toBe(false);
  });

  it('does not count its own crossplane-admin as the chart one', () => {
    const ours = renderBaseRoles().filter((o): o is ClusterRole => o.kind === 'ClusterRole');
    expect(hasChartUserRoles(ours)).toBe(false);
    expect(
      ours.every((r) => r.metadata.labels?.['app.kubernetes.io/managed-by'] === 'kubectl-crossplane-rbac'),
    ).toBe(true);
  });
});

describe('namespace annotations, edge cases', () => {
  it('ignores the bare prefix key: it names no XRD', () => {
    expect(enabledXrdsOf(namespace('team', { 'rbac.crossplane.io/': 'xrd-claim-accepted' }))).toEqual([]);
  });

  it('fits a 63-character name in a key (a qualified name part is at most 63 characters)', () => {
    expect(fitsAnnotationKey('a'.repeat(63))).toBe(true);
    expect(fitsAnnotationKey('a'.repeat(64))).toBe(false);
  });

  it('starts the list annotation with only the name that does not fit a key', () => {
    expect(planAnnotationPatch(namespace('team'), [LONG], true).patch).toStrictEqual({
      metadata: { annotations: { 'rbac.crossplane.io/enabled-xrds': LONG } },
    });
  });

  it('reports the XRDs already in state in name order', () => {
    const ns = namespace('team', {
      'rbac.crossplane.io/a.example.org': 'xrd-claim-accepted',
      'rbac.crossplane.io/b.example.org': 'xrd-claim-accepted',
    });
    expect(planAnnotationPatch(ns, ['b.example.org', 'a.example.org'], true)).toEqual({
      patch: null,
      alreadyInState: ['a.example.org', 'b.example.org'],
    });
    expect(
      planAnnotationPatch(namespace('team'), ['b.example.org', 'a.example.org'], false).alreadyInState,
    ).toEqual(['a.example.org', 'b.example.org']);
  });

  it('removes an XRD enabled with "xrd-enabled" too, and writes the patch keys in order', () => {
    const ns = namespace('team', {
      'rbac.crossplane.io/z.example.org': 'xrd-enabled',
      'rbac.crossplane.io/a.example.org': 'xrd-claim-accepted',
      'rbac.crossplane.io/enabled-xrds': LONG,
    });
    const { patch } = planAnnotationPatch(ns, ['z.example.org', LONG, 'a.example.org'], false);
    // Keys in byte order: "enabled-xrds" sorts between "a..." and "z...".
    expect(Object.entries(patch!.metadata.annotations)).toEqual([
      ['rbac.crossplane.io/a.example.org', null],
      ['rbac.crossplane.io/enabled-xrds', null],
      ['rbac.crossplane.io/z.example.org', null],
    ]);
  });
});

describe('isXrdNamespaceable, what is offered', () => {
  it('says a claim or a namespaced XR', () => {
    expect(isXrdNamespaceable(xrd('xs.a.io', { claimNames: { kind: 'C', plural: 'cs' } }))).toEqual({
      ok: true,
      group: 'a.io',
      plural: 'cs',
      offers: 'claim',
    });
    expect(isXrdNamespaceable(xrd('xs.a.io', {}, {}, 'apiextensions.crossplane.io/v2'))).toEqual({
      ok: true,
      group: 'a.io',
      plural: 'xs',
      offers: 'namespaced-xr',
    });
  });

  it('names the scope a v1 XRD without claims has: LegacyCluster (the v2 name of a v1 XR scope)', () => {
    expect(isXrdNamespaceable(xrd('xs.a.io'))).toEqual({
      ok: false,
      reason:
        'CompositeResourceDefinition "xs.a.io" has scope LegacyCluster and no claimNames: it offers nothing namespaced',
    });
  });
});

describe('namespace roles, in full', () => {
  const owner = xrdOwner;

  it("renders an XRD's ns-view role with its labels and owner", () => {
    const [, view] = renderXrdNamespaceRoles(xrd('xs.a.io', { claimNames: { kind: 'C', plural: 'cs' } }));
    expect(view).toStrictEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {
        labels: {
          'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
          'rbac.crossplane.io/aggregate-to-ns-view': 'true',
          'rbac.crossplane.io/xrd': 'xs.a.io',
        },
        name: 'crossplane:composite:xs.a.io:aggregate-to-ns-view',
        ownerReferences: owner('xs.a.io'),
      },
      rules: [{ apiGroups: ['a.io'], resources: ['cs', 'cs/status'], verbs: ['get', 'list', 'watch'] }],
    });
  });

  it('selects the enabled XRDs in name order, each once', () => {
    const [edit] = renderNamespaceRoles(namespace('team'), [
      'b.example.org',
      'a.example.org',
      'b.example.org',
    ]);
    expect(
      edit!.aggregationRule!.clusterRoleSelectors!.map((s) => s.matchLabels!['rbac.crossplane.io/xrd']),
    ).toEqual([undefined, 'a.example.org', 'b.example.org']);
  });

  it('renders the base roles: the v1 chart rules (events view; secrets for editors) and CRD-group reads', () => {
    // Crossplane v1.14's chart (rbac-manager-managed-clusterroles.yaml) made <name>:aggregate-to-ns-edit (events
    // get/list/watch, secrets *) and :aggregate-to-ns-view (events get/list/watch), labelled base-of-ns-*; the
    // plugin's edit base also reads apiextensions.crossplane.io, as renderNamespaceBaseRoles documents.
    expect(renderNamespaceBaseRoles()).toStrictEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: {
          labels: {
            'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
            'rbac.crossplane.io/aggregate-to-ns-edit': 'true',
            'rbac.crossplane.io/base-of-ns-edit': 'true',
          },
          name: 'crossplane:aggregate-to-ns-edit',
        },
        rules: [
          { apiGroups: [''], resources: ['events'], verbs: ['get', 'list', 'watch'] },
          { apiGroups: [''], resources: ['secrets'], verbs: ['*'] },
          { apiGroups: ['apiextensions.crossplane.io'], resources: ['*'], verbs: ['get', 'list', 'watch'] },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: {
          labels: {
            'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
            'rbac.crossplane.io/aggregate-to-ns-view': 'true',
            'rbac.crossplane.io/base-of-ns-view': 'true',
          },
          name: 'crossplane:aggregate-to-ns-view',
        },
        rules: [{ apiGroups: [''], resources: ['events'], verbs: ['get', 'list', 'watch'] }],
      },
    ]);
  });
});
