/**
 * lookup's matcher and grouping, on small RBAC objects written here, with the expected rows written out by hand:
 * which subjects a pattern finds (rbac-lookup's lookup/lister.go: the name as the binding gives it; here a regular
 * expression, and a ServiceAccount's `namespace:name` too), their scope (`cluster-wide` or the RoleBinding's
 * namespace), the role each binding grants, and for an aggregated ClusterRole the roles it draws from and the chains
 * (Kubernetes' clusterrole-aggregation controller: selector by selector, matched roles in name order).
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding, Subject } from '../../../src/kube/types.js';
import { lookup } from '../../../src/lookup/lookup.js';
import { parsePattern, parseSubjectKind, type LookupQuery } from '../../../src/lookup/query.js';

const RBAC = 'rbac.authorization.k8s.io';
const V1 = `${RBAC}/v1` as const;

function clusterRole(
  name: string,
  extra: Partial<ClusterRole> = {},
  labels?: Record<string, string>,
): ClusterRole {
  return {
    apiVersion: V1,
    kind: 'ClusterRole',
    metadata: { name, ...(labels !== undefined ? { labels } : {}) },
    rules: [{ apiGroups: [''], resources: [name.replace(/\W/g, '')], verbs: ['get'] }],
    ...extra,
  };
}

/** A ClusterRole aggregating every role labelled `agg/<key>: "true"`, for each key. */
function aggregating(name: string, keys: readonly string[], labels?: Record<string, string>): ClusterRole {
  return clusterRole(
    name,
    {
      rules: [],
      aggregationRule: { clusterRoleSelectors: keys.map((k) => ({ matchLabels: { [`agg/${k}`]: 'true' } })) },
    },
    labels,
  );
}

function crb(name: string, role: string, subjects: Subject[]): ClusterRoleBinding {
  return {
    apiVersion: V1,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects,
  };
}

function rb(
  namespace: string,
  name: string,
  roleRef: { kind: string; name: string },
  subjects: Subject[],
): RoleBinding {
  return {
    apiVersion: V1,
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: RBAC, ...roleRef },
    subjects,
  };
}

function role(namespace: string, name: string, ruleCount: number): Role {
  return {
    apiVersion: V1,
    kind: 'Role',
    metadata: { name, namespace },
    rules: Array.from({ length: ruleCount }, (_, i) => ({
      apiGroups: [''],
      resources: [`r${String(i)}`],
      verbs: ['get'],
    })),
  };
}

const user = (name: string): Subject => ({ apiGroup: RBAC, kind: 'User', name });
const group = (name: string): Subject => ({ apiGroup: RBAC, kind: 'Group', name });
const sa = (name: string, namespace?: string): Subject => ({
  kind: 'ServiceAccount',
  name,
  ...(namespace !== undefined ? { namespace } : {}),
});

/**
 * Kubernetes' shape: admin aggregates edit and system:aggregate-to-admin, edit aggregates view and
 * system:aggregate-to-edit, view aggregates system:aggregate-to-view.
 */
const clusterRoles: ClusterRole[] = [
  aggregating('admin', ['admin']),
  aggregating('edit', ['edit'], { 'agg/admin': 'true' }),
  aggregating('view', ['view'], { 'agg/edit': 'true' }),
  clusterRole('system:aggregate-to-admin', {}, { 'agg/admin': 'true' }),
  clusterRole('system:aggregate-to-edit', {}, { 'agg/edit': 'true' }),
  clusterRole('system:aggregate-to-view', {}, { 'agg/view': 'true' }),
  clusterRole('reader'),
  aggregating('empty-aggregate', ['nothing-has-this']),
];

const clusterRoleBindings: ClusterRoleBinding[] = [
  crb('rob-cluster-view', 'view', [user('rob@example.com')]),
  crb('ross-admin', 'admin', [user('ross@example.com')]),
  crb('robots', 'reader', [sa('robot', 'infra'), sa('nobody-without-namespace'), group('robots')]),
  crb('dangling', 'no-such-role', [user('rob@example.com')]),
  crb('infra-service-accounts', 'reader', [group('system:serviceaccounts:infra')]),
];

const roleBindings: RoleBinding[] = [
  rb('nginx-ingress', 'rob-edit', { kind: 'ClusterRole', name: 'edit' }, [user('rob@example.com')]),
  rb('web', 'ron-edit', { kind: 'ClusterRole', name: 'edit' }, [user('ron@example.com')]),
  rb('infra', 'rops-admin', { kind: 'ClusterRole', name: 'admin' }, [sa('rops')]),
  rb('infra', 'deployer', { kind: 'Role', name: 'deployer' }, [sa('robot', 'infra'), sa('robot', 'infra')]),
  rb('web', 'deployer', { kind: 'Role', name: 'deployer' }, [sa('robot', 'infra')]),
];

const snapshot = { clusterRoles, clusterRoleBindings, roleBindings, roles: [role('infra', 'deployer', 3)] };

/** One row per subject and binding: `SUBJECT SCOPE ROLE BINDING`, as the expected rows below are written. */
function rows(q: Partial<LookupQuery>): string[] {
  const r = lookup({ pattern: undefined, kind: undefined, namespace: undefined, ...q }, snapshot);
  return r.subjects.flatMap((s) =>
    s.grants.map((g) =>
      [
        `${s.kind}/${s.namespace !== undefined ? `${s.namespace}/` : ''}${s.name}`,
        g.scope,
        `${g.role.kind}/${g.role.name}${g.roleFound ? '' : '?'}`,
        `${g.binding.kind}/${g.binding.namespace !== undefined ? `${g.binding.namespace}/` : ''}${g.binding.name}`,
      ].join(' '),
    ),
  );
}

describe('lookup: which subjects, which bindings', () => {
  const cases: Record<string, { reason: string; query: Partial<LookupQuery>; want: string[] }> = {
    RbacLookupsOwnExample: {
      reason:
        "rbac-lookup's README: `rbac-lookup ro` finds rob, ross, ron and the rops service account, each binding on its own row (here also a dangling binding and rob's missing role)",
      query: { pattern: 'ro' },
      want: [
        'Group/robots cluster-wide ClusterRole/reader ClusterRoleBinding/robots',
        'ServiceAccount/infra/robot cluster-wide ClusterRole/reader ClusterRoleBinding/robots',
        'ServiceAccount/infra/robot infra Role/deployer RoleBinding/infra/deployer',
        'ServiceAccount/infra/robot web Role/deployer? RoleBinding/web/deployer',
        'ServiceAccount/infra/rops infra ClusterRole/admin RoleBinding/infra/rops-admin',
        'User/rob@example.com cluster-wide ClusterRole/no-such-role? ClusterRoleBinding/dangling',
        'User/rob@example.com cluster-wide ClusterRole/view ClusterRoleBinding/rob-cluster-view',
        'User/rob@example.com nginx-ingress ClusterRole/edit RoleBinding/nginx-ingress/rob-edit',
        'User/ron@example.com web ClusterRole/edit RoleBinding/web/ron-edit',
        'User/ross@example.com cluster-wide ClusterRole/admin ClusterRoleBinding/ross-admin',
      ],
    },
    NoPatternIsEverySubject: {
      reason:
        'no PATTERN lists every subject; a ServiceAccount subject of a ClusterRoleBinding without a namespace names nobody',
      query: {},
      want: [
        'Group/robots cluster-wide ClusterRole/reader ClusterRoleBinding/robots',
        'Group/system:serviceaccounts:infra cluster-wide ClusterRole/reader ClusterRoleBinding/infra-service-accounts',
        'ServiceAccount/infra/robot cluster-wide ClusterRole/reader ClusterRoleBinding/robots',
        'ServiceAccount/infra/robot infra Role/deployer RoleBinding/infra/deployer',
        'ServiceAccount/infra/robot web Role/deployer? RoleBinding/web/deployer',
        'ServiceAccount/infra/rops infra ClusterRole/admin RoleBinding/infra/rops-admin',
        'User/rob@example.com cluster-wide ClusterRole/no-such-role? ClusterRoleBinding/dangling',
        'User/rob@example.com cluster-wide ClusterRole/view ClusterRoleBinding/rob-cluster-view',
        'User/rob@example.com nginx-ingress ClusterRole/edit RoleBinding/nginx-ingress/rob-edit',
        'User/ron@example.com web ClusterRole/edit RoleBinding/web/ron-edit',
        'User/ross@example.com cluster-wide ClusterRole/admin ClusterRoleBinding/ross-admin',
      ],
    },
    AnchoredPattern: {
      reason: 'PATTERN is a regular expression: ^rob@ finds rob only, not ross, ron or the robots',
      query: { pattern: '^rob@' },
      want: [
        'User/rob@example.com cluster-wide ClusterRole/no-such-role? ClusterRoleBinding/dangling',
        'User/rob@example.com cluster-wide ClusterRole/view ClusterRoleBinding/rob-cluster-view',
        'User/rob@example.com nginx-ingress ClusterRole/edit RoleBinding/nginx-ingress/rob-edit',
      ],
    },
    ServiceAccountByNamespaceAndName: {
      reason:
        "a ServiceAccount also matches on NS:NAME (rbac-lookup's key for it): infra:rops, whose name alone does not match",
      query: { pattern: '^infra:rop' },
      want: ['ServiceAccount/infra/rops infra ClusterRole/admin RoleBinding/infra/rops-admin'],
    },
    NamespaceIsNotMatchedAlone: {
      reason:
        "a namespace is only matched as a ServiceAccount's NS:NAME: nginx finds no one, though rob is bound in nginx-ingress",
      query: { pattern: 'nginx' },
      want: [],
    },
    GroupMembershipIsNotFollowed: {
      reason:
        "a subject is what a binding names: robot's tokens carry system:serviceaccounts:infra, but that group's binding is not robot's row",
      query: { pattern: '^robot$' },
      want: [
        'ServiceAccount/infra/robot cluster-wide ClusterRole/reader ClusterRoleBinding/robots',
        'ServiceAccount/infra/robot infra Role/deployer RoleBinding/infra/deployer',
        'ServiceAccount/infra/robot web Role/deployer? RoleBinding/web/deployer',
      ],
    },
    KindFilter: {
      reason: "--kind keeps one kind of subject, as rbac-lookup's --kind",
      query: { pattern: 'ro', kind: 'Group' },
      want: ['Group/robots cluster-wide ClusterRole/reader ClusterRoleBinding/robots'],
    },
    OneNamespace: {
      reason: '-n web: the RoleBindings of web and every ClusterRoleBinding, none of the other namespaces',
      query: { pattern: 'ro', namespace: 'web' },
      want: [
        'Group/robots cluster-wide ClusterRole/reader ClusterRoleBinding/robots',
        'ServiceAccount/infra/robot cluster-wide ClusterRole/reader ClusterRoleBinding/robots',
        'ServiceAccount/infra/robot web Role/deployer? RoleBinding/web/deployer',
        'User/rob@example.com cluster-wide ClusterRole/no-such-role? ClusterRoleBinding/dangling',
        'User/rob@example.com cluster-wide ClusterRole/view ClusterRoleBinding/rob-cluster-view',
        'User/ron@example.com web ClusterRole/edit RoleBinding/web/ron-edit',
        'User/ross@example.com cluster-wide ClusterRole/admin ClusterRoleBinding/ross-admin',
      ],
    },
    NamespaceWithNoBindings: {
      reason: '-n of a namespace with no RoleBinding still lists the ClusterRoleBindings',
      query: { pattern: 'ross', namespace: 'elsewhere' },
      want: ['User/ross@example.com cluster-wide ClusterRole/admin ClusterRoleBinding/ross-admin'],
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(rows(tc.query), tc.reason).toStrictEqual(tc.want);
  });
});

describe('lookup: the roles a binding grants', () => {
  const grantsOf = (pattern: string) =>
    lookup({ pattern, kind: undefined, namespace: undefined }, snapshot).subjects.flatMap((s) => s.grants);

  it('AggregatedClusterRoleComesWithItsSourcesAndChains', () => {
    // admin draws on edit and system:aggregate-to-admin, and through edit on view and system:aggregate-to-edit, and
    // through view on system:aggregate-to-view: 3 own rules in all once the controller has caught up.
    const [admin] = grantsOf('^ross@');
    expect(admin).toStrictEqual({
      binding: { kind: 'ClusterRoleBinding', name: 'ross-admin' },
      scope: 'cluster-wide',
      role: { kind: 'ClusterRole', name: 'admin' },
      roleFound: true,
      aggregated: true,
      ruleCount: 3,
      aggregatedFrom: [
        'edit',
        'system:aggregate-to-admin',
        'system:aggregate-to-edit',
        'system:aggregate-to-view',
        'view',
      ],
      chains: [
        ['admin', 'edit', 'system:aggregate-to-edit'],
        ['admin', 'edit', 'view', 'system:aggregate-to-view'],
        ['admin', 'system:aggregate-to-admin'],
      ],
    });
  });

  it('ARoleThatDoesNotAggregateHasNoChains', () => {
    const [reader] = grantsOf('^robots$');
    expect(reader).toMatchObject({ aggregated: false, ruleCount: 1, aggregatedFrom: [], chains: [] });
  });

  it('ARoleBoundInANamespaceIsTheRoleOfThatNamespace', () => {
    const grants = grantsOf('^robot$').filter((g) => g.role.kind === 'Role');
    expect(grants).toStrictEqual([
      {
        binding: { kind: 'RoleBinding', name: 'deployer', namespace: 'infra' },
        scope: 'infra',
        role: { kind: 'Role', name: 'deployer', namespace: 'infra' },
        roleFound: true,
        aggregated: false,
        ruleCount: 3,
        aggregatedFrom: [],
        chains: [],
      },
      {
        binding: { kind: 'RoleBinding', name: 'deployer', namespace: 'web' },
        scope: 'web',
        role: { kind: 'Role', name: 'deployer', namespace: 'web' },
        roleFound: false,
        aggregated: false,
        ruleCount: 0,
        aggregatedFrom: [],
        chains: [],
      },
    ]);
  });

  it('AnAggregatedRoleThatMatchesNothingYet', () => {
    const r = lookup(
      { pattern: undefined, kind: undefined, namespace: undefined },
      { ...snapshot, clusterRoleBindings: [crb('e', 'empty-aggregate', [user('u')])], roleBindings: [] },
    );
    expect(r.subjects[0]?.grants[0]).toMatchObject({
      aggregated: true,
      ruleCount: 0,
      aggregatedFrom: [],
      chains: [],
    });
  });

  it('ACycleEndsTheChainAtTheRoleItMeetsAgain', () => {
    // a aggregates b, b aggregates a (each labelled for the other): the controller follows b once.
    const roles = [
      aggregating('a', ['a'], { 'agg/b': 'true' }),
      aggregating('b', ['b'], { 'agg/a': 'true' }),
    ];
    const r = lookup(
      { pattern: undefined, kind: undefined, namespace: undefined },
      { clusterRoles: roles, clusterRoleBindings: [crb('x', 'a', [user('u')])], roleBindings: [], roles: [] },
    );
    expect(r.subjects[0]?.grants[0]).toMatchObject({ aggregatedFrom: ['a', 'b'], chains: [['a', 'b', 'a']] });
  });

  it('ARoleTwoSelectorsMatchIsDrawnFromOnce', () => {
    const roles = [
      aggregating('top', ['one', 'two']),
      clusterRole('both', {}, { 'agg/one': 'true', 'agg/two': 'true' }),
    ];
    const r = lookup(
      { pattern: undefined, kind: undefined, namespace: undefined },
      {
        clusterRoles: roles,
        clusterRoleBindings: [crb('x', 'top', [user('u')])],
        roleBindings: [],
        roles: [],
      },
    );
    expect(r.subjects[0]?.grants[0]).toMatchObject({ aggregatedFrom: ['both'], chains: [['top', 'both']] });
  });

  it('TheResultSaysWhatWasAsked', () => {
    const r = lookup({ pattern: 'ro', kind: 'User', namespace: 'web' }, snapshot);
    expect({ ...r, subjects: r.subjects.length }).toStrictEqual({
      pattern: 'ro',
      kind: 'User',
      namespace: 'web',
      subjects: 3,
    });
    expect(
      Object.keys(lookup({ pattern: '', kind: undefined, namespace: undefined }, snapshot)),
    ).toStrictEqual(['subjects']);
  });
});

describe('lookup: the query as flags give it', () => {
  it('InvalidPatternIsAUsageError', () => {
    expect(() => parsePattern('(')).toThrow(UsageError);
    expect(() => parsePattern('(')).toThrow('invalid PATTERN "(": unterminated group (');
    expect(() => parsePattern('[a-')).toThrow(/^invalid PATTERN "\[a-": /);
  });

  it('TheReasonIsOursTheSameOnEveryEngine', () => {
    // Each pattern is one the engine itself refuses (checked below), so the table cannot drift into valid ones.
    const table: Record<string, string> = {
      'team-(a': 'unterminated group (',
      'a)': 'unmatched )',
      '[abc': 'unterminated character class [',
      '*x': 'nothing to repeat before *',
      'a|+b': 'nothing to repeat before +',
      '(?x': 'invalid group (?x',
      'a(?)': 'invalid group (?)',
      'a**': 'nothing to repeat before *',
      'abc\\': '\\ at the end of the pattern',
    };
    for (const [pattern, reason] of Object.entries(table)) {
      expect(() => new RegExp(pattern), pattern).toThrow(SyntaxError);
      expect(() => parsePattern(pattern), pattern).toThrow(`invalid PATTERN "${pattern}": ${reason}`);
    }
    expect(parsePattern('a*?b(?:c)+')?.test('aabcc')).toBe(true);
  });

  it('NoPatternOrAnEmptyOneMatchesEverything', () => {
    expect(parsePattern(undefined)).toBeUndefined();
    expect(parsePattern('')).toBeUndefined();
  });

  it('KindInAnyCaseAsRbacLookupTakesIt', () => {
    expect(parseSubjectKind('user')).toBe('User');
    expect(parseSubjectKind('SERVICEACCOUNT')).toBe('ServiceAccount');
    expect(parseSubjectKind('Group')).toBe('Group');
    expect(parseSubjectKind(undefined)).toBeUndefined();
    expect(() => parseSubjectKind('sa')).toThrow('invalid --kind "sa"');
  });
});
