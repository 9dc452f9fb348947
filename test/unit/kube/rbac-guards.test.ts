// RBAC objects read as plain objects: the kind, the group (rbac.authorization.k8s.io, any version) and the field the
// kind cannot be without.
import { describe, expect, it } from 'vitest';
import { isBindingObject, isRoleObject } from '../../../src/kube/rbac-guards.js';
import type { KubeObject } from '../../../src/kube/types.js';

const obj = (apiVersion: string, kind: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion,
  kind,
  metadata: { name: 'x', namespace: 'ns' },
  ...extra,
});

describe('isRoleObject', () => {
  const cases: Record<string, { o: KubeObject; want: boolean }> = {
    NoRules: { o: obj('rbac.authorization.k8s.io/v1', 'Role'), want: true },
    Rules: { o: obj('rbac.authorization.k8s.io/v1', 'Role', { rules: [] }), want: true },
    OtherVersion: { o: obj('rbac.authorization.k8s.io/v1beta1', 'Role'), want: true },
    RulesNotAList: { o: obj('rbac.authorization.k8s.io/v1', 'Role', { rules: {} }), want: false },
    OtherGroup: { o: obj('example.org/v1', 'Role'), want: false },
    GroupPrefix: { o: obj('rbac.authorization.k8s.io.example.org/v1', 'Role'), want: false },
    NoVersion: { o: obj('rbac.authorization.k8s.io', 'Role'), want: false },
    ClusterRole: { o: obj('rbac.authorization.k8s.io/v1', 'ClusterRole'), want: false },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(isRoleObject(tc.o)).toBe(tc.want);
  });
});

describe('isBindingObject', () => {
  const rbac = 'rbac.authorization.k8s.io/v1';
  const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' };
  const cases: Record<string, { o: KubeObject; want: boolean }> = {
    ClusterRoleBinding: { o: obj(rbac, 'ClusterRoleBinding', { roleRef }), want: true },
    RoleBinding: { o: obj(rbac, 'RoleBinding', { roleRef }), want: true },
    OtherKind: { o: obj(rbac, 'Role', { roleRef }), want: false },
    OtherGroup: { o: obj('example.org/v1', 'RoleBinding', { roleRef }), want: false },
    NoRoleRef: { o: obj(rbac, 'RoleBinding'), want: false },
    NullRoleRef: { o: obj(rbac, 'RoleBinding', { roleRef: null }), want: false },
    StringRoleRef: { o: obj(rbac, 'RoleBinding', { roleRef: 'r' }), want: false },
    RoleRefWithoutName: { o: obj(rbac, 'RoleBinding', { roleRef: { kind: 'Role' } }), want: false },
    RoleRefNameNotAString: {
      o: obj(rbac, 'RoleBinding', { roleRef: { kind: 'Role', name: 7 } }),
      want: false,
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(isBindingObject(tc.o)).toBe(tc.want);
  });
});
