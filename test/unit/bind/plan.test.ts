import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { roleRefsOfRootSync, rootSyncTarget } from '../../../src/bind/config-sync.js';
import { bindOwnership } from '../../../src/bind/inventory.js';
import { desiredBindings, renderBindings } from '../../../src/bind/render.js';
import type { RoleRefSpec } from '../../../src/bind/role-refs.js';
import type { Binding, BindTarget } from '../../../src/bind/target.js';
import { planChanges, type Plan, type PlanAction, type PlanEntry } from '../../../src/plan/plan.js';
import { replanOne } from '../../../src/plan/replan.js';
import type { ClusterRole, ClusterRoleBinding, KubeObject, RoleBinding } from '../../../src/kube/types.js';
import { fixturePath } from '../../support/fixtures.js';

// bind renders its bindings and plans them with the one planner (src/plan/plan.ts), under its own ownership rule:
// a binding is ours when it carries the target's inventory labels and no controller; prune deletes only those.

const syncA = rootSyncTarget('sync-a');
const syncASubject = {
  kind: 'ServiceAccount',
  name: 'root-reconciler-sync-a',
  namespace: 'config-management-system',
};
// Config Sync's ManagedObjectLabelMap (GoogleContainerTools/kpt-config-sync
// pkg/reconcilermanager/controllers/reconciler_base.go@bd5fadf7ec196a27a637179d0c5f757e3ee49db6) plus the plugin's
// managed-by.
const syncALabels = {
  'configsync.gke.io/sync-kind': 'RootSync',
  'configsync.gke.io/sync-name': 'sync-a',
  'configsync.gke.io/sync-namespace': 'config-management-system',
  'configsync.gke.io/managed-by': 'reconciler-manager',
  'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
};
const { 'app.kubernetes.io/managed-by': _ours, ...configSyncLabels } = syncALabels;

/** What the API server would return for a created object. */
function asLive<T extends Binding>(b: T, uid: string): T {
  return { ...b, metadata: { ...b.metadata, uid, resourceVersion: `rv-${uid}` } };
}

function split(bs: readonly Binding[]): {
  clusterRoleBindings: ClusterRoleBinding[];
  roleBindings: RoleBinding[];
} {
  return {
    clusterRoleBindings: bs.filter((b): b is ClusterRoleBinding => b.kind === 'ClusterRoleBinding'),
    roleBindings: bs.filter((b): b is RoleBinding => b.kind === 'RoleBinding'),
  };
}

/** The plan bind makes: the one planner with bind's ownership rule and prune scope. */
function planBindings(
  desired: readonly Binding[],
  live: readonly Binding[],
  opts: { prune: boolean; target: BindTarget; clusterRoles?: ClusterRole[] },
): Plan {
  return planChanges(
    desired,
    { clusterRoles: opts.clusterRoles ?? [], ...split(live) },
    { prune: opts.prune, ownership: bindOwnership(opts.target) },
  );
}

function only(plan: Plan, action: PlanAction): PlanEntry[] {
  return plan.entries.filter((e) => e.action === action);
}

function liveName(e: PlanEntry): string {
  const live = e.live;
  return live?.kind === 'ClusterRoleBinding' || live?.kind === 'RoleBinding' ? live.roleRef.name : '';
}

describe('bind plans with the one planner', () => {
  const fourRefs: RoleRefSpec[] = [
    { kind: 'Role', name: 'foo-role', namespace: 'foo' },
    { kind: 'ClusterRole', name: 'foo-role' },
    { kind: 'ClusterRole', name: 'bar-role' },
    { kind: 'ClusterRole', name: 'foo-role', namespace: 'foo' },
  ];
  const four = renderBindings(syncA, fourRefs);
  const liveFour = four.map((b, i) => asLive(b, `uid-${i}`));
  const one = renderBindings(syncA, [{ kind: 'ClusterRole', name: 'bar-role' }]);

  it('ColdRunCreatesEverything', () => {
    const plan = planBindings(four, [], { prune: true, target: syncA });
    expect(plan.counts).toStrictEqual({ create: 4, update: 0, unchanged: 0, delete: 0, refused: 0 });
  });

  it('SecondRunChangesNothing', () => {
    const plan = planBindings(four, liveFour, { prune: true, target: syncA });
    expect(plan.counts).toStrictEqual({ create: 0, update: 0, unchanged: 4, delete: 0, refused: 0 });
  });

  it('FourRefsThenOneRefPrunesThree', () => {
    const plan = planBindings(one, liveFour, { prune: true, target: syncA });
    expect(only(plan, 'unchanged').map(liveName)).toStrictEqual(['bar-role']);
    const deletes = only(plan, 'delete');
    expect(deletes).toHaveLength(3);
    const barIndex = four.findIndex((b) => b.roleRef.name === 'bar-role');
    const others = [0, 1, 2, 3].filter((i) => i !== barIndex);
    expect(deletes.map((d) => d.uid).sort(), 'deletes carry the uid for a precondition').toStrictEqual(
      others.map((i) => `uid-${i}`),
    );
    expect(
      deletes.map((d) => d.resourceVersion).sort(),
      'and the resourceVersion, so a changed binding is read again before it is deleted',
    ).toStrictEqual(others.map((i) => `rv-uid-${i}`));
  });

  it('NoPruneKeepsThem', () => {
    const plan = planBindings(one, liveFour, { prune: false, target: syncA });
    expect(only(plan, 'delete')).toHaveLength(0);
    expect(plan.counts.unchanged).toBe(1);
    // What bind reports as "kept (--no-prune)": the deletes the same plan would make with prune.
    expect(only(planBindings(one, liveFour, { prune: true, target: syncA }), 'delete')).toHaveLength(3);
  });

  it('BindingWithoutOurLabelsNeverDeletedEvenWithMatchingNameAndRoleRef', () => {
    const handMade = {
      ...one[0]!,
      metadata: { name: one[0]!.metadata.name, uid: 'hand', labels: { team: 'platform' } },
    } as ClusterRoleBinding;
    const otherName = { ...handMade, metadata: { ...handMade.metadata, name: 'hand-made-bar' } };
    for (const prune of [true, false]) {
      const plan = planBindings(one, [handMade, otherName], { prune, target: syncA });
      expect(only(plan, 'refused').map((r) => r.name)).toStrictEqual([one[0]!.metadata.name]);
      expect(plan.counts).toStrictEqual({ create: 0, update: 0, unchanged: 0, delete: 0, refused: 1 });
    }
  });

  it('ConfigSyncsOwnBindingsNeverDeleted', () => {
    const theirs = asLive(
      {
        ...four[0]!,
        metadata: { name: 'root-reconciler-sync-a-m4q9z', labels: configSyncLabels },
      },
      'cs',
    );
    const plan = planBindings(one, [theirs], { prune: true, target: syncA });
    expect(only(plan, 'delete')).toHaveLength(0);
  });

  it('OtherTargetsBindingsNeverDeleted', () => {
    const syncB = rootSyncTarget('sync-b');
    const theirs = renderBindings(syncB, [{ kind: 'ClusterRole', name: 'x' }]).map((b) => asLive(b, 'b'));
    const plan = planBindings(four, theirs, { prune: true, target: syncA });
    expect(only(plan, 'delete')).toHaveLength(0);
    expect(only(plan, 'create')).toHaveLength(4);
  });

  it('AnotherAccountWhoseNameIsTheHashedLabelNeverPrunesTheLongNamedAccountsBindings', () => {
    // A ServiceAccount name may be 253 characters, a label value 63 (apimachinery validation.go
    // IsDNS1123Subdomain, IsValidLabelValue): the inventory label of a long name is a shortened form of it. A tenant
    // who may create ServiceAccounts in the namespace names one exactly that form; `bind --prune` for the tenant's
    // account must not delete the long-named account's ClusterRoleBinding, which names another subject.
    const longName = `gitops-${'x'.repeat(70)}`;
    const victim = renderBindings(
      { kind: 'ServiceAccount', serviceAccount: { namespace: 'team-a', name: longName } },
      [{ kind: 'ClusterRole', name: 'crossplane-edit' }],
    ).map((b) => asLive(b, 'victim'));
    const shortened = victim[0]?.metadata.labels?.['kubectl-crossplane-rbac/service-account-name'] ?? '';
    expect(shortened.length, 'the label holds a shortened form, a valid name of its own').toBeLessThan(64);
    const tenant: BindTarget = {
      kind: 'ServiceAccount',
      serviceAccount: { namespace: 'team-a', name: shortened },
    };
    const plan = planBindings(renderBindings(tenant, []), victim, { prune: true, target: tenant });
    expect(only(plan, 'delete'), 'the binding names team-a/<the long name>, not the target').toHaveLength(0);
  });

  it('ControllerOwnedBindingRefusedAndNeverDeleted', () => {
    const argo = (b: Binding): Binding => ({
      ...b,
      metadata: {
        ...b.metadata,
        ownerReferences: [
          { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', name: 'a', uid: 'u', controller: true },
        ],
      },
    });
    const plan = planBindings(one, liveFour.map(argo), { prune: true, target: syncA });
    expect(
      plan.counts,
      'a binding another controller owns is not ours, whatever its labels: never changed, never pruned',
    ).toStrictEqual({ create: 0, update: 0, unchanged: 0, delete: 0, refused: 1 });
    expect(only(plan, 'refused')[0]?.reason).toMatch(/not ours/);
  });

  it('OnlyBindingsArePruned', () => {
    const role: ClusterRole = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'labelled-like-ours', labels: syncALabels, uid: 'cr' },
    };
    const plan = planBindings(one, [], { prune: true, target: syncA, clusterRoles: [role] });
    expect(only(plan, 'delete'), 'bind writes bindings only, so it prunes bindings only').toHaveLength(0);
  });

  it('ForeignSubjectRemoved', () => {
    const live = liveFour.map((b): Binding =>
      b.roleRef.name === 'bar-role'
        ? {
            ...b,
            subjects: [
              ...(b.subjects ?? []),
              { kind: 'User', name: 'mallory', apiGroup: 'rbac.authorization.k8s.io' },
            ],
          }
        : b,
    );
    const plan = planBindings(four, live, { prune: true, target: syncA });
    const updates = only(plan, 'update');
    expect(updates).toHaveLength(1);
    const u = updates[0]!;
    expect(u.changed).toStrictEqual(['subjects']);
    expect(u.object !== undefined && 'subjects' in u.object ? u.object.subjects : undefined).toStrictEqual([
      syncASubject,
    ]);
    expect(u.object?.metadata.resourceVersion, 'updates carry the live resourceVersion').toBe(
      u.live?.metadata.resourceVersion,
    );
    expect(u.object?.metadata.resourceVersion).toMatch(/^rv-uid-/);
    expect(only(plan, 'unchanged')).toHaveLength(3);
  });

  it('MissingLabelRestoredAndExtraLabelsRemoved', () => {
    const [b] = renderBindings(syncA, [{ kind: 'ClusterRole', name: 'x' }]);
    const labels = { ...syncALabels, extra: 'kept' } as Record<string, string>;
    delete labels['app.kubernetes.io/managed-by'];
    // Ours by the Config Sync labels? No: our inventory includes app.kubernetes.io/managed-by. Config Sync's then?
    // Only where bind writes it as Config Sync's (desiredBindings); the plugin's binding never takes it over.
    const live = asLive({ ...b!, metadata: { ...b!.metadata, labels } } as ClusterRoleBinding, 'l');
    expect(only(planBindings([b!], [live], { prune: true, target: syncA }), 'refused')).toHaveLength(1);
    const liveOurs = asLive(
      {
        ...b!,
        metadata: { ...b!.metadata, labels: { ...syncALabels, extra: 'kept' } },
      } as ClusterRoleBinding,
      'l',
    );
    const plan = planBindings([b!], [liveOurs], { prune: true, target: syncA });
    const [u] = only(plan, 'update');
    expect(
      u?.changed,
      'an extra label on our binding is removed, as on every object the plugin owns',
    ).toEqual(['labels']);
    expect(u?.object?.metadata.labels).toStrictEqual(b!.metadata.labels);
  });

  it('ChangedRoleRefIsDeletedAndCreatedAgain', () => {
    const [b] = renderBindings(syncA, [{ kind: 'ClusterRole', name: 'x' }]);
    const live = asLive({ ...b!, roleRef: { ...b!.roleRef, name: 'y' } } as ClusterRoleBinding, 'r');
    const plan = planBindings([b!], [live], { prune: true, target: syncA });
    const [u] = only(plan, 'update');
    expect(u?.changed).toContain('roleRef');
    expect(u?.recreate, 'a roleRef is immutable: the write flow deletes the binding and creates it').toBe(
      true,
    );
    expect(u?.object?.metadata.resourceVersion).toBe('rv-r');
  });

  it('DeterministicUnderShuffle', () => {
    const a = planBindings(one, liveFour, { prune: true, target: syncA });
    const b = planBindings(one, [...liveFour].reverse(), { prune: true, target: syncA });
    expect(b).toStrictEqual(a);
  });
});

describe('the plan bind hands to the write flow', () => {
  const target = rootSyncTarget('root-sync');
  const old = renderBindings(target, [
    { kind: 'ClusterRole', name: 'gone' },
    { kind: 'Role', name: 'gone', namespace: 'team-b' },
    { kind: 'ClusterRole', name: 'kept' },
    { kind: 'ClusterRole', name: 'changed' },
  ]).map((b, i) => asLive(b, `u${i}`));
  const changed = old.find((b) => b.roleRef.name === 'changed');
  const liveBindings = old.map((b) =>
    b === changed ? { ...b, subjects: [...(b.subjects ?? []), { kind: 'User', name: 'eve' }] } : b,
  );
  const desired = renderBindings(target, [
    { kind: 'ClusterRole', name: 'kept' },
    { kind: 'ClusterRole', name: 'changed' },
    { kind: 'ClusterRole', name: 'new', namespace: 'team-a' },
    { kind: 'ClusterRole', name: 'new' },
  ]);
  const plan = planBindings(desired, liveBindings, { prune: true, target });

  it('CountsEveryAction', () => {
    expect(plan.counts).toStrictEqual({ create: 2, update: 1, unchanged: 1, delete: 2, refused: 0 });
  });

  it('ClusterRoleBindingsBeforeRoleBindingsByKeyDeletesLast', () => {
    const rest = plan.entries.filter((e) => e.action !== 'delete');
    expect(rest.map((e) => e.kind)).toStrictEqual([
      'ClusterRoleBinding',
      'ClusterRoleBinding',
      'ClusterRoleBinding',
      'RoleBinding',
    ]);
    const crbKeys = rest.filter((e) => e.kind === 'ClusterRoleBinding').map((e) => e.key);
    expect(crbKeys).toStrictEqual([...crbKeys].sort());
    expect(plan.entries.slice(-2).map((e) => e.action)).toStrictEqual(['delete', 'delete']);
  });

  it('DeletesComeLastWithTheirUidPreconditions', () => {
    const deletes = plan.entries.filter((e) => e.action === 'delete');
    expect(deletes.map((e) => e.uid).sort()).toStrictEqual(
      old
        .filter((b) => b.roleRef.name === 'gone')
        .map((b) => b.metadata.uid)
        .sort(),
    );
    for (const d of deletes) expect(d.resourceVersion).toBe(`rv-${d.uid ?? ''}`);
  });

  it('KeysAreKindNamespaceName', () => {
    const create = plan.entries.find((e) => e.action === 'create' && e.kind === 'RoleBinding');
    expect(create?.key).toBe(`RoleBinding/team-a/${create?.name ?? ''}`);
    expect(create?.namespace).toBe('team-a');
  });

  it('UpdatesCarryTheLiveVersionAndWhatChanged', () => {
    const update = plan.entries.find((e) => e.action === 'update');
    expect(update?.changed).toStrictEqual(['subjects']);
    expect(update?.object?.metadata.resourceVersion).toBe(changed?.metadata.resourceVersion);
  });

  it('RefusalsBecomeRefusedEntriesWithTheirReason', () => {
    const want = renderBindings(target, [{ kind: 'ClusterRole', name: 'x' }]);
    const first = want[0];
    if (first === undefined) throw new Error('no binding rendered');
    const foreign = { ...first, metadata: { name: first.metadata.name } } as ClusterRoleBinding;
    const refused = planBindings(want, [foreign], { prune: true, target });
    expect(refused.entries).toHaveLength(1);
    expect(refused.entries[0]?.action).toBe('refused');
    expect(refused.entries[0]?.reason).toBe(
      'a ClusterRoleBinding with this name exists but lacks the labels of RootSync config-management-system/root-sync ' +
        '(app.kubernetes.io/managed-by=kubectl-crossplane-rbac,configsync.gke.io/managed-by=reconciler-manager,' +
        'configsync.gke.io/sync-kind=RootSync,configsync.gke.io/sync-name=root-sync,' +
        'configsync.gke.io/sync-namespace=config-management-system); it is not ours, so it is left alone ' +
        '(--adopt takes it over)',
    );
  });

  it('ARacingWriteIsPlannedAgainWithTheSameRule', () => {
    const [want] = renderBindings(target, [{ kind: 'ClusterRole', name: 'x' }]);
    const rule = bindOwnership(target);
    const foreign = { ...want!, metadata: { name: want!.metadata.name, uid: 'f' } } as ClusterRoleBinding;
    expect(replanOne(want!, foreign, false, rule).action, 'made by someone else meanwhile').toBe('refused');
    const ours = asLive({ ...want!, subjects: [] } as ClusterRoleBinding, 'o');
    const again = replanOne(want!, ours, false, rule);
    expect(again.action).toBe('update');
    expect(replanOne(want!, asLive(want!, 'same'), false, rule).action).toBe('none');
  });
});

describe('reconciler-manager bindings in the fixture', () => {
  const docs = parseAllDocuments(readFileSync(fixturePath('real', 'configsync.yaml'), 'utf8')).map(
    (d) => d.toJS() as KubeObject | null,
  );
  const bindings = docs.filter(
    (d) => d?.kind === 'ClusterRoleBinding' || d?.kind === 'RoleBinding',
  ) as unknown as Binding[];
  const refs = roleRefsOfRootSync(docs.find((d) => d?.metadata.name === 'sync-a')!);

  it('NoneOfThemIsOurs', () => {
    // The plugin's own bindings (renderBindings) never take over, refuse or delete reconciler-manager's: its
    // roleRef bindings have other names, and the shared base binding is deleted only as its last subject's clean-up.
    const plan = planBindings(renderBindings(syncA, refs), bindings, { prune: false, target: syncA });
    expect(plan.counts).toStrictEqual({ create: 4, update: 0, unchanged: 0, delete: 0, refused: 0 });
  });

  it('WhatReconcilerManagerMadeIsUsedNotDuplicated', () => {
    // bind's plan for a RootSync whose roleRefs Config Sync already bound: those bindings, nothing new.
    const desired = desiredBindings(syncA, refs, split(bindings), {
      baseRole: 'configsync.gke.io:root-reconciler',
      cleanup: true,
    });
    const plan = planBindings(desired, bindings, { prune: true, target: syncA });
    expect(plan.counts).toStrictEqual({ create: 0, update: 0, unchanged: 5, delete: 0, refused: 0 });
  });
});
