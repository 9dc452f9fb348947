// Which fields of a desired object differ from the live one, compared as Kubernetes stores them: a difference the
// API server would erase is none, and one it keeps is one.
import { describe, expect, it } from 'vitest';
import { changedFields } from '../../../src/plan/compare.js';
import type { ClusterRoleBinding, OwnerReference, Subject } from '../../../src/kube/types.js';

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
