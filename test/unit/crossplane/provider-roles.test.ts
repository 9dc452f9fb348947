import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  capabilitiesContainFuzzyMatch,
  definedResources,
  familyMembers,
  renderProviderRoles,
  renderRevisionClusterRoles,
  resourceRules,
  type ProviderRolePolicy,
} from '../../../src/crossplane/provider/roles.js';
import { sameRegistryAndOrg } from '../../../src/crossplane/provider/image.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  Deployment,
  ProviderRevision,
  RoleBinding,
} from '../../../src/kube/types.js';
import { crdRef, deployment, loadYaml, readRaw, rev } from '../sync/sync-fixtures.js';
import { parseImageContext } from '../../../src/crossplane/provider/image.js';

describe('resourceRules', () => {
  it('merges two groups, ordered by plural+group, one rule per group in first-appearance order', () => {
    const { groups, rules } = resourceRules([
      { group: 'example.org', plural: 'examples' },
      { group: 'example.net', plural: 'examples' },
      { group: 'example.org', plural: 'demonstrations' },
    ]);
    expect(groups, 'demonstrationsexample.org < examplesexample.net < examplesexample.org').toEqual([
      'example.org',
      'example.net',
    ]);
    expect(rules.map((r) => r.resources)).toEqual([
      ['demonstrations', 'demonstrations/status', 'examples', 'examples/status'],
      ['examples', 'examples/status'],
    ]);
  });
});

describe('definedResources', () => {
  const cases: Record<
    string,
    { reason: string; refs: Parameters<typeof definedResources>[0]; want: unknown }
  > = {
    Crd: {
      reason: 'A CRD ref of any version counts.',
      refs: [crdRef('examples.example.org')],
      want: [{ group: 'example.org', plural: 'examples' }],
    },
    Mrd: {
      reason: 'A v2 ManagedResourceDefinition ref counts.',
      refs: [crdRef('buckets.s3.aws.m.upbound.io', true)],
      want: [{ group: 's3.aws.m.upbound.io', plural: 'buckets' }],
    },
    NoDot: { reason: 'A name without a dot is skipped.', refs: [crdRef('invalid')], want: [] },
    OtherKind: {
      reason: 'Webhook configurations and other refs are skipped.',
      refs: [
        {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'ValidatingWebhookConfiguration',
          name: 'a.b',
        },
      ],
      want: [],
    },
    WrongGroupForKind: {
      reason: 'A CRD kind in the MRD group is neither.',
      refs: [{ apiVersion: 'apiextensions.crossplane.io/v1', kind: 'CustomResourceDefinition', name: 'a.b' }],
      want: [],
    },
    Duplicate: {
      reason:
        'Duplicates within one revision are kept: provider/roles/reconciler.go DefinedResources appends every CRD or MRD ref as it comes.',
      refs: [crdRef('a.b'), crdRef('a.b', true)],
      want: [
        { group: 'b', plural: 'a' },
        { group: 'b', plural: 'a' },
      ],
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(definedResources(tc.refs), tc.reason).toEqual(tc.want);
  });
});

describe('sameRegistryAndOrg and capabilities', () => {
  const cases: Record<string, { reason: string; a: string; b: string; want: boolean }> = {
    SameOrg: {
      reason: 'Same registry and org.',
      a: 'xpkg.crossplane.io/crossplane-contrib/provider-aws-s3:v2.0.0',
      b: 'xpkg.crossplane.io/crossplane-contrib/provider-family-aws:v2.0.0',
      want: true,
    },
    OtherRegistry: {
      reason: 'A family member from another registry is excluded.',
      a: 'xpkg.upbound.io/upbound/provider-aws-s3:v1',
      b: 'xpkg.crossplane.io/upbound/provider-family-aws:v1',
      want: false,
    },
    OtherOrg: {
      reason: 'A family member from another organisation is excluded.',
      a: 'xpkg.upbound.io/upbound/provider-aws-s3:v1',
      b: 'xpkg.upbound.io/evil/provider-family-aws:v1',
      want: false,
    },
    DockerIoAlias: {
      reason: 'docker.io means index.docker.io.',
      a: 'docker.io/crossplane/a:v1',
      b: 'index.docker.io/crossplane/b:v1',
      want: true,
    },
    NoRegistryVsDockerIo: {
      reason: 'No registry is the empty registry, not Docker Hub.',
      a: 'crossplane/a:v1',
      b: 'docker.io/crossplane/b:v1',
      want: false,
    },
    Unparsable: {
      reason: 'An unparsable reference is never the same org.',
      a: 'Upper/Case:v1',
      b: 'Upper/Case:v1',
      want: false,
    },
    Digest: {
      reason: 'Digests parse.',
      a: `r.io/o/a@sha256:${'a'.repeat(64)}`,
      b: 'r.io/o/b:v1',
      want: true,
    },
    PortRegistry: {
      reason: 'A registry with a port is a registry.',
      a: 'localhost:5000/o/a:v1',
      b: 'localhost:5000/o/b',
      want: true,
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(sameRegistryAndOrg(tc.a, tc.b), tc.reason).toBe(tc.want);
  });

  it('treats a one-segment Docker Hub repository as library/', () => {
    expect(parseImageContext('docker.io/nginx:1')).toEqual({
      registry: 'index.docker.io',
      repository: 'library/nginx',
    });
  });

  it.each([
    ['safe-start', true],
    ['SafeStart', true],
    ['safe_start!', true],
    ['safestart-v2', false],
  ])('matches capability %s loosely: %s', (cap, want) => {
    expect(capabilitiesContainFuzzyMatch([cap], 'safe-start')).toBe(want);
  });
});

const prOwner = (name: string, uid = `uid-${name}`) => [
  {
    apiVersion: 'pkg.crossplane.io/v1',
    blockOwnerDeletion: true,
    controller: true,
    kind: 'ProviderRevision',
    name,
    uid,
  },
];

describe('renderProviderRoles', () => {
  it('renders edit, view, system and the binding exactly as Crossplane does', () => {
    const r = rev('provider-a-1', ['things.a.io', 'others.a.io']);
    const d = deployment('provider-a-1', 'crossplane-system', 'uid-provider-a-1', 'provider-a-1');
    const rules = [
      { apiGroups: ['a.io'], resources: ['others', 'others/status', 'things', 'things/status'] },
    ];
    expect(renderProviderRoles(r, [r], [d])).toStrictEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: {
          labels: {
            'rbac.crossplane.io/aggregate-to-admin': 'true',
            'rbac.crossplane.io/aggregate-to-crossplane': 'true',
            'rbac.crossplane.io/aggregate-to-edit': 'true',
          },
          name: 'crossplane:provider:provider-a-1:aggregate-to-edit',
          ownerReferences: prOwner('provider-a-1'),
        },
        rules: rules.map((x) => ({ ...x, verbs: ['*'] })),
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: {
          labels: { 'rbac.crossplane.io/aggregate-to-view': 'true' },
          name: 'crossplane:provider:provider-a-1:aggregate-to-view',
          ownerReferences: prOwner('provider-a-1'),
        },
        rules: rules.map((x) => ({ ...x, verbs: ['get', 'list', 'watch'] })),
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: {
          labels: { 'rbac.crossplane.io/system': 'provider-a-1' },
          name: 'crossplane:provider:provider-a-1:system',
          ownerReferences: prOwner('provider-a-1'),
        },
        rules: [
          ...rules.map((x) => ({ ...x, verbs: ['get', 'list', 'watch', 'update', 'patch', 'create'] })),
          { apiGroups: ['a.io'], resources: ['*/finalizers'], verbs: ['update'] },
          {
            apiGroups: ['', 'coordination.k8s.io'],
            resources: ['secrets', 'configmaps', 'events', 'leases'],
            verbs: ['*'],
          },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: {
          name: 'crossplane:provider:provider-a-1:system',
          ownerReferences: prOwner('provider-a-1'),
        },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'crossplane:provider:provider-a-1:system',
        },
        subjects: [{ kind: 'ServiceAccount', name: 'provider-a-1', namespace: 'crossplane-system' }],
      },
    ]);
  });

  const cases: Record<
    string,
    {
      reason: string;
      rev: ProviderRevision;
      all?: ProviderRevision[];
      deployments?: Deployment[];
      check: (out: (ClusterRole | ClusterRoleBinding | RoleBinding)[]) => void;
    }
  > = {
    NoResources: {
      reason:
        'A revision that defines nothing (yet) gets no ClusterRoles (provider/roles/roles.go RenderClusterRoles) but still its system binding (provider/binding/reconciler.go Reconcile binds every revision).',
      rev: rev('p-1', []),
      check: (out) => {
        expect(out.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
          'ClusterRoleBinding/crossplane:provider:p-1:system',
        ]);
      },
    },
    SafeStart: {
      reason: 'safe-start (loosely matched) appends CRD read access to the system role, last.',
      rev: rev('p-1', ['a.b'], { capabilities: ['SafeStart'] }),
      check: (out) => {
        expect((out[2] as ClusterRole).rules!.at(-1)).toEqual({
          apiGroups: ['apiextensions.k8s.io'],
          resources: ['customresourcedefinitions'],
          verbs: ['get', 'list', 'watch'],
        });
      },
    },
    NoSafeStart: {
      reason: 'Without the capability the system role ends with the extra rule.',
      rev: rev('p-1', ['a.b'], { capabilities: ['other'] }),
      check: (out) => {
        expect((out[2] as ClusterRole).rules).toHaveLength(3);
      },
    },
    FamilyMerge: {
      reason: 'Family members in the same registry and org contribute their resources, inactive ones too.',
      rev: rev('aws-s3-1', ['buckets.s3.aws.io'], { family: 'fam' }),
      all: [
        rev('aws-s3-1', ['buckets.s3.aws.io'], { family: 'fam' }),
        rev('aws-family-1', ['providerconfigs.aws.io'], { family: 'fam', desiredState: 'Inactive' }),
        rev('evil-1', ['secrets.evil.io'], {
          family: 'fam',
          image: 'xpkg.crossplane.io/evil/provider-aws-x:v1',
        }),
        rev('other-1', ['things.other.io'], { family: 'other' }),
      ],
      check: (out) => {
        expect((out[0] as ClusterRole).rules!.map((r) => r.apiGroups![0])).toEqual(['s3.aws.io', 'aws.io']);
      },
    },
    InactiveNoDeployment: {
      reason: 'Inactive revisions are bound too, with no subjects.',
      rev: rev('p-1', ['a.b'], { desiredState: 'Inactive' }),
      deployments: [deployment('other', 'crossplane-system', 'uid-other', 'sa')],
      check: (out) => {
        expect(out[3]).toEqual(expect.objectContaining({ kind: 'ClusterRoleBinding' }));
        expect(out[3]).not.toHaveProperty('subjects');
      },
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    tc.check(renderProviderRoles(tc.rev, tc.all ?? [tc.rev], tc.deployments ?? []));
  });

  it('binds with RoleBindings in each Deployment namespace when the binding scope is namespace', () => {
    const r = rev('p-1', ['a.b']);
    const out = renderProviderRoles(r, [r], [deployment('p-1', 'team-a', 'uid-p-1', 'sa-1')], {
      bindingScope: 'namespace',
    });
    expect(out.map((o) => o.kind)).toEqual(['ClusterRole', 'ClusterRole', 'ClusterRole', 'RoleBinding']);
    expect(out[3]).toStrictEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: {
        labels: { 'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac' },
        name: 'crossplane:provider:p-1:system',
        namespace: 'team-a',
        ownerReferences: prOwner('p-1'),
      },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'crossplane:provider:p-1:system',
      },
      subjects: [{ kind: 'ServiceAccount', name: 'sa-1', namespace: 'team-a' }],
    });
  });
});

/** kubectl-style YAML of an object (sequences not indented under their key). */
function kubectlYaml(o: unknown): string {
  return stringify(o, { indentSeq: false, lineWidth: 0, aliasDuplicateObjects: false });
}

/** The live excerpt's text without server-set metadata and comments, up to its truncation point. */
function excerptText(doc: string): string {
  return doc
    .split('\n')
    .filter((l) => !/^\s*#/.test(l) && !/^ {2}(creationTimestamp|resourceVersion|selfLink|uid):/.test(l))
    .join('\n')
    .trim();
}

describe('byte-for-byte against live roles rendered by Crossplane', () => {
  const docs = readRaw('live-cluster-excerpts.yaml').split(/^---$/m);

  it('the provider-aws-ec2 aggregate-to-view role of upjet-aws PR #1330 (truncated copy)', () => {
    const doc = docs.find((d) =>
      d.includes('name: crossplane:provider:provider-aws-ec2-provider-aws:aggregate-to-view'),
    );
    expect(doc, 'excerpt present').toBeDefined();
    const plurals = [
      'amicopies',
      'amilaunchpermissions',
      'amis',
      'availabilityzonegroups',
      'capacityreservations',
    ];
    const more = ['carriergateways', 'customergateways', 'defaultnetworkacls', 'vpcs'];
    const r = rev(
      'provider-aws-ec2-provider-aws',
      [...more, ...plurals].map((p) => `${p}.ec2.aws.upbound.io`),
      {
        uid: '459fb0df-8c55-4036-8c9e-56e9dc1bd392',
      },
    );
    const view = renderProviderRoles(r, [r], [])[1]!;
    const want = excerptText(doc!);
    expect(kubectlYaml(view).startsWith(want), `${want}\n---\n${kubectlYaml(view)}`).toBe(true);
  });

  it('the provider-aws system role of crossplane #2372: rule and group order (truncated copy)', () => {
    const doc = docs.find((d) => d.includes('name: crossplane:provider:provider-aws-0113aaace17b:system'));
    expect(doc, 'excerpt present').toBeDefined();
    const ec2 = [
      'addresses',
      'internetgateways',
      'natgateways',
      'routetables',
      'securitygroups',
      'subnets',
      'vpccidrblocks',
      'vpcs',
    ];
    const r = rev('provider-aws-0113aaace17b', [
      ...ec2.map((p) => `${p}.ec2.aws.crossplane.io`),
      'statemachines.sfn.aws.crossplane.io',
      'activities.sfn.aws.crossplane.io',
    ]);
    const system = renderProviderRoles(r, [r], [])[2]!;
    // That Crossplane (~1.2) did not set blockOwnerDeletion yet; compare from the rules on.
    const want = excerptText(doc!).slice(excerptText(doc!).indexOf('rules:'));
    const got = kubectlYaml(system);
    expect(got.slice(got.indexOf('rules:')).startsWith(want), `${want}\n---\n${got}`).toBe(true);
  });
});

describe('real provider revision fixtures', () => {
  it('renders the v2 AWS family: every member sees the family ProviderConfig types', () => {
    const objs = loadYaml('providerrevisions-family-aws-v2.yaml');
    const revs = objs.filter((o) => o.kind === 'ProviderRevision') as unknown as ProviderRevision[];
    const deps = objs.filter((o) => o.kind === 'Deployment') as unknown as Deployment[];
    const s3 = revs.find((r) => r.metadata.name === 'provider-aws-s3-dbc7f981d81f')!;
    const out = renderProviderRoles(s3, revs, deps);
    const system = out[2] as ClusterRole;
    const groups = system.rules![0]!.apiGroups;
    expect(groups).toHaveLength(1);
    const allGroups = system.rules!.slice(0, -3).flatMap((r) => r.apiGroups);
    expect(allGroups).toContain('aws.m.upbound.io');
    expect(allGroups).toContain('ec2.aws.m.upbound.io');
    expect(system.rules!.at(-1)!.resources, 'the family has the SafeStart capability').toEqual([
      'customresourcedefinitions',
    ]);
    expect((out[3] as ClusterRoleBinding).subjects).toEqual([
      { kind: 'ServiceAccount', name: 'provider-aws-s3-dbc7f981d81f', namespace: 'crossplane-system' },
    ]);
  });

  it('binds the inactive provider-nop revision with no subjects', () => {
    const objs = loadYaml('providerrevisions-family-aws-v2.yaml');
    const revs = objs.filter((o) => o.kind === 'ProviderRevision') as unknown as ProviderRevision[];
    const deps = objs.filter((o) => o.kind === 'Deployment') as unknown as Deployment[];
    const inactive = revs.find((r) => r.spec.desiredState === 'Inactive')!;
    const binding = renderProviderRoles(inactive, revs, deps).find((o) => o.kind === 'ClusterRoleBinding');
    expect(binding).toBeDefined();
    expect(binding).not.toHaveProperty('subjects');
  });
});

describe('family rules, computed once per family', () => {
  const image = (pkg: string): string => `xpkg.upbound.io/upbound/${pkg}:v1`;
  const groupsOf = (r: ProviderRevision, all: readonly ProviderRevision[]): string[] =>
    (renderProviderRoles(r, all, [])[0] as ClusterRole).rules!.map((x) => x.apiGroups![0]!);

  it('SameRulesForEveryMember: each member of a family gets what it gets rendered alone', () => {
    const members = ['a', 'b', 'c'].map((p) =>
      rev(`provider-${p}`, [`${p}things.${p}.example.org`, `widgets.${p}.example.org`], {
        family: 'fam',
        image: image(`provider-${p}`),
      }),
    );
    for (const m of members) {
      // A fresh list each time: nothing cached from another member.
      expect(groupsOf(m, members), m.metadata.name).toStrictEqual(groupsOf(m, [...members]));
    }
    expect(groupsOf(members[0]!, members)).toStrictEqual(['a.example.org', 'b.example.org', 'c.example.org']);
  });

  it('SortKeyTiesFollowTheMember: resources with the same plural+group keep each member its own order', () => {
    // "ab" + "c.io" and "a" + "bc.io" sort equal: the stable sort keeps the member's own resources first.
    const x = rev('provider-x', ['ab.c.io'], { family: 'fam', image: image('provider-x') });
    const y = rev('provider-y', ['a.bc.io'], { family: 'fam', image: image('provider-y') });
    const all = [x, y];
    expect(groupsOf(x, all)).toStrictEqual(['c.io', 'bc.io']);
    expect(groupsOf(y, all)).toStrictEqual(['bc.io', 'c.io']);
  });
});

// Provider families and defined resources against crossplane's provider/roles reconciler.go (Reconcile,
// DefinedResources, OrgDiffer) and roles.go RenderClusterRoles @2d040d2daf4e001799c4154a4a09b9e1f40d7fde.
describe('definedResources, edge cases', () => {
  const ref = (apiVersion: string, kind: string, name: string) => ({ apiVersion, kind, name });
  const cases: Record<
    string,
    { reason: string; refs: Parameters<typeof definedResources>[0]; want: unknown }
  > = {
    NoRefs: { reason: 'A revision without objectRefs defines nothing.', refs: undefined, want: [] },
    OtherKindInCrdGroup: {
      reason: 'Only the CustomResourceDefinition kind of apiextensions.k8s.io counts.',
      refs: [ref('apiextensions.k8s.io/v1', 'Other', 'a.b')],
      want: [],
    },
    MrdKindInOtherGroup: {
      reason: 'Only the ManagedResourceDefinition kind of apiextensions.crossplane.io counts.',
      refs: [ref('example.org/v1', 'ManagedResourceDefinition', 'a.b')],
      want: [],
    },
    TwoSlashes: {
      reason: 'schema.ParseGroupVersion fails on more than one "/": the empty group, no CRD.',
      refs: [ref('apiextensions.k8s.io/v1/x', 'CustomResourceDefinition', 'a.b')],
      want: [],
    },
    LeadingDot: {
      reason: 'strings.Cut(".b", ".") is valid: an empty plural and the group "b".',
      refs: [crdRef('.b')],
      want: [{ group: 'b', plural: '' }],
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(definedResources(tc.refs), tc.reason).toEqual(tc.want);
  });

  it('counts MRD refs in v2 only (release-1.20 DefinedResources knows CRDs alone)', () => {
    const refs = [crdRef('things.a.io'), crdRef('buckets.m.a.io', true)];
    expect(definedResources(refs, 'v1')).toEqual([{ group: 'a.io', plural: 'things' }]);
    expect(definedResources(refs, 'v2')).toEqual([
      { group: 'a.io', plural: 'things' },
      { group: 'm.a.io', plural: 'buckets' },
    ]);
  });
});

describe('resourceRules and capabilities, edge cases', () => {
  it('leaves the verbs empty: each role sets its own (roles.go withVerbs)', () => {
    expect(resourceRules([{ group: 'a.io', plural: 'things' }]).rules).toEqual([
      { apiGroups: ['a.io'], resources: ['things', 'things/status'], verbs: [] },
    ]);
  });

  it('finds no capability in a revision without any', () => {
    expect(capabilitiesContainFuzzyMatch(undefined, 'safe-start')).toBe(false);
  });
});

describe('provider families, edge cases', () => {
  const image = (pkg: string): string => `xpkg.upbound.io/upbound/${pkg}:v1`;
  const groupsOf = (r: ProviderRevision, all: readonly ProviderRevision[], policy: ProviderRolePolicy = {}) =>
    (renderRevisionClusterRoles(r, all, policy).roles[0]?.rules ?? []).map((x) => x.apiGroups![0]!);
  const resourcesOf = (r: ProviderRevision, all: readonly ProviderRevision[]) =>
    (renderRevisionClusterRoles(r, all).roles[0]?.rules ?? []).map((x) => x.resources);
  const withoutLabels = (r: ProviderRevision): ProviderRevision => {
    const { labels: _labels, ...metadata } = r.metadata;
    return { ...r, metadata };
  };
  const withoutUid = (r: ProviderRevision): ProviderRevision => {
    const { uid: _uid, ...metadata } = r.metadata;
    return { ...r, metadata };
  };

  it('merges nothing without a family label, even in the same organisation', () => {
    const a = rev('provider-a', ['as.a.io'], { image: image('provider-a') });
    const b = rev('provider-b', ['bs.b.io'], { image: image('provider-b') });
    expect(groupsOf(a, [a, b])).toEqual(['a.io']);
    expect(groupsOf(withoutLabels(a), [withoutLabels(a), withoutLabels(b)])).toEqual(['a.io']);
  });

  it('finds no family members for a revision without a family label', () => {
    const a = rev('provider-a', ['as.a.io'], { image: image('provider-a') });
    const b = rev('provider-b', ['bs.b.io'], { image: image('provider-b') });
    expect(familyMembers(a, [a, b], {})).toEqual([]);
  });

  it('finds no family members for a revision whose image is no reference, even beside its family', () => {
    // OrgDiffer fails to parse the image, so crossplane's reconciler counts no member as of the same organisation.
    const a = rev('provider-a', ['as.a.io'], { image: 'Not A Reference', family: 'fam' });
    const b = rev('provider-b', ['bs.b.io'], { image: image('provider-b'), family: 'fam' });
    expect(familyMembers(a, [a, b], {})).toEqual([]);
  });

  it('finds no family members for a revision that is not in the list (held.ts asks for a probe)', () => {
    const a = rev('provider-a', ['as.a.io'], { image: image('provider-a'), family: 'fam' });
    expect(familyMembers(a, [], {})).toEqual([]);
  });

  it('counts only revisions with the same family label, also when the label reads "undefined"', () => {
    const a = rev('provider-a', ['as.a.io'], { image: image('provider-a'), family: 'undefined' });
    const b = withoutLabels(rev('provider-b', ['bs.b.io'], { image: image('provider-b') }));
    const c = rev('provider-c', ['cs.c.io'], { image: image('provider-c'), family: 'undefined' });
    expect(familyMembers(a, [a, b, c], {}).map((m) => m.metadata.name)).toEqual(['provider-c']);
  });

  it('merges nothing for an empty family label (reconciler.go: family != "")', () => {
    const a = rev('provider-a', ['as.a.io'], { image: image('provider-a'), family: '' });
    const b = rev('provider-b', ['bs.b.io'], { image: image('provider-b'), family: '' });
    expect(groupsOf(a, [a, b])).toEqual(['a.io']);
  });

  it('skips members without labels and members without spec (no image: OrgDiffer cannot parse "")', () => {
    const a = rev('provider-a', ['as.a.io'], { image: image('provider-a'), family: 'fam' });
    const b = withoutLabels(rev('provider-b', ['bs.b.io'], { image: image('provider-b') }));
    const c = rev('provider-c', ['cs.c.io'], { image: image('provider-c'), family: 'fam' });
    const { spec: _spec, ...noSpec } = c;
    expect(groupsOf(a, [a, b, noSpec as ProviderRevision])).toEqual(['a.io']);
    expect(groupsOf(noSpec as ProviderRevision, [a, b, noSpec as ProviderRevision])).toEqual(['c.io']);
  });

  it('gives a member without status the family resources, and nothing of its own', () => {
    const a = rev('provider-a', ['as.a.io'], { image: image('provider-a'), family: 'fam' });
    const b = rev('provider-b', [], { image: image('provider-b'), family: 'fam' });
    const { status: _status, ...noStatus } = b;
    const all = [a, noStatus as ProviderRevision];
    // Each from a list of its own: the family rules of one list are computed once.
    expect(groupsOf(a, [...all])).toEqual(['a.io']);
    expect(groupsOf(noStatus as ProviderRevision, [...all])).toEqual(['a.io']);
    // v1 reads the (absent) permission requests of such a member: none, so it renders.
    expect(
      renderRevisionClusterRoles(noStatus as ProviderRevision, all, { crossplaneVersion: 'v1' }).roles.map(
        (x) => x.metadata.name,
      ),
    ).toEqual([
      'crossplane:provider:provider-b:aggregate-to-edit',
      'crossplane:provider:provider-b:aggregate-to-view',
      'crossplane:provider:provider-b:system',
    ]);
  });

  it('adds the members in name order, as the API server lists them (ties keep that order)', () => {
    // "ab"+"c.io" and "a"+"bc.io" sort equal; for so few resources Go's sort.Slice is an insertion sort, which
    // keeps equal keys in list order: the revision's own resources, then provider-a's, then provider-b's.
    const self = rev('provider-self', ['zs.self.io'], { image: image('provider-self'), family: 'fam' });
    const b = rev('provider-b', ['ab.c.io'], { image: image('provider-b'), family: 'fam' });
    const a = rev('provider-a', ['a.bc.io'], { image: image('provider-a'), family: 'fam' });
    expect(groupsOf(self, [self, b, a])).toEqual(['bc.io', 'c.io', 'self.io']);
  });

  it('keeps two families rendered from one list apart', () => {
    const fa = ['a1', 'a2'].map((n) =>
      rev(`provider-${n}`, [`${n}s.a.io`], { image: image(n), family: 'fa' }),
    );
    const fb = ['b1', 'b2'].map((n) =>
      rev(`provider-${n}`, [`${n}s.b.io`], { image: image(n), family: 'fb' }),
    );
    const all = [...fa, ...fb];
    expect(resourcesOf(fa[0]!, all)).toEqual([['a1s', 'a1s/status', 'a2s', 'a2s/status']]);
    expect(resourcesOf(fb[0]!, all)).toEqual([['b1s', 'b1s/status', 'b2s', 'b2s/status']]);
    expect(resourcesOf(fa[1]!, all)).toEqual([['a1s', 'a1s/status', 'a2s', 'a2s/status']]);
  });

  it('renders v1 and v2 of one family from one list each with its own resources', () => {
    const a = rev('provider-a', ['as.a.io'], { image: image('provider-a'), family: 'fam' });
    const b: ProviderRevision = {
      ...rev('provider-b', [], { image: image('provider-b'), family: 'fam' }),
      status: { objectRefs: [crdRef('buckets.m.b.io', true)] },
    };
    const all = [a, b];
    expect(groupsOf(a, all, { crossplaneVersion: 'v2' })).toEqual(['a.io', 'm.b.io']);
    expect(groupsOf(a, all, { crossplaneVersion: 'v1' })).toEqual(['a.io']);
    expect(groupsOf(a, all)).toEqual(['a.io', 'm.b.io']);
  });

  it('takes a member with the revision UID as the revision itself (reconciler.go compares UIDs)', () => {
    const a = rev('provider-a', ['as.a.io'], { image: image('provider-a'), family: 'fam', uid: 'u-1' });
    const copy = rev('provider-a-copy', ['copies.c.io'], {
      image: image('provider-a'),
      family: 'fam',
      uid: 'u-1',
    });
    expect(groupsOf(a, [a, copy])).toEqual(['a.io']);
  });

  it('compares names when either has no UID (objects of a file)', () => {
    const a = rev('provider-a', ['as.a.io'], { image: image('provider-a'), family: 'fam' });
    const b = rev('provider-b', ['bs.b.io'], { image: image('provider-b'), family: 'fam' });
    // Each revision once: no duplicate resources from the revision counted as its own member.
    expect(resourcesOf(withoutUid(a), [withoutUid(a), withoutUid(b)])).toEqual([
      ['as', 'as/status'],
      ['bs', 'bs/status'],
    ]);
    expect(resourcesOf(withoutUid(a), [a, b])).toEqual([
      ['as', 'as/status'],
      ['bs', 'bs/status'],
    ]);
    expect(resourcesOf(a, [withoutUid(a), b])).toEqual([
      ['as', 'as/status'],
      ['bs', 'bs/status'],
    ]);
  });
});
