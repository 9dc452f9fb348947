import { describe, expect, it } from 'vitest';
import { planChanges, type LiveRbac, type OwnershipRule, type PlanAction } from '../../../src/plan/plan.js';
import { renderProviderRoles } from '../../../src/crossplane/provider/roles.js';
import { renderNamespaceRoles } from '../../../src/crossplane/namespace/roles.js';
import { renderXrdRoles } from '../../../src/crossplane/definition/roles.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, RbacObject } from '../../../src/kube/types.js';
import { deployment, namespace, rev, xrd } from '../sync/sync-fixtures.js';

const [system, edit] = renderXrdRoles(xrd('xs.a.io'), { crossplaneVersion: 'v2' }) as [
  ClusterRole,
  ClusterRole,
];
const r = rev('p-1', ['things.a.io']);
const binding = renderProviderRoles(
  r,
  [r],
  [deployment('p-1', 'crossplane-system', 'uid-p-1', 'sa')],
)[3] as ClusterRoleBinding;
const [nsEdit] = renderNamespaceRoles(namespace('team'), ['xs.a.io']) as [ClusterRole];

function live<T extends RbacObject>(o: T, patch: Partial<T['metadata']> = {}, extra: Partial<T> = {}): T {
  return {
    ...o,
    ...extra,
    metadata: { ...o.metadata, uid: `live-${o.metadata.name}`, resourceVersion: '7', ...patch },
  };
}

const empty: LiveRbac = { clusterRoles: [], clusterRoleBindings: [], roleBindings: [] };

/** The live cluster: SYSTEM as the server has it, with other rules. */
const liveSystemWith = (rules: PolicyRule[]): LiveRbac => ({
  ...empty,
  clusterRoles: [live(system, {}, { rules })],
});

describe('planChanges', () => {
  const cases: Record<
    string,
    {
      reason: string;
      desired: RbacObject[];
      live: LiveRbac;
      want: PlanAction;
      changed?: string[];
      adopt?: boolean;
    }
  > = {
    Create: { reason: 'A missing object is created.', desired: [system], live: empty, want: 'create' },
    Unchanged: {
      reason: 'Server-set metadata does not make a difference.',
      desired: [system],
      live: { ...empty, clusterRoles: [live(system, { creationTimestamp: '2025-01-01T00:00:00Z' })] },
      want: 'unchanged',
    },
    ForeignLabelRemoved: {
      reason:
        'A label someone else added to a role the plugin owns is a difference and is removed, as Crossplane compares ' +
        'labels (crossplane/crossplane internal/controller/rbac/provider/roles/reconciler.go@662cc7816382830d37114bde4a2e19cb4f15f8df ' +
        'ClusterRolesDiffer) and updates with the desired object: a label can aggregate the role into another.',
      desired: [system],
      live: { ...empty, clusterRoles: [live(system, { labels: { ...system.metadata.labels, extra: 'x' } })] },
      want: 'update',
      changed: ['labels'],
    },
    StalePluginLabel: {
      reason:
        'A crossplane.io label the desired object no longer has is removed: it would aggregate the role.',
      desired: [system],
      live: {
        ...empty,
        clusterRoles: [
          live(system, {
            labels: { ...system.metadata.labels, 'rbac.crossplane.io/aggregate-to-admin': 'true' },
          }),
        ],
      },
      want: 'update',
      changed: ['labels'],
    },
    RuleOrder: {
      reason: 'Rule order matters.',
      desired: [system],
      live: { ...empty, clusterRoles: [live(system, {}, { rules: [...system.rules!].reverse() })] },
      want: 'update',
      changed: ['rules'],
    },
    RuleVerbOrder: {
      reason: 'Verbs are compared in order, as Crossplane compares rules.',
      desired: [{ ...system, rules: [{ apiGroups: ['a.io'], resources: ['xs'], verbs: ['get', 'list'] }] }],
      live: liveSystemWith([{ apiGroups: ['a.io'], resources: ['xs'], verbs: ['list', 'get'] }]),
      want: 'update',
      changed: ['rules'],
    },
    RuleEmptyListsAreMissingOnes: {
      reason: 'An empty resourceNames or nonResourceURLs is the same as none (the API server drops them).',
      desired: [system],
      live: liveSystemWith(system.rules!.map((x) => ({ ...x, resourceNames: [], nonResourceURLs: [] }))),
      want: 'unchanged',
    },
    RuleWithoutVerbs: {
      reason: 'A live rule whose verbs are null differs from one with verbs.',
      desired: [system],
      live: liveSystemWith(system.rules!.map((x) => ({ ...x, verbs: null as unknown as string[] }))),
      want: 'update',
      changed: ['rules'],
    },
    ForeignController: {
      reason: 'A live controller with another UID is refused, never touched.',
      desired: [system],
      live: {
        ...empty,
        clusterRoles: [
          live(system, {
            ownerReferences: [
              { apiVersion: 'x/v1', kind: 'Other', name: 'o', uid: 'other-uid', controller: true },
            ],
          }),
        ],
      },
      want: 'refused',
    },
    NoOwnerRefused: {
      reason:
        "An object nobody owns (no managed-by label, no controller) is not the plugin's: refused without --adopt.",
      desired: [edit],
      live: { ...empty, clusterRoles: [live(edit, { ownerReferences: [] }, { rules: [] })] },
      want: 'refused',
    },
    NoOwnerAdopted: {
      reason: 'With --adopt an object nobody owns is taken over: its rules and its controller are written.',
      desired: [edit],
      live: { ...empty, clusterRoles: [live(edit, { ownerReferences: [] }, { rules: [] })] },
      adopt: true,
      want: 'update',
      changed: ['rules', 'ownerReferences'],
    },
    BindingSubjects: {
      reason: 'Bindings compare subjects.',
      desired: [binding],
      live: { ...empty, clusterRoleBindings: [live(binding, {}, { subjects: [] })] },
      want: 'update',
      changed: ['subjects'],
    },
    BindingServiceAccountDefaultApiGroup: {
      reason: 'The API server defaults apiGroup "" on ServiceAccount subjects; not a difference.',
      desired: [binding],
      live: {
        ...empty,
        clusterRoleBindings: [
          live(binding, {}, { subjects: binding.subjects!.map((s) => ({ ...s, apiGroup: '' })) }),
        ],
      },
      want: 'unchanged',
    },
    BindingOwnerAdopted: {
      reason: 'Bindings compare owner references; an unowned one is written only with --adopt.',
      desired: [binding],
      live: { ...empty, clusterRoleBindings: [live(binding, { ownerReferences: [] })] },
      adopt: true,
      want: 'update',
      changed: ['ownerReferences'],
    },
    BindingWithoutOwnerRefused: {
      reason: "A binding with the name of a provider's system binding but made by hand is left alone.",
      desired: [binding],
      live: { ...empty, clusterRoleBindings: [live(binding, { ownerReferences: [] })] },
      want: 'refused',
    },
    AggregatedRulesIgnored: {
      reason:
        'An aggregating role is compared by aggregationRule, not by the rules the controller filled in.',
      desired: [nsEdit],
      live: {
        ...empty,
        clusterRoles: [
          live(nsEdit, {}, { rules: [{ verbs: ['get'], apiGroups: [''], resources: ['events'] }] }),
        ],
      },
      want: 'unchanged',
    },
    UnlabelledForeign: {
      reason: 'A plugin-owned name held by an unlabelled object (e.g. Helm) is refused.',
      desired: [nsEdit],
      live: { ...empty, clusterRoles: [live(nsEdit, { labels: {}, ownerReferences: [] })] },
      want: 'refused',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    const plan = planChanges(tc.desired, tc.live, { prune: false, adopt: tc.adopt === true });
    expect(
      plan.entries.map((e) => e.action),
      tc.reason,
    ).toEqual([tc.want]);
    if (tc.changed !== undefined) expect(plan.entries[0]!.changed, tc.reason).toEqual(tc.changed);
  });

  it('updates write the desired object at the live resourceVersion, keeping annotations and owners others added', () => {
    const foreignOwner = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      name: 'a',
      uid: 'argo-uid',
    };
    const plan = planChanges(
      [system],
      {
        ...empty,
        clusterRoles: [
          live(
            system,
            {
              labels: { extra: 'x', 'rbac.crossplane.io/aggregate-to-admin': 'true' },
              annotations: { 'example.org/note': 'kept' },
              ownerReferences: [...system.metadata.ownerReferences!, foreignOwner],
            },
            { rules: [] },
          ),
        ],
      },
      { prune: false },
    );
    const body = plan.entries[0]!.object!;
    expect(body.metadata.resourceVersion).toBe('7');
    expect(body.metadata.labels, 'labels exactly as rendered').toEqual(system.metadata.labels);
    expect(body.metadata.annotations).toEqual({ 'example.org/note': 'kept' });
    expect(body.metadata.ownerReferences).toEqual([...system.metadata.ownerReferences!, foreignOwner]);
    expect((body as ClusterRole).rules).toEqual(system.rules);
  });

  it('never prunes a labelled object whose controller is not one the plugin sets (e.g. an Argo CD Application)', () => {
    const argo = live(nsEdit, {
      name: 'crossplane-ns-argo-edit',
      labels: { ...nsEdit.metadata.labels },
      ownerReferences: [
        {
          apiVersion: 'argoproj.io/v1alpha1',
          kind: 'Application',
          name: 'a',
          uid: 'argo-uid',
          controller: true,
        },
      ],
    });
    const plan = planChanges([], { ...empty, clusterRoles: [argo] }, { prune: true });
    expect(plan.entries).toEqual([]);
  });

  it('marks a roleRef change for delete-and-create, since roleRef is immutable', () => {
    const l = live(binding, {}, { roleRef: { ...binding.roleRef, name: 'other' } });
    const [entry] = planChanges([binding], { ...empty, clusterRoleBindings: [l] }, { prune: false }).entries;
    expect(entry).toMatchObject({ action: 'update', recreate: true });
  });

  it('prunes only plugin-labelled objects that are not desired, last, with preconditions', () => {
    const ours = live(nsEdit);
    const stale = live(nsEdit, { name: 'crossplane-ns-gone-edit', labels: { ...nsEdit.metadata.labels } });
    const foreign = live(system, { name: 'crossplane:composite:old.a.io:aggregate-to-crossplane' });
    const ownedBinding: ClusterRoleBinding = live(binding, {
      name: 'crossplane:aggregated',
      labels: { 'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac' },
    });
    const liveState: LiveRbac = {
      clusterRoles: [ours, stale, foreign],
      clusterRoleBindings: [ownedBinding],
      roleBindings: [],
    };
    const withPrune = planChanges([system, nsEdit], liveState, { prune: true });
    expect(withPrune.entries.map((e) => `${e.action} ${e.key}`)).toEqual([
      'unchanged ClusterRole/crossplane-ns-team-edit',
      'create ClusterRole/crossplane:composite:xs.a.io:aggregate-to-crossplane',
      'delete ClusterRoleBinding/crossplane:aggregated',
      'delete ClusterRole/crossplane-ns-gone-edit',
    ]);
    expect(withPrune.entries[3]).toMatchObject({ uid: 'live-crossplane-ns-team-edit', resourceVersion: '7' });
    expect(withPrune.counts).toEqual({ create: 1, update: 0, unchanged: 1, delete: 2, refused: 0 });
    expect(planChanges([system, nsEdit], liveState, { prune: false }).counts.delete).toBe(0);
    const scoped = planChanges([system, nsEdit], liveState, {
      prune: true,
      pruneScope: { groups: ['namespace-roles'], namespaces: ['team'] },
    });
    expect(
      scoped.entries.filter((e) => e.action === 'delete').map((e) => e.key),
      'crossplane:aggregated is out of scope and kept; the stale role carries the team label, so it is in scope',
    ).toEqual(['ClusterRole/crossplane-ns-gone-edit']);
  });

  it('plans with the ownership rule a caller supplies, for changes and for pruning', () => {
    // A rule unlike the plugin's: only objects labelled team=a are the caller's.
    const teamA = (o: RbacObject): boolean => o.metadata.labels?.['team'] === 'a';
    const rule: OwnershipRule = {
      owns: (_d, l) => (teamA(l) ? { ours: true, adopt: false } : { ours: false, reason: 'not team a' }),
      prunes: teamA,
    };
    const mine = live(system, { labels: { team: 'a' } });
    const labelledByPlugin = live(nsEdit);
    const stale = live(edit, { labels: { team: 'a' } });
    const plan = planChanges(
      [system, nsEdit],
      { ...empty, clusterRoles: [mine, labelledByPlugin, stale] },
      { prune: true, ownership: rule },
    );
    expect(plan.entries.map((e) => `${e.action} ${e.key} ${e.reason ?? ''}`.trim())).toEqual([
      'refused ClusterRole/crossplane-ns-team-edit not team a',
      'update ClusterRole/crossplane:composite:xs.a.io:aggregate-to-crossplane',
      'delete ClusterRole/crossplane:composite:xs.a.io:aggregate-to-edit',
    ]);
  });

  it('orders roles before bindings regardless of input order', () => {
    const plan = planChanges([binding, edit, system], empty, { prune: false });
    expect(plan.entries.map((e) => e.kind)).toEqual(['ClusterRole', 'ClusterRole', 'ClusterRoleBinding']);
  });
});
