import { describe, expect, it } from 'vitest';
import {
  planChanges,
  plannedWrites,
  type LiveRbac,
  type OwnershipRule,
  type PlanAction,
  type PlanEntry,
  type PlanOptions,
} from '../../../src/plan/plan.js';
import { renderProviderRoles } from '../../../src/crossplane/provider/roles.js';
import { renderNamespaceRoles } from '../../../src/crossplane/namespace/roles.js';
import { renderXrdRoles } from '../../../src/crossplane/definition/roles.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  ObjectMeta,
  OwnerReference,
  PolicyRule,
  RbacObject,
} from '../../../src/kube/types.js';
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

describe('planChanges: the objects it writes, field by field', () => {
  const RBAC = 'rbac.authorization.k8s.io';
  const OURS = { 'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac' };
  const ref = (uid: string, controller?: boolean): OwnerReference => ({
    apiVersion: 'pkg.crossplane.io/v1',
    kind: 'ProviderRevision',
    name: uid,
    uid,
    ...(controller !== undefined ? { controller } : {}),
  });
  const crb = (metadata: Partial<ObjectMeta>, user = 'alice'): ClusterRoleBinding => ({
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'b', ...metadata },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'r' },
    subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
  });
  const ownAll: OwnershipRule = { owns: () => ({ ours: true, adopt: false }), prunes: () => true };
  const only = (
    desired: RbacObject,
    liveObj: ClusterRoleBinding,
    opts: Partial<PlanOptions> = {},
  ): PlanEntry => {
    const plan = planChanges(
      [desired],
      { ...empty, clusterRoleBindings: [liveObj] },
      { prune: false, ...opts },
    );
    expect(plan.entries).toHaveLength(1);
    return plan.entries[0]!;
  };

  it('AnnotationsMerged: the desired ones over the live ones (annotations grant nothing)', () => {
    const e = only(
      crb({ labels: OURS, annotations: { a: 'desired', b: 'desired' } }),
      crb({ labels: OURS, annotations: { a: 'live', c: 'live' } }, 'bob'),
    );
    expect(e.object?.metadata.annotations).toStrictEqual({ a: 'desired', b: 'desired', c: 'live' });
  });

  it('OwnerReferencesMerged: the desired ones, then the non-controller ones others added, no uid twice', () => {
    const e = only(
      crb({ labels: OURS, ownerReferences: [ref('mine', true)] }),
      crb({ labels: OURS, ownerReferences: [ref('mine'), ref('theirs'), ref('flag', false)] }, 'bob'),
    );
    expect(e.object?.metadata.ownerReferences).toStrictEqual([
      ref('mine', true),
      ref('theirs'),
      ref('flag', false),
    ]);
  });

  it('NoDesiredOwnerKeepsOthers: with no owner of its own, the others’ stay', () => {
    const e = only(crb({ labels: OURS }), crb({ labels: OURS, ownerReferences: [ref('theirs')] }, 'bob'));
    expect(e.object?.metadata.ownerReferences).toStrictEqual([ref('theirs')]);
  });

  it('AnotherControllerIsNotKept: a rule that owns a controlled object writes it without that controller', () => {
    const e = only(crb({}), crb({ ownerReferences: [ref('argo', true)] }), { ownership: ownAll });
    expect(e.changed).toStrictEqual(['ownerReferences']);
    expect(e.object?.metadata).toStrictEqual({ name: 'b' });
  });

  it('EmptyMetadataIsOmitted: no empty labels, annotations or owners, no resourceVersion the live one lacks', () => {
    const e = only(crb({}), crb({}, 'bob'), { ownership: ownAll });
    expect(e.object).toStrictEqual(crb({}));
    const withVersion = only(crb({}), crb({ resourceVersion: '42' }, 'bob'), { ownership: ownAll });
    expect(withVersion.object?.metadata).toStrictEqual({ name: 'b', resourceVersion: '42' });
  });

  it('AggregatedRoleKeepsTheLiveRules: the controller filled them; the role must not go empty', () => {
    const filled = [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }];
    const desired: ClusterRole = { ...nsEdit, metadata: { ...nsEdit.metadata, labels: { ...OURS, x: 'y' } } };
    const plan = planChanges(
      [desired],
      { ...empty, clusterRoles: [live(nsEdit, {}, { rules: filled })] },
      {
        prune: false,
      },
    );
    expect(plan.entries[0]?.action).toBe('update');
    expect((plan.entries[0]?.object as ClusterRole).rules).toStrictEqual(filled);
    const { rules: _r, ...noRules } = live(nsEdit);
    const again = planChanges([desired], { ...empty, clusterRoles: [noRules] }, { prune: false });
    expect(again.entries[0]?.object).toStrictEqual({
      ...desired,
      metadata: { ...desired.metadata, resourceVersion: '7' },
    });
  });

  it('PlainRoleWritesItsOwnRules: only an aggregating role keeps the live rules', () => {
    const filled = [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }];
    const plan = planChanges(
      [system],
      { ...empty, clusterRoles: [live(system, {}, { rules: filled })] },
      {
        prune: false,
      },
    );
    expect((plan.entries[0]?.object as ClusterRole).rules).toStrictEqual(system.rules);
  });

  it('ClusterScopedEntriesHaveNoNamespace', () => {
    const plan = planChanges([system], empty, { prune: false });
    expect(plan.entries[0]).toStrictEqual({
      action: 'create',
      key: `ClusterRole/${system.metadata.name}`,
      kind: 'ClusterRole',
      name: system.metadata.name,
      object: system,
    });
  });

  it('RenderedTwiceIsABug: one key desired twice', () => {
    expect(() => planChanges([system, system], empty, { prune: false })).toThrow(
      `internal error: ClusterRole/${system.metadata.name} rendered twice`,
    );
  });

  it('AdoptingWithoutAController: the label is what changes owner, even where nothing else differs', () => {
    // A binding bind renders carries no plugin label: only its ownership rule's adoption changes it.
    const e = only(crb({}), crb({}), { adopt: true });
    expect(e.action).toBe('update');
    expect(e.changed).toStrictEqual(['labels']);
    expect(e.adopt).toBe(true);
  });

  it('AdoptingAnEqualRole: where only the controller changes, the update still writes the desired role at the live version', () => {
    // The compared fields agree (a role's owner references are not compared): adopting alone makes it an update.
    const plan = planChanges(
      [edit],
      { ...empty, clusterRoles: [live(edit, { ownerReferences: [] })] },
      { prune: false, adopt: true },
    );
    const [e] = plan.entries;
    expect(e?.action).toBe('update');
    expect(e?.changed).toStrictEqual(['ownerReferences']);
    expect(e?.object).toStrictEqual({ ...edit, metadata: { ...edit.metadata, resourceVersion: '7' } });
  });

  it('DeleteWithoutPreconditions: a live object without uid or resourceVersion is deleted without them', () => {
    const plan = planChanges([], { ...empty, clusterRoleBindings: [crb({ labels: OURS })] }, { prune: true });
    expect(plan.entries).toStrictEqual([
      {
        action: 'delete',
        key: 'ClusterRoleBinding/b',
        kind: 'ClusterRoleBinding',
        name: 'b',
        live: crb({ labels: OURS }),
      },
    ]);
  });
});

describe('plannedWrites', () => {
  const liveB = { ...binding, metadata: { ...binding.metadata, resourceVersion: '7' } };
  const base = { key: 'k', kind: 'ClusterRoleBinding' as const, name: 'n' };
  it('WritesOfEachAction: a roleRef change is a delete of the live binding and a create', () => {
    const entries: PlanEntry[] = [
      { ...base, action: 'create', object: binding },
      { ...base, action: 'update', object: binding, live: liveB },
      { ...base, action: 'update', object: binding, live: liveB, recreate: true },
      { ...base, action: 'update', object: binding, recreate: false },
      { ...base, action: 'delete', live: liveB },
      { ...base, action: 'unchanged', live: liveB },
      { ...base, action: 'refused', object: binding, live: liveB, reason: 'x' },
      { ...base, action: 'delete' },
    ];
    expect(plannedWrites(entries)).toStrictEqual([
      { action: 'create', object: binding },
      { action: 'update', object: binding },
      { action: 'delete', object: liveB },
      { action: 'create', object: binding },
      { action: 'update', object: binding },
      { action: 'delete', object: liveB },
    ]);
  });
  it('RecreateWithoutLive: the object itself is deleted and created', () => {
    expect(plannedWrites([{ ...base, action: 'update', object: binding, recreate: true }])).toStrictEqual([
      { action: 'delete', object: binding },
      { action: 'create', object: binding },
    ]);
  });
});
