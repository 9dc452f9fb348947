// Which fields of a desired object differ from the live one, compared as Kubernetes stores them: a difference the
// API server would erase is none, and one it keeps is one.
import { describe, expect, it } from 'vitest';
import { changedFields } from '../../../src/plan/compare.js';
import type {
  AggregationRule,
  ClusterRole,
  ClusterRoleBinding,
  Labels,
  OwnerReference,
  PolicyRule,
  Role,
  Subject,
} from '../../../src/kube/types.js';

const RBAC = 'rbac.authorization.k8s.io';

function binding(subjects: Subject[], owners: OwnerReference[] = []): ClusterRoleBinding {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'b', ...(owners.length > 0 ? { ownerReferences: owners } : {}) },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'r' },
    subjects,
  };
}

const owner = (blockOwnerDeletion: boolean | undefined): OwnerReference => ({
  apiVersion: 'pkg.crossplane.io/v1',
  kind: 'ProviderRevision',
  name: 'p',
  uid: 'u',
  controller: true,
  ...(blockOwnerDeletion !== undefined ? { blockOwnerDeletion } : {}),
});

describe('changedFields', () => {
  // kubernetes/kubernetes pkg/apis/rbac/v1/defaults.go@7c30c06e721d89056db323a3857a6b89990adf03 SetDefaults_Subject:
  // an empty apiGroup becomes rbac.authorization.k8s.io for User and Group, and stays "" for ServiceAccount.
  const cases: Record<string, { desired: Subject; live: Subject; want: string[]; reason: string }> = {
    UserGroupDefaulted: {
      desired: { kind: 'User', name: 'alice', apiGroup: RBAC },
      live: { kind: 'User', name: 'alice' },
      want: [],
      reason: 'the API server stores a User without apiGroup as rbac.authorization.k8s.io',
    },
    GroupGroupDefaulted: {
      desired: { kind: 'Group', name: 'devs' },
      live: { kind: 'Group', name: 'devs', apiGroup: RBAC },
      want: [],
      reason: 'the same for a Group, either way round',
    },
    ServiceAccountEmptyGroup: {
      desired: { kind: 'ServiceAccount', name: 'sa', namespace: 'ns', apiGroup: '' },
      live: { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
      want: [],
      reason: 'a ServiceAccount keeps the core group ""',
    },
    ServiceAccountWithRbacGroup: {
      desired: { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
      live: { kind: 'ServiceAccount', name: 'sa', namespace: 'ns', apiGroup: RBAC },
      want: ['subjects'],
      reason: 'a ServiceAccount is not defaulted to the RBAC group: a stored one in it differs',
    },
    OtherName: {
      desired: { kind: 'User', name: 'alice', apiGroup: RBAC },
      live: { kind: 'User', name: 'bob', apiGroup: RBAC },
      want: ['subjects'],
      reason: 'another subject',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(changedFields(binding([tc.desired]), binding([tc.live])), tc.reason).toStrictEqual(tc.want);
  });

  it('BlockOwnerDeletionIsCompared: the garbage collector reads it, so a changed one is written', () => {
    expect(changedFields(binding([], [owner(true)]), binding([], [owner(false)]))).toStrictEqual([
      'ownerReferences',
    ]);
    expect(changedFields(binding([], [owner(true)]), binding([], [owner(undefined)]))).toStrictEqual([
      'ownerReferences',
    ]);
    expect(
      changedFields(binding([], [owner(false)]), binding([], [owner(undefined)])),
      'unset is false',
    ).toStrictEqual([]);
  });
});

const rule = (r: Partial<PolicyRule>): PolicyRule => ({ verbs: ['get'], ...r });

function role(
  kind: 'ClusterRole' | 'Role',
  extra: { labels?: Labels; rules?: PolicyRule[]; aggregationRule?: AggregationRule },
): ClusterRole | Role {
  const { labels, ...rest } = extra;
  return {
    apiVersion: `${RBAC}/v1`,
    kind,
    metadata: { name: 'r', ...(kind === 'Role' ? { namespace: 'ns' } : {}), ...(labels ? { labels } : {}) },
    ...rest,
  };
}

describe('changedFields of roles', () => {
  // A role is compared by labels and rules (aggregating ClusterRoles by labels and aggregationRule), as Crossplane's
  // ClusterRolesDiffer (crossplane/crossplane internal/controller/rbac/provider/roles/reconciler.go); lists the API
  // server omits when empty (omitempty in k8s.io/api/rbac/v1 PolicyRule and AggregationRule) equal empty ones.
  const sel = (matchLabels: Labels): AggregationRule => ({ clusterRoleSelectors: [{ matchLabels }] });
  const cases: Record<
    string,
    { desired: ClusterRole | Role; live: ClusterRole | Role; want: string[]; reason: string }
  > = {
    LabelOrderIsNoDifference: {
      desired: role('ClusterRole', { labels: { a: '1', b: '2' }, rules: [] }),
      live: role('ClusterRole', { labels: { b: '2', a: '1' }, rules: [] }),
      want: [],
      reason: 'labels are a map: the order a file or the server lists them in means nothing',
    },
    RoleLabels: {
      desired: role('Role', { labels: { a: '1' }, rules: [] }),
      live: role('Role', { labels: { a: '2' }, rules: [] }),
      want: ['labels'],
      reason: 'a namespaced Role is compared as a ClusterRole is',
    },
    RoleRules: {
      desired: role('Role', { rules: [rule({ resources: ['pods'] })] }),
      live: role('Role', { rules: [rule({ resources: ['secrets'] })] }),
      want: ['rules'],
      reason: 'a Role whose rules differ',
    },
    MissingRulesAreEmpty: {
      desired: role('ClusterRole', {}),
      live: role('ClusterRole', { rules: [] }),
      want: [],
      reason: 'a role without rules is stored as one with none',
    },
    EmptyRulesAreMissing: {
      desired: role('ClusterRole', { rules: [] }),
      live: role('ClusterRole', {}),
      want: [],
      reason: 'either way round',
    },
    ExtraRule: {
      desired: role('ClusterRole', { rules: [rule({ resources: ['pods'] })] }),
      live: role('ClusterRole', { rules: [rule({ resources: ['pods'] }), rule({ resources: ['secrets'] })] }),
      want: ['rules'],
      reason: 'a live rule the desired role does not have, after the ones it has',
    },
    OmittedListsAreEmpty: {
      desired: role('ClusterRole', { rules: [rule({ nonResourceURLs: ['/healthz'] })] }),
      live: role('ClusterRole', {
        rules: [rule({ nonResourceURLs: ['/healthz'], apiGroups: [], resources: [], resourceNames: [] })],
      }),
      want: [],
      reason: 'apiGroups, resources and resourceNames are omitempty: absent and empty are the same',
    },
    EmptyListsAreOmitted: {
      desired: role('ClusterRole', {
        rules: [rule({ apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [] })],
      }),
      live: role('ClusterRole', { rules: [rule({})] }),
      want: [],
      reason: 'either way round',
    },
    OtherGroup: {
      desired: role('ClusterRole', { rules: [rule({ apiGroups: ['a.io'] })] }),
      live: role('ClusterRole', { rules: [rule({ apiGroups: ['b.io'] })] }),
      want: ['rules'],
      reason: 'another API group',
    },
    ExtraVerb: {
      desired: role('ClusterRole', { rules: [rule({ verbs: ['get'] })] }),
      live: role('ClusterRole', { rules: [rule({ verbs: ['get', 'list'] })] }),
      want: ['rules'],
      reason: 'a verb more, after the same first verb',
    },
    VerbsMissingLive: {
      desired: role('ClusterRole', { rules: [rule({ verbs: ['get'] })] }),
      live: role('ClusterRole', { rules: [{} as PolicyRule] }),
      want: ['rules'],
      reason: 'verbs is not omitempty: a rule without verbs is not one with verbs',
    },
    VerbsNullLive: {
      desired: role('ClusterRole', { rules: [rule({ verbs: ['get'] })] }),
      live: role('ClusterRole', { rules: [{ verbs: null } as unknown as PolicyRule] }),
      want: ['rules'],
      reason: 'null verbs in live JSON are missing verbs',
    },
    VerbsMissingDesired: {
      desired: role('ClusterRole', { rules: [{} as PolicyRule] }),
      live: role('ClusterRole', { rules: [rule({ verbs: ['get'] })] }),
      want: ['rules'],
      reason: 'either way round',
    },
    VerbsNullDesired: {
      desired: role('ClusterRole', { rules: [{ verbs: null } as unknown as PolicyRule] }),
      live: role('ClusterRole', { rules: [rule({ verbs: ['get'] })] }),
      want: ['rules'],
      reason: 'either way round, null',
    },
    VerbsMissingBoth: {
      desired: role('ClusterRole', { rules: [{ verbs: null } as unknown as PolicyRule] }),
      live: role('ClusterRole', { rules: [{} as PolicyRule] }),
      want: [],
      reason: 'null and absent decode to the same nil list',
    },
    AggregationRuleDiffers: {
      desired: role('ClusterRole', { aggregationRule: sel({ a: 'true' }) }),
      live: role('ClusterRole', { aggregationRule: sel({ b: 'true' }) }),
      want: ['aggregationRule'],
      reason: 'another selector aggregates other roles',
    },
    AggregationLabelOrder: {
      desired: role('ClusterRole', { aggregationRule: sel({ a: 'true', b: 'true' }) }),
      live: role('ClusterRole', { aggregationRule: sel({ b: 'true', a: 'true' }) }),
      want: [],
      reason: 'matchLabels is a map',
    },
    AggregationNoSelectors: {
      desired: role('ClusterRole', { aggregationRule: {} }),
      live: role('ClusterRole', { aggregationRule: { clusterRoleSelectors: [] } }),
      want: [],
      reason: 'clusterRoleSelectors is omitempty',
    },
    AggregationNoExpressions: {
      desired: role('ClusterRole', { aggregationRule: sel({ a: 'true' }) }),
      live: role('ClusterRole', {
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'true' }, matchExpressions: [] }] },
      }),
      want: [],
      reason: 'matchExpressions is omitempty',
    },
    AggregationAddedToAPlainRole: {
      desired: role('ClusterRole', { aggregationRule: sel({ a: 'true' }) }),
      live: role('ClusterRole', {}),
      want: ['aggregationRule'],
      reason: 'a role that is to aggregate, live a plain one',
    },
    AggregatedRulesAreTheControllers: {
      desired: role('ClusterRole', { aggregationRule: sel({ a: 'true' }), rules: [] }),
      live: role('ClusterRole', {
        aggregationRule: sel({ a: 'true' }),
        rules: [rule({ resources: ['pods'] })],
      }),
      want: [],
      reason:
        'the clusterrole-aggregation controller fills an aggregating role’s rules: they are not compared',
    },
    ExpressionsDiffer: {
      desired: role('ClusterRole', {
        aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Exists' }] }] },
      }),
      live: role('ClusterRole', {
        aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'b', operator: 'Exists' }] }] },
      }),
      want: ['aggregationRule'],
      reason: 'another key',
    },
    ExpressionValuesDiffer: {
      desired: role('ClusterRole', {
        aggregationRule: {
          clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'In', values: ['x'] }] }],
        },
      }),
      live: role('ClusterRole', {
        aggregationRule: {
          clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'In', values: ['y'] }] }],
        },
      }),
      want: ['aggregationRule'],
      reason: 'other values',
    },
    ExpressionValuesOmitted: {
      desired: role('ClusterRole', {
        aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Exists' }] }] },
      }),
      live: role('ClusterRole', {
        aggregationRule: {
          clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Exists', values: [] }] }],
        },
      }),
      want: [],
      reason: 'values is omitempty',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(changedFields(tc.desired, tc.live), tc.reason).toStrictEqual(tc.want);
  });
});

describe('changedFields of bindings: subjects and owners as stored', () => {
  const sa = (namespace?: string): Subject => ({
    kind: 'ServiceAccount',
    name: 'sa',
    ...(namespace !== undefined ? { namespace } : {}),
  });
  it('NamespaceOfASubject: another namespace is another subject', () => {
    expect(changedFields(binding([sa('a')]), binding([sa('b')]))).toStrictEqual(['subjects']);
  });
  it('EmptyNamespaceIsNone: namespace is omitempty', () => {
    expect(
      changedFields(
        binding([{ kind: 'User', name: 'u', namespace: '' }]),
        binding([{ kind: 'User', name: 'u' }]),
      ),
    ).toStrictEqual([]);
  });
  it('NoSubjectsIsEmpty: subjects is omitempty', () => {
    const none = binding([]);
    const { subjects: _s, ...withoutSubjects } = none;
    expect(changedFields(withoutSubjects as ClusterRoleBinding, none)).toStrictEqual([]);
    expect(changedFields(binding([sa('a')]), withoutSubjects as ClusterRoleBinding)).toStrictEqual([
      'subjects',
    ]);
  });
  it('NoOwnersIsEmpty: ownerReferences is omitempty', () => {
    const live = binding([]);
    expect(
      changedFields(binding([]), { ...live, metadata: { ...live.metadata, ownerReferences: [] } }),
    ).toStrictEqual([]);
  });
  it('ControllerIsCompared: a controller reference is not a plain one, unset is false', () => {
    const ref = (controller: boolean | undefined): OwnerReference => {
      const { controller: _c, ...rest } = owner(false);
      return { ...rest, ...(controller !== undefined ? { controller } : {}) };
    };
    expect(changedFields(binding([], [ref(true)]), binding([], [ref(false)]))).toStrictEqual([
      'ownerReferences',
    ]);
    expect(changedFields(binding([], [ref(undefined)]), binding([], [ref(false)]))).toStrictEqual([]);
  });
});
