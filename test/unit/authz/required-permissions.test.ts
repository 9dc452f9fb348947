import { describe, expect, it } from 'vitest';
import {
  formatPermission,
  renderReadRole,
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
