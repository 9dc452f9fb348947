import { describe, expect, it } from 'vitest';
import { snapshotFromObjects } from '../../../src/crossplane/snapshot.js';
import type { KubeObject } from '../../../src/kube/types.js';

describe('snapshotFromObjects', () => {
  const roleBinding: KubeObject = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'b', namespace: 'team' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
  };
  const configMap: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'crossplane-rbac', namespace: 'crossplane-system' },
    data: { manage: 'all' },
  };
  const secret: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } };

  it('sorts RoleBindings and ConfigMaps into their lists, other kinds into others', () => {
    const s = snapshotFromObjects([roleBinding, configMap, secret]);
    expect([s.roleBindings, s.configMaps, s.others]).toEqual([[roleBinding], [configMap], [secret]]);
    expect([s.xrds, s.clusterRoles, s.clusterRoleBindings, s.namespaces]).toEqual([[], [], [], []]);
  });

  it('leaves out an object that fails the schema of its kind: in no list at all', () => {
    const { roleRef: _roleRef, ...noRoleRef } = roleBinding;
    const badMap: KubeObject = { ...configMap, data: { manage: 5 } };
    const s = snapshotFromObjects([noRoleRef, badMap]);
    expect([s.roleBindings, s.configMaps, s.others]).toEqual([[], [], []]);
  });
});

describe('snapshotFromObjects, every kind', () => {
  it('puts each valid object in the list of its group and kind', () => {
    const objs: KubeObject[] = [
      {
        apiVersion: 'apiextensions.crossplane.io/v1',
        kind: 'CompositeResourceDefinition',
        metadata: { name: 'xs.a.io' },
        spec: { group: 'a.io', names: { kind: 'X', plural: 'xs' } },
      },
      { apiVersion: 'pkg.crossplane.io/v1', kind: 'ProviderRevision', metadata: { name: 'p-1' } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'n' } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r' } },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'b' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
      },
    ];
    const s = snapshotFromObjects(objs);
    expect([
      s.xrds,
      s.providerRevisions,
      s.deployments,
      s.namespaces,
      s.clusterRoles,
      s.clusterRoleBindings,
      s.roleBindings,
      s.configMaps,
      s.others,
    ]).toEqual([[objs[0]], [objs[1]], [objs[2]], [objs[3]], [objs[4]], [objs[5]], [], [], []]);
  });
});

describe('snapshotFromObjects: a kind of another API group', () => {
  it("puts an object whose group only looks like its kind's group (a prefix, longer, core, none) in others", () => {
    // A list's kind is a group and a kind together (apimachinery's GroupKind): Deployment of apps, Namespace and
    // ConfigMap of the core group, the RBAC kinds of rbac.authorization.k8s.io.
    const objs: KubeObject[] = [
      { apiVersion: 'appsx/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'n' } },
      { apiVersion: 'app/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'n' } },
      { apiVersion: 'v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'n' } },
      { apiVersion: 'example.org/v1', kind: 'Namespace', metadata: { name: 'n' } },
      { apiVersion: 'v1/', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' } },
      {
        apiVersion: 'rbac.authorization.k8s.io.example.org/v1',
        kind: 'ClusterRole',
        metadata: { name: 'r' },
      },
      { apiVersion: 'rbac.authorization.k8s/v1', kind: 'ClusterRole', metadata: { name: 'r' } },
      { apiVersion: 'pkg.crossplane.io/v1', kind: 'toString', metadata: { name: 'p' } },
    ];
    const s = snapshotFromObjects(objs);
    expect(s.others).toEqual(objs);
    expect([s.deployments, s.namespaces, s.configMaps, s.clusterRoles, s.providerRevisions]).toEqual([
      [],
      [],
      [],
      [],
      [],
    ]);
  });

  it('takes the group up to the first slash, as apiVersion is group/version', () => {
    const objs: KubeObject[] = [
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'n' } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } },
      { apiVersion: '/v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' } },
    ];
    const s = snapshotFromObjects(objs);
    expect([s.deployments, s.namespaces, s.configMaps, s.others]).toEqual([
      [objs[0]],
      [objs[1]],
      [objs[2]],
      [],
    ]);
  });
});
