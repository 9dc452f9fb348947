/**
 * `-o diff` shows only what changes. The live objects are as a real API server returns them in a list (kube-apiserver
 * leaves apiVersion and kind out of a List's items; it adds resourceVersion, uid, creationTimestamp and
 * managedFields, defaults a subject's and a roleRef's apiGroup, and orders keys its own way): the diff of an updated
 * role must be its changed rule's lines and nothing else.
 */
import { describe, expect, it } from 'vitest';
import { formatPlanDiff } from '../../../src/cli/output/format-plan.js';
import type { PlanEntry } from '../../../src/plan/plan.js';
import type { KubeObject } from '../../../src/kube/types.js';

const LABELS = {
  'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
  'rbac.crossplane.io/aggregate-to-edit': 'true',
};

const desiredRole = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'crossplane:provider:acme:aggregate-to-edit', labels: LABELS, resourceVersion: '41' },
  rules: [
    { apiGroups: ['example.org'], resources: ['widgets'], verbs: ['*'] },
    { apiGroups: ['example.org'], resources: ['gadgets'], verbs: ['get', 'list', 'watch'] },
  ],
};

/** The same role as a list item: no apiVersion/kind, server fields, keys in the server's order, one rule differing. */
const liveRole = {
  metadata: {
    creationTimestamp: '2026-01-01T00:00:00Z',
    labels: {
      'rbac.crossplane.io/aggregate-to-edit': 'true',
      'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
    },
    managedFields: [
      { manager: 'kubectl-crossplane-rbac', operation: 'Update', apiVersion: 'rbac.authorization.k8s.io/v1' },
    ],
    name: 'crossplane:provider:acme:aggregate-to-edit',
    resourceVersion: '41',
    uid: '0b8e7c55-2f1c-4f0e-9f55-6c9c1d2a3b4c',
  },
  rules: [
    { verbs: ['*'], apiGroups: ['example.org'], resources: ['widgets'] },
    { verbs: ['get'], apiGroups: ['example.org'], resources: ['gadgets'] },
  ],
};

function update(kind: string, name: string, object: KubeObject, live: object): PlanEntry<KubeObject> {
  return {
    action: 'update',
    key: `${kind}/${name}`,
    kind,
    name,
    object,
    live: live as KubeObject,
  };
}

const changedLines = (diff: string): string[] =>
  diff.split('\n').filter((l) => /^[-+]/.test(l) && !/^(---|\+\+\+) /.test(l));

describe('-o diff', () => {
  it("an updated role read from a list shows only its changed rule's lines", () => {
    const diff = formatPlanDiff([update('ClusterRole', desiredRole.metadata.name, desiredRole, liveRole)]);
    expect(changedLines(diff)).toEqual(['+  - list', '+  - watch']);
    expect(diff).toContain(
      '--- live/clusterrole.rbac.authorization.k8s.io/crossplane:provider:acme:aggregate-to-edit',
    );
  });

  it('a binding: the server-defaulted apiGroups and an empty list the plugin omits are no change', () => {
    const desired = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'crossplane:provider:acme:system' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'crossplane:provider:acme:system',
      },
      subjects: [
        { kind: 'ServiceAccount', name: 'provider-acme', namespace: 'crossplane-system' },
        { kind: 'Group', name: 'acme-admins' },
      ],
    };
    const live = {
      metadata: { name: 'crossplane:provider:acme:system', uid: 'u', resourceVersion: '7', finalizers: [] },
      subjects: [
        { apiGroup: '', kind: 'ServiceAccount', name: 'provider-acme-old', namespace: 'crossplane-system' },
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'acme-admins' },
      ],
      roleRef: {
        name: 'crossplane:provider:acme:system',
        kind: 'ClusterRole',
        apiGroup: 'rbac.authorization.k8s.io',
      },
    };
    const diff = formatPlanDiff([update('ClusterRoleBinding', desired.metadata.name, desired, live)]);
    expect(changedLines(diff)).toEqual(['-  name: provider-acme-old', '+  name: provider-acme']);
  });

  it("an aggregated role: the controller's rules are not the plugin's change", () => {
    const desired = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'crossplane-edit', labels: { a: 'b' } },
      aggregationRule: {
        clusterRoleSelectors: [{ matchLabels: { 'rbac.crossplane.io/aggregate-to-edit': 'true' } }],
      },
    };
    const live = {
      metadata: { name: 'crossplane-edit', labels: { a: 'c' } },
      aggregationRule: {
        clusterRoleSelectors: [{ matchLabels: { 'rbac.crossplane.io/aggregate-to-edit': 'true' } }],
      },
      rules: [{ apiGroups: ['example.org'], resources: ['widgets'], verbs: ['*'] }],
    };
    const diff = formatPlanDiff([update('ClusterRole', 'crossplane-edit', desired, live)]);
    expect(changedLines(diff)).toEqual(['-    a: c', '+    a: b']);
  });
});
