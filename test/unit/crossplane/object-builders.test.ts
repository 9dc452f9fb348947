// The builders print objects as `kubectl get -o yaml` does: keys in alphabetical order (the client re-encodes
// through an unordered map; Go's encoder sorts map keys), and the omitempty fields of k8s.io/api/rbac/v1 and
// k8s.io/apimachinery/pkg/apis/meta/v1 left out when empty (ObjectMeta labels and ownerReferences; PolicyRule
// resourceNames and nonResourceURLs; LabelSelector matchExpressions; a binding's subjects; OwnerReference's
// controller and blockOwnerDeletion pointers when unset).
import { describe, expect, it } from 'vitest';
import {
  buildClusterRole,
  buildClusterRoleBinding,
  buildRoleBinding,
  controllerRef,
  rule,
  sharedList,
  sortedMap,
} from '../../../src/crossplane/object-builders.js';

describe('object builders', () => {
  it('sorts map keys in byte order', () => {
    expect(Object.keys(sortedMap({ b: '2', B: '3', a: '1' }))).toEqual(['B', 'a', 'b']);
  });

  it('leaves out empty labels and owner references, and keeps set ones in key order', () => {
    const bare = buildClusterRole({ name: 'r', labels: {}, ownerReferences: [], rules: [] });
    expect(bare).toStrictEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'r' },
      rules: [],
    });
    const full = buildClusterRole({
      name: 'r',
      labels: { z: '1', a: '2' },
      ownerReferences: [{ uid: 'u', name: 'n', kind: 'K', apiVersion: 'v1' }],
    });
    expect(Object.keys(full.metadata.labels!)).toEqual(['a', 'z']);
    expect(full.metadata.ownerReferences).toStrictEqual([
      { apiVersion: 'v1', kind: 'K', name: 'n', uid: 'u' },
    ]);
    expect(full).not.toHaveProperty('rules');
  });

  it('makes a controller reference, with an empty uid for an object that has none', () => {
    expect(controllerRef('v1', 'Namespace', 'team', undefined)).toStrictEqual({
      apiVersion: 'v1',
      blockOwnerDeletion: true,
      controller: true,
      kind: 'Namespace',
      name: 'team',
      uid: '',
    });
  });

  it('leaves out empty resourceNames and nonResourceURLs, keeps set ones, in key order', () => {
    expect(
      rule({ verbs: ['get'], resourceNames: [], nonResourceURLs: [], apiGroups: [''], resources: ['pods'] }),
    ).toStrictEqual({
      apiGroups: [''],
      resources: ['pods'],
      verbs: ['get'],
    });
    const r = rule({
      verbs: ['get'],
      resources: ['configmaps'],
      resourceNames: ['a'],
      nonResourceURLs: ['/x'],
      apiGroups: [''],
    });
    expect(Object.entries(r)).toEqual([
      ['apiGroups', ['']],
      ['nonResourceURLs', ['/x']],
      ['resourceNames', ['a']],
      ['resources', ['configmaps']],
      ['verbs', ['get']],
    ]);
  });

  it('shares a shared list and copies any other', () => {
    const shared = sharedList(['a', 'b']);
    const own = ['a', 'b'];
    const r = rule({ apiGroups: shared, resources: own, verbs: ['get'] });
    expect(r.apiGroups).toBe(shared);
    expect(r.resources).not.toBe(own);
    expect(r.resources).toEqual(own);
    expect(Object.isFrozen(shared)).toBe(true);
  });

  it('copies selectors: expressions with their values, labels sorted, empty expressions left out', () => {
    const role = buildClusterRole({
      name: 'agg',
      aggregationRule: {
        clusterRoleSelectors: [
          {
            matchExpressions: [
              { key: 'k', operator: 'In', values: ['v'] },
              { key: 'e', operator: 'Exists' },
            ],
            matchLabels: { z: 'true', a: 'true' },
          },
          { matchExpressions: [] },
        ],
      },
    });
    expect(role.aggregationRule).toStrictEqual({
      clusterRoleSelectors: [
        {
          matchExpressions: [
            { key: 'k', operator: 'In', values: ['v'] },
            { key: 'e', operator: 'Exists' },
          ],
          matchLabels: { a: 'true', z: 'true' },
        },
        {},
      ],
    });
    expect(Object.keys(role.aggregationRule!.clusterRoleSelectors![0]!.matchLabels!)).toEqual(['a', 'z']);
    expect(buildClusterRole({ name: 'agg', aggregationRule: {} }).aggregationRule).toStrictEqual({
      clusterRoleSelectors: [],
    });
  });

  it('leaves out an empty subjects list of a binding, and prints subjects in key order', () => {
    expect(buildClusterRoleBinding({ name: 'b', roleName: 'r', subjects: [] })).toStrictEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'b' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
    });
    const rb = buildRoleBinding({
      name: 'b',
      namespace: 'team',
      roleName: 'r',
      subjects: [
        { namespace: 'team', name: 'sa', kind: 'ServiceAccount' },
        { name: 'g', kind: 'Group', apiGroup: 'rbac.authorization.k8s.io' },
      ],
    });
    expect(rb).toStrictEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'b', namespace: 'team' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
      subjects: [
        { kind: 'ServiceAccount', name: 'sa', namespace: 'team' },
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'g' },
      ],
    });
    expect(Object.keys(rb.subjects![1]!)).toEqual(['apiGroup', 'kind', 'name']);
    expect(
      buildRoleBinding({ name: 'b', namespace: 'team', roleName: 'r', subjects: [] }),
    ).not.toHaveProperty('subjects');
  });
});
