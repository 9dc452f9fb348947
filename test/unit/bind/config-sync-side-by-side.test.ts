import { describe, expect, it } from 'vitest';
import { rootSyncTarget } from '../../../src/bind/config-sync.js';
import { bindOwnership } from '../../../src/bind/inventory.js';
import { desiredBindings } from '../../../src/bind/render.js';
import type { RoleRefSpec } from '../../../src/bind/role-refs.js';
import type { Binding, BindTarget } from '../../../src/bind/target.js';
import type { ClusterRoleBinding, RoleBinding } from '../../../src/kube/types.js';
import { planChanges, type Plan } from '../../../src/plan/plan.js';

// bind and Config Sync's reconciler-manager side by side. Everything Config Sync does is transcribed here from
// GoogleContainerTools/kpt-config-sync @ bd5fadf7ec196a27a637179d0c5f757e3ee49db6, never taken from src/:
// - reconciler_base.go ManagedObjectLabelMap: the labels of a RootSync's roleRef bindings;
// - rootsync_controller.go listCurrentRoleRefs: they are listed with labels.SelectorFromSet(that map) and keyed by
//   roleRef {kind, name, namespace of a RoleBinding}; manageRBACBindings creates a declared roleRef missing from
//   that map and deletes a listed one no longer declared;
// - reconciler_base.go upsertSharedClusterRoleBinding, garbage_collector.go deleteSharedClusterRoleBinding,
//   permissions.go addSubject/removeSubject/sortSubjects, build_names.go: the shared base ClusterRoleBinding
//   configsync.gke.io:root-reconciler-base to ClusterRole configsync.gke.io:root-reconciler, labelled with the
//   map without sync-name; a reconciler is added to its subjects (sorted by apiGroup, kind, namespace, name) and
//   removed again, the binding deleted only when no subject is left.
// (All under pkg/reconcilermanager/controllers/.)

const CS = 'config-management-system';
const RBAC = 'rbac.authorization.k8s.io';

/** ManagedObjectLabelMap("RootSync", {namespace, name}). */
function managedObjectLabelMap(name: string): Record<string, string> {
  return {
    'configsync.gke.io/managed-by': 'reconciler-manager',
    'configsync.gke.io/sync-namespace': CS,
    'configsync.gke.io/sync-name': name,
    'configsync.gke.io/sync-kind': 'RootSync',
  };
}

/** labels.SelectorFromSet(set).Matches(labels): every key of the set with its value. */
function selectorFromSetMatches(
  set: Record<string, string>,
  labels: Record<string, string> | undefined,
): boolean {
  return Object.entries(set).every(([k, v]) => labels?.[k] === v);
}

/** listCurrentRoleRefs: the bindings Config Sync lists for RootSync NAME, keyed by roleRef (the map keeps one). */
function listCurrentRoleRefs(name: string, all: readonly Binding[]): Map<string, Binding> {
  const out = new Map<string, Binding>();
  for (const b of all) {
    if (!selectorFromSetMatches(managedObjectLabelMap(name), b.metadata.labels)) continue;
    const ns = b.kind === 'RoleBinding' ? (b.metadata.namespace ?? '') : '';
    out.set(`${b.roleRef.kind}/${b.roleRef.name}/${ns}`, b);
  }
  return out;
}

function declaredKey(r: RoleRefSpec): string {
  return `${r.kind}/${r.name}/${r.namespace ?? ''}`;
}

/** The subject Config Sync gives a root reconciler (serviceAccountSubject: no apiGroup). */
function reconciler(name: string): { kind: string; name: string; namespace: string } {
  return { kind: 'ServiceAccount', name, namespace: CS };
}

function sharedBase(
  subjects: ClusterRoleBinding['subjects'],
  labels?: Record<string, string>,
): ClusterRoleBinding {
  const { 'configsync.gke.io/sync-name': _shared, ...shared } = managedObjectLabelMap('');
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: {
      name: 'configsync.gke.io:root-reconciler-base',
      uid: 'base',
      resourceVersion: '7',
      labels: labels ?? shared,
    },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'configsync.gke.io:root-reconciler' },
    ...(subjects !== undefined ? { subjects } : {}),
  };
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

/** bind's run: the bindings it wants and the plan, with pruning (its default). */
function bindRun(
  target: BindTarget,
  refs: readonly RoleRefSpec[],
  live: readonly Binding[],
  opts: { baseRole?: string; prune?: boolean } = {},
): Plan {
  const prune = opts.prune ?? true;
  const desired = desiredBindings(target, refs, split(live), {
    ...(opts.baseRole !== undefined ? { baseRole: opts.baseRole } : {}),
    cleanup: prune,
  });
  return planChanges(
    desired,
    { clusterRoles: [], ...split(live) },
    { prune, ownership: bindOwnership(target) },
  );
}

/** What the cluster holds after the plan is applied (creates and updates written, deletes done). */
function applied(live: readonly Binding[], plan: Plan): Binding[] {
  const key = (b: Binding): string => `${b.kind}/${b.metadata.namespace ?? ''}/${b.metadata.name}`;
  const byKey = new Map(live.map((b) => [key(b), b]));
  for (const e of plan.entries) {
    const k = `${e.kind}/${e.namespace ?? ''}/${e.name}`;
    if (e.action === 'delete') byKey.delete(k);
    else if ((e.action === 'create' || e.action === 'update') && e.object !== undefined) {
      byKey.set(k, e.object as Binding);
    }
  }
  return [...byKey.values()];
}

const refs: RoleRefSpec[] = [
  { kind: 'ClusterRole', name: 'crossplane-edit' },
  { kind: 'ClusterRole', name: 'edit', namespace: 'team-a' },
  { kind: 'Role', name: 'deployer', namespace: 'team-b' },
];
const syncA = rootSyncTarget('sync-a');

describe("Config Sync's label query finds bind's bindings", () => {
  it('TheQueryFindsExactlyThePluginsRoleRefBindings', () => {
    // Another RootSync's binding, the shared base binding and a hand-made binding are live too.
    const other = bindRun(rootSyncTarget('sync-b'), [{ kind: 'ClusterRole', name: 'view' }], []);
    const handMade: ClusterRoleBinding = {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'hand-made', labels: { team: 'platform' } },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' },
      subjects: [reconciler('root-reconciler-sync-a')],
    };
    const before = applied([handMade], other);
    const plan = bindRun(syncA, refs, before, { baseRole: 'configsync.gke.io:root-reconciler' });
    const after = applied(before, plan);
    const plugins = plan.entries
      .filter((e) => e.action === 'create' && e.name !== 'configsync.gke.io:root-reconciler-base')
      .map((e) => `${e.kind}/${e.namespace ?? ''}/${e.name}`)
      .sort();
    expect(plugins).toHaveLength(3);
    const found = [...listCurrentRoleRefs('sync-a', after).values()]
      .map((b) => `${b.kind}/${b.metadata.namespace ?? ''}/${b.metadata.name}`)
      .sort();
    expect(found, "Config Sync's query for sync-a: exactly the plugin's roleRef bindings").toStrictEqual(
      plugins,
    );
    const keys = [...listCurrentRoleRefs('sync-a', after).keys()].sort();
    expect(keys, 'keyed as Config Sync keys them: each declared roleRef once').toStrictEqual(
      refs.map(declaredKey).sort(),
    );
    expect(listCurrentRoleRefs('sync-b', after).size, "sync-b's query finds only sync-b's").toBe(1);
    for (const b of listCurrentRoleRefs('sync-a', after).values()) {
      expect(b.subjects, 'updateRBACBinding would change nothing: one subject, the reconciler').toStrictEqual(
        [reconciler('root-reconciler-sync-a')],
      );
    }
  });

  it('ConfigSyncWouldCreateNothingAndDeleteNothingAfterBind', () => {
    const after = applied([], bindRun(syncA, refs, []));
    const current = listCurrentRoleRefs('sync-a', after);
    const declared = new Set(refs.map(declaredKey));
    expect(
      [...declared].filter((k) => !current.has(k)),
      'manageRBACBindings: no roleRef left to create',
    ).toStrictEqual([]);
    expect(
      [...current.keys()].filter((k) => !declared.has(k)),
      'and none listed but undeclared',
    ).toStrictEqual([]);
  });

  it('BindUsesWhatConfigSyncMadeInsteadOfADuplicateAndNeverDeletesIt', () => {
    // reconciler-manager made the binding of one roleRef (generateName "root-reconciler-sync-a-").
    const theirs: ClusterRoleBinding = {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: {
        name: 'root-reconciler-sync-a-m4q9z',
        uid: 'cs',
        resourceVersion: '3',
        labels: managedObjectLabelMap('sync-a'),
      },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'crossplane-edit' },
      subjects: [reconciler('root-reconciler-sync-a')],
    };
    const plan = bindRun(syncA, refs, [theirs]);
    expect(plan.counts).toStrictEqual({ create: 2, update: 0, unchanged: 1, delete: 0, refused: 0 });
    const after = applied([theirs], plan);
    expect(listCurrentRoleRefs('sync-a', after).size, 'one binding per roleRef').toBe(3);
    expect(after.filter((b) => b.roleRef.name === 'crossplane-edit')).toStrictEqual([theirs]);
    // Dropping that roleRef from bind's list does not delete Config Sync's binding (bind prunes only its own).
    const fewer = bindRun(syncA, refs.slice(1), after);
    expect(fewer.entries.filter((e) => e.action === 'delete').map((e) => e.name)).toStrictEqual([]);
  });
});

describe("Config Sync's shared base binding", () => {
  const mine = reconciler('root-reconciler-sync-a');
  const otherSync = reconciler('root-reconciler-sync-b');
  const baseRole = 'configsync.gke.io:root-reconciler';

  it('BaseRoleAddsTheReconcilerToTheSharedBindingSorted', () => {
    const live = [sharedBase([otherSync])];
    const plan = bindRun(syncA, refs, live, { baseRole });
    const base = plan.entries.find((e) => e.name === 'configsync.gke.io:root-reconciler-base');
    expect(base?.action).toBe('update');
    const obj = base?.object as ClusterRoleBinding;
    expect(obj.subjects, 'addSubject: appended, then sorted by namespace and name').toStrictEqual([
      mine,
      otherSync,
    ]);
    expect(obj.roleRef).toStrictEqual({ apiGroup: RBAC, kind: 'ClusterRole', name: baseRole });
    expect(obj.metadata.labels).toStrictEqual(sharedBase([]).metadata.labels);
    expect(obj.metadata.resourceVersion, 'written over the version read').toBe('7');
  });

  it('BaseRoleCreatesTheSharedBindingAsConfigSyncWould', () => {
    const plan = bindRun(syncA, refs, [], { baseRole });
    const base = plan.entries.find((e) => e.name === 'configsync.gke.io:root-reconciler-base');
    expect(base?.action).toBe('create');
    const { uid: _u, resourceVersion: _r, ...meta } = sharedBase([mine]).metadata;
    expect(base?.object).toStrictEqual({ ...sharedBase([mine]), metadata: meta });
    expect(
      listCurrentRoleRefs('sync-a', applied([], plan)).size,
      "it is not one of the RootSync's roleRef bindings (no sync-name label)",
    ).toBe(3);
  });

  it('CleaningUpRemovesOnlyOurSubjectAndNeverDeletesABindingOthersRelyOn', () => {
    const live = [sharedBase([mine, otherSync])];
    const plan = bindRun(syncA, refs, live);
    const base = plan.entries.filter((e) => e.name === 'configsync.gke.io:root-reconciler-base');
    expect(base.map((e) => e.action)).toStrictEqual(['update']);
    expect((base[0]?.object as ClusterRoleBinding).subjects).toStrictEqual([otherSync]);
    expect(plan.counts.delete).toBe(0);
  });

  it('CleaningUpDeletesItOnlyWhenWeAreItsLastSubject', () => {
    const plan = bindRun(syncA, refs, [sharedBase([mine])]);
    const base = plan.entries.filter((e) => e.name === 'configsync.gke.io:root-reconciler-base');
    expect(base.map((e) => [e.action, e.uid, e.resourceVersion])).toStrictEqual([['delete', 'base', '7']]);
    expect(
      bindRun(syncA, refs, [sharedBase([otherSync])]).entries.some(
        (e) => e.name === 'configsync.gke.io:root-reconciler-base',
      ),
    ).toBe(false);
  });

  it('NoPruneLeavesItAlone', () => {
    const plan = bindRun(syncA, refs, [sharedBase([mine, otherSync])], { prune: false });
    expect(plan.entries.some((e) => e.name === 'configsync.gke.io:root-reconciler-base')).toBe(false);
  });

  it('ASharedBindingThatIsNotConfigSyncsIsNeverTouched', () => {
    const foreign = sharedBase([mine, otherSync], { team: 'platform' });
    expect(bindRun(syncA, refs, [foreign]).entries.some((e) => e.name === foreign.metadata.name)).toBe(false);
    const withBase = bindRun(syncA, refs, [foreign], { baseRole });
    expect(withBase.entries.find((e) => e.name === foreign.metadata.name)?.action).toBe('refused');
    const otherRole = {
      ...sharedBase([otherSync]),
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' },
    };
    const refused = bindRun(syncA, refs, [otherRole], { baseRole });
    expect(refused.entries.find((e) => e.name === foreign.metadata.name)?.reason).toMatch(
      /binds ClusterRole\/cluster-admin/,
    );
  });
});
