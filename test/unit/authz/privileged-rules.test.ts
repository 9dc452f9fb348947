// Which rules are privileged, by the checks Kubernetes makes: `escalate` and `bind` on roles and clusterroles
// (pkg/registry/rbac/escalation_check.go: RoleEscalationAuthorized, BindingAuthorized), `impersonate` on users,
// groups and serviceaccounts of the core group and uids and userextras/<key> of authentication.k8s.io
// (k8s.io/apiserver/pkg/endpoints/filters/impersonation.go), `create` on serviceaccounts/token (TokenRequest), and
// `approve` on signers of certificates.k8s.io (pkg/registry/certificates/certificates/strategy.go). A `*` verb holds
// every verb (VerbMatches). The basic table lives in test/unit/bind/privileged-rules.test.ts.
import { describe, expect, it } from 'vitest';
import {
  privilegedOnBehalfReason,
  privilegedReason,
  privilegedRuleReason,
} from '../../../src/authz/privileged-rules.js';
import type { PolicyRule } from '../../../src/kube/types.js';

const RBAC = 'rbac.authorization.k8s.io';
const AUTHN = 'authentication.k8s.io';

interface Case {
  reason: string;
  rule: PolicyRule;
  want: string | undefined;
}

describe('privilegedRuleReason', () => {
  const cases: Record<string, Case> = {
    EveryUrlListsTheVerbs: {
      reason: 'Every verb the rule grants on every non-resource URL is named; * wins over /* in the text.',
      rule: { nonResourceURLs: ['/healthz', '/*', '*'], verbs: ['get', 'post'] },
      want: 'grants get, post on every non-resource URL (*)',
    },
    UrlPrefixIsNotEveryUrl: {
      reason: '/api/* is a prefix of some paths only.',
      rule: { nonResourceURLs: ['/api/*'], verbs: ['*'] },
      want: undefined,
    },
    StarAmongVerbs: {
      reason: 'A * anywhere in verbs holds every verb (VerbMatches).',
      rule: { apiGroups: ['apps', '*'], resources: ['deployments', '*'], verbs: ['get', '*'] },
      want: 'grants * on * in every API group',
    },
    StarResourcesInOneGroup: {
      reason: '* resources in every group with one verb that is not an identity verb is not cluster-admin.',
      rule: { apiGroups: ['*'], resources: ['*'], verbs: ['delete'] },
      want: undefined,
    },
    StarVerbStarGroupsSomeResources: {
      reason: '* on deployments in every group is not cluster-admin and touches no identity.',
      rule: { apiGroups: ['*'], resources: ['deployments'], verbs: ['*'] },
      want: undefined,
    },
    FirstIdentityVerbNamed: {
      reason: 'escalate, bind and impersonate are looked at in that order, whatever the rule lists first.',
      rule: { apiGroups: [RBAC], resources: ['roles'], verbs: ['impersonate', 'bind'] },
      want: `grants bind on roles.${RBAC}`,
    },
    IdentityVerbWithoutResources: {
      reason: 'escalate is named even on a rule that names no resource.',
      rule: { verbs: ['escalate'] },
      want: 'grants escalate',
    },
    IdentityVerbWithoutGroups: {
      reason: 'Resources without a group name nothing (no group, no resource); the verb is still named.',
      rule: { resources: ['roles'], verbs: ['escalate'] },
      want: 'grants escalate',
    },
    IdentityVerbWithoutResourcesInAGroup: {
      reason: 'A group without resources names nothing either.',
      rule: { apiGroups: [RBAC], verbs: ['bind'] },
      want: 'grants bind',
    },
    ResourcesListedAtMostThree: {
      reason: 'A few resources are named, then an ellipsis; each group is named as kubectl names it.',
      rule: { apiGroups: ['', '*'], resources: ['users', 'groups'], verbs: ['impersonate'] },
      want: 'grants impersonate on users, groups, users (in every API group), …',
    },
    ResourcesExactlyThree: {
      reason: 'Three resources are all named, with no ellipsis; the same one twice is named once.',
      rule: {
        apiGroups: ['', ''],
        resources: ['users', 'groups', 'serviceaccounts'],
        verbs: ['impersonate'],
      },
      want: 'grants impersonate on users, groups, serviceaccounts',
    },
    ResourceNamesListed: {
      reason: 'A rule limited to names still grants the verb on them: the names are given.',
      rule: {
        apiGroups: [RBAC],
        resources: ['clusterroles'],
        resourceNames: ['a', 'b'],
        verbs: ['escalate'],
      },
      want: `grants escalate on clusterroles.${RBAC} (names: a, b)`,
    },
    StarVerbOnRolesInEveryGroup: {
      reason:
        'A * verb on clusterroles of every group includes escalate and bind; other resources are left out.',
      rule: { apiGroups: ['*'], resources: ['pods', 'clusterroles'], verbs: ['*'] },
      want: 'grants * (which includes escalate and bind) on clusterroles (in every API group)',
    },
    StarVerbOnRolesInAnotherGroup: {
      reason: 'roles of a group other than RBAC are not RBAC roles.',
      rule: { apiGroups: ['example.org'], resources: ['roles', 'clusterroles'], verbs: ['*'] },
      want: undefined,
    },
    StarVerbOnUsersAndUids: {
      reason:
        'users are impersonated in the core group, uids in authentication.k8s.io; only those are named.',
      rule: { apiGroups: ['', AUTHN], resources: ['users', 'pods', 'uids'], verbs: ['*'] },
      want: `grants * (which includes impersonate) on users, uids.${AUTHN}`,
    },
    StarVerbOnUsersOfAnotherGroup: {
      reason: 'users of authentication.k8s.io are not what impersonation checks (it checks the core group).',
      rule: { apiGroups: [AUTHN], resources: ['users', 'groups'], verbs: ['*'] },
      want: undefined,
    },
    StarVerbOnServiceAccountsSubresource: {
      reason: 'serviceaccounts/token is a subresource of serviceaccounts: * on it includes creating tokens.',
      rule: { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['*'] },
      want: 'grants * (which includes impersonate) on serviceaccounts/token',
    },
    StarSlashToken: {
      reason:
        '*/token matches the token subresource of every resource (ResourceMatches), serviceaccounts included.',
      rule: { apiGroups: [''], resources: ['*/token'], verbs: ['create'] },
      want: 'grants create on serviceaccounts/token (mints tokens for service accounts)',
    },
    StarSlashUsersIsASubresource: {
      reason: '*/users names a subresource users of anything, not the users impersonation checks.',
      rule: { apiGroups: [''], resources: ['*/users', '*/groups'], verbs: ['*'] },
      want: undefined,
    },
    StarSlashOtherSubresource: {
      reason: '*/status is no token.',
      rule: { apiGroups: [''], resources: ['*/status', 'serviceaccounts'], verbs: ['create'] },
      want: undefined,
    },
    TokenInAnotherGroup: {
      reason: 'serviceaccounts live in the core group only.',
      rule: { apiGroups: ['apps'], resources: ['serviceaccounts/token'], verbs: ['create'] },
      want: undefined,
    },
    TokenGetIsNotCreate: {
      reason: 'TokenRequest is a create.',
      rule: { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['get', 'list'] },
      want: undefined,
    },
    TokenInEveryGroup: {
      reason: 'apiGroups * include the core group; the resource is named in its own group.',
      rule: { apiGroups: ['*'], resources: ['serviceaccounts/token'], verbs: ['create'] },
      want: 'grants create on serviceaccounts/token (mints tokens for service accounts)',
    },
    StarVerbOnSigners: {
      reason: 'A * verb includes approve.',
      rule: { apiGroups: ['certificates.k8s.io'], resources: ['signers'], verbs: ['*'] },
      want: 'grants * on signers.certificates.k8s.io (approves certificates for any identity)',
    },
    SignersInEveryGroup: {
      reason: 'apiGroups * include certificates.k8s.io.',
      rule: { apiGroups: ['*'], resources: ['signers'], resourceNames: ['x/y'], verbs: ['approve'] },
      want: 'grants approve on signers.certificates.k8s.io (approves certificates for any identity)',
    },
    SignersOfAnotherGroup: {
      reason: 'signers of another group are not certificate signers.',
      rule: { apiGroups: ['example.org'], resources: ['signers'], verbs: ['approve'] },
      want: undefined,
    },
    SignVerbIsNotApprove: {
      reason: 'sign on signers lets a signer controller sign approved requests only.',
      rule: { apiGroups: ['certificates.k8s.io'], resources: ['signers'], verbs: ['sign'] },
      want: undefined,
    },
  };
  it.each(Object.entries(cases))('%s', (_n, c) => {
    expect(privilegedRuleReason(c.rule), c.reason).toBe(c.want);
  });

  it("gives the same reasons when rules share frozen lists, as a provider family's roles do", () => {
    // Equal lists become one frozen list, shared by every rule that has them; each case is asked twice, and the cases
    // with the same groups and resources differ in verbs, resource names or URLs only.
    const frozen = new Map<string, readonly string[]>();
    const share = (xs: readonly string[]): readonly string[] => {
      const key = JSON.stringify(xs);
      let list = frozen.get(key);
      if (list === undefined) frozen.set(key, (list = Object.freeze([...xs])));
      return list;
    };
    const plus = { apiGroups: [RBAC], resources: ['clusterroles'] };
    const all: [string, PolicyRule, string | undefined][] = [
      ...Object.entries(cases).map(([n, c]): [string, PolicyRule, string | undefined] => [n, c.rule, c.want]),
      ['get on clusterroles', { ...plus, verbs: ['get'] }, undefined],
      [
        '* on clusterroles',
        { ...plus, verbs: ['*'] },
        `grants * (which includes escalate and bind) on clusterroles.${RBAC}`,
      ],
      ['bind on clusterroles', { ...plus, verbs: ['bind'] }, `grants bind on clusterroles.${RBAC}`],
      [
        'bind on one clusterrole',
        { ...plus, verbs: ['bind'], resourceNames: ['x'] },
        `grants bind on clusterroles.${RBAC} (names: x)`,
      ],
      [
        'bind on another clusterrole',
        { ...plus, verbs: ['bind'], resourceNames: ['y'] },
        `grants bind on clusterroles.${RBAC} (names: y)`,
      ],
      [
        'get on clusterroles and every URL',
        { ...plus, nonResourceURLs: ['*'], verbs: ['get'] },
        'grants get on every non-resource URL (*)',
      ],
      [
        'get on clusterroles and one URL',
        { ...plus, nonResourceURLs: ['/healthz'], verbs: ['get'] },
        undefined,
      ],
    ];
    // Rounds 0 and 1: verbs as copies (looked up by their text); 2 and 3: verbs frozen and shared too (looked up
    // by identity), as the renderers share theirs.
    for (let round = 0; round < 4; round++) {
      for (const [name, rule, want] of all) {
        const sharing: PolicyRule = {
          ...rule,
          ...(rule.apiGroups !== undefined ? { apiGroups: share(rule.apiGroups) } : {}),
          ...(rule.resources !== undefined ? { resources: share(rule.resources) } : {}),
          verbs: round >= 2 ? share(rule.verbs) : [...rule.verbs],
        };
        expect(privilegedRuleReason(sharing), `${name}, round ${String(round)}`).toBe(want);
      }
    }
  });
});

describe('privilegedReason', () => {
  it("gives the first privileged rule's reason, or none", () => {
    const read: PolicyRule = { apiGroups: [''], resources: ['pods'], verbs: ['get'] };
    const bind: PolicyRule = { apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['bind'] };
    const impersonate: PolicyRule = { apiGroups: [''], resources: ['users'], verbs: ['impersonate'] };
    expect(privilegedReason([])).toBeUndefined();
    expect(privilegedReason([read])).toBeUndefined();
    expect(privilegedReason([read, impersonate, bind])).toBe('grants impersonate on users');
    expect(privilegedReason([bind, impersonate])).toBe(`grants bind on clusterroles.${RBAC}`);
  });
});

describe('privilegedOnBehalfReason', () => {
  const writes = '(writes RBAC: grants anything its holder holds)';
  const cases: Record<string, Case> = {
    SharedReasonFirst: {
      reason: 'A rule privileged for anyone keeps that reason.',
      rule: { apiGroups: [RBAC], resources: ['rolebindings', 'roles'], verbs: ['create', 'escalate'] },
      want: `grants escalate on rolebindings.${RBAC}, roles.${RBAC}`,
    },
    CreateBindings: {
      reason: 'Creating a binding grants whatever role the writer may bind.',
      rule: { apiGroups: [RBAC], resources: ['rolebindings'], verbs: ['get', 'create'] },
      want: `grants create on rolebindings.${RBAC} ${writes}`,
    },
    FirstWriteVerb: {
      reason: 'The first write verb the rule lists is named.',
      rule: { apiGroups: [RBAC], resources: ['clusterrolebindings'], verbs: ['list', 'patch', 'update'] },
      want: `grants patch on clusterrolebindings.${RBAC} ${writes}`,
    },
    UpdateRoles: {
      reason: 'Updating a role writes rules into it.',
      rule: { apiGroups: [RBAC], resources: ['roles'], verbs: ['update'] },
      want: `grants update on roles.${RBAC} ${writes}`,
    },
    StarVerbOnBindings: {
      reason: 'A * verb includes create; bindings are RBAC objects.',
      rule: { apiGroups: ['*'], resources: ['clusterrolebindings'], verbs: ['*'] },
      want: `grants * on clusterrolebindings.${RBAC} ${writes}`,
    },
    EveryRbacResource: {
      reason: '* resources of the RBAC group include roles, named first.',
      rule: { apiGroups: [RBAC], resources: ['*'], verbs: ['patch'] },
      want: `grants patch on roles.${RBAC} ${writes}`,
    },
    ReadingIsNotWriting: {
      reason: 'get, list, watch and delete write no rules.',
      rule: {
        apiGroups: [RBAC],
        resources: ['roles', 'rolebindings'],
        verbs: ['get', 'list', 'watch', 'delete'],
      },
      want: undefined,
    },
    AnotherGroup: {
      reason: 'rolebindings of another group are not RBAC objects.',
      rule: { apiGroups: ['example.org'], resources: ['rolebindings'], verbs: ['create'] },
      want: undefined,
    },
    OtherRbacResource: {
      reason: 'Only roles and bindings of the RBAC group hold grants.',
      rule: { apiGroups: [RBAC], resources: ['other'], verbs: ['create'] },
      want: undefined,
    },
    NoGroups: {
      reason: 'A rule without apiGroups matches no resource.',
      rule: { resources: ['roles'], verbs: ['create'] },
      want: undefined,
    },
  };
  it.each(Object.entries(cases))('%s', (_n, c) => {
    expect(privilegedOnBehalfReason(c.rule), c.reason).toBe(c.want);
  });
});
