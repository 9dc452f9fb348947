// snapshotAfterPlan: the cluster as a plan leaves it, with hand-made objects and plans. The expected snapshots are
// written out by hand: what a write does to the objects the API server stores (a create adds, an update replaces
// by kind, namespace and name, a delete removes, a refused or unchanged entry leaves the live object), and what
// Kubernetes' clusterrole-aggregation controller then stores in an aggregated role
// (pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go, syncClusterRole: the selected roles'
// rules, selector by selector, roles in name order, first occurrence kept).
import { describe, expect, it } from 'vitest';
import { snapshotAfterPlan } from '../../../src/app/after-sync.js';
import type { Plan, PlanAction, PlanEntry } from '../../../src/plan/plan.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  ClusterSnapshot,
  KubeObject,
  PolicyRule,
  RbacObject,
  RoleBinding,
} from '../../../src/kube/types.js';

const RBAC = 'rbac.authorization.k8s.io/v1';
const EDIT = 'rbac.crossplane.io/aggregate-to-edit';

function role(name: string, rules: PolicyRule[], labels?: Record<string, string>): ClusterRole {
  return { apiVersion: RBAC, kind: 'ClusterRole', metadata: { name, ...(labels ? { labels } : {}) }, rules };
}

function aggregated(name: string, label: string, rules: PolicyRule[] = []): ClusterRole {
  return {
    apiVersion: RBAC,
    kind: 'ClusterRole',
    metadata: { name },
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [label]: 'true' } }] },
    rules,
  };
}

function crb(name: string, roleName: string, group: string): ClusterRoleBinding {
  return {
    apiVersion: RBAC,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: group }],
  };
}

function rb(namespace: string, name: string, roleName: string, user: string): RoleBinding {
  return {
    apiVersion: RBAC,
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
  };
}

function snapshot(objects: {
  clusterRoles?: ClusterRole[];
  clusterRoleBindings?: ClusterRoleBinding[];
  roleBindings?: RoleBinding[];
  others?: KubeObject[];
}): ClusterSnapshot {
  return {
    xrds: [],
    providerRevisions: [],
    deployments: [],
    namespaces: [],
    configMaps: [],
    clusterRoles: objects.clusterRoles ?? [],
    clusterRoleBindings: objects.clusterRoleBindings ?? [],
    roleBindings: objects.roleBindings ?? [],
    others: objects.others ?? [],
  };
}

/** A plan entry written out by hand: the key is `Kind/name` or `Kind/namespace/name`. */
function entry(action: PlanAction, object: RbacObject): PlanEntry {
  const ns = object.metadata.namespace;
  return {
    action,
    key:
      ns !== undefined
        ? `${object.kind}/${ns}/${object.metadata.name}`
        : `${object.kind}/${object.metadata.name}`,
    kind: object.kind,
    name: object.metadata.name,
    ...(ns !== undefined ? { namespace: ns } : {}),
    ...(action === 'create' || action === 'update' || action === 'refused' ? { object } : {}),
    ...(action !== 'create' ? { live: object } : {}),
  };
}

function plan(...entries: PlanEntry[]): Plan {
  const counts = { create: 0, update: 0, unchanged: 0, delete: 0, refused: 0 };
  for (const e of entries) counts[e.action]++;
  return { entries, counts };
}

const getWidgets: PolicyRule = { apiGroups: ['example.org'], resources: ['widgets'], verbs: ['get'] };
const allWidgets: PolicyRule = { apiGroups: ['example.org'], resources: ['widgets'], verbs: ['*'] };
const allGadgets: PolicyRule = { apiGroups: ['example.org'], resources: ['gadgets'], verbs: ['*'] };
const readPods: PolicyRule = { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] };

interface Case {
  readonly reason: string;
  readonly before: ClusterSnapshot;
  readonly plan: Plan;
  readonly after: ClusterSnapshot;
}

const cases: Record<string, Case> = {
  UpdateReplacesTheLiveObjectInPlace: {
    reason:
      'an update writes the whole object over the one of the same key; its neighbours stay where they were',
    before: snapshot({ clusterRoles: [role('a', [getWidgets]), role('b', [readPods]), role('c', [])] }),
    plan: plan(entry('update', role('b', [allWidgets]))),
    after: snapshot({ clusterRoles: [role('a', [getWidgets]), role('b', [allWidgets]), role('c', [])] }),
  },
  CreateJoinsTheLiveObjects: {
    reason: 'a create adds an object of its kind after the live ones',
    before: snapshot({ clusterRoleBindings: [crb('x', 'view', 'devs')] }),
    plan: plan(entry('create', crb('y', 'edit', 'ops'))),
    after: snapshot({ clusterRoleBindings: [crb('x', 'view', 'devs'), crb('y', 'edit', 'ops')] }),
  },
  RefusedAndUnchangedStay: {
    reason:
      'sync does not write what it refuses (another owner) or what already matches: the live objects stay',
    before: snapshot({ clusterRoles: [role('helms', [getWidgets]), role('same', [readPods])] }),
    plan: plan(entry('refused', role('helms', [allWidgets])), entry('unchanged', role('same', [readPods]))),
    after: snapshot({ clusterRoles: [role('helms', [getWidgets]), role('same', [readPods])] }),
  },
  LiveExtrasStay: {
    reason: 'a plain sync prunes nothing: live objects the plan does not name are kept',
    before: snapshot({
      clusterRoles: [role('old', [allGadgets])],
      clusterRoleBindings: [crb('old', 'old', 'g')],
    }),
    plan: plan(entry('create', role('new', [allWidgets]))),
    after: snapshot({
      clusterRoles: [role('old', [allGadgets]), role('new', [allWidgets])],
      clusterRoleBindings: [crb('old', 'old', 'g')],
    }),
  },
  DeleteRemoves: {
    reason: 'with --prune a plan deletes; the object is gone',
    before: snapshot({ clusterRoles: [role('a', [getWidgets]), role('b', [readPods])] }),
    plan: plan(entry('delete', role('a', [getWidgets]))),
    after: snapshot({ clusterRoles: [role('b', [readPods])] }),
  },
  RoleBindingsByNamespace: {
    reason: 'a RoleBinding is keyed by its namespace too: one of the same name elsewhere is another object',
    before: snapshot({
      roleBindings: [rb('team-a', 'devs', 'view', 'ann'), rb('team-b', 'devs', 'view', 'bob')],
    }),
    plan: plan(entry('update', rb('team-b', 'devs', 'edit', 'bob'))),
    after: snapshot({
      roleBindings: [rb('team-a', 'devs', 'view', 'ann'), rb('team-b', 'devs', 'edit', 'bob')],
    }),
  },
  SameNameOtherKind: {
    reason: 'a ClusterRoleBinding named like a ClusterRole replaces no ClusterRole',
    before: snapshot({ clusterRoles: [role('x', [readPods])], clusterRoleBindings: [crb('x', 'x', 'old')] }),
    plan: plan(entry('update', crb('x', 'x', 'new'))),
    after: snapshot({ clusterRoles: [role('x', [readPods])], clusterRoleBindings: [crb('x', 'x', 'new')] }),
  },
  AggregatedRoleGainsAProvidersRules: {
    reason:
      'crossplane-edit selects the aggregate-to-edit label: once sync creates a provider role with it, the controller copies its rules in, after those it held (roles in name order)',
    before: snapshot({
      clusterRoles: [
        aggregated('crossplane-edit', EDIT, [getWidgets]),
        role('crossplane:aggregate-to-edit', [getWidgets], { [EDIT]: 'true' }),
      ],
      clusterRoleBindings: [crb('devs-edit', 'crossplane-edit', 'devs')],
    }),
    plan: plan(
      entry(
        'create',
        role('crossplane:provider:widgets-1:aggregate-to-edit', [allWidgets, allGadgets], { [EDIT]: 'true' }),
      ),
    ),
    after: snapshot({
      clusterRoles: [
        aggregated('crossplane-edit', EDIT, [getWidgets, allWidgets, allGadgets]),
        role('crossplane:aggregate-to-edit', [getWidgets], { [EDIT]: 'true' }),
        role('crossplane:provider:widgets-1:aggregate-to-edit', [allWidgets, allGadgets], { [EDIT]: 'true' }),
      ],
      clusterRoleBindings: [crb('devs-edit', 'crossplane-edit', 'devs')],
    }),
  },
  AggregationThroughTwoLevels: {
    reason:
      'an aggregated role created by sync (rules empty) is filled, and a role aggregating it gets the rules too, as the controller converges',
    before: snapshot({
      clusterRoles: [aggregated('top', 'x/top'), role('leaf', [readPods], { 'x/mid': 'true' })],
    }),
    plan: plan(
      entry('create', {
        ...aggregated('mid', 'x/mid'),
        metadata: { name: 'mid', labels: { 'x/top': 'true' } },
      }),
    ),
    after: snapshot({
      clusterRoles: [
        aggregated('top', 'x/top', [readPods]),
        role('leaf', [readPods], { 'x/mid': 'true' }),
        { ...aggregated('mid', 'x/mid', [readPods]), metadata: { name: 'mid', labels: { 'x/top': 'true' } } },
      ],
    }),
  },
  NothingWrittenNothingRecomputed: {
    reason:
      'when sync writes nothing, no ClusterRole changes and the controller is not woken: a lagging role keeps what it stores',
    before: snapshot({
      clusterRoles: [aggregated('crossplane-edit', EDIT, []), role('p', [allWidgets], { [EDIT]: 'true' })],
    }),
    plan: plan(entry('unchanged', role('p', [allWidgets], { [EDIT]: 'true' }))),
    after: snapshot({
      clusterRoles: [aggregated('crossplane-edit', EDIT, []), role('p', [allWidgets], { [EDIT]: 'true' })],
    }),
  },
  RolesAmongTheOthers: {
    reason: 'namespaced Roles are kept among the other objects read, and replaced there by key',
    before: snapshot({
      others: [
        {
          apiVersion: RBAC,
          kind: 'Role',
          metadata: { name: 'r', namespace: 'a' },
          rules: [readPods],
        },
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'r', namespace: 'a' } },
      ],
    }),
    plan: plan(
      entry('update', {
        apiVersion: RBAC,
        kind: 'Role',
        metadata: { name: 'r', namespace: 'a' },
        rules: [getWidgets],
      }),
    ),
    after: snapshot({
      others: [
        {
          apiVersion: RBAC,
          kind: 'Role',
          metadata: { name: 'r', namespace: 'a' },
          rules: [getWidgets],
        },
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'r', namespace: 'a' } },
      ],
    }),
  },
};

describe('snapshotAfterPlan: the cluster after sync writes', () => {
  it.each(Object.entries(cases))('%s', (_name, c) => {
    expect(snapshotAfterPlan(c.before, c.plan), c.reason).toStrictEqual(c.after);
  });

  it('leaves the snapshot read untouched', () => {
    const before = snapshot({ clusterRoles: [aggregated('e', EDIT, [])] });
    const copy = structuredClone(before);
    snapshotAfterPlan(before, plan(entry('create', role('p', [allWidgets], { [EDIT]: 'true' }))));
    expect(before).toStrictEqual(copy);
  });
});
