// A user name of the form system:serviceaccount:NAMESPACE:NAME is a ServiceAccount to the API server: asked as that
// user (kubectl auth can-i --as, kubectl --as), its impersonation filter makes it the ServiceAccount and adds the
// groups every such account has (system:serviceaccounts, system:serviceaccounts:NAMESPACE, system:authenticated):
// kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go
// (buildImpersonationRequests: serviceaccount.SplitUsername; WithImpersonation: "we know the groups because its a
// fixed mapping"). So `explain --subject User:system:serviceaccount:team:robot` must count what those groups are bound
// to, or it reports less than the account holds. A name SplitUsername refuses stays a plain User.
import { describe, expect, it } from 'vitest';
import { explainSubject } from '../../../src/explain/explain-subject.js';
import { parseSubject } from '../../../src/kube/parse-subject.js';
import type { ClusterRole, ClusterRoleBinding } from '../../../src/kube/types.js';

const RBAC = 'rbac.authorization.k8s.io';
const PODS = { group: '', resource: 'pods', namespaced: true, kind: 'Pod', source: 'builtin' as const };
const reader: ClusterRole = {
  apiVersion: `${RBAC}/v1`,
  kind: 'ClusterRole',
  metadata: { name: 'pod-reader' },
  rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
};
const toGroup = (group: string): ClusterRoleBinding => ({
  apiVersion: `${RBAC}/v1`,
  kind: 'ClusterRoleBinding',
  metadata: { name: 'team-accounts' },
  roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'pod-reader' },
  subjects: [{ kind: 'Group', apiGroup: RBAC, name: group }],
});

function allowed(subject: string, group: string): boolean | undefined {
  const snapshot = {
    clusterRoles: [reader],
    clusterRoleBindings: [toGroup(group)],
    roleBindings: [],
    roles: [],
    namespaces: [],
  };
  return explainSubject(parseSubject(subject), [], 'team', snapshot, { verb: 'get', resource: PODS }).access
    ?.allowed;
}

describe('explain --subject User:system:serviceaccount:NS:NAME', () => {
  it.each(['system:serviceaccounts', 'system:serviceaccounts:team'])(
    'holds what %s is bound to, as the ServiceAccount does',
    (group) => {
      expect(allowed('ServiceAccount:team/robot', group)).toBe(true);
      expect(allowed('User:system:serviceaccount:team:robot', group)).toBe(true);
    },
  );

  it("holds nothing of another namespace's accounts group", () => {
    expect(allowed('User:system:serviceaccount:team:robot', 'system:serviceaccounts:other')).toBe(false);
  });

  it('stays a plain User when the name is no ServiceAccount username (SplitUsername refuses it)', () => {
    for (const name of [
      'system:serviceaccount:team',
      'system:serviceaccount:Team:robot',
      'system:serviceaccount:a:b:c',
    ])
      expect(allowed(`User:${name}`, 'system:serviceaccounts')).toBe(false);
  });
});
