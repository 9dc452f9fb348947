// The checks where data enters: any object (isKubeObject: a document read from a file) and an RBAC object by its
// apiVersion and kind (isRbacObject: an object read back by kind).
import { describe, expect, it } from 'vitest';
import { isKubeObject, isRbacObject, type KubeObject } from '../../../src/kube/types.js';

describe('isKubeObject', () => {
  const ok = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } };
  const cases: Record<string, { v: unknown; want: boolean }> = {
    Object: { v: ok, want: true },
    Null: { v: null, want: false },
    Undefined: { v: undefined, want: false },
    Number: { v: 7, want: false },
    List: { v: [ok], want: false },
    String: { v: 'apiVersion: v1', want: false },
    NoApiVersion: { v: { kind: 'Namespace', metadata: { name: 'a' } }, want: false },
    EmptyApiVersion: { v: { ...ok, apiVersion: '' }, want: false },
    ApiVersionNotAString: { v: { ...ok, apiVersion: 1 }, want: false },
    NoKind: { v: { apiVersion: 'v1', metadata: { name: 'a' } }, want: false },
    EmptyKind: { v: { ...ok, kind: '' }, want: false },
    KindNotAString: { v: { ...ok, kind: ['Namespace'] }, want: false },
    NoMetadata: { v: { apiVersion: 'v1', kind: 'Namespace' }, want: false },
    NullMetadata: { v: { ...ok, metadata: null }, want: false },
    ListMetadata: { v: { ...ok, metadata: [{ name: 'a' }] }, want: false },
    StringMetadata: { v: { ...ok, metadata: 'a' }, want: false },
    NoName: { v: { ...ok, metadata: {} }, want: false },
    EmptyName: { v: { ...ok, metadata: { name: '' } }, want: false },
    NameNotAString: { v: { ...ok, metadata: { name: 7 } }, want: false },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(isKubeObject(tc.v)).toBe(tc.want);
  });
});

describe('isRbacObject', () => {
  const o = (apiVersion: string, kind: string): KubeObject => ({ apiVersion, kind, metadata: { name: 'x' } });
  const cases: Record<string, { o: KubeObject; want: boolean }> = {
    ClusterRole: { o: o('rbac.authorization.k8s.io/v1', 'ClusterRole'), want: true },
    Role: { o: o('rbac.authorization.k8s.io/v1', 'Role'), want: true },
    ClusterRoleBinding: { o: o('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'), want: true },
    RoleBinding: { o: o('rbac.authorization.k8s.io/v1', 'RoleBinding'), want: true },
    OtherKind: { o: o('rbac.authorization.k8s.io/v1', 'Namespace'), want: false },
    OtherVersion: { o: o('rbac.authorization.k8s.io/v1beta1', 'ClusterRole'), want: false },
    OtherGroup: { o: o('example.org/v1', 'ClusterRole'), want: false },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(isRbacObject(tc.o)).toBe(tc.want);
  });
});
