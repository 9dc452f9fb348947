// The access matrix on a hand-made cluster: every expected cell is written out by hand from the RBAC authorizer's
// rules (plugin/pkg/auth/authorizer/rbac/rbac.go RuleAllows; pkg/registry/rbac/validation/rule.go VisitRulesFor:
// ClusterRoleBindings always, RoleBindings only for a request in their namespace), never computed with the product.
import { describe, expect, it } from 'vitest';
import { accessMatrix, type AccessMatrix, type MatrixRow } from '../../../src/explain/matrix.js';
import type { SubjectRef } from '../../../src/explain/subject-types.js';
import type { KnownResource } from '../../../src/crossplane/resource-names.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  PolicyRule,
  ProviderRevision,
  Role,
  RoleBinding,
  Subject,
} from '../../../src/kube/types.js';

const RBAC = 'rbac.authorization.k8s.io/v1';
const RBAC_GROUP = 'rbac.authorization.k8s.io';

function clusterRole(
  name: string,
  rules: PolicyRule[],
  extra: { labels?: Record<string, string>; aggregate?: Record<string, string> } = {},
): ClusterRole {
  return {
    apiVersion: RBAC,
    kind: 'ClusterRole',
    metadata: { name, ...(extra.labels !== undefined ? { labels: extra.labels } : {}) },
    rules,
    ...(extra.aggregate !== undefined
      ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: extra.aggregate }] } }
      : {}),
  };
}

const CROSSPLANE_SA: Subject = { kind: 'ServiceAccount', name: 'crossplane', namespace: 'crossplane-system' };

function crb(name: string, roleName: string, subjects: Subject[]): ClusterRoleBinding {
  return {
    apiVersion: RBAC,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName },
    subjects,
  };
}

function rb(
  namespace: string,
  name: string,
  roleRef: { kind: 'ClusterRole' | 'Role'; name: string },
  subjects: Subject[],
): RoleBinding {
  return {
    apiVersion: RBAC,
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: RBAC_GROUP, ...roleRef },
    subjects,
  };
}

function resource(
  group: string,
  plural: string,
  namespaced: boolean,
  extra: Partial<KnownResource> = {},
): KnownResource {
  return {
    group,
    versions: ['v1'],
    plural,
    singular: plural.slice(0, -1),
    kind: plural,
    shortNames: [],
    namespaced,
    source: 'discovery',
    ...extra,
  };
}

function revision(name: string, image: string, labels: Record<string, string>): ProviderRevision {
  return {
    apiVersion: 'pkg.crossplane.io/v1',
    kind: 'ProviderRevision',
    metadata: { name, labels },
    spec: { image },
  };
}

const FAMILY = { 'pkg.crossplane.io/provider-family': 'provider-family-aws' };

const RESOURCES: KnownResource[] = [
  resource('', 'pods', true),
  resource('', 'secrets', true),
  resource('', 'nodes', false),
  resource('', 'configmaps', true),
  resource('apps', 'deployments', true),
  resource('apiextensions.crossplane.io', 'compositions', false),
  resource('s3.aws.upbound.io', 'buckets', false, { provider: 'upbound-provider-aws-s3-1' }),
  resource('ec2.aws.upbound.io', 'vpcs', false, { provider: 'upbound-provider-aws-ec2-1' }),
  // Same family label, another organisation: Crossplane's family is label AND registry/organisation.
  resource('sqs.aws.example.net', 'queues', false, { provider: 'acme-provider-aws-sqs-1' }),
  resource('helm.crossplane.io', 'releases', false, { provider: 'crossplane-contrib-provider-helm-1' }),
  // Known only from an objectRef: judged in the namespace when -n is given.
  resource('kubernetes.crossplane.io', 'objects', false, {
    provider: 'crossplane-contrib-provider-kubernetes-1',
    scopeUnknown: true,
    versions: [],
  }),
  resource('aws.platform.upbound.io', 'xsqlinstances', false, {
    source: 'xrd',
    xrd: 'xsqlinstances.aws.platform.upbound.io',
  }),
  resource('aws.platform.upbound.io', 'sqlinstances', true, {
    source: 'claim',
    xrd: 'xsqlinstances.aws.platform.upbound.io',
  }),
  resource('example.com', 'widgets', true),
];

const REVISIONS: ProviderRevision[] = [
  revision('upbound-provider-aws-s3-1', 'xpkg.upbound.io/upbound/provider-aws-s3:v1', FAMILY),
  revision('upbound-provider-aws-ec2-1', 'xpkg.upbound.io/upbound/provider-aws-ec2:v1', FAMILY),
  revision('acme-provider-aws-sqs-1', 'xpkg.upbound.io/acme/provider-aws-sqs:v1', FAMILY),
  revision('crossplane-contrib-provider-helm-1', 'xpkg.crossplane.io/crossplane-contrib/provider-helm:v1', {
    'pkg.crossplane.io/package': 'crossplane-contrib-provider-helm',
  }),
  revision(
    'crossplane-contrib-provider-kubernetes-1',
    'xpkg.crossplane.io/crossplane-contrib/provider-kubernetes:v1',
    {},
  ),
];

const CLUSTER_ROLES: ClusterRole[] = [
  // Aggregated, and the controller has caught up: its stored rules are the parts' rules.
  clusterRole('reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }], {
    aggregate: { 'example.com/aggregate-to-reader': 'true' },
  }),
  clusterRole(
    'reader-configmaps',
    [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
    {
      labels: { 'example.com/aggregate-to-reader': 'true' },
    },
  ),
  // Aggregated, not caught up: it stores nothing yet, its part grants pods.
  clusterRole('lagging', [], { aggregate: { 'example.com/aggregate-to-lagging': 'true' } }),
  clusterRole('lagging-pods', [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }], {
    labels: { 'example.com/aggregate-to-lagging': 'true' },
  }),
  clusterRole('all-verbs-deployments', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] }]),
  clusterRole('one-secret', [
    {
      apiGroups: [''],
      resources: ['secrets'],
      verbs: ['get', 'update'],
      resourceNames: ['crossplane-root-ca'],
    },
  ]),
  clusterRole('subresources', [
    { apiGroups: [''], resources: ['nodes/status', 'pods/log'], verbs: ['get', 'patch'] },
    { apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['update'] },
  ]),
  clusterRole('s3-everything', [
    { apiGroups: ['s3.aws.upbound.io'], resources: ['*'], verbs: ['get', 'delete'] },
  ]),
  clusterRole('any-group-list', [{ apiGroups: ['*'], resources: ['releases', 'queues'], verbs: ['list'] }]),
  clusterRole('objects-edit', [
    { apiGroups: ['kubernetes.crossplane.io'], resources: ['objects'], verbs: ['create'] },
  ]),
  clusterRole('ns-secrets-and-nodes', [
    { apiGroups: [''], resources: ['secrets', 'nodes'], verbs: ['create', 'delete'] },
  ]),
  clusterRole('objects-in-namespace', [
    { apiGroups: ['kubernetes.crossplane.io'], resources: ['objects'], verbs: ['delete'] },
  ]),
  clusterRole('claims', [
    { apiGroups: ['aws.platform.upbound.io'], resources: ['sqlinstances'], verbs: ['get', 'create'] },
  ]),
  clusterRole('compositions-view', [
    {
      apiGroups: ['apiextensions.crossplane.io'],
      resources: ['compositions'],
      verbs: ['get', 'list', 'watch'],
    },
  ]),
];

const ROLES: Role[] = [
  {
    apiVersion: RBAC,
    kind: 'Role',
    metadata: { name: 'widgets', namespace: 'team-a' },
    rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['deletecollection'] }],
  },
];

const ALICE: Subject = { kind: 'User', name: 'alice' };

const CLUSTER_ROLE_BINDINGS: ClusterRoleBinding[] = [
  crb('reader', 'reader', [CROSSPLANE_SA]),
  crb('lagging', 'lagging', [CROSSPLANE_SA]),
  crb('deployments', 'all-verbs-deployments', [CROSSPLANE_SA]),
  crb('one-secret', 'one-secret', [CROSSPLANE_SA]),
  crb('subresources', 'subresources', [CROSSPLANE_SA]),
  // Through the service accounts' implicit group.
  crb('s3', 's3-everything', [{ kind: 'Group', name: 'system:serviceaccounts', apiGroup: RBAC_GROUP }]),
  crb('any-group-list', 'any-group-list', [CROSSPLANE_SA]),
  crb('objects-edit', 'objects-edit', [CROSSPLANE_SA]),
  crb('alice-compositions', 'compositions-view', [ALICE]),
  crb('alice-deployments', 'all-verbs-deployments', [ALICE]),
  // A binding to a role that does not exist grants nothing.
  crb('missing', 'no-such-role', [CROSSPLANE_SA]),
];

const ROLE_BINDINGS: RoleBinding[] = [
  rb('team-a', 'secrets', { kind: 'ClusterRole', name: 'ns-secrets-and-nodes' }, [CROSSPLANE_SA]),
  rb('team-a', 'objects', { kind: 'ClusterRole', name: 'objects-in-namespace' }, [CROSSPLANE_SA]),
  rb('team-a', 'widgets', { kind: 'Role', name: 'widgets' }, [
    // A ServiceAccount subject without a namespace takes the binding's: this is team-a/crossplane, not ours.
    { kind: 'ServiceAccount', name: 'crossplane' },
    CROSSPLANE_SA,
  ]),
  rb('team-b', 'claims', { kind: 'ClusterRole', name: 'claims' }, [CROSSPLANE_SA]),
  rb('team-a', 'alice-claims', { kind: 'ClusterRole', name: 'claims' }, [ALICE]),
];

const RBAC_SNAPSHOT = {
  clusterRoles: CLUSTER_ROLES,
  clusterRoleBindings: CLUSTER_ROLE_BINDINGS,
  roleBindings: ROLE_BINDINGS,
  roles: ROLES,
};

const SA: SubjectRef = { kind: 'ServiceAccount', name: 'crossplane', namespace: 'crossplane-system' };

function run(
  options: {
    namespace?: string;
    all?: boolean;
    diffWith?: SubjectRef;
    subject?: SubjectRef;
    groups?: string[];
  } = {},
): AccessMatrix {
  return accessMatrix(
    {
      subject: options.subject ?? SA,
      groups: options.groups ?? [],
      namespace: options.namespace,
      diffWith: options.diffWith,
      all: options.all ?? false,
    },
    { rbac: RBAC_SNAPSHOT, resources: RESOURCES, providerRevisions: REVISIONS },
  );
}

/** A row as `resource.group: allowed verbs` (`-` when none), with `*` after a verb only unstored rules allow. */
function describeRow(r: MatrixRow, cells: 'allowed' | 'otherAllowed' = 'allowed'): string {
  const pending = cells === 'allowed' ? r.notStoredYet : r.otherNotStoredYet;
  const verbs = Object.entries(r[cells] ?? {})
    .filter(([, v]) => v)
    .map(([k]) => (pending?.includes(k as never) === true ? `${k}*` : k));
  return `${r.group === '' ? r.resource : `${r.resource}.${r.group}`}: ${verbs.length > 0 ? verbs.join(' ') : '-'}`;
}

function rows(m: AccessMatrix): Record<string, string> {
  const out: Record<string, string> = {};
  for (const g of m.groups)
    for (const r of g.resources) {
      const [name, verbs] = describeRow(r).split(': ');
      out[name ?? ''] = verbs ?? '';
    }
  return out;
}

/** Cluster-wide (no -n): only ClusterRoleBindings count, for namespaced resources too. */
const CLUSTER_WIDE: Record<string, { expect: string; reason: string }> = {
  configmaps: {
    expect: 'get list watch',
    reason: "an aggregated ClusterRole grants its parts' rules, stored by the controller",
  },
  pods: {
    expect: 'get* list*',
    reason:
      'only the rules the aggregation controller will copy into "lagging" grant them: allowed, marked not stored yet; pods/log does not grant pods',
  },
  secrets: {
    expect: '-',
    reason:
      'a rule with resourceNames grants only the named secret, never the resource as a whole; the RoleBinding in team-a does not count cluster-wide',
  },
  nodes: {
    expect: '-',
    reason:
      'nodes/status is a subresource: it grants nothing on nodes; the RoleBinding never grants a cluster-scoped resource',
  },
  'deployments.apps': {
    expect: 'get list watch create update patch delete deletecollection',
    reason: 'verbs: ["*"] is every verb; deployments/scale adds nothing to deployments',
  },
  'buckets.s3.aws.upbound.io': {
    expect: 'get delete',
    reason: 'resources: ["*"] in the group, bound to the implicit group system:serviceaccounts',
  },
  'queues.sqs.aws.example.net': { expect: 'list', reason: 'apiGroups: ["*"] matches every group' },
  'releases.helm.crossplane.io': { expect: 'list', reason: 'apiGroups: ["*"] matches every group' },
  'objects.kubernetes.crossplane.io': {
    expect: 'create',
    reason: "scope unknown without -n: judged cluster-wide, so the RoleBinding's delete does not count",
  },
};

describe('accessMatrix: cells', () => {
  const m = run();
  it.each(Object.entries(CLUSTER_WIDE))('cluster-wide %s', (name, c) => {
    expect(rows(run({ all: true }))[name], c.reason).toBe(c.expect);
  });

  it('hides the rows where everything is denied, and counts them', () => {
    expect(Object.keys(rows(m)).sort()).toStrictEqual(
      Object.keys(CLUSTER_WIDE)
        .filter((k) => CLUSTER_WIDE[k]?.expect !== '-')
        .sort(),
    );
    // secrets, nodes, compositions, vpcs, xsqlinstances, sqlinstances, widgets
    expect(m.hidden).toBe(7);
    expect(m.namespace).toBeUndefined();
  });

  it('--all keeps every row, denied ones with no allowed verb', () => {
    const all = run({ all: true });
    expect(all.hidden).toBe(0);
    expect(Object.keys(rows(all))).toHaveLength(RESOURCES.length);
    expect(rows(all).secrets).toBe('-');
    expect(rows(all)['vpcs.ec2.aws.upbound.io']).toBe('-');
    const secrets = all.groups.flatMap((g) => g.resources).find((r) => r.resource === 'secrets');
    expect(secrets?.allowed).toStrictEqual({
      get: false,
      list: false,
      watch: false,
      create: false,
      update: false,
      patch: false,
      delete: false,
      deletecollection: false,
    });
  });

  it('-n: the RoleBindings there count for namespaced resources only', () => {
    const ns = rows(run({ namespace: 'team-a', all: true }));
    expect(ns.secrets, 'the RoleBinding of ns-secrets-and-nodes in team-a').toBe('create delete');
    expect(
      ns.nodes,
      'a cluster-scoped resource is judged cluster-wide: the RoleBinding cannot grant it',
    ).toBe('-');
    expect(ns['widgets.example.com'], 'a Role bound in team-a').toBe('deletecollection');
    expect(
      ns['objects.kubernetes.crossplane.io'],
      'scope unknown with -n: judged in the namespace, cluster-wide grants included',
    ).toBe('create delete');
    expect(
      ns['sqlinstances.aws.platform.upbound.io'],
      'the claims RoleBinding is in team-b, not team-a',
    ).toBe('-');
    expect(ns.configmaps, 'ClusterRoleBindings still count').toBe('get list watch');
    expect(rows(run({ namespace: 'team-b' }))['sqlinstances.aws.platform.upbound.io']).toBe('get create');
  });

  it('system:masters is allowed everything before RBAC is asked', () => {
    const m2 = run({ subject: { kind: 'User', name: 'root' }, groups: ['system:masters'] });
    expect(m2.hidden).toBe(0);
    for (const r of Object.values(rows(m2)))
      expect(r).toBe('get list watch create update patch delete deletecollection');
  });

  it('a subject nobody binds has every row hidden', () => {
    const m2 = run({ subject: { kind: 'User', name: 'nobody' } });
    expect(m2.groups).toStrictEqual([]);
    expect(m2.hidden).toBe(RESOURCES.length);
  });
});

describe('accessMatrix: groups', () => {
  it('orders Kubernetes, Crossplane, provider families, providers, XRDs, other groups', () => {
    const m = run({ all: true });
    expect(
      m.groups.map((g) => `${g.kind} ${g.name}: ${g.resources.map((r) => r.resource).join(',')}`),
    ).toStrictEqual([
      'kubernetes core: configmaps,nodes,pods,secrets',
      'kubernetes apps: deployments',
      'crossplane apiextensions.crossplane.io: compositions',
      // Two families share the label: Crossplane's family also needs the same registry and organisation.
      'provider-family provider-family-aws: queues',
      'provider-family provider-family-aws: vpcs,buckets',
      'provider crossplane-contrib-provider-helm: releases',
      'provider crossplane-contrib-provider-kubernetes-1: objects',
      'xrd xsqlinstances.aws.platform.upbound.io: sqlinstances,xsqlinstances',
      'other example.com: widgets',
    ]);
  });
});

describe('accessMatrix: --diff-with', () => {
  it('puts both subjects in each row and hides the rows where they are alike', () => {
    const m = run({ diffWith: { kind: 'User', name: 'alice' }, namespace: 'team-a' });
    const both = Object.fromEntries(
      m.groups.flatMap((g) => g.resources).map((r) => [describeRow(r), describeRow(r, 'otherAllowed')]),
    );
    expect(both).toStrictEqual({
      'configmaps: get list watch': 'configmaps: -',
      'pods: get* list*': 'pods: -',
      'secrets: create delete': 'secrets: -',
      'compositions.apiextensions.crossplane.io: -':
        'compositions.apiextensions.crossplane.io: get list watch',
      'queues.sqs.aws.example.net: list': 'queues.sqs.aws.example.net: -',
      'buckets.s3.aws.upbound.io: get delete': 'buckets.s3.aws.upbound.io: -',
      'releases.helm.crossplane.io: list': 'releases.helm.crossplane.io: -',
      'objects.kubernetes.crossplane.io: create delete': 'objects.kubernetes.crossplane.io: -',
      'sqlinstances.aws.platform.upbound.io: -': 'sqlinstances.aws.platform.upbound.io: get create',
      'widgets.example.com: deletecollection': 'widgets.example.com: -',
    });
    // deployments (both every verb), nodes, vpcs and xsqlinstances (both nothing) are alike.
    expect(m.hidden).toBe(4);
    expect(m.diffWith).toStrictEqual({
      subject: { kind: 'User', name: 'alice' },
      user: { name: 'alice', groups: ['system:authenticated'] },
    });
  });
});
