import { describe, expect, it } from 'vitest';
import type { RbacObject } from '../../../src/kube/types.js';
import {
  formatPermission,
  renderReadRole,
  renderSyncRequiredRole,
  requiredPermissions,
  rulesGranted,
  writesAggregationRule,
  type PlannedWrite,
} from '../../../src/authz/required-permissions.js';

const RBAC = 'rbac.authorization.k8s.io';

describe('renderReadRole', () => {
  it('lists each resource once, one rule per API group in the order first seen', () => {
    const role = renderReadRole('crossplane-rbac-x', [
      { group: RBAC, resource: 'clusterroles' },
      { group: 'pkg.crossplane.io', resource: 'providerrevisions' },
      { group: RBAC, resource: 'rolebindings' },
      { group: RBAC, resource: 'clusterroles' },
      { group: '', resource: 'namespaces' },
    ]);
    expect(role).toStrictEqual({
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'crossplane-rbac-x' },
      rules: [
        { verbs: ['list'], apiGroups: [RBAC], resources: ['clusterroles', 'rolebindings'] },
        { verbs: ['list'], apiGroups: ['pkg.crossplane.io'], resources: ['providerrevisions'] },
        { verbs: ['list'], apiGroups: [''], resources: ['namespaces'] },
      ],
    });
  });

  it('has no rules for no resources', () => {
    expect(renderReadRole('r', []).rules).toStrictEqual([]);
  });
});

const owner = (kind: string, block: boolean) => ({
  apiVersion: 'x/v1',
  kind,
  name: 'o',
  uid: 'u',
  ...(block ? { blockOwnerDeletion: true } : {}),
});

describe('requiredPermissions', () => {
  const role = (action: PlannedWrite['action'], refs: ReturnType<typeof owner>[] = []): PlannedWrite => ({
    action,
    object: {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'r', ownerReferences: refs },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    },
  });
  const binding = (namespace: string): PlannedWrite => ({
    action: 'create',
    object: {
      apiVersion: `${RBAC}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'b', namespace },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' },
    },
  });

  it('needs the verb on each kind, per namespace, once each', () => {
    expect(
      requiredPermissions([role('create'), role('create'), binding('a'), binding('a'), binding('b')]),
    ).toStrictEqual([
      { verb: 'create', group: RBAC, resource: 'clusterroles' },
      { verb: 'create', group: RBAC, resource: 'rolebindings', namespace: 'a' },
      { verb: 'create', group: RBAC, resource: 'rolebindings', namespace: 'b' },
    ]);
  });

  it.each([
    ['CompositeResourceDefinition', 'apiextensions.crossplane.io', 'compositeresourcedefinitions'],
    ['ProviderRevision', 'pkg.crossplane.io', 'providerrevisions'],
    ['Namespace', '', 'namespaces'],
  ])("needs update on a blocking %s owner's finalizers", (kind, group, resource) => {
    expect(requiredPermissions([role('update', [owner(kind, true)])])).toStrictEqual([
      { verb: 'update', group: RBAC, resource: 'clusterroles' },
      { verb: 'update', group, resource, subresource: 'finalizers' },
    ]);
    // Not for an owner reference that does not block deletion, an unknown owner kind, or a delete.
    expect(requiredPermissions([role('update', [owner(kind, false)])])).toHaveLength(1);
    expect(requiredPermissions([role('update', [owner('Other', true)])])).toHaveLength(1);
    expect(requiredPermissions([role('delete', [owner(kind, true)])])).toStrictEqual([
      { verb: 'delete', group: RBAC, resource: 'clusterroles' },
    ]);
  });

  it('collects the rules of the roles written, and whether one aggregates', () => {
    expect(rulesGranted([role('create'), role('delete'), binding('a')])).toStrictEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
    ]);
    const aggregated: PlannedWrite = {
      action: 'create',
      object: {
        apiVersion: `${RBAC}/v1`,
        kind: 'ClusterRole',
        metadata: { name: 'a' },
        aggregationRule: { clusterRoleSelectors: [] },
      },
    };
    expect(writesAggregationRule([role('create')])).toBe(false);
    expect(writesAggregationRule([aggregated])).toBe(true);
    expect(writesAggregationRule([{ ...aggregated, action: 'delete' }])).toBe(false);
  });

  it('formats a permission as kubectl auth can-i would take it', () => {
    expect(formatPermission({ verb: 'create', group: RBAC, resource: 'rolebindings', namespace: 'a' })).toBe(
      `create rolebindings.${RBAC} in namespace a`,
    );
    expect(
      formatPermission({ verb: 'update', group: '', resource: 'namespaces', subresource: 'finalizers' }),
    ).toBe('update namespaces/finalizers');
  });
});

describe('requiredPermissions: every kind and owner', () => {
  const meta = (namespace?: string, ownerReferences?: ReturnType<typeof owner>[]) => ({
    name: 'n',
    ...(namespace !== undefined ? { namespace } : {}),
    ...(ownerReferences !== undefined ? { ownerReferences } : {}),
  });
  const roleRef = { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' };
  const objects: Record<RbacObject['kind'], (ns?: string, refs?: ReturnType<typeof owner>[]) => RbacObject> =
    {
      ClusterRole: (ns, refs) => ({
        apiVersion: `${RBAC}/v1`,
        kind: 'ClusterRole',
        metadata: meta(ns, refs),
      }),
      Role: (ns, refs) => ({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: meta(ns, refs) }),
      ClusterRoleBinding: (ns, refs) => ({
        apiVersion: `${RBAC}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: meta(ns, refs),
        roleRef,
      }),
      RoleBinding: (ns, refs) => ({
        apiVersion: `${RBAC}/v1`,
        kind: 'RoleBinding',
        metadata: meta(ns, refs),
        roleRef,
      }),
    };

  it.each([
    ['ClusterRole', undefined, { verb: 'delete', group: RBAC, resource: 'clusterroles' }],
    ['ClusterRoleBinding', undefined, { verb: 'delete', group: RBAC, resource: 'clusterrolebindings' }],
    ['Role', 'a', { verb: 'delete', group: RBAC, resource: 'roles', namespace: 'a' }],
    ['RoleBinding', 'a', { verb: 'delete', group: RBAC, resource: 'rolebindings', namespace: 'a' }],
  ] as const)('needs the verb on the resource of a %s (in its namespace: %s)', (kind, ns, want) => {
    // The RBAC API's resources: clusterroles, roles, clusterrolebindings, rolebindings (pkg/apis/rbac/register.go).
    expect(requiredPermissions([{ action: 'delete', object: objects[kind](ns) }])).toStrictEqual([want]);
  });

  it('keeps each verb, resource and namespace apart, in the order first needed', () => {
    const writes: PlannedWrite[] = [
      { action: 'create', object: objects.RoleBinding('a') },
      { action: 'update', object: objects.RoleBinding('a') },
      { action: 'create', object: objects.Role('a') },
      { action: 'create', object: objects.RoleBinding('b') },
      { action: 'create', object: objects.RoleBinding('a') },
      { action: 'update', object: objects.ClusterRole(undefined, []) },
    ];
    expect(requiredPermissions(writes)).toStrictEqual([
      { verb: 'create', group: RBAC, resource: 'rolebindings', namespace: 'a' },
      { verb: 'update', group: RBAC, resource: 'rolebindings', namespace: 'a' },
      { verb: 'create', group: RBAC, resource: 'roles', namespace: 'a' },
      { verb: 'create', group: RBAC, resource: 'rolebindings', namespace: 'b' },
      { verb: 'update', group: RBAC, resource: 'clusterroles' },
    ]);
  });

  it("needs each blocking owner's finalizers once, for creates and updates of any kind", () => {
    // OwnerReferencesPermissionEnforcement: setting blockOwnerDeletion needs update on the owner's finalizers.
    const writes: PlannedWrite[] = [
      { action: 'create', object: objects.RoleBinding('a', [owner('Namespace', true)]) },
      { action: 'update', object: objects.ClusterRoleBinding(undefined, [owner('Namespace', true)]) },
      {
        action: 'create',
        object: objects.ClusterRole(undefined, [
          owner('ProviderRevision', true),
          owner('ProviderRevision', true),
        ]),
      },
    ];
    expect(requiredPermissions(writes)).toStrictEqual([
      { verb: 'create', group: RBAC, resource: 'rolebindings', namespace: 'a' },
      { verb: 'update', group: '', resource: 'namespaces', subresource: 'finalizers' },
      { verb: 'update', group: RBAC, resource: 'clusterrolebindings' },
      { verb: 'create', group: RBAC, resource: 'clusterroles' },
      {
        verb: 'update',
        group: 'pkg.crossplane.io',
        resource: 'providerrevisions',
        subresource: 'finalizers',
      },
    ]);
  });

  it('needs nothing more for an owner reference that does not block deletion', () => {
    const explicitFalse = { ...owner('Namespace', false), blockOwnerDeletion: false };
    expect(
      requiredPermissions([{ action: 'create', object: objects.ClusterRole(undefined, [explicitFalse]) }]),
    ).toStrictEqual([{ verb: 'create', group: RBAC, resource: 'clusterroles' }]);
  });
});

describe('rulesGranted and writesAggregationRule: every kind', () => {
  const pods = { apiGroups: [''], resources: ['pods'], verbs: ['get'] };
  const secrets = { apiGroups: [''], resources: ['secrets'], verbs: ['list'] };
  const nsRole: PlannedWrite = {
    action: 'update',
    object: {
      apiVersion: `${RBAC}/v1`,
      kind: 'Role',
      metadata: { name: 'r', namespace: 'a' },
      rules: [secrets],
    },
  };
  const clusterRole: PlannedWrite = {
    action: 'create',
    object: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'c' }, rules: [pods] },
  };
  const noRules: PlannedWrite = {
    action: 'create',
    object: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'e' } },
  };
  const clusterBinding: PlannedWrite = {
    action: 'create',
    object: {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'b' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'c' },
    },
  };

  it("collects the rules of Roles and ClusterRoles created or updated, in order (the escalation check's input)", () => {
    // pkg/registry/rbac/role and clusterrole storage check a Role's rules as a ClusterRole's (ConfirmNoEscalation).
    expect(rulesGranted([clusterRole, noRules, clusterBinding, nsRole])).toStrictEqual([pods, secrets]);
    expect(rulesGranted([{ ...nsRole, action: 'delete' }])).toStrictEqual([]);
    // A binding holds no rules in the RBAC API: a stray rules field on one read from a file grants nothing.
    const strayBinding = { ...clusterBinding, object: { ...clusterBinding.object, rules: [pods] } };
    expect(rulesGranted([strayBinding as PlannedWrite])).toStrictEqual([]);
  });

  it('counts only a ClusterRole that is written and has an aggregationRule', () => {
    const aggregated: PlannedWrite = {
      action: 'update',
      object: {
        apiVersion: `${RBAC}/v1`,
        kind: 'ClusterRole',
        metadata: { name: 'a' },
        aggregationRule: { clusterRoleSelectors: [] },
      },
    };
    expect(writesAggregationRule([])).toBe(false);
    expect(writesAggregationRule([clusterRole, aggregated])).toBe(true);
    // A Role has no aggregationRule in the RBAC API: a stray field on one read from a file is not a write of one.
    const strayRole = {
      ...nsRole,
      object: { ...nsRole.object, aggregationRule: { clusterRoleSelectors: [] } },
    };
    expect(writesAggregationRule([strayRole as PlannedWrite])).toBe(false);
  });
});

describe('formatPermission', () => {
  it.each([
    [{ verb: 'delete', group: RBAC, resource: 'clusterroles' }, `delete clusterroles.${RBAC}`],
    [{ verb: 'list', group: '', resource: 'namespaces' }, 'list namespaces'],
    [{ verb: 'get', group: '', resource: 'configmaps', namespace: 'x' }, 'get configmaps in namespace x'],
    [
      {
        verb: 'update',
        group: 'pkg.crossplane.io',
        resource: 'providerrevisions',
        subresource: 'finalizers',
      },
      'update providerrevisions/finalizers.pkg.crossplane.io',
    ],
  ])('formats %o as %s', (p, want) => {
    // `kubectl auth can-i VERB RESOURCE[/SUBRESOURCE][.GROUP] -n NS` names a resource this way.
    expect(formatPermission(p)).toBe(want);
  });
});

describe('renderSyncRequiredRole', () => {
  const read = ['get', 'list', 'watch'];
  // What sync does, and the rule Kubernetes checks for it.
  const want = [
    // Its inputs, listed and watched: XRDs, ProviderRevisions, CRDs (owners), Crossplane's Deployment, Namespaces
    // and the crossplane-rbac ConfigMap.
    { verbs: read, apiGroups: ['apiextensions.crossplane.io'], resources: ['compositeresourcedefinitions'] },
    { verbs: read, apiGroups: ['pkg.crossplane.io'], resources: ['providerrevisions'] },
    { verbs: read, apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'] },
    { verbs: read, apiGroups: ['apps'], resources: ['deployments'] },
    { verbs: read, apiGroups: [''], resources: ['namespaces', 'configmaps'] },
    // Its writes, with pruning: the RBAC objects it reads, creates, replaces and deletes.
    {
      verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'],
      apiGroups: [RBAC],
      resources: ['clusterroles', 'clusterrolebindings', 'rolebindings'],
    },
    // rule.go / escalation_check.go: `escalate` to write rules it does not hold, `bind` to bind roles it lacks.
    { verbs: ['escalate', 'bind'], apiGroups: [RBAC], resources: ['clusterroles'] },
    // OwnerReferencesPermissionEnforcement: blockOwnerDeletion on an owner needs update on its finalizers.
    {
      verbs: ['update'],
      apiGroups: ['apiextensions.crossplane.io'],
      resources: ['compositeresourcedefinitions/finalizers'],
    },
    { verbs: ['update'], apiGroups: ['pkg.crossplane.io'], resources: ['providerrevisions/finalizers'] },
    { verbs: ['update'], apiGroups: [''], resources: ['namespaces/finalizers'] },
    // The pre-flight asks the API server (SelfSubjectAccessReview, SelfSubjectRulesReview).
    {
      verbs: ['create'],
      apiGroups: ['authorization.k8s.io'],
      resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
    },
  ];

  it('is a ClusterRole with exactly what sync needs, under its default name', () => {
    expect(renderSyncRequiredRole()).toStrictEqual({
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'crossplane-rbac-sync' },
      rules: want,
    });
  });

  it('takes another name', () => {
    expect(renderSyncRequiredRole('mine').metadata).toStrictEqual({ name: 'mine' });
  });
});
