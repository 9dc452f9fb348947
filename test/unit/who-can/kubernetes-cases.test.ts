/**
 * who-can against Kubernetes' own decisions, as data: TestAuthorizer of plugin/pkg/auth/authorizer/rbac/rbac_test.go
 * (test/fixtures/kubernetes/authorizer-cases.yaml) and TestAppliesTo of pkg/registry/rbac/validation/rule_test.go
 * (rule-resolver.yaml). For every request upstream says is allowed, who-can must list a subject that names the user
 * (User by name, Group by membership); for every request upstream denies, it must list none. Deciding whether a
 * listed subject names the user is done here, not with the product's subject matcher.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { subjectAppliesTo } from '../../../src/authz/subjects.js';
import type { ClusterRole, ClusterRoleBinding, RoleBinding, Subject } from '../../../src/kube/types.js';
import { whoCan } from '../../../src/who-can/who-can.js';
import type { Grantee } from '../../../src/who-can/who-can.js';
import { fixturePath } from '../../support/fixtures.js';

interface Request {
  user: string;
  groups: string[];
  verb: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  apiGroup?: string;
  path?: string;
}

interface AuthorizerCase {
  clusterRoles?: { name: string; rules: ClusterRole['rules'] }[];
  roleBindings?: { namespace: string; roleRef: { kind: string; name: string }; subjects: Subject[] }[];
  clusterRoleBindings?: { roleRef: { kind: string; name: string }; subjects: Subject[] }[];
  shouldPass: Request[];
  shouldFail: Request[];
}

function table(file: string): any {
  return YAML.parse(readFileSync(fixturePath('kubernetes', file), 'utf8'));
}

function snapshotOf(c: AuthorizerCase) {
  const clusterRoles = (c.clusterRoles ?? []).map((r): ClusterRole => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: r.name },
    rules: r.rules ?? [],
  }));
  const roleBindings = (c.roleBindings ?? []).map((b, i): RoleBinding => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: `rb${String(i)}`, namespace: b.namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...b.roleRef },
    subjects: b.subjects,
  }));
  const clusterRoleBindings = (c.clusterRoleBindings ?? []).map((b, i): ClusterRoleBinding => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: `crb${String(i)}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...b.roleRef },
    subjects: b.subjects,
  }));
  return { clusterRoles, roleBindings, clusterRoleBindings, roles: [] };
}

/** Whether a listed subject names the user: written here from RBAC's documented subject semantics. */
function names(s: Grantee, user: string, groups: readonly string[]): boolean {
  if (s.kind === 'User') return s.name === user;
  if (s.kind === 'Group') return groups.includes(s.name);
  if (s.kind === 'ServiceAccount') return `system:serviceaccount:${s.namespace ?? ''}:${s.name}` === user;
  return false;
}

describe('who-can agrees with TestAuthorizer (rbac_test.go)', () => {
  const { cases } = table('authorizer-cases.yaml') as { cases: AuthorizerCase[] };
  it.each(cases.map((c, i): [number, AuthorizerCase] => [i, c]))('case %i', (_i, c) => {
    const snapshot = snapshotOf(c);
    const decide = (r: Request): boolean => {
      const namespace = r.namespace ?? '';
      const result = whoCan(
        {
          verb: r.verb,
          resource:
            r.path !== undefined
              ? { group: '', resource: '', namespaced: false, kind: '', source: 'builtin', path: r.path }
              : {
                  group: r.apiGroup ?? '',
                  resource: r.resource ?? '',
                  ...(r.subresource !== undefined && r.subresource !== ''
                    ? { subresource: r.subresource }
                    : {}),
                  namespaced: namespace !== '',
                  kind: '',
                  source: 'builtin',
                },
          namespace,
        },
        snapshot,
      );
      // system:masters is always listed; upstream's users are not in it.
      expect(result.subjects[0]).toMatchObject({ kind: 'Group', name: 'system:masters', always: true });
      return result.subjects.slice(1).some((s) => names(s, r.user, r.groups));
    };
    for (const r of c.shouldPass) expect(decide(r), `incorrectly restricted ${JSON.stringify(r)}`).toBe(true);
    for (const r of c.shouldFail) expect(decide(r), `incorrectly passed ${JSON.stringify(r)}`).toBe(false);
  });
});

describe('subjectAppliesTo agrees with TestAppliesTo (rule_test.go)', () => {
  interface AppliesToCase {
    testCase: string;
    subjects: Subject[];
    user: { name: string; groups: string[] };
    namespace: string;
    index: number;
  }
  const { appliesTo } = table('rule-resolver.yaml') as { appliesTo: AppliesToCase[] };
  it.each(appliesTo.map((c): [string, AppliesToCase] => [c.testCase, c]))('%s', (_name, c) => {
    const index = c.subjects.findIndex((s) => subjectAppliesTo(s, c.user, c.namespace));
    expect(index).toBe(c.index);
  });
});
