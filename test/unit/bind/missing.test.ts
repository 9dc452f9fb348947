import { describe, expect, it } from 'vitest';
import {
  findTypoPrunes,
  neededKey,
  neededObjects,
  withSuggestions,
  type NeededObject,
} from '../../../src/bind/missing.js';
// How the CLI words them (the core returns the objects): cli/warnings.ts.
import { formatMissing, formatTypoPrune } from '../../../src/cli/warnings.js';
import type { Binding } from '../../../src/bind/target.js';

const RBAC = 'rbac.authorization.k8s.io';
const SA = { namespace: 'flux-system', name: 'kustomize-controller' };

/** A binding of SA: ClusterRole/NAME (a ClusterRoleBinding), or KIND/NAME@NS (a RoleBinding in NS). */
function binding(ref: string, name = `b-${ref}`): Binding {
  const m = /^(ClusterRole|Role)\/([^@]+)(?:@(.+))?$/.exec(ref);
  if (m === null) throw new Error(ref);
  const [, kind = '', role = '', ns] = m;
  const roleRef = { apiGroup: RBAC, kind, name: role };
  const subjects = [{ kind: 'ServiceAccount', ...SA }];
  return ns === undefined
    ? { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name }, roleRef, subjects }
    : { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name, namespace: ns }, roleRef, subjects };
}

describe('neededObjects', () => {
  it('NamespacesAccountRolesOnceEachInKindOrder', () => {
    const got = neededObjects(SA, [
      binding('ClusterRole/view'),
      binding('Role/deployer@team-b'),
      binding('ClusterRole/edit@team-a'),
      binding('ClusterRole/view@team-a'),
    ]).map(neededKey);
    expect(got).toStrictEqual([
      'Namespace//flux-system',
      'Namespace//team-a',
      'Namespace//team-b',
      'ServiceAccount/flux-system/kustomize-controller',
      'ClusterRole//edit',
      'ClusterRole//view',
      'Role/team-b/deployer',
    ]);
  });
});

describe('missing objects as printed', () => {
  it('NamesTheCloseOnesAndNeverItself', () => {
    const missing: NeededObject[] = [
      { kind: 'ClusterRole', name: 'crossplane-edt' },
      { kind: 'Role', name: 'deployer', namespace: 'team-c' },
    ];
    const known = (kind: string): string[] =>
      kind === 'ClusterRole' ? ['crossplane-edit', 'crossplane-view', 'crossplane-edt'] : ['reader'];
    expect(withSuggestions(missing, known).map(formatMissing)).toStrictEqual([
      'ClusterRole crossplane-edt (did you mean "crossplane-edit"?)',
      'Role team-c/deployer',
    ]);
  });
});

describe('findTypoPrunes', () => {
  const cases: {
    name: string;
    reason: string;
    granting: string[];
    deleted: string[];
    missing: NeededObject[];
    want: string[];
  }[] = [
    {
      name: 'RoleNameTypo',
      reason: 'the new list misspells the role: the binding of the role meant would be pruned',
      granting: ['ClusterRole/crossplane-edt'],
      deleted: ['ClusterRole/crossplane-edit'],
      missing: [{ kind: 'ClusterRole', name: 'crossplane-edt' }],
      want: [
        'ClusterRoleBinding b-ClusterRole/crossplane-edit would be deleted; the new list names "ClusterRole/crossplane-edt", did you mean "ClusterRole/crossplane-edit"?',
      ],
    },
    {
      name: 'NamespaceTypo',
      reason: 'the same Role in a namespace that does not exist, close to the one of the pruned binding',
      granting: ['Role/deployer@team-aa'],
      deleted: ['Role/deployer@team-a'],
      missing: [
        { kind: 'Namespace', name: 'team-aa' },
        { kind: 'Role', name: 'deployer', namespace: 'team-aa' },
      ],
      want: [
        'RoleBinding team-a/b-Role/deployer@team-a would be deleted; the new list names "Role/deployer@team-aa", did you mean "Role/deployer@team-a"?',
      ],
    },
    {
      name: 'ExistingRoleIsNoTypo',
      reason: 'a role that exists was chosen on purpose, however close its name',
      granting: ['ClusterRole/crossplane-view'],
      deleted: ['ClusterRole/crossplane-viewer'],
      missing: [],
      want: [],
    },
    {
      name: 'FarNamesAreNoTypo',
      reason: 'a missing role far from the pruned one is a replacement, not a misspelling',
      granting: ['ClusterRole/platform-deployer'],
      deleted: ['ClusterRole/crossplane-admin'],
      missing: [{ kind: 'ClusterRole', name: 'platform-deployer' }],
      want: [],
    },
    {
      name: 'OtherKindIsNoTypo',
      reason: 'a Role and a ClusterRole are different roleRefs',
      granting: ['Role/deployr@team-a'],
      deleted: ['ClusterRole/deployer@team-a'],
      missing: [{ kind: 'Role', name: 'deployr', namespace: 'team-a' }],
      want: [],
    },
    {
      name: 'OtherNamespaceIsNoTypo',
      reason: 'a role name typo counts in the same namespace only',
      granting: ['ClusterRole/edt@team-a'],
      deleted: ['ClusterRole/edit@team-b'],
      missing: [{ kind: 'ClusterRole', name: 'edt' }],
      want: [],
    },
  ];

  it.each(cases)('$name: $reason', ({ granting, deleted, missing, want }) => {
    const got = findTypoPrunes(
      granting.map((r) => binding(r)),
      deleted.map((r) => binding(r)),
      new Set(missing.map(neededKey)),
    );
    expect(got.map(formatTypoPrune)).toStrictEqual(want);
  });
});
