// One object planned again after a write raced another writer: the fresh live object decides between update,
// recreate (a binding whose roleRef changed: roleRef is immutable), nothing, and leaving it alone.
import { describe, expect, it } from 'vitest';
import type {
  ClusterRole,
  ClusterRoleBinding,
  KubeObject,
  Role,
  RoleBinding,
} from '../../../src/kube/types.js';
import type { OwnershipRule } from '../../../src/plan/ownership.js';
import { replanOne } from '../../../src/plan/replan.js';

const RBAC = 'rbac.authorization.k8s.io';
const OURS = { 'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac' };

const clusterRole = (labels: Record<string, string>, verb = 'get'): ClusterRole => ({
  apiVersion: `${RBAC}/v1`,
  kind: 'ClusterRole',
  metadata: { name: 'r', labels },
  rules: [{ apiGroups: [''], resources: ['pods'], verbs: [verb] }],
});
const role = (labels: Record<string, string>, verb = 'get'): Role => ({
  apiVersion: `${RBAC}/v1`,
  kind: 'Role',
  metadata: { name: 'r', namespace: 'ns', labels },
  rules: [{ apiGroups: [''], resources: ['pods'], verbs: [verb] }],
});
const clusterBinding = (
  labels: Record<string, string>,
  user = 'alice',
  roleName = 'r',
): ClusterRoleBinding => ({
  apiVersion: `${RBAC}/v1`,
  kind: 'ClusterRoleBinding',
  metadata: { name: 'b', labels },
  roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName },
  subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
});
const binding = (labels: Record<string, string>, user = 'alice'): RoleBinding => ({
  apiVersion: `${RBAC}/v1`,
  kind: 'RoleBinding',
  metadata: { name: 'b', namespace: 'ns', labels },
  roleRef: { apiGroup: RBAC, kind: 'Role', name: 'r' },
  subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
});
/** The live version: what the server stores, at resourceVersion 9. */
function live<T extends KubeObject>(o: T): T {
  return { ...o, metadata: { ...o.metadata, uid: 'u', resourceVersion: '9' } };
}

describe('replanOne', () => {
  const cases: Record<
    string,
    { desired: KubeObject; live: KubeObject; adopt?: boolean; want: string; reason: string }
  > = {
    ClusterRoleChanged: {
      desired: clusterRole(OURS),
      live: live(clusterRole(OURS, 'list')),
      want: 'update',
      reason: 'its rules changed meanwhile',
    },
    RoleChanged: {
      desired: role(OURS),
      live: live(role(OURS, 'list')),
      want: 'update',
      reason: 'a Role is looked up among the live Roles',
    },
    ClusterRoleBindingChanged: {
      desired: clusterBinding(OURS),
      live: live(clusterBinding(OURS, 'bob')),
      want: 'update',
      reason: 'a ClusterRoleBinding among the live ClusterRoleBindings',
    },
    RoleBindingChanged: {
      desired: binding(OURS),
      live: live(binding(OURS, 'bob')),
      want: 'update',
      reason: 'a RoleBinding among the live RoleBindings',
    },
    RoleRefChanged: {
      desired: clusterBinding(OURS),
      live: live(clusterBinding(OURS, 'alice', 'other')),
      want: 'recreate',
      reason: 'roleRef is immutable: delete and create',
    },
    Same: {
      desired: clusterRole(OURS),
      live: live(clusterRole(OURS)),
      want: 'none',
      reason: 'the other writer wrote what the plugin wants',
    },
    NotRbac: {
      desired: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } },
      live: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', resourceVersion: '9' } },
      want: 'none',
      reason: 'only RBAC objects are planned',
    },
    LiveNotRbac: {
      desired: clusterRole(OURS),
      live: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'r' } },
      want: 'none',
      reason: 'what was read back is no RBAC object',
    },
    DesiredNotRbac: {
      desired: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'r' } },
      live: live(clusterRole(OURS)),
      want: 'none',
      reason: 'what is desired is no RBAC object',
    },
    AnotherObject: {
      desired: clusterRole(OURS),
      live: live({ ...clusterRole(OURS, 'list'), metadata: { name: 'other', labels: OURS } }),
      want: 'none',
      reason: 'what was read back is not the object written: nothing to update',
    },
    DesiredOfAnotherVersion: {
      desired: { ...clusterRole(OURS), apiVersion: `${RBAC}/v1beta1` },
      live: live(clusterRole(OURS, 'list')),
      want: 'none',
      reason: 'only rbac.authorization.k8s.io/v1 objects are planned, even under the key of a live one',
    },
    TakenMeanwhile: {
      desired: clusterRole(OURS),
      live: live(clusterRole({})),
      want: 'refused',
      reason: 'someone else made it without the plugin’s label',
    },
    TakenMeanwhileAdopted: {
      desired: clusterRole(OURS),
      live: live(clusterRole({})),
      adopt: true,
      want: 'update',
      reason: '--adopt takes it over',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(replanOne(tc.desired, tc.live, tc.adopt ?? false).action, tc.reason).toBe(tc.want);
  });

  it('UpdateWritesTheDesiredObjectAtTheLiveVersion', () => {
    expect(replanOne(clusterRole(OURS), live(clusterRole(OURS, 'list')), false)).toStrictEqual({
      action: 'update',
      object: { ...clusterRole(OURS), metadata: { name: 'r', labels: OURS, resourceVersion: '9' } },
    });
  });

  it('RefusedNamesWhy', () => {
    const r = replanOne(clusterRole(OURS), live(clusterRole({})), false);
    expect(r).toStrictEqual({
      action: 'refused',
      reason:
        'exists, made by someone else (no app.kubernetes.io/managed-by=kubectl-crossplane-rbac label, no controller); the plugin would write it with app.kubernetes.io/managed-by=kubectl-crossplane-rbac (--adopt takes it over)',
    });
  });

  it('TheCallersOwnershipRule: the rule of the first plan decides again', () => {
    const refuseAll: OwnershipRule = {
      owns: () => ({ ours: false, reason: 'not bind’s' }),
      prunes: () => true,
    };
    expect(replanOne(clusterRole(OURS), live(clusterRole(OURS, 'list')), false, refuseAll)).toStrictEqual({
      action: 'refused',
      reason: 'not bind’s',
    });
    const ownAll: OwnershipRule = { owns: () => ({ ours: true, adopt: false }), prunes: () => false };
    expect(replanOne(clusterRole(OURS), live(clusterRole({}, 'list')), false, ownAll).action).toBe('update');
  });
});
