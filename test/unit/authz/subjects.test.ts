// Which subjects of a binding name a user, as the RBAC authorizer's appliesToUser
// (kubernetes/kubernetes pkg/registry/rbac/validation/rule.go): a User by name, a Group by the user's groups, a
// ServiceAccount by system:serviceaccount:<namespace>:<name>, its namespace defaulted to the binding's (none in a
// ClusterRoleBinding: then it names nobody); any other kind names nobody. A service account's token carries the
// groups system:serviceaccounts, system:serviceaccounts:<namespace> and system:authenticated
// (k8s.io/apiserver/pkg/authentication/serviceaccount MakeGroupNames, plus the authenticated group).
import { describe, expect, it } from 'vitest';
import {
  matchingSubjects,
  normaliseSubject,
  serviceAccountUser,
  subjectAppliesTo,
  type UserInfo,
} from '../../../src/authz/subjects.js';
import type { RoleBinding, Subject } from '../../../src/kube/types.js';

const alice: UserInfo = { name: 'alice', groups: ['devs', 'system:authenticated'] };
const sa: UserInfo = {
  name: 'system:serviceaccount:team:robot',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
};

describe('serviceAccountUser', () => {
  it('NameAndGroups', () => {
    expect(serviceAccountUser('team', 'robot')).toStrictEqual(sa);
  });
});

describe('subjectAppliesTo', () => {
  const cases: Record<string, { s: Subject; user: UserInfo; ns: string; want: boolean }> = {
    UserByName: { s: { kind: 'User', name: 'alice' }, user: alice, ns: '', want: true },
    OtherUser: { s: { kind: 'User', name: 'bob' }, user: alice, ns: '', want: false },
    GroupOfTheUser: { s: { kind: 'Group', name: 'devs' }, user: alice, ns: '', want: true },
    OtherGroup: { s: { kind: 'Group', name: 'ops' }, user: alice, ns: '', want: false },
    GroupIsNotAUserName: { s: { kind: 'Group', name: 'alice' }, user: alice, ns: '', want: false },
    ServiceAccountWithNamespace: {
      s: { kind: 'ServiceAccount', name: 'robot', namespace: 'team' },
      user: sa,
      ns: '',
      want: true,
    },
    ServiceAccountOtherNamespace: {
      s: { kind: 'ServiceAccount', name: 'robot', namespace: 'other' },
      user: sa,
      ns: 'team',
      want: false,
    },
    ServiceAccountNamespaceFromTheBinding: {
      s: { kind: 'ServiceAccount', name: 'robot' },
      user: sa,
      ns: 'team',
      want: true,
    },
    ServiceAccountEmptyNamespaceFromTheBinding: {
      s: { kind: 'ServiceAccount', name: 'robot', namespace: '' },
      user: sa,
      ns: 'team',
      want: true,
    },
    ServiceAccountInAClusterRoleBinding: {
      s: { kind: 'ServiceAccount', name: 'robot' },
      user: { ...sa, name: 'system:serviceaccount::robot' },
      ns: '',
      want: false,
    },
    ServiceAccountOtherName: {
      s: { kind: 'ServiceAccount', name: 'other', namespace: 'team' },
      user: sa,
      ns: '',
      want: false,
    },
    UnknownKind: {
      s: { kind: 'Robot', name: 'alice' },
      user: alice,
      ns: '',
      want: false,
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(subjectAppliesTo(tc.s, tc.user, tc.ns)).toBe(tc.want);
  });
});

describe('matchingSubjects', () => {
  const rb = (kind: 'RoleBinding' | 'ClusterRoleBinding', subjects?: Subject[]): RoleBinding =>
    ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind,
      metadata: { name: 'b', ...(kind === 'RoleBinding' ? { namespace: 'team' } : {}) },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
      ...(subjects !== undefined ? { subjects } : {}),
    }) as RoleBinding;
  const robot: Subject = { kind: 'ServiceAccount', name: 'robot' };
  it('RoleBindingLendsItsNamespace', () => {
    expect(matchingSubjects(rb('RoleBinding', [robot, { kind: 'User', name: 'x' }]), sa)).toStrictEqual([
      robot,
    ]);
  });
  it('ClusterRoleBindingLendsNone', () => {
    expect(matchingSubjects(rb('ClusterRoleBinding', [robot]), sa)).toStrictEqual([]);
  });
  it('ClusterRoleBindingLendsNoneEvenWithAStrayNamespace', () => {
    // VisitRulesFor checks a ClusterRoleBinding's subjects with namespace "", whatever its metadata says.
    const b = rb('ClusterRoleBinding', [robot]);
    const stray = { ...b, kind: 'ClusterRoleBinding', metadata: { name: 'b', namespace: 'team' } } as const;
    expect(matchingSubjects(stray, sa)).toStrictEqual([]);
  });
  it('RoleBindingWithoutNamespaceLendsNone', () => {
    const b = rb('RoleBinding', [robot]);
    expect(matchingSubjects({ ...b, metadata: { name: 'b' } }, sa)).toStrictEqual([]);
  });
  it('NoSubjects', () => {
    expect(matchingSubjects(rb('RoleBinding'), sa)).toStrictEqual([]);
  });
});

describe('normaliseSubject', () => {
  it('ServiceAccountGetsTheBindingNamespace', () => {
    expect(normaliseSubject({ kind: 'ServiceAccount', name: 'robot' }, 'team')).toStrictEqual({
      kind: 'ServiceAccount',
      name: 'robot',
      namespace: 'team',
    });
    expect(normaliseSubject({ kind: 'ServiceAccount', name: 'robot', namespace: '' }, 'team')).toStrictEqual({
      kind: 'ServiceAccount',
      name: 'robot',
      namespace: 'team',
    });
    expect(
      normaliseSubject({ kind: 'ServiceAccount', name: 'robot', namespace: 'own' }, 'team'),
    ).toStrictEqual({
      kind: 'ServiceAccount',
      name: 'robot',
      namespace: 'own',
    });
  });
  it('OthersLoseApiGroupAndNamespace', () => {
    expect(
      normaliseSubject(
        { kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io', namespace: 'x' },
        'team',
      ),
    ).toStrictEqual({ kind: 'User', name: 'alice' });
  });
});
