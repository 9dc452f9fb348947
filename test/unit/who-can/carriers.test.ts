/**
 * who-can names every role that carries a granting rule, not only the first one the aggregation chain meets: a rule
 * is stored once in the aggregated role, whichever and however many of its sources hold it (the aggregation
 * controller de-duplicates, pkg/controller/clusterroleaggregation). With ProviderRevisions, roles they own are
 * credited to their provider family.
 */
import { describe, expect, it } from 'vitest';
import type {
  ClusterRole,
  ClusterRoleBinding,
  PolicyRule,
  ProviderRevision,
} from '../../../src/kube/types.js';
import { whoCan } from '../../../src/who-can/who-can.js';

const RULE: PolicyRule = { apiGroups: ['s3.aws.upbound.io'], resources: ['buckets'], verbs: ['*'] };
const LABEL = { 'rbac.crossplane.io/aggregate-to-edit': 'true' };

function source(name: string, rules: PolicyRule[], owner?: string): ClusterRole {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name,
      labels: LABEL,
      ...(owner !== undefined
        ? {
            ownerReferences: [
              { apiVersion: 'pkg.crossplane.io/v1', kind: 'ProviderRevision', name: owner, uid: owner },
            ],
          }
        : {}),
    },
    rules,
  };
}

const edit: ClusterRole = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'edit-all' },
  aggregationRule: { clusterRoleSelectors: [{ matchLabels: LABEL }] },
  rules: [],
};
const binding: ClusterRoleBinding = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name: 'carol-edits' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit-all' },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'carol' }],
};
const revision = (name: string, family: string): ProviderRevision => ({
  apiVersion: 'pkg.crossplane.io/v1',
  kind: 'ProviderRevision',
  metadata: { name, labels: { 'pkg.crossplane.io/provider-family': family } },
  spec: { image: `xpkg.example/acme/${name}:v1` },
});

function carolsPaths(clusterRoles: ClusterRole[], providerRevisions?: ProviderRevision[]) {
  const result = whoCan(
    {
      verb: 'delete',
      resource: {
        group: 's3.aws.upbound.io',
        resource: 'buckets',
        namespaced: false,
        kind: 'Bucket',
        source: 'crd',
      },
      namespace: undefined,
      // The carriers are the roles aggregated into the bound one: the convergence view reads them.
      converged: true,
    },
    {
      clusterRoles,
      clusterRoleBindings: [binding],
      roleBindings: [],
      roles: [],
      ...(providerRevisions !== undefined ? { providerRevisions } : {}),
    },
  );
  return result.subjects.find((s) => s.name === 'carol')?.paths ?? [];
}

describe('who-can: the roles that carry a granting rule', () => {
  it('names the others besides the one the chain ends at, in name order, once per path', () => {
    const paths = carolsPaths([
      edit,
      source('c', [RULE]),
      source('a', [RULE]),
      source('b', [RULE]),
      source('d', []),
    ]);
    expect(paths).toHaveLength(1);
    expect(paths[0]?.chain).toStrictEqual(['edit-all', 'a']);
    expect(paths[0]?.sharedWith).toStrictEqual(['b', 'c']);
    expect(paths[0]?.family).toBeUndefined();
  });

  it('is absent when one role carries the rule', () => {
    const [path] = carolsPaths([edit, source('a', [RULE]), source('b', [{ ...RULE, verbs: ['get'] }])]);
    expect(path?.chain).toStrictEqual(['edit-all', 'a']);
    expect(path).not.toHaveProperty('sharedWith');
  });

  it("credits a provider family when every carrier is owned by one of the family's revisions", () => {
    const roles = [edit, source('a', [RULE], 'p-a'), source('b', [RULE], 'p-b')];
    const [path] = carolsPaths(roles, [revision('p-a', 'fam'), revision('p-b', 'fam')]);
    expect(path?.sharedWith).toStrictEqual(['b']);
    expect(path?.family).toBe('fam');
    // One carrier outside the family: no family is named.
    const [mixed] = carolsPaths(
      [...roles, source('z', [RULE])],
      [revision('p-a', 'fam'), revision('p-b', 'fam')],
    );
    expect(mixed?.sharedWith).toStrictEqual(['b', 'z']);
    expect(mixed?.family).toBeUndefined();
  });
});
