import { describe, expect, it } from 'vitest';
import { planFromBind } from '../../../src/bind/plan-from-bind.js';
import { planBind, renderBindings, rootSyncTarget, type Binding } from '../../../src/bind/render.js';
import type { ClusterRoleBinding, RoleBinding } from '../../../src/kube/types.js';

const target = rootSyncTarget('root-sync');

function live<T extends Binding>(b: T, uid: string): T {
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

describe('planFromBind', () => {
  const old = renderBindings(target, [
    { kind: 'ClusterRole', name: 'gone' },
    { kind: 'Role', name: 'gone', namespace: 'team-b' },
    { kind: 'ClusterRole', name: 'kept' },
    { kind: 'ClusterRole', name: 'changed' },
  ]).map((b, i) => live(b, `u${i}`));
  const changed = old.find((b) => b.roleRef.name === 'changed');
  const liveBindings = old.map((b) =>
    b === changed ? { ...b, subjects: [...(b.subjects ?? []), { kind: 'User', name: 'eve' }] } : b,
  );
  const desired = renderBindings(target, [
    { kind: 'ClusterRole', name: 'kept' },
    { kind: 'ClusterRole', name: 'changed' },
    { kind: 'ClusterRole', name: 'new', namespace: 'team-a' },
  ]);
  const plan = planFromBind(planBind(desired, split(liveBindings), { prune: true, target }));

  it('CountsEveryAction', () => {
    expect(plan.counts).toStrictEqual({ create: 1, update: 1, unchanged: 1, delete: 2, refused: 0 });
  });

  it('DeletesComeLastWithTheirUidPreconditions', () => {
    const actions = plan.entries.map((e) => e.action);
    expect(actions.slice(-2)).toStrictEqual(['delete', 'delete']);
    const uids = plan.entries
      .filter((e) => e.action === 'delete')
      .map((e) => e.uid)
      .sort();
    expect(uids).toStrictEqual(
      old
        .filter((b) => b.roleRef.name === 'gone')
        .map((b) => b.metadata.uid)
        .sort(),
    );
  });

  it('KeysAreKindNamespaceName', () => {
    const create = plan.entries.find((e) => e.action === 'create');
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
    const refused = planFromBind(
      planBind(want, { clusterRoleBindings: [foreign], roleBindings: [] }, { prune: true, target }),
    );
    expect(refused.entries).toHaveLength(1);
    expect(refused.entries[0]?.action).toBe('refused');
    expect(refused.entries[0]?.reason).toMatch(/not ours/);
  });
});
