import { describe, expect, it } from 'vitest';
import { planChanges, type LiveRbac, type PlanAction } from '../../../src/diff/plan.js';
import { renderProviderRoles } from '../../../src/rbac/render-provider-roles.js';
import { renderNamespaceRoles } from '../../../src/rbac/render-namespace-roles.js';
import { renderXrdRoles } from '../../../src/rbac/render-xrd-roles.js';
import type { ClusterRole, ClusterRoleBinding, RbacObject } from '../../../src/rbac/types.js';
import { deployment, namespace, rev, xrd } from '../rbac/sync-fixtures.js';

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

describe('planChanges', () => {
  const cases: Record<
    string,
    { reason: string; desired: RbacObject[]; live: LiveRbac; want: PlanAction; changed?: string[] }
  > = {
    Create: { reason: 'A missing object is created.', desired: [system], live: empty, want: 'create' },
    Unchanged: {
      reason: 'Server-set metadata does not make a difference.',
      desired: [system],
      live: { ...empty, clusterRoles: [live(system, { creationTimestamp: '2025-01-01T00:00:00Z' })] },
      want: 'unchanged',
    },
    LabelOnly: {
      reason: 'An extra live label is a difference (Crossplane compares labels exactly).',
      desired: [system],
      live: { ...empty, clusterRoles: [live(system, { labels: { ...system.metadata.labels, extra: 'x' } })] },
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
    NoControllerAdopted: {
      reason: 'A live object without a controller may be updated (MustBeControllableBy allows it).',
      desired: [edit],
      live: { ...empty, clusterRoles: [live(edit, { ownerReferences: [] }, { rules: [] })] },
      want: 'update',
      changed: ['rules'],
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
    BindingOwner: {
      reason: 'Bindings compare owner references.',
      desired: [binding],
      live: { ...empty, clusterRoleBindings: [live(binding, { ownerReferences: [] })] },
      want: 'update',
      changed: ['ownerReferences'],
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
    const plan = planChanges(tc.desired, tc.live, { prune: false });
    expect(
      plan.entries.map((e) => e.action),
      tc.reason,
    ).toEqual([tc.want]);
    if (tc.changed !== undefined) expect(plan.entries[0]!.changed, tc.reason).toEqual(tc.changed);
  });

  it('updates replace the object at the live resourceVersion, dropping unrelated live labels as Crossplane does', () => {
    const plan = planChanges(
      [system],
      { ...empty, clusterRoles: [live(system, { labels: { extra: 'x' } })] },
      { prune: false },
    );
    const body = plan.entries[0]!.object!;
    expect(body.metadata.resourceVersion).toBe('7');
    expect(body.metadata.labels).toEqual(system.metadata.labels);
    expect((body as ClusterRole).rules).toEqual(system.rules);
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

  it('orders roles before bindings regardless of input order', () => {
    const plan = planChanges([binding, edit, system], empty, { prune: false });
    expect(plan.entries.map((e) => e.kind)).toEqual(['ClusterRole', 'ClusterRole', 'ClusterRoleBinding']);
  });
});
