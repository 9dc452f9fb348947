// Which plugin-owned object belongs to which owner, by the names and labels the renderers give them (names.ts), and
// which of them a run may prune.
import { describe, expect, it } from 'vitest';
import {
  classifyOwnedObject,
  isInPruneScope,
  type PruneScope,
} from '../../../src/crossplane/owned-objects.js';

const obj = (kind: string, name: string, labels?: Record<string, string>) => ({
  kind,
  metadata: { name, ...(labels !== undefined ? { labels } : {}) },
});

describe('classifyOwnedObject', () => {
  const cases: Record<string, { o: ReturnType<typeof obj>; want: unknown }> = {
    ProviderRoleBinding: {
      o: obj('RoleBinding', 'crossplane:provider:provider-a-1:system'),
      want: { group: 'provider-bindings', provider: 'provider-a-1' },
    },
    OtherRoleBinding: { o: obj('RoleBinding', 'crossplane:provider:provider-a-1:other'), want: undefined },
    RoleBindingOtherPrefix: { o: obj('RoleBinding', 'other:provider-a-1:system'), want: undefined },
    OtherKind: { o: obj('ConfigMap', 'crossplane:aggregated'), want: undefined },
    Aggregated: { o: obj('ClusterRole', 'crossplane:aggregated'), want: { group: 'crossplane-aggregated' } },
    AggregatedBinding: {
      o: obj('ClusterRoleBinding', 'crossplane:aggregated'),
      want: { group: 'crossplane-aggregated' },
    },
    AdminBinding: { o: obj('ClusterRoleBinding', 'crossplane-admin'), want: { group: 'base-roles' } },
    OtherClusterRoleBinding: { o: obj('ClusterRoleBinding', 'crossplane-edit'), want: undefined },
    Admin: { o: obj('ClusterRole', 'crossplane-admin'), want: { group: 'base-roles' } },
    Edit: { o: obj('ClusterRole', 'crossplane-edit'), want: { group: 'base-roles' } },
    View: { o: obj('ClusterRole', 'crossplane-view'), want: { group: 'base-roles' } },
    Browse: { o: obj('ClusterRole', 'crossplane-browse'), want: { group: 'base-roles' } },
    BaseAdmin: { o: obj('ClusterRole', 'crossplane:aggregate-to-admin'), want: { group: 'base-roles' } },
    BaseEdit: { o: obj('ClusterRole', 'crossplane:aggregate-to-edit'), want: { group: 'base-roles' } },
    BaseView: { o: obj('ClusterRole', 'crossplane:aggregate-to-view'), want: { group: 'base-roles' } },
    BaseBrowse: { o: obj('ClusterRole', 'crossplane:aggregate-to-browse'), want: { group: 'base-roles' } },
    Composed: { o: obj('ClusterRole', 'crossplane:composed:s3.aws.io'), want: { group: 'composed-roles' } },
    NsBaseEdit: {
      o: obj('ClusterRole', 'crossplane:aggregate-to-ns-edit'),
      want: { group: 'namespace-roles', base: true },
    },
    NsBaseView: {
      o: obj('ClusterRole', 'crossplane:aggregate-to-ns-view'),
      want: { group: 'namespace-roles', base: true },
    },
    XrdNsEdit: {
      o: obj('ClusterRole', 'crossplane:composite:xs.a.io:aggregate-to-ns-edit'),
      want: { group: 'namespace-roles', xrd: 'xs.a.io' },
    },
    XrdNsView: {
      o: obj('ClusterRole', 'crossplane:composite:xs.a.io:aggregate-to-ns-view'),
      want: { group: 'namespace-roles', xrd: 'xs.a.io' },
    },
    XrdEdit: { o: obj('ClusterRole', 'crossplane:composite:xs.a.io:aggregate-to-edit'), want: undefined },
    NsSuffixOtherPrefix: { o: obj('ClusterRole', 'other:xs.a.io:aggregate-to-ns-edit'), want: undefined },
    NamespaceEditByLabel: {
      o: obj('ClusterRole', 'crossplane-ns-team-a-edit', {
        'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac',
        'namespace.crossplane.io/team-a': 'true',
      }),
      want: { group: 'namespace-roles', namespace: 'team-a' },
    },
    NamespaceViewByName: {
      o: obj('ClusterRole', 'crossplane-ns-team-b-view'),
      want: { group: 'namespace-roles', namespace: 'team-b' },
    },
    NamespaceOtherSuffix: { o: obj('ClusterRole', 'crossplane-ns-team-admin'), want: undefined },
    NotNamespaceRole: { o: obj('ClusterRole', 'crossplane-team-edit'), want: undefined },
    Unknown: { o: obj('ClusterRole', 'something'), want: undefined },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(classifyOwnedObject(tc.o)).toStrictEqual(tc.want);
  });
});

describe('isInPruneScope', () => {
  const all: PruneScope = {
    groups: ['provider-bindings', 'crossplane-aggregated', 'base-roles', 'namespace-roles', 'composed-roles'],
  };
  const providerBinding = obj('RoleBinding', 'crossplane:provider:p-1:system');
  const xrdRole = obj('ClusterRole', 'crossplane:composite:xs.a.io:aggregate-to-ns-edit');
  const nsBase = obj('ClusterRole', 'crossplane:aggregate-to-ns-edit');
  const nsRole = obj('ClusterRole', 'crossplane-ns-team-edit');
  const held = { providers: ['p-1'], xrds: ['xs.a.io'], namespaces: ['team'] };

  it('leaves out what it does not know and groups the run did not consider', () => {
    expect(isInPruneScope(obj('ClusterRole', 'something'), all)).toBe(false);
    expect(isInPruneScope(providerBinding, { groups: ['base-roles'] })).toBe(false);
    expect(isInPruneScope(obj('ClusterRole', 'crossplane-admin'), all)).toBe(true);
  });

  it('never prunes what a held owner owns', () => {
    expect(isInPruneScope(providerBinding, { ...all, held })).toBe(false);
    expect(isInPruneScope(xrdRole, { ...all, held })).toBe(false);
    expect(isInPruneScope(nsRole, { ...all, held })).toBe(false);
    const other = { providers: ['p-2'], xrds: ['ys.a.io'], namespaces: ['other'] };
    expect([providerBinding, xrdRole, nsRole].map((o) => isInPruneScope(o, { ...all, held: other }))).toEqual(
      [true, true, true],
    );
  });

  it('keeps to the revisions, XRDs and namespaces the run names', () => {
    expect(isInPruneScope(providerBinding, { ...all, providers: ['p-1'] })).toBe(true);
    expect(isInPruneScope(providerBinding, { ...all, providers: ['p-2'] })).toBe(false);
    expect(isInPruneScope(xrdRole, { ...all, xrds: ['xs.a.io'] })).toBe(true);
    expect(isInPruneScope(xrdRole, { ...all, xrds: ['ys.a.io'] })).toBe(false);
    expect(isInPruneScope(nsRole, { ...all, namespaces: ['team'] })).toBe(true);
    expect(isInPruneScope(nsRole, { ...all, namespaces: ['other'] })).toBe(false);
  });

  it('prunes no namespace base role or namespace role in a run limited to some XRDs', () => {
    expect(isInPruneScope(nsBase, { ...all, xrds: ['xs.a.io'] })).toBe(false);
    expect(isInPruneScope(nsRole, { ...all, xrds: ['xs.a.io'] })).toBe(false);
    expect(isInPruneScope(nsBase, all)).toBe(true);
    expect(isInPruneScope(nsRole, all)).toBe(true);
  });
});

describe('isInPruneScope, filters of other groups', () => {
  const all: PruneScope = {
    groups: ['provider-bindings', 'crossplane-aggregated', 'base-roles', 'namespace-roles', 'composed-roles'],
  };
  const admin = obj('ClusterRole', 'crossplane-admin');

  it('leaves objects of other groups in scope whatever revisions, XRDs or namespaces the run names', () => {
    expect(isInPruneScope(admin, { ...all, providers: ['p-1'] })).toBe(true);
    expect(isInPruneScope(admin, { ...all, xrds: ['xs.a.io'] })).toBe(true);
    expect(isInPruneScope(admin, { ...all, namespaces: ['team'] })).toBe(true);
    expect(
      isInPruneScope(admin, {
        ...all,
        held: { providers: ['p-1'], xrds: ['xs.a.io'], namespaces: ['team'] },
      }),
    ).toBe(true);
  });
});
