import { describe, expect, it } from 'vitest';
import { bindAccessCheck, judgeBindPermission, type BindFacts } from '../../../src/bind/permission.js';
import { rootSyncTarget } from '../../../src/bind/config-sync.js';
import { renderBindings } from '../../../src/bind/render.js';
import type { Binding } from '../../../src/bind/target.js';
import type { PolicyRule } from '../../../src/kube/types.js';
// How the CLI words a denial (the core returns the reason): cli/warnings.ts.
import { formatBindDenial } from '../../../src/cli/warnings.js';

const target = rootSyncTarget('root-sync');
const [crb, rbClusterRole, rbRole] = renderBindings(target, [
  { kind: 'ClusterRole', name: 'view' },
  { kind: 'ClusterRole', name: 'edit', namespace: 'team-a' },
  { kind: 'Role', name: 'deployer', namespace: 'team-b' },
]) as [Binding, Binding, Binding];

const readPods: PolicyRule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] };
const readAll: PolicyRule = { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] };

describe('bindAccessCheck', () => {
  const cases: Record<
    string,
    { reason: string; binding: Binding; want: ReturnType<typeof bindAccessCheck> }
  > = {
    ClusterRoleBinding: {
      reason: 'a ClusterRoleBinding needs bind on the ClusterRole cluster-wide (no namespace)',
      binding: crb,
      want: { verb: 'bind', group: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: 'view' },
    },
    RoleBindingToClusterRole: {
      reason: "a RoleBinding's check runs in the binding's namespace, even for a ClusterRole",
      binding: rbClusterRole,
      want: {
        verb: 'bind',
        group: 'rbac.authorization.k8s.io',
        resource: 'clusterroles',
        name: 'edit',
        namespace: 'team-a',
      },
    },
    RoleBindingToRole: {
      reason: 'a Role is checked as roles in its namespace',
      binding: rbRole,
      want: {
        verb: 'bind',
        group: 'rbac.authorization.k8s.io',
        resource: 'roles',
        name: 'deployer',
        namespace: 'team-b',
      },
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(bindAccessCheck(tc.binding), tc.reason).toStrictEqual(tc.want);
  });
});

describe('judgeBindPermission', () => {
  const cases: Record<
    string,
    { reason: string; binding: Binding; facts: BindFacts; allowed: boolean; want?: RegExp }
  > = {
    BindVerbAllows: {
      reason: 'the bind verb allows binding a role the caller does not hold, even a missing one',
      binding: crb,
      facts: { mayBind: true, roleRules: undefined, callerRules: [], callerRulesIncomplete: false },
      allowed: true,
    },
    CoveredRulesAllow: {
      reason: 'holding every rule the role grants is enough without bind',
      binding: crb,
      facts: { mayBind: false, roleRules: [readPods], callerRules: [readAll], callerRulesIncomplete: false },
      allowed: true,
    },
    UncoveredRulesRefuse: {
      reason: 'a rule the caller lacks is named',
      binding: rbClusterRole,
      facts: {
        mayBind: false,
        roleRules: [{ verbs: ['delete'], apiGroups: [''], resources: ['pods'] }],
        callerRules: [readAll],
        callerRulesIncomplete: false,
      },
      allowed: false,
      want: /no bind verb on ClusterRole\/edit in namespace team-a .*missing: .*delete/,
    },
    MissingRoleRefuses: {
      reason: 'the server looks the role up when bind is absent; a missing one cannot be bound',
      binding: rbRole,
      facts: { mayBind: false, roleRules: undefined, callerRules: [readAll], callerRulesIncomplete: false },
      allowed: false,
      want: /Role\/team-b\/deployer does not exist/,
    },
    EmptyRoleIsCovered: {
      reason: 'an aggregated role still empty grants nothing, so anyone may bind it',
      binding: crb,
      facts: { mayBind: false, roleRules: [], callerRules: [], callerRulesIncomplete: false },
      allowed: true,
    },
    IncompleteReviewSaysSo: {
      reason: 'when the server could not list all rules, the refusal says so',
      binding: crb,
      facts: { mayBind: false, roleRules: [readAll], callerRules: [readPods], callerRulesIncomplete: true },
      allowed: false,
      want: /could not list all of your rules/,
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    const denial = judgeBindPermission(tc.binding, tc.facts);
    expect(denial === undefined, tc.reason).toBe(tc.allowed);
    if (tc.want !== undefined)
      expect(denial !== undefined ? formatBindDenial(denial) : undefined, tc.reason).toMatch(tc.want);
  });

  it('ManyMissingRulesAreShortened', () => {
    const rules: PolicyRule[] = ['a', 'b', 'c', 'd', 'e', 'f'].map((r) => ({
      verbs: ['get'],
      apiGroups: [''],
      resources: [r],
    }));
    const denial = judgeBindPermission(crb, {
      mayBind: false,
      roleRules: rules,
      callerRules: [],
      callerRulesIncomplete: false,
    });
    expect(denial?.reason).toMatch(/and 2 more$/);
  });
});
