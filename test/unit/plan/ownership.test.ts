import { describe, expect, it } from 'vitest';
import { bindOwnership } from '../../../src/bind/inventory.js';
import { renderBindings } from '../../../src/bind/render.js';
import { rootSyncTarget } from '../../../src/bind/config-sync.js';
import type { ClusterRole, ClusterRoleBinding, ObjectMeta, OwnerReference } from '../../../src/kube/types.js';
import { controllerOf } from '../../../src/kube/meta.js';
import { helmInstalled, isPrunable, ownership, wouldPrune } from '../../../src/plan/ownership.js';
import { planChanges } from '../../../src/plan/plan.js';

// What Helm 3 writes on every object a release installs (helm/helm
// pkg/action/validate.go@0a0eaff3da1ac671894fdc39c616834836bfd38b setMetadataVisitor: the label
// app.kubernetes.io/managed-by=Helm and the annotations meta.helm.sh/release-name and meta.helm.sh/release-namespace),
// plus the chart's own labels (crossplane/crossplane cluster/charts/crossplane/templates/_helpers.tpl
// crossplane.labels: helm.sh/chart and the app.kubernetes.io ones).
const CHART_LABELS = {
  app: 'crossplane',
  'helm.sh/chart': 'crossplane-2.1.0',
  'app.kubernetes.io/managed-by': 'Helm',
  'app.kubernetes.io/component': 'cloud-infrastructure-controller',
  'app.kubernetes.io/part-of': 'crossplane',
  'app.kubernetes.io/name': 'crossplane',
  'app.kubernetes.io/instance': 'crossplane',
  'app.kubernetes.io/version': '2.1.0',
};
const RELEASE = {
  'meta.helm.sh/release-name': 'crossplane',
  'meta.helm.sh/release-namespace': 'crossplane-system',
};
/** The plugin's own label, as docs/commands/sync.md documents it. */
const PLUGIN_LABEL = { 'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac' };

function clusterRole(name: string, meta: Partial<ObjectMeta>): ClusterRole {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, uid: `uid-${name}`, resourceVersion: '3', ...meta },
    aggregationRule: {
      clusterRoleSelectors: [{ matchLabels: { 'rbac.crossplane.io/aggregate-to-edit': 'true' } }],
    },
  };
}

/** The chart's crossplane-edit as Helm installed it, with its managed-by label rewritten to the plugin's. */
const forged = clusterRole('crossplane-edit', {
  labels: { ...CHART_LABELS, ...PLUGIN_LABEL },
  annotations: RELEASE,
});
/** What the plugin would write for crossplane-edit: its label, no Helm marks. */
const desired = clusterRole('crossplane-edit', { labels: PLUGIN_LABEL });
const baseRoles = { groups: ['base-roles' as const] };

describe('ownership: what Helm installed', () => {
  const cases: Record<string, { reason: string; live: ClusterRole; prunable: boolean }> = {
    ForgedLabelOnAChartRole: {
      reason:
        "The plugin's label on a chart's role does not make it the plugin's: the release annotations stay.",
      live: forged,
      prunable: false,
    },
    ForgedLabelWithoutReleaseAnnotations: {
      reason:
        '`helm template | kubectl apply` leaves no release annotations; the helm.sh/chart label still says Helm.',
      live: clusterRole('crossplane-edit', {
        labels: { 'helm.sh/chart': 'crossplane-2.1.0', ...PLUGIN_LABEL },
      }),
      prunable: false,
    },
    ReleaseAnnotationsOnly: {
      reason: 'The release annotations alone (Helm writes them on everything it installs) are enough.',
      live: clusterRole('crossplane-edit', { labels: PLUGIN_LABEL, annotations: RELEASE }),
      prunable: false,
    },
    AsHelmInstalledIt: {
      reason: 'Unforged, a chart role was never prunable (no plugin label); it stays so.',
      live: clusterRole('crossplane-edit', { labels: CHART_LABELS, annotations: RELEASE }),
      prunable: false,
    },
    ThePluginsOwn: {
      reason: "Control: the plugin's label and no Helm mark is the plugin's to prune.",
      live: clusterRole('crossplane-edit', { labels: PLUGIN_LABEL }),
      prunable: true,
    },
    OtherAnnotationsDoNotCount: {
      reason: "Control: an unrelated annotation is not Helm's.",
      live: clusterRole('crossplane-edit', {
        labels: PLUGIN_LABEL,
        annotations: { 'example.com/note': 'x' },
      }),
      prunable: true,
    },
  };
  for (const [name, c] of Object.entries(cases)) {
    it(name, () => {
      expect(isPrunable(c.live), c.reason).toBe(c.prunable);
      expect(wouldPrune(c.live, baseRoles), c.reason).toBe(c.prunable);
      expect(wouldPrune(c.live, undefined), c.reason).toBe(c.prunable);
      const owner = ownership(desired, c.live, false);
      expect(owner.ours, c.reason).toBe(c.prunable);
      if (!owner.ours) expect(owner.reason, c.reason).toMatch(/^installed by Helm /);
    });
  }

  it('AdoptNeverTakesOverWhatHelmInstalled', () => {
    const chartRole = clusterRole('crossplane-edit', { labels: CHART_LABELS, annotations: RELEASE });
    const owner = ownership(desired, chartRole, true);
    expect(owner).toStrictEqual({
      ours: false,
      reason:
        'installed by Helm (release "crossplane" in namespace "crossplane-system"); the plugin never changes or ' +
        'prunes what Helm installed, whatever its labels, and --adopt does not take it over',
    });
    const unlabelled = clusterRole('crossplane-edit', { labels: { 'app.kubernetes.io/managed-by': 'Helm' } });
    expect(ownership(desired, unlabelled, true).ours, 'managed-by: Helm alone').toBe(false);
  });

  it('TheReasonNamesTheChartLabelWhenThereIsNoRelease', () => {
    const live = clusterRole('crossplane-edit', {
      labels: { 'helm.sh/chart': 'crossplane-2.1.0', ...PLUGIN_LABEL },
    });
    const owner = ownership(desired, live, false);
    expect(owner.ours).toBe(false);
    if (!owner.ours) expect(owner.reason).toMatch(/^installed by Helm \(chart "crossplane-2\.1\.0"\);/);
  });

  it('PlanNeitherPrunesNorUpdatesAForgedChartRole', () => {
    const live = { clusterRoles: [forged], clusterRoleBindings: [], roleBindings: [] };
    const pruned = planChanges([], live, { prune: true, pruneScope: baseRoles });
    expect(pruned.entries.filter((e) => e.action === 'delete')).toStrictEqual([]);
    const updated = planChanges([desired], live, { prune: true, pruneScope: baseRoles });
    expect(updated.entries.map((e) => [e.action, e.name])).toStrictEqual([['refused', 'crossplane-edit']]);
    expect(updated.entries[0]?.reason).toMatch(
      /^installed by Helm \(release "crossplane" in namespace "crossplane-system"\);/,
    );
  });

  it('BindKeepsABindingHelmInstalledEvenWithItsInventoryLabels', () => {
    const target = rootSyncTarget('root-sync');
    const [want] = renderBindings(target, [{ kind: 'ClusterRole', name: 'crossplane-edit' }]);
    if (want === undefined) throw new Error('no binding rendered');
    const helmBinding = {
      ...want,
      metadata: { ...want.metadata, uid: 'u', resourceVersion: '1', annotations: RELEASE },
    } as ClusterRoleBinding;
    const rule = bindOwnership(target);
    expect(rule.prunes(helmBinding)).toBe(false);
    const owner = rule.owns(want, helmBinding, false);
    expect(owner.ours).toBe(false);
    if (!owner.ours) expect(owner.reason).toMatch(/^installed by Helm /);
    const unmarked = { ...helmBinding, metadata: { ...helmBinding.metadata, annotations: {} } };
    expect(rule.prunes(unmarked), "control: bind's own binding").toBe(true);
  });
});

describe('helmInstalled: the marks of a Helm release', () => {
  // helm/helm pkg/action/validate.go setMetadataVisitor writes both annotations and the managed-by label; any one of
  // them (or the chart's helm.sh/chart label) is enough to tell a release's object.
  const meta = (labels: Record<string, string>, annotations: Record<string, string>): ClusterRole =>
    clusterRole('r', { labels, annotations });
  const cases: Record<string, { live: ClusterRole; want: string | undefined }> = {
    ReleaseNameOnly: {
      live: meta({}, { 'meta.helm.sh/release-name': 'crossplane' }),
      want: 'release "crossplane" in namespace ""',
    },
    ReleaseNamespaceOnly: {
      live: meta({}, { 'meta.helm.sh/release-namespace': 'crossplane-system' }),
      want: 'release "" in namespace "crossplane-system"',
    },
    Both: { live: meta({}, RELEASE), want: 'release "crossplane" in namespace "crossplane-system"' },
    ChartLabel: { live: meta({ 'helm.sh/chart': 'crossplane-2.1.0' }, {}), want: 'chart "crossplane-2.1.0"' },
    ManagedByHelm: {
      live: meta({ 'app.kubernetes.io/managed-by': 'Helm' }, {}),
      want: 'app.kubernetes.io/managed-by=Helm',
    },
    None: { live: meta(PLUGIN_LABEL, {}), want: undefined },
    Nothing: { live: clusterRole('r', {}), want: undefined },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(helmInstalled(tc.live)).toBe(tc.want);
  });
});

describe('controllerOf', () => {
  const ref = (uid: string, controller?: boolean): OwnerReference => ({
    apiVersion: 'pkg.crossplane.io/v1',
    kind: 'ProviderRevision',
    name: uid,
    uid,
    ...(controller !== undefined ? { controller } : {}),
  });
  it('TheControllerNotTheFirstReference: metav1.GetControllerOf takes the one with controller: true', () => {
    const o = clusterRole('r', { ownerReferences: [ref('a'), ref('b', false), ref('c', true)] });
    expect(controllerOf(o)).toStrictEqual(ref('c', true));
    expect(controllerOf(clusterRole('r', { ownerReferences: [ref('a'), ref('b', false)] }))).toBeUndefined();
    expect(controllerOf(clusterRole('r', {}))).toBeUndefined();
  });
});

describe('ownership: controllers and labels', () => {
  const ctrl = (over: Partial<OwnerReference> = {}): OwnerReference => ({
    apiVersion: 'pkg.crossplane.io/v1',
    kind: 'ProviderRevision',
    name: 'p-1',
    uid: 'uid-p-1',
    controller: true,
    blockOwnerDeletion: true,
    ...over,
  });
  const role = (meta: Partial<ObjectMeta>): ClusterRole => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'crossplane:provider:p-1:system', ...meta },
  });
  const cases: Record<
    string,
    {
      desired: ClusterRole;
      live: ClusterRole;
      adopt?: boolean;
      want: ReturnType<typeof ownership>;
      reason: string;
    }
  > = {
    SameController: {
      desired: role({ ownerReferences: [ctrl()] }),
      live: role({ ownerReferences: [ctrl()] }),
      want: { ours: true, adopt: false },
      reason: 'the controller the plugin would set',
    },
    SameControllerOtherVersion: {
      desired: role({ ownerReferences: [ctrl()] }),
      live: role({ ownerReferences: [ctrl({ apiVersion: 'pkg.crossplane.io/v1beta1' })] }),
      want: { ours: true, adopt: false },
      reason: 'an owner is the same object in another version of its group',
    },
    OtherKind: {
      desired: role({ ownerReferences: [ctrl()] }),
      live: role({ ownerReferences: [ctrl({ kind: 'Provider' })] }),
      want: {
        ours: false,
        reason:
          'controlled by Provider "p-1" (uid uid-p-1); the plugin would write it with controller ProviderRevision "p-1" (uid uid-p-1)',
      },
      reason: 'another kind',
    },
    OtherName: {
      desired: role({ ownerReferences: [ctrl()] }),
      live: role({ ownerReferences: [ctrl({ name: 'p-2' })] }),
      want: {
        ours: false,
        reason:
          'controlled by ProviderRevision "p-2" (uid uid-p-1); the plugin would write it with controller ProviderRevision "p-1" (uid uid-p-1)',
      },
      reason: 'another name',
    },
    OtherUid: {
      desired: role({ ownerReferences: [ctrl()] }),
      live: role({ ownerReferences: [ctrl({ uid: 'uid-old' })] }),
      want: {
        ours: false,
        reason:
          'controlled by ProviderRevision "p-1" (uid uid-old); the plugin would write it with controller ProviderRevision "p-1" (uid uid-p-1)',
      },
      reason: 'a revision deleted and made again under the same name',
    },
    OtherGroup: {
      desired: role({ ownerReferences: [ctrl()] }),
      live: role({ ownerReferences: [ctrl({ apiVersion: 'example.org/v1' })] }),
      want: {
        ours: false,
        reason:
          'controlled by ProviderRevision "p-1" (uid uid-p-1); the plugin would write it with controller ProviderRevision "p-1" (uid uid-p-1)',
      },
      reason: 'a kind of the same name in another group',
    },
    ControlledWhereThePluginSetsNone: {
      desired: role({ labels: PLUGIN_LABEL }),
      live: role({ labels: PLUGIN_LABEL, ownerReferences: [ctrl()] }),
      want: {
        ours: false,
        reason:
          'controlled by ProviderRevision "p-1" (uid uid-p-1); the plugin would write it with no controller',
      },
      reason: 'a controller wins over the label',
    },
    LabelledNoController: {
      desired: role({ ownerReferences: [ctrl()] }),
      live: role({ labels: PLUGIN_LABEL }),
      adopt: true,
      want: { ours: true, adopt: false },
      reason: 'the plugin’s label is the plugin’s even with --adopt',
    },
    NobodysWithController: {
      desired: role({ ownerReferences: [ctrl()] }),
      live: role({}),
      want: {
        ours: false,
        reason:
          'exists, made by someone else (no app.kubernetes.io/managed-by=kubectl-crossplane-rbac label, no controller); the plugin would write it with controller ProviderRevision "p-1" (uid uid-p-1) (--adopt takes it over)',
      },
      reason: 'nobody’s, without --adopt',
    },
    NobodysWithLabel: {
      desired: role({ labels: PLUGIN_LABEL }),
      live: role({}),
      want: {
        ours: false,
        reason:
          'exists, made by someone else (no app.kubernetes.io/managed-by=kubectl-crossplane-rbac label, no controller); the plugin would write it with app.kubernetes.io/managed-by=kubectl-crossplane-rbac (--adopt takes it over)',
      },
      reason: 'nobody’s, the plugin would label it',
    },
    NobodysAdopted: {
      desired: role({ labels: PLUGIN_LABEL }),
      live: role({}),
      adopt: true,
      want: { ours: true, adopt: true },
      reason: '--adopt takes over what nobody owns',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(ownership(tc.desired, tc.live, tc.adopt ?? false), tc.reason).toStrictEqual(tc.want);
  });
});
