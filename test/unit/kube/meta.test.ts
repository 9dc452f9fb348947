import { describe, expect, it } from 'vitest';
import { isDeleting, objectKey } from '../../../src/kube/meta.js';

describe('objectKey', () => {
  it('ClusterScoped: Kind/name', () => {
    expect(objectKey({ kind: 'ClusterRole', metadata: { name: 'r' } })).toBe('ClusterRole/r');
  });
  it('Namespaced: Kind/namespace/name', () => {
    expect(objectKey({ kind: 'Role', metadata: { name: 'r', namespace: 'ns' } })).toBe('Role/ns/r');
  });
  it('EmptyNamespaceIsNone: metadata.namespace "" is how a cluster-scoped object may be written', () => {
    expect(objectKey({ kind: 'ClusterRole', metadata: { name: 'r', namespace: '' } })).toBe('ClusterRole/r');
  });
});

describe('isDeleting', () => {
  const cases: Record<string, { deletionTimestamp: unknown; want: boolean }> = {
    Unset: { deletionTimestamp: undefined, want: false },
    Null: { deletionTimestamp: null, want: false },
    Set: { deletionTimestamp: '2025-01-01T00:00:00Z', want: true },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    const metadata = (
      tc.deletionTimestamp !== undefined ? { deletionTimestamp: tc.deletionTimestamp } : {}
    ) as {
      deletionTimestamp?: string;
    };
    expect(isDeleting({ metadata })).toBe(tc.want);
  });
});
