import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import {
  roleRefsOfRootSync,
  rootSyncServiceAccount,
  rootSyncTarget,
  rootSyncWarnings,
} from '../../../src/bind/config-sync.js';
import {
  fnv1a32,
  inventorySelector,
  isConfigSyncBinding,
  isOurBinding,
  labelValue,
} from '../../../src/bind/inventory.js';
import { findClusterAdminBindings, renderBindings } from '../../../src/bind/render.js';
import {
  BindInputError,
  normalizeRoleRefs,
  parseRoleRefFlag,
  parseRoleRefsDocument,
  parseServiceAccountFlag,
  type RoleRefSpec,
} from '../../../src/bind/role-refs.js';
import type { Binding, BindTarget } from '../../../src/bind/target.js';
import type { ClusterRoleBinding, KubeObject, RoleBinding } from '../../../src/kube/types.js';
import { fixturePath } from '../../support/fixtures.js';

const configSyncFixture = fixturePath('real', 'configsync.yaml');

const CITE_ENUM =
  'GoogleContainerTools/kpt-config-sync pkg/api/configsync/v1beta1/resource_override.go@bd5fadf7ec196a27a637179d0c5f757e3ee49db6';
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const syncA = rootSyncTarget('sync-a');
const saTarget: BindTarget = {
  kind: 'ServiceAccount',
  serviceAccount: { namespace: 'flux-system', name: 'kustomize-controller' },
};
const syncASubject = {
  kind: 'ServiceAccount',
  name: 'root-reconciler-sync-a',
  namespace: 'config-management-system',
};
// Config Sync's ManagedObjectLabelMap (GoogleContainerTools/kpt-config-sync
// pkg/reconcilermanager/controllers/reconciler_base.go@bd5fadf7ec196a27a637179d0c5f757e3ee49db6) plus the plugin's
// managed-by.
const syncALabels = {
  'configsync.gke.io/sync-kind': 'RootSync',
  'configsync.gke.io/sync-name': 'sync-a',
  'configsync.gke.io/sync-namespace': 'config-management-system',
  'configsync.gke.io/managed-by': 'reconciler-manager',
  'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
};

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

function split(bs: readonly Binding[]): {
  clusterRoleBindings: ClusterRoleBinding[];
  roleBindings: RoleBinding[];
} {
  return {
    clusterRoleBindings: bs.filter((b): b is ClusterRoleBinding => b.kind === 'ClusterRoleBinding'),
    roleBindings: bs.filter((b): b is RoleBinding => b.kind === 'RoleBinding'),
  };
}

describe('parseRoleRefFlag', () => {
  const ok: Record<string, { reason: string; in: string; want: RoleRefSpec }> = {
    ClusterRole: {
      reason: 'the plain form binds a ClusterRole cluster-wide',
      in: 'ClusterRole/crossplane-edit',
      want: { kind: 'ClusterRole', name: 'crossplane-edit' },
    },
    ClusterRoleInNamespace: {
      reason: '@NS binds a ClusterRole in one namespace',
      in: 'ClusterRole/edit@team-a',
      want: { kind: 'ClusterRole', name: 'edit', namespace: 'team-a' },
    },
    Role: {
      reason: 'a Role is given with its namespace',
      in: 'Role/deployer@team-a',
      want: { kind: 'Role', name: 'deployer', namespace: 'team-a' },
    },
    ColonInName: {
      reason: 'role names may contain colons, as Crossplane and Config Sync roles do',
      in: 'ClusterRole/configsync.gke.io:root-reconciler',
      want: { kind: 'ClusterRole', name: 'configsync.gke.io:root-reconciler' },
    },
  };
  it.each(Object.entries(ok))('%s', (_name, tc) => {
    expect(parseRoleRefFlag(tc.in), tc.reason).toStrictEqual(tc.want);
  });

  const bad: Record<string, { reason: string; in: string }> = {
    NoKind: { reason: 'a bare name is ambiguous', in: 'crossplane-edit' },
    UnknownKind: { reason: 'only ClusterRole and Role can be bound', in: 'Group/admins' },
    RoleWithoutNamespace: { reason: 'a Role lives in a namespace', in: 'Role/deployer' },
    EmptyName: { reason: 'a name is required', in: 'ClusterRole/' },
    BadNamespace: { reason: 'namespaces are DNS labels', in: 'ClusterRole/edit@Team_A' },
    EmptyNamespace: { reason: '@ with nothing after it is a typo', in: 'ClusterRole/edit@' },
    TwoSlashes: { reason: 'role names cannot contain a slash', in: 'ClusterRole/a/b' },
    KindLowerCase: {
      reason: `the kind is case-sensitive, as the RootSync CRD's enum (Enum=Role;ClusterRole in ${CITE_ENUM})`,
      in: 'clusterrole/view',
    },
    RoleUpperCase: { reason: 'the kind is case-sensitive for Role too', in: 'ROLE/x@ns' },
  };
  it.each(Object.entries(bad))('%s', (_name, tc) => {
    const err = thrown(() => parseRoleRefFlag(tc.in));
    expect(err, tc.reason).toBeInstanceOf(BindInputError);
    expect((err as Error).message, 'the error shows the accepted forms').toContain(
      'ClusterRole/NAME, ClusterRole/NAME@NAMESPACE or Role/NAME@NAMESPACE',
    );
  });

  it('AWrongCaseKindNamesTheRightSpelling', () => {
    expect((thrown(() => parseRoleRefFlag('clusterrole/view')) as Error).message).toMatch(
      /kind "clusterrole" must be spelt ClusterRole \(kinds are case-sensitive/,
    );
    expect((thrown(() => parseRoleRefFlag('role/x@ns')) as Error).message).toMatch(/must be spelt Role/);
  });
});

describe('parseServiceAccountFlag', () => {
  it('ParsesNamespaceAndName', () => {
    expect(parseServiceAccountFlag('flux-system/kustomize-controller')).toStrictEqual({
      namespace: 'flux-system',
      name: 'kustomize-controller',
    });
  });
  it.each(['kustomize-controller', 'a/b/c', '/x', 'ns/'])('RejectsMalformed %s', (s) => {
    expect(thrown(() => parseServiceAccountFlag(s))).toBeInstanceOf(BindInputError);
  });
});

describe('parseRoleRefsDocument', () => {
  it('ParsesAList', () => {
    const doc = [
      { kind: 'ClusterRole', name: 'a' },
      { kind: 'ClusterRole', name: 'b', namespace: 'ns1' },
      { kind: 'Role', name: 'c', namespace: 'ns2' },
      { kind: 'ClusterRole', name: 'd', namespace: '' },
    ];
    expect(parseRoleRefsDocument(doc, 'refs.yaml')).toStrictEqual([
      { kind: 'ClusterRole', name: 'a' },
      { kind: 'ClusterRole', name: 'b', namespace: 'ns1' },
      { kind: 'Role', name: 'c', namespace: 'ns2' },
      { kind: 'ClusterRole', name: 'd' },
    ]);
  });
  it('AcceptsARoleRefsKey', () => {
    expect(parseRoleRefsDocument({ roleRefs: [{ kind: 'ClusterRole', name: 'a' }] }, 'f')).toStrictEqual([
      { kind: 'ClusterRole', name: 'a' },
    ]);
  });
  const bad: Record<string, { reason: string; doc: unknown; want: RegExp }> = {
    NotAList: {
      reason: 'a mapping of something else is no roleRefs list',
      doc: { kind: 'ClusterRole' },
      want: /refs\.yaml: expected a list/,
    },
    BadKindAtIndex: {
      reason: 'errors name the entry index',
      doc: [
        { kind: 'ClusterRole', name: 'a' },
        { kind: 'User', name: 'b' },
      ],
      want: /refs\.yaml: entry 1: kind must be ClusterRole or Role/,
    },
    MissingName: {
      reason: 'a name is required',
      doc: [{ kind: 'ClusterRole' }],
      want: /entry 0: name must be a string/,
    },
    LowerCaseKind: {
      reason: `kind is an enum of exactly Role and ClusterRole (${CITE_ENUM})`,
      doc: [{ kind: 'clusterrole', name: 'a' }],
      want: /entry 0: kind "clusterrole" must be spelt ClusterRole/,
    },
    UnknownField: {
      reason: 'a misspelt field is reported, not ignored',
      doc: [{ kind: 'Role', name: 'a', namespaces: 'x' }],
      want: /entry 0: unknown field "namespaces"/,
    },
    ScalarEntry: {
      reason: 'each entry is a mapping',
      doc: ['ClusterRole/a'],
      want: /entry 0: expected a mapping/,
    },
  };
  it.each(Object.entries(bad))('%s', (_name, tc) => {
    const err = thrown(() => parseRoleRefsDocument(tc.doc, 'refs.yaml'));
    expect(err, tc.reason).toBeInstanceOf(BindInputError);
    expect((err as Error).message, tc.reason).toMatch(tc.want);
  });
});

describe('roleRefsOfRootSync', () => {
  const rootSync = (spec: unknown): KubeObject => ({
    apiVersion: 'configsync.gke.io/v1beta1',
    kind: 'RootSync',
    metadata: { name: 'sync-a', namespace: 'config-management-system' },
    spec,
  });
  it('ReadsSpecOverrideRoleRefs', () => {
    expect(
      roleRefsOfRootSync(rootSync({ override: { roleRefs: [{ kind: 'ClusterRole', name: 'x' }] } })),
    ).toStrictEqual([{ kind: 'ClusterRole', name: 'x' }]);
  });
  // Config Sync reads only spec.override (RootSyncSpec.Override, `json:"override,omitempty"` in
  // GoogleContainerTools/kpt-config-sync pkg/api/configsync/v1beta1/rootsync_types.go@bd5fadf7ec196a27a637179d0c5f757e3ee49db6):
  // spec.overrides is no field, the API server prunes it, and Config Sync then binds cluster-admin.
  it('SpecOverridesIsIgnoredWithAWarningNamingTheRightField', () => {
    const wrong = rootSync({ overrides: { roleRefs: [{ kind: 'Role', name: 'y', namespace: 'n' }] } });
    expect(roleRefsOfRootSync(wrong)).toStrictEqual([]);
    const warnings = rootSyncWarnings(wrong);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/spec\.overrides is not a RootSync field and is ignored/);
    expect(warnings[0]).toContain('spec.override.roleRefs');
    const both = rootSync({
      override: { roleRefs: [{ kind: 'ClusterRole', name: 'x' }] },
      overrides: { roleRefs: [{ kind: 'ClusterRole', name: 'y' }] },
    });
    expect(roleRefsOfRootSync(both), 'only spec.override counts').toStrictEqual([
      { kind: 'ClusterRole', name: 'x' },
    ]);
    expect(rootSyncWarnings(both)).toHaveLength(1);
    expect(rootSyncWarnings(rootSync({ override: {} }))).toStrictEqual([]);
  });
  it('KindIsCaseSensitive', () => {
    const err = thrown(() =>
      roleRefsOfRootSync(rootSync({ override: { roleRefs: [{ kind: 'clusterrole', name: 'x' }] } })),
    );
    expect(err, 'the CRD enum is Role;ClusterRole, exactly').toBeInstanceOf(BindInputError);
    expect((err as Error).message).toContain(
      'spec.override.roleRefs[0]: kind "clusterrole" must be spelt ClusterRole',
    );
  });
  it('EmptyWithoutRoleRefs', () => {
    expect(
      roleRefsOfRootSync(rootSync({ sourceFormat: 'unstructured', override: { reconcileTimeout: '5m' } })),
    ).toStrictEqual([]);
  });
  it('ErrorsNameTheField', () => {
    const err = thrown(() =>
      roleRefsOfRootSync(
        rootSync({ override: { roleRefs: [{ kind: 'ClusterRole', name: 'a' }, { name: 'b' }] } }),
      ),
    );
    expect(err).toBeInstanceOf(BindInputError);
    expect((err as Error).message).toContain(
      'RootSync config-management-system/sync-a: spec.override.roleRefs[1]',
    );
  });
  it('ReadsTheRealFixtures', () => {
    const docs = parseAllDocuments(readFileSync(configSyncFixture, 'utf8')).map(
      (d) => d.toJS() as KubeObject | null,
    );
    const syncs = docs.filter((d): d is KubeObject => d?.kind === 'RootSync');
    const byName = new Map(syncs.map((s) => [s.metadata.name, s]));
    // TestRootSyncRoleRefs' list, in the test's order.
    expect(roleRefsOfRootSync(byName.get('sync-a')!)).toStrictEqual([
      { kind: 'Role', name: 'foo-role', namespace: 'foo' },
      { kind: 'ClusterRole', name: 'foo-role' },
      { kind: 'ClusterRole', name: 'bar-role' },
      { kind: 'ClusterRole', name: 'foo-role', namespace: 'foo' },
    ]);
    expect(
      roleRefsOfRootSync(byName.get('my-root-sync')!),
      "the design doc's spec.overrides is no field: nothing is read from it",
    ).toStrictEqual([]);
    expect(rootSyncWarnings(byName.get('my-root-sync')!)).toHaveLength(1);
    expect(
      roleRefsOfRootSync(byName.get('root-sync')!),
      'no roleRefs: Config Sync would bind cluster-admin',
    ).toStrictEqual([]);
  });
});

describe('normalizeRoleRefs', () => {
  it('RoleWithoutNamespaceIsAnError', () => {
    const err = thrown(() => normalizeRoleRefs([{ kind: 'Role', name: 'deployer' }]));
    expect(err).toBeInstanceOf(BindInputError);
    expect((err as Error).message).toContain('spec.override.roleRefs.namespace');
  });
  it('DuplicatesAreMerged', () => {
    expect(
      normalizeRoleRefs([
        { kind: 'ClusterRole', name: 'a' },
        { kind: 'ClusterRole', name: 'a' },
        { kind: 'ClusterRole', name: 'a', namespace: '' },
      ]),
    ).toStrictEqual([{ kind: 'ClusterRole', name: 'a' }]);
  });
  it('RoleAndClusterRoleOfTheSameNameAreDifferent', () => {
    expect(
      normalizeRoleRefs([
        { kind: 'Role', name: 'foo-role', namespace: 'foo' },
        { kind: 'ClusterRole', name: 'foo-role', namespace: 'foo' },
        { kind: 'ClusterRole', name: 'foo-role' },
      ]),
    ).toHaveLength(3);
  });
  it('StableSortedOrder', () => {
    const refs: RoleRefSpec[] = [
      { kind: 'Role', name: 'r', namespace: 'b' },
      { kind: 'ClusterRole', name: 'z' },
      { kind: 'ClusterRole', name: 'e', namespace: 'a' },
      { kind: 'ClusterRole', name: 'a' },
    ];
    const want = [
      { kind: 'ClusterRole', name: 'a' },
      { kind: 'ClusterRole', name: 'z' },
      { kind: 'ClusterRole', name: 'e', namespace: 'a' },
      { kind: 'Role', name: 'r', namespace: 'b' },
    ];
    expect(normalizeRoleRefs(refs)).toStrictEqual(want);
    expect(normalizeRoleRefs([...refs].reverse())).toStrictEqual(want);
  });
});

describe('rootSyncServiceAccount', () => {
  const cases: Record<string, { reason: string; name: string; want: string }> = {
    RootSync: {
      reason: 'the default RootSync runs as root-reconciler (core.RootReconcilerName)',
      name: 'root-sync',
      want: 'root-reconciler',
    },
    OtherRootSync: {
      reason: 'any other RootSync gets a suffix',
      name: 'sync-a',
      want: 'root-reconciler-sync-a',
    },
    RootSyncLikeName: {
      reason: 'only the exact name root-sync is special',
      name: 'root-sync-2',
      want: 'root-reconciler-root-sync-2',
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(rootSyncServiceAccount(tc.name), tc.reason).toStrictEqual({
      namespace: 'config-management-system',
      name: tc.want,
    });
  });
});

describe('renderBindings', () => {
  // Config Sync's createRBACBinding: no namespace -> ClusterRoleBinding; namespace -> RoleBinding there, roleRef kept.
  const cases: Record<
    string,
    { reason: string; ref: RoleRefSpec; kind: string; namespace: string | undefined }
  > = {
    ClusterRoleToClusterRoleBinding: {
      reason: 'a ClusterRole without namespace is bound cluster-wide',
      ref: { kind: 'ClusterRole', name: 'foo-role' },
      kind: 'ClusterRoleBinding',
      namespace: undefined,
    },
    ClusterRoleWithNamespaceToRoleBinding: {
      reason: 'a ClusterRole with a namespace is bound in that namespace only',
      ref: { kind: 'ClusterRole', name: 'foo-role', namespace: 'foo' },
      kind: 'RoleBinding',
      namespace: 'foo',
    },
    RoleToRoleBinding: {
      reason: 'a Role is bound in its namespace',
      ref: { kind: 'Role', name: 'foo-role', namespace: 'foo' },
      kind: 'RoleBinding',
      namespace: 'foo',
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    const [b, ...rest] = renderBindings(syncA, [tc.ref]);
    expect(rest, tc.reason).toHaveLength(0);
    expect(b?.kind, tc.reason).toBe(tc.kind);
    expect(b?.apiVersion, tc.reason).toBe('rbac.authorization.k8s.io/v1');
    expect(b?.metadata.namespace, tc.reason).toBe(tc.namespace);
    expect(b?.roleRef, tc.reason).toStrictEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: tc.ref.kind,
      name: tc.ref.name,
    });
    expect(b?.subjects, 'subjects are exactly the one ServiceAccount').toStrictEqual([syncASubject]);
    expect(b?.metadata.labels, 'inventory labels').toStrictEqual(syncALabels);
  });

  it('RoleAndClusterRoleOfTheSameNameGetDifferentBindings', () => {
    const bs = renderBindings(syncA, [
      { kind: 'Role', name: 'foo-role', namespace: 'foo' },
      { kind: 'ClusterRole', name: 'foo-role', namespace: 'foo' },
    ]);
    expect(bs).toHaveLength(2);
    expect(new Set(bs.map((b) => b.metadata.name)).size).toBe(2);
  });

  it('PlainServiceAccountLabels', () => {
    const [b] = renderBindings(saTarget, [{ kind: 'ClusterRole', name: 'view' }]);
    expect(b?.metadata.labels).toStrictEqual({
      'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
      'kubectl-crossplane-rbac/service-account-namespace': 'flux-system',
      'kubectl-crossplane-rbac/service-account-name': 'kustomize-controller',
    });
    expect(b?.subjects).toStrictEqual([
      { kind: 'ServiceAccount', name: 'kustomize-controller', namespace: 'flux-system' },
    ]);
  });

  it('BaseRoleAddsAClusterRoleBinding', () => {
    // For a ServiceAccount; a RootSync's base role goes through Config Sync's shared binding (config-sync-side-by-side).
    const bs = renderBindings(saTarget, [{ kind: 'Role', name: 'r', namespace: 'n' }], {
      baseRole: 'crossplane-view',
    });
    expect(bs.map((b) => [b.kind, b.roleRef.name])).toStrictEqual([
      ['ClusterRoleBinding', 'crossplane-view'],
      ['RoleBinding', 'r'],
    ]);
  });

  it('BaseRoleAlsoListedIsBoundOnce', () => {
    const bs = renderBindings(saTarget, [{ kind: 'ClusterRole', name: 'base' }], { baseRole: 'base' });
    expect(bs).toHaveLength(1);
  });

  it('DeterministicUnderShuffle', () => {
    const refs: RoleRefSpec[] = [
      { kind: 'Role', name: 'foo-role', namespace: 'foo' },
      { kind: 'ClusterRole', name: 'foo-role' },
      { kind: 'ClusterRole', name: 'bar-role' },
      { kind: 'ClusterRole', name: 'foo-role', namespace: 'foo' },
    ];
    const a = renderBindings(syncA, refs);
    expect(renderBindings(syncA, [...refs].reverse())).toStrictEqual(a);
    expect(renderBindings(rootSyncTarget('sync-a'), [refs[2]!, refs[0]!, refs[3]!, refs[1]!])).toStrictEqual(
      a,
    );
  });

  it('NamesAreReadable', () => {
    const [b] = renderBindings(syncA, [{ kind: 'ClusterRole', name: 'Crossplane:Edit' }]);
    expect(b?.metadata.name).toMatch(/^root-reconciler-sync-a-clusterrole-crossplane-edit-[0-9a-f]{8}$/);
  });

  it('NamesKeepApartWhatTheReadablePartMerges', () => {
    const names = [
      renderBindings(syncA, [{ kind: 'ClusterRole', name: 'crossplane:edit' }])[0]?.metadata.name,
      renderBindings(syncA, [{ kind: 'ClusterRole', name: 'crossplane-edit' }])[0]?.metadata.name,
      renderBindings(syncA, [{ kind: 'ClusterRole', name: 'Crossplane-Edit' }])[0]?.metadata.name,
      renderBindings({ kind: 'ServiceAccount', serviceAccount: { namespace: 'a', name: 'sa' } }, [
        { kind: 'ClusterRole', name: 'x' },
      ])[0]?.metadata.name,
      renderBindings({ kind: 'ServiceAccount', serviceAccount: { namespace: 'b', name: 'sa' } }, [
        { kind: 'ClusterRole', name: 'x' },
      ])[0]?.metadata.name,
    ];
    expect(new Set(names).size).toBe(names.length);
  });

  it('NamesAndLabelsValidForVeryLongInputs', () => {
    const longSync = 'a'.repeat(200) + '-sync';
    const target = rootSyncTarget(longSync);
    const refs: RoleRefSpec[] = [
      { kind: 'ClusterRole', name: `${'x'.repeat(240)}:Y` },
      { kind: 'ClusterRole', name: `${'x'.repeat(240)}:Z` },
      { kind: 'Role', name: ':::', namespace: 'n'.repeat(63) },
    ];
    const bs = renderBindings(target, refs);
    expect(new Set(bs.map((b) => b.metadata.name)).size, 'long names stay distinct').toBe(3);
    for (const b of bs) {
      expect(b.metadata.name.length).toBeLessThanOrEqual(253);
      expect(b.metadata.name).toMatch(DNS_SUBDOMAIN);
      for (const v of Object.values(b.metadata.labels ?? {})) {
        expect(v.length).toBeLessThanOrEqual(63);
        expect(v).toMatch(LABEL_VALUE);
      }
    }
    expect(isOurBinding(bs[0]!, target)).toBe(true);
    expect(
      isOurBinding(bs[0]!, rootSyncTarget('a'.repeat(200) + '-synd')),
      'hashed label values still tell targets apart',
    ).toBe(false);
    const argo = {
      ...bs[0]!,
      metadata: {
        ...bs[0]!.metadata,
        ownerReferences: [
          { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', name: 'a', uid: 'u', controller: true },
        ],
      },
    };
    expect(
      isOurBinding(argo, target),
      'a binding another controller owns is not ours, whatever its labels',
    ).toBe(false);
  });
});

describe('fnv1a32 and labelValue', () => {
  it.each([
    ['', '811c9dc5'],
    ['a', 'e40c292c'],
    ['foobar', 'bf9cf968'],
  ])('FnvTestVector %j', (s, want) => {
    expect(fnv1a32(s)).toBe(want);
  });
  it('ValidValuesKept', () => {
    expect(labelValue('sync-a')).toBe('sync-a');
  });
  it('LongValuesShortened', () => {
    const v = labelValue('-' + 'b'.repeat(100));
    expect(v.length).toBeLessThanOrEqual(63);
    expect(v).toMatch(LABEL_VALUE);
  });
});

describe('inventorySelector and isOurBinding', () => {
  it('RootSyncSelector', () => {
    expect(inventorySelector(syncA)).toBe(
      'app.kubernetes.io/managed-by=kubectl-crossplane-rbac,configsync.gke.io/managed-by=reconciler-manager,' +
        'configsync.gke.io/sync-kind=RootSync,configsync.gke.io/sync-name=sync-a,configsync.gke.io/sync-namespace=config-management-system',
    );
  });
  it('ServiceAccountSelector', () => {
    expect(inventorySelector(saTarget)).toBe(
      'app.kubernetes.io/managed-by=kubectl-crossplane-rbac,kubectl-crossplane-rbac/service-account-name=kustomize-controller,' +
        'kubectl-crossplane-rbac/service-account-namespace=flux-system',
    );
  });
  it('ConfigSyncsOwnBindingsAreNotOurs', () => {
    const { 'app.kubernetes.io/managed-by': _ours, ...configSyncs } = syncALabels;
    const theirs = { metadata: { labels: configSyncs } };
    expect(isOurBinding(theirs, syncA), 'without our managed-by it is reconciler-managers').toBe(false);
    expect(isConfigSyncBinding(theirs, syncA)).toBe(true);
    expect(isConfigSyncBinding(theirs, rootSyncTarget('sync-b')), "another RootSync's").toBe(false);
    expect(isOurBinding({ metadata: { labels: syncALabels } }, syncA)).toBe(true);
    expect(isConfigSyncBinding({ metadata: { labels: syncALabels } }, syncA)).toBe(false);
    expect(isOurBinding({ metadata: { labels: syncALabels } }, rootSyncTarget('sync-b'))).toBe(false);
  });
  it('BindingsOfEarlierVersionsAreOurs', () => {
    const legacy = { ...syncALabels, 'configsync.gke.io/managed-by': 'kubectl-crossplane-rbac' };
    expect(isOurBinding({ metadata: { labels: legacy } }, syncA), 'relabelled on the next update').toBe(true);
    expect(isConfigSyncBinding({ metadata: { labels: legacy } }, syncA)).toBe(false);
  });
});

describe('findClusterAdminBindings', () => {
  const sa = { namespace: 'config-management-system', name: 'root-reconciler' };
  const crb = (name: string, role: string, subjects: ClusterRoleBinding['subjects']): ClusterRoleBinding => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    ...(subjects === undefined ? {} : { subjects }),
  });
  const cases: Record<string, { reason: string; binding: ClusterRoleBinding | RoleBinding; want: boolean }> =
    {
      Direct: {
        reason: "Config Sync's legacy binding names the SA",
        binding: crb('configsync.gke.io:root-reconciler', 'cluster-admin', [
          { kind: 'ServiceAccount', name: 'root-reconciler', namespace: 'config-management-system' },
        ]),
        want: true,
      },
      AllServiceAccounts: {
        reason: 'every SA is in system:serviceaccounts',
        binding: crb('g', 'cluster-admin', [
          { kind: 'Group', name: 'system:serviceaccounts', apiGroup: 'rbac.authorization.k8s.io' },
        ]),
        want: true,
      },
      NamespaceGroup: {
        reason: 'the SA is in system:serviceaccounts:<its namespace>',
        binding: crb('g', 'cluster-admin', [
          { kind: 'Group', name: 'system:serviceaccounts:config-management-system' },
        ]),
        want: true,
      },
      OtherNamespaceGroup: {
        reason: "another namespace's group does not hold it",
        binding: crb('g', 'cluster-admin', [{ kind: 'Group', name: 'system:serviceaccounts:kube-system' }]),
        want: false,
      },
      UserName: {
        reason: "a User subject with the SA's user name matches it",
        binding: crb('u', 'cluster-admin', [
          { kind: 'User', name: 'system:serviceaccount:config-management-system:root-reconciler' },
        ]),
        want: true,
      },
      OtherRole: {
        reason: 'only cluster-admin counts',
        binding: crb('v', 'view', [
          { kind: 'ServiceAccount', name: 'root-reconciler', namespace: 'config-management-system' },
        ]),
        want: false,
      },
      OtherSa: {
        reason: 'another SA of the same name elsewhere',
        binding: crb('o', 'cluster-admin', [
          { kind: 'ServiceAccount', name: 'root-reconciler', namespace: 'default' },
        ]),
        want: false,
      },
      NoSubjects: {
        reason: 'a binding without subjects grants nothing',
        binding: crb('n', 'cluster-admin', undefined),
        want: false,
      },
      RoleBindingDefaultNamespace: {
        reason: "a RoleBinding SA subject without namespace means the binding's namespace",
        binding: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: 'rb', namespace: 'config-management-system' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
          subjects: [{ kind: 'ServiceAccount', name: 'root-reconciler' }],
        },
        want: true,
      },
    };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    const found = findClusterAdminBindings(sa, split([tc.binding]));
    const want = tc.want
      ? [
          tc.binding.kind === 'RoleBinding'
            ? { kind: 'RoleBinding', name: 'rb', namespace: 'config-management-system' }
            : { kind: 'ClusterRoleBinding', name: tc.binding.metadata.name },
        ]
      : [];
    expect(found, tc.reason).toStrictEqual(want);
  });

  it('FindsConfigSyncsLegacyBindingInTheFixture', () => {
    const docs = parseAllDocuments(readFileSync(configSyncFixture, 'utf8')).map(
      (d) => d.toJS() as KubeObject | null,
    );
    const bindings = docs.filter(
      (d) => d?.kind === 'ClusterRoleBinding' || d?.kind === 'RoleBinding',
    ) as unknown as Binding[];
    expect(findClusterAdminBindings(rootSyncServiceAccount('root-sync'), split(bindings))).toStrictEqual([
      { kind: 'ClusterRoleBinding', name: 'configsync.gke.io:root-reconciler' },
    ]);
    expect(findClusterAdminBindings(rootSyncServiceAccount('sync-a'), split(bindings))).toStrictEqual([]);
  });
});
