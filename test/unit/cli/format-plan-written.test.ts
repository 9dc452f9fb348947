/**
 * After writing, each object written on a line of its own, as kubectl prints them: `kubectl apply` says `created` or
 * `configured` (staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go), `kubectl delete` says `deleted`, and
 * `--dry-run=server` adds ` (server dry run)`; the name is kubectl's `-o name` form, TYPE.GROUP/NAME.
 */
import { describe, expect, it } from 'vitest';
import { formatPlanWritten } from '../../../src/cli/output/format-plan.js';
import type { PlanEntry } from '../../../src/plan/plan.js';
import type { KubeObject } from '../../../src/kube/types.js';

const entry = (
  action: PlanEntry['action'],
  kind: string,
  name: string,
  namespace?: string,
): PlanEntry<KubeObject> => ({
  action,
  key: namespace !== undefined ? `${kind}/${namespace}/${name}` : `${kind}/${name}`,
  kind,
  name,
  ...(namespace !== undefined ? { namespace } : {}),
});

const plan = [
  entry('update', 'Namespace', 'team-a'),
  entry('create', 'ClusterRole', 'crossplane-ns-team-a-edit'),
  entry('unchanged', 'ClusterRole', 'crossplane-ns-team-a-view'),
  entry('delete', 'RoleBinding', 'old', 'team-a'),
  entry('refused', 'ClusterRoleBinding', 'helm-owned'),
  entry('create', 'Role', 'failed-one', 'team-a'),
];

describe('formatPlanWritten', () => {
  it('names each object written, as kubectl apply and delete do; unchanged, refused and failed ones are left out', () => {
    expect(formatPlanWritten(plan, new Set(['Role/team-a/failed-one']), false)).toBe(
      [
        'namespace/team-a configured',
        'clusterrole.rbac.authorization.k8s.io/crossplane-ns-team-a-edit created',
        'rolebinding.rbac.authorization.k8s.io/old deleted',
        '',
      ].join('\n'),
    );
  });

  it('says so after each line under --dry-run=server', () => {
    expect(formatPlanWritten(plan.slice(0, 2), new Set(), true)).toBe(
      'namespace/team-a configured (server dry run)\nclusterrole.rbac.authorization.k8s.io/crossplane-ns-team-a-edit created (server dry run)\n',
    );
  });
});
