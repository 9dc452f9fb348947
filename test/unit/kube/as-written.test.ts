// isAsWritten: an object the API server sent back is the one written when only what the server sets differs. The
// server-set fields are ObjectMeta's (k8s.io/apimachinery pkg/apis/meta/v1 types.go: resourceVersion, uid,
// creationTimestamp, generation, managedFields, selfLink are "populated by the system"); empty lists and maps are
// dropped by Go's encoding/json under the omitempty tags the RBAC types carry (k8s.io/api rbac/v1 types.go).
import { describe, expect, it } from 'vitest';
import { isAsWritten } from '../../../src/kube/as-written.js';
import type { KubeObject } from '../../../src/kube/types.js';

const rules = [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }];
const written: KubeObject = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'r', labels: { a: 'b' } },
  rules,
};

const stored = (over: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject =>
  ({
    ...written,
    metadata: {
      ...written.metadata,
      resourceVersion: '42',
      uid: 'u-1',
      creationTimestamp: '2026-01-01T00:00:00Z',
      managedFields: [{ manager: 'x' }],
      ...meta,
    },
    ...over,
  }) as KubeObject;

describe('isAsWritten', () => {
  const cases: Record<string, { reason: string; got: KubeObject; want: boolean }> = {
    ServerSetMetadata: { reason: 'only what the server sets differs', got: stored({}), want: true },
    KeyOrder: {
      reason: 'the server writes its own key order',
      got: {
        metadata: stored({}).metadata,
        rules: written.rules,
        kind: 'ClusterRole',
        apiVersion: written.apiVersion,
      },
      want: true,
    },
    OmittedEmpty: {
      reason: 'an empty map the server keeps or drops is the same as none',
      got: stored({}, { annotations: {} }),
      want: true,
    },
    LabelChanged: {
      reason: 'a label is what was written',
      got: stored({}, { labels: { a: 'c' } }),
      want: false,
    },
    AnnotationAdded: {
      reason: 'an annotation another writer added',
      got: stored({}, { annotations: { x: 'y' } }),
      want: false,
    },
    RuleChanged: {
      reason: 'rules filled by another writer (the aggregation controller)',
      got: stored({ rules: [...rules, { verbs: ['list'] }] }),
      want: false,
    },
    Deleting: {
      reason: 'a deletionTimestamp is a change',
      got: stored({}, { deletionTimestamp: '2026-01-01T00:00:00Z' }),
      want: false,
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(isAsWritten(written, tc.got), tc.reason).toBe(tc.want);
  });

  it('reads absent, null, [] and {} as one (omitempty)', () => {
    const w = { ...written, aggregationRule: { clusterRoleSelectors: [] } } as KubeObject;
    expect(isAsWritten(w, stored({ aggregationRule: {} }))).toBe(true);
    expect(isAsWritten({ ...written, rules: [] }, stored({ rules: null }))).toBe(true);
    expect(isAsWritten({ ...written, rules: [] }, stored({ rules: [{}] }))).toBe(false);
  });
});
