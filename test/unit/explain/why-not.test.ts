import { describe, expect, it } from 'vitest';
import { explainSubject } from '../../../src/explain/explain-subject.js';
import { parseSubject } from '../../../src/kube/parse-subject.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  PolicyRule,
  ProviderRevision,
} from '../../../src/kube/types.js';

const RBAC = 'rbac.authorization.k8s.io/v1';
const role = (name: string, rules: PolicyRule[]): ClusterRole => ({
  apiVersion: RBAC,
  kind: 'ClusterRole',
  metadata: { name },
  rules,
});
const binding = (name: string, roleName: string, user: string): ClusterRoleBinding => ({
  apiVersion: RBAC,
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
  subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }],
});
const CLUSTER_ADMIN = role('cluster-admin', [
  { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  { nonResourceURLs: ['*'], verbs: ['*'] },
]);
const BUCKETS_EDIT = role('buckets-edit', [
  { apiGroups: ['s3.aws.upbound.io'], resources: ['buckets'], verbs: ['get', 'create', 'delete'] },
]);
const CROSSPLANE_EDIT = role('crossplane-edit', [
  { apiGroups: ['s3.aws.upbound.io'], resources: ['*'], verbs: ['*'] },
]);
const BUCKETS = {
  group: 's3.aws.upbound.io',
  resource: 'buckets',
  namespaced: false,
  kind: 'Bucket',
  source: 'crd' as const,
};

/** The fix a denied `delete buckets` gets for User alice, who is bound to nothing, on each cluster. */
const cases: {
  name: string;
  reason: string;
  roles: ClusterRole[];
  fix: string | undefined;
  message: RegExp;
}[] = [
  {
    name: 'OnlyClusterAdminGrantsIt',
    reason:
      'a role with every resource of every group is never offered as the fix: it grants far more than asked',
    roles: [CLUSTER_ADMIN],
    fix: undefined,
    message: /^only ClusterRole cluster-admin grants it, with every resource of every API group/,
  },
  {
    name: 'NarrowRoleBeforeClusterAdmin',
    reason: 'the role made for the resource is offered, cluster-admin only listed',
    roles: [CLUSTER_ADMIN, BUCKETS_EDIT],
    fix: 'kubectl create clusterrolebinding NAME --clusterrole buckets-edit --user alice',
    message: /^ClusterRole buckets-edit, ClusterRole cluster-admin grant it, but no binding gives one/,
  },
  {
    name: 'UserFacingChartRoleFirst',
    reason: "Crossplane's user-facing roles come before other roles that grant the request",
    roles: [BUCKETS_EDIT, CROSSPLANE_EDIT, CLUSTER_ADMIN],
    fix: 'kubectl create clusterrolebinding NAME --clusterrole crossplane-edit --user alice',
    message: /^ClusterRole crossplane-edit, ClusterRole buckets-edit, ClusterRole cluster-admin grant it/,
  },
];

describe('why not: the role a fix binds', () => {
  it.each(cases)('$name', ({ roles, fix, message }) => {
    const e = explainSubject(
      parseSubject('User:alice'),
      [],
      undefined,
      {
        clusterRoles: roles,
        clusterRoleBindings: [binding('bob-admin', 'cluster-admin', 'bob')],
        roleBindings: [],
        roles: [],
        namespaces: [],
      },
      { verb: 'delete', resource: BUCKETS },
    );
    expect(e.access?.allowed).toBe(false);
    const notBound = e.access?.whyNot.find((r) => r.reason === 'not-bound');
    expect(notBound?.message).toMatch(message);
    expect(notBound?.fix).toBe(fix);
  });
});

/** A revision of provider-aws-s3 whose objectRefs name the Bucket CRD. */
const revision = (name: string, desiredState: string): ProviderRevision => ({
  apiVersion: 'pkg.crossplane.io/v1',
  kind: 'ProviderRevision',
  metadata: { name },
  spec: { desiredState, image: 'xpkg.upbound.io/upbound/provider-aws-s3:v1' },
  status: {
    objectRefs: [
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: 'buckets.s3.aws.upbound.io',
      },
    ],
  },
});

describe('why not: roles never made', () => {
  // The resolution credits the resource to the first revision whose objectRefs name it: here the inactive one.
  const resolved = { ...BUCKETS, source: 'provider' as const, provider: 'provider-aws-s3-old' };
  const revisions = [revision('provider-aws-s3-old', 'Inactive'), revision('provider-aws-s3-new', 'Active')];
  const whyNot = (roles: ClusterRole[]) =>
    explainSubject(
      parseSubject('User:alice'),
      [],
      undefined,
      {
        clusterRoles: roles,
        clusterRoleBindings: [],
        roleBindings: [],
        roles: [],
        namespaces: [],
        providerRevisions: revisions,
      },
      { verb: 'get', resource: resolved },
    ).access?.whyNot.find((r) => r.reason === 'roles-not-synced')?.message;

  it('names the active revision, the one a provider runs (its roles are the ones to look for)', () => {
    expect(whyNot([CLUSTER_ADMIN])).toBe(
      'the roles of provider revision provider-aws-s3-new were never made (no ClusterRole crossplane:provider:provider-aws-s3-new:*)',
    );
  });

  it('is no reason when the roles of another revision serving the resource exist (each revision gets its own: crossplane internal/controller/rbac/provider/roles/reconciler.go renders every revision)', () => {
    const made = role('crossplane:provider:provider-aws-s3-new:edit', [
      { apiGroups: ['s3.aws.upbound.io'], resources: ['buckets'], verbs: ['*'] },
    ]);
    expect(whyNot([CLUSTER_ADMIN, made])).toBeUndefined();
  });
});
