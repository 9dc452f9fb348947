// The chart's base roles (cluster/charts/crossplane/templates/rbac-manager-managed-clusterroles.yaml): chart 2.x has
// the protection.crossplane.io and ops.crossplane.io rules that v1.20's chart lacks.
import { describe, expect, it } from 'vitest';
import { chartBaseRules, findAggregatingRole, renderBaseRoles } from '../../../src/crossplane/base-roles.js';
import type { ClusterRole, LabelSelector } from '../../../src/kube/types.js';

const groupsOf = (rules: readonly { apiGroups?: readonly string[] }[]): string[] =>
  rules.flatMap((r) => r.apiGroups ?? []);

describe('chartBaseRules', () => {
  it('gives the v2 chart rules by default, the v1 ones without the v2 groups', () => {
    expect(groupsOf(chartBaseRules('view'))).toEqual([
      '',
      '',
      'apiextensions.crossplane.io',
      'pkg.crossplane.io',
      'secrets.crossplane.io',
      'protection.crossplane.io',
      'ops.crossplane.io',
    ]);
    expect(groupsOf(chartBaseRules('view', 'v1'))).toEqual([
      '',
      '',
      'apiextensions.crossplane.io',
      'pkg.crossplane.io',
      'secrets.crossplane.io',
    ]);
  });

  it('renders the base roles of the version asked for, v2 by default', () => {
    const adminGroups = (objs: ReturnType<typeof renderBaseRoles>) =>
      groupsOf(
        (objs.find((o) => o.metadata.name === 'crossplane:aggregate-to-admin') as ClusterRole).rules ?? [],
      );
    expect(adminGroups(renderBaseRoles())).toContain('ops.crossplane.io');
    expect(adminGroups(renderBaseRoles({ crossplaneVersion: 'v1' }))).not.toContain('ops.crossplane.io');
    expect(adminGroups(renderBaseRoles({ crossplaneVersion: 'v2' }))).toContain('protection.crossplane.io');
  });
});

describe('findAggregatingRole', () => {
  const LABEL = 'rbac.crossplane.io/aggregate-to-admin';
  const aggregating = (
    name: string,
    selectors: LabelSelector[],
    labels: Record<string, string> = {},
  ): ClusterRole => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, labels },
    aggregationRule: { clusterRoleSelectors: selectors },
  });

  it('finds a role selecting only label: "true", the first in name order', () => {
    const a = aggregating('b-admin', [{ matchLabels: { [LABEL]: 'true' } }]);
    const b = aggregating('a-admin', [{ matchLabels: { [LABEL]: 'true' } }]);
    expect(findAggregatingRole([a, b], LABEL)?.metadata.name).toBe('a-admin');
  });

  it.each<[string, LabelSelector[]]>([
    ['two labels', [{ matchLabels: { [LABEL]: 'true', other: 'true' } }]],
    [
      'an expression too',
      [{ matchLabels: { [LABEL]: 'true' }, matchExpressions: [{ key: 'k', operator: 'Exists' }] }],
    ],
    ['another label', [{ matchLabels: { other: 'true' } }]],
    ['another value', [{ matchLabels: { [LABEL]: 'yes' } }]],
    ['no labels', [{ matchExpressions: [{ key: LABEL, operator: 'Exists' }] }]],
  ])('does not take a selector with %s', (_n, selectors) => {
    expect(findAggregatingRole([aggregating('admin', selectors)], LABEL)).toBeUndefined();
  });

  it("skips the plugin's own roles and roles without aggregation", () => {
    const own = aggregating('admin', [{ matchLabels: { [LABEL]: 'true' } }], {
      'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
    });
    const plain: ClusterRole = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'x' },
    };
    expect(findAggregatingRole([own, plain], LABEL)).toBeUndefined();
  });
});
