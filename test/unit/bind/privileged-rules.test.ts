import { describe, expect, it } from 'vitest';
import { findPrivilegedBindings } from '../../../src/bind/privileged-rules.js';
import { privilegedRuleReason } from '../../../src/authz/privileged-rules.js';
import type { Binding } from '../../../src/bind/target.js';
import type { ClusterRole, PolicyRule, Role } from '../../../src/kube/types.js';

const rbac = 'rbac.authorization.k8s.io';

describe('privilegedRuleReason', () => {
  const cases: Record<string, { rule: PolicyRule; want: string | undefined; reason: string }> = {
    ClusterAdmin: {
      rule: { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      want: 'grants * on * in every API group',
      reason: "cluster-admin's shape",
    },
    StarOnStarInOneGroup: {
      rule: { apiGroups: ['apiextensions.crossplane.io'], resources: ['*'], verbs: ['*'] },
      want: undefined,
      reason: "crossplane-edit's rule: full control of one ordinary group only",
    },
    StarOnStarInRbac: {
      rule: { apiGroups: [rbac], resources: ['*'], verbs: ['*'] },
      want: `grants * (which includes escalate and bind) on *.${rbac}`,
      reason: 'every RBAC resource includes roles',
    },
    StarOnStarInCore: {
      rule: { apiGroups: [''], resources: ['*'], verbs: ['*'] },
      want: 'grants * (which includes impersonate) on *',
      reason: 'the core group holds serviceaccounts',
    },
    ReadEverything: {
      rule: { apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] },
      want: undefined,
      reason: 'reading, secrets included, is not an escalation the flag guards (docs/commands/bind.md)',
    },
    NonResourceStar: {
      rule: { nonResourceURLs: ['*'], verbs: ['*'] },
      want: 'grants * on every non-resource URL (*)',
      reason: "cluster-admin's second rule",
    },
    NonResourceRootStar: {
      rule: { nonResourceURLs: ['/*'], verbs: ['get'] },
      want: 'grants get on every non-resource URL (/*)',
      reason: '/* matches every path',
    },
    NonResourceHealth: {
      rule: { nonResourceURLs: ['/healthz', '/version'], verbs: ['get'] },
      want: undefined,
      reason: 'system:discovery-like',
    },
    Escalate: {
      rule: { apiGroups: [rbac], resources: ['clusterroles'], verbs: ['escalate'] },
      want: `grants escalate on clusterroles.${rbac}`,
      reason: 'the example of the issue',
    },
    BindWithNames: {
      rule: { apiGroups: [rbac], resources: ['roles'], resourceNames: ['deployer'], verbs: ['bind'] },
      want: `grants bind on roles.${rbac} (names: deployer)`,
      reason: 'bind, even on one name, is named',
    },
    ImpersonateUsers: {
      rule: { apiGroups: [''], resources: ['users'], verbs: ['impersonate'] },
      want: 'grants impersonate on users',
      reason: 'acting as another user',
    },
    ImpersonateUserExtras: {
      rule: { apiGroups: ['authentication.k8s.io'], resources: ['userextras/scopes'], verbs: ['*'] },
      want: 'grants * (which includes impersonate) on userextras/scopes.authentication.k8s.io',
      reason: 'a * verb on impersonation extras',
    },
    StarVerbOnClusterRoleBindingsOnly: {
      rule: { apiGroups: [rbac], resources: ['clusterrolebindings'], verbs: ['*'] },
      want: undefined,
      reason: 'writing bindings still needs bind on the role (the API server checks it)',
    },
    TokenRequest: {
      rule: { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
      want: 'grants create on serviceaccounts/token (mints tokens for service accounts)',
      reason: 'a token for a service account is acting as it',
    },
    CreateAnythingInCore: {
      rule: { apiGroups: [''], resources: ['*'], verbs: ['create'] },
      want: 'grants create on serviceaccounts/token (mints tokens for service accounts)',
      reason: '* resources include serviceaccounts/token',
    },
    CreateServiceAccounts: {
      rule: { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create', 'delete'] },
      want: undefined,
      reason: 'making accounts is not acting as them',
    },
    ApproveSigners: {
      rule: { apiGroups: ['certificates.k8s.io'], resources: ['signers'], verbs: ['approve'] },
      want: 'grants approve on signers.certificates.k8s.io (approves certificates for any identity)',
      reason: 'a client certificate for system:masters',
    },
    Secrets: {
      rule: { apiGroups: [''], resources: ['secrets'], verbs: ['*'] },
      want: undefined,
      reason: 'secrets are data access (docs/commands/bind.md explains why not flagged)',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(privilegedRuleReason(tc.rule), tc.reason).toBe(tc.want);
  });
});

function crb(role: string): Binding {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: `b-${role}` },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: role },
    subjects: [{ kind: 'ServiceAccount', name: 'sa', namespace: 'ns' }],
  };
}

function clusterRole(name: string, rules: PolicyRule[], extra: Partial<ClusterRole> = {}): ClusterRole {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name },
    rules,
    ...extra,
  };
}

describe('findPrivilegedBindings', () => {
  const escalating = clusterRole('escalator', [
    { apiGroups: [rbac], resources: ['roles'], verbs: ['escalate'] },
  ]);

  it('AnAggregatedRoleIsJudgedByWhatTheControllerWillGiveIt', () => {
    const team = clusterRole('team', [], {
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'team' } }] },
    });
    const labelled = { ...escalating, metadata: { name: 'escalator', labels: { agg: 'team' } } };
    const found = findPrivilegedBindings([crb('team')], { clusterRoles: [team, labelled], roles: new Map() });
    expect(found.map((f) => `${f.role} ${f.reason}`)).toStrictEqual([
      `ClusterRole/team grants escalate on roles.${rbac}`,
    ]);
  });

  it('AnAggregatedRoleThatSelectsNothingPrivilegedIsFine', () => {
    const team = clusterRole('team', [], {
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'other' } }] },
    });
    expect(
      findPrivilegedBindings([crb('team')], { clusterRoles: [team, escalating], roles: new Map() }),
    ).toStrictEqual([]);
  });

  it('ClusterAdminByNameWhenTheInputLacksIt', () => {
    // Judged by Kubernetes' bootstrap rules of cluster-admin (`*` on `*`), as a live cluster stores them.
    const found = findPrivilegedBindings([crb('cluster-admin')], { clusterRoles: [], roles: new Map() });
    expect(found[0]?.reason).toBe('grants * on * in every API group');
  });

  it('ClusterAdminByNameWhateverTheInputStoresInIt', () => {
    // The API server reconciles cluster-admin back to its bootstrap rules at its next start.
    const tame: ClusterRole = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'cluster-admin' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    };
    const found = findPrivilegedBindings([crb('cluster-admin')], { clusterRoles: [tame], roles: new Map() });
    expect(found[0]?.reason).toBe('is cluster-admin, which grants everything');
  });

  it.each([
    ['admin', 'grants impersonate on serviceaccounts'],
    ['edit', 'grants impersonate on serviceaccounts'],
    ['system:aggregate-to-edit', 'grants impersonate on serviceaccounts'],
    ['view', undefined],
    ['system:basic-user', undefined],
  ])('BootstrapRole %s the input lacks is judged by its bootstrap rules', (name, reason) => {
    // Kubernetes' edit (aggregated into admin) may impersonate service accounts: bootstrappolicy/policy.go.
    const found = findPrivilegedBindings([crb(name)], { clusterRoles: [], roles: new Map() });
    expect(found[0]?.reason).toBe(reason);
  });

  it('AMissingRoleIsNotPrivileged', () => {
    expect(findPrivilegedBindings([crb('nope')], { clusterRoles: [], roles: new Map() })).toStrictEqual([]);
  });

  it('ARoleIsLookedUpInTheBindingsNamespace', () => {
    const role: Role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'r', namespace: 'a' },
      rules: [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }],
    };
    const rb = (ns: string): Binding => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'b', namespace: ns },
      roleRef: { apiGroup: rbac, kind: 'Role', name: 'r' },
      subjects: [],
    });
    const roles = new Map([['a/r', role]]);
    expect(
      findPrivilegedBindings([rb('a'), rb('b')], { clusterRoles: [], roles }).map((f) => f.role),
    ).toStrictEqual(['Role/a/r']);
  });
});
