import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import type { Xrd } from '../../../src/kube/types.js';
import {
  builtinResources,
  catalogue,
  inServerOrder,
  resolveResource,
  resolveResourceNoting,
  resourceOfCrd,
  resourcesOfXrd,
} from '../../../src/crossplane/resolve-resource.js';
import type { KnownResource } from '../../../src/crossplane/resource-names.js';

const xrdV1: Xrd = {
  apiVersion: 'apiextensions.crossplane.io/v1',
  kind: 'CompositeResourceDefinition',
  metadata: { name: 'xsqlinstances.aws.platform.upbound.io' },
  spec: {
    group: 'aws.platform.upbound.io',
    names: { kind: 'XSQLInstance', plural: 'xsqlinstances' },
    claimNames: { kind: 'SQLInstance', plural: 'sqlinstances' },
    versions: [{ name: 'v1alpha1', served: true, referenceable: true }],
  },
};
const xrdV2: Xrd = {
  apiVersion: 'apiextensions.crossplane.io/v2',
  kind: 'CompositeResourceDefinition',
  metadata: { name: 'apps.platform.acme.io' },
  spec: { group: 'platform.acme.io', names: { kind: 'App', plural: 'apps' }, versions: [{ name: 'v1' }] },
};
const known = catalogue(builtinResources(), resourcesOfXrd(xrdV1), resourcesOfXrd(xrdV2));

// kubectl's RESTMapper (k8s.io/apimachinery/pkg/api/meta, restmapper): plural, singular, kind and short names,
// alone or with .group or .version.group, case-insensitive; RESOURCE/SUBRESOURCE.
const cases: { name: string; input: string; want: Record<string, unknown>; reason: string }[] = [
  {
    name: 'Plural',
    input: 'pods',
    want: { group: '', resource: 'pods', namespaced: true },
    reason: 'the plural names the resource',
  },
  {
    name: 'ShortName',
    input: 'deploy',
    want: { group: 'apps', resource: 'deployments' },
    reason: 'short names are kubectl aliases',
  },
  {
    name: 'KindAnyCase',
    input: 'Deployment',
    want: { group: 'apps', resource: 'deployments' },
    reason: 'kinds match case-insensitively',
  },
  {
    name: 'Subresource',
    input: 'deployments.apps/scale',
    want: { group: 'apps', resource: 'deployments', subresource: 'scale' },
    reason: 'the subresource follows a slash',
  },
  {
    name: 'VersionGroup',
    input: 'deployments.v1.apps',
    want: { group: 'apps', resource: 'deployments' },
    reason: 'resource.version.group is a kubectl form',
  },
  { name: 'ClusterScoped', input: 'nodes', want: { namespaced: false }, reason: 'nodes are cluster-scoped' },
  {
    name: 'Claim',
    input: 'sqlinstance.aws.platform.upbound.io',
    want: {
      resource: 'sqlinstances',
      namespaced: true,
      source: 'claim',
      xrd: 'xsqlinstances.aws.platform.upbound.io',
    },
    reason: 'a claim is namespaced and belongs to its XRD',
  },
  {
    name: 'V1Composite',
    input: 'XSQLInstance',
    want: { resource: 'xsqlinstances', namespaced: false, source: 'xrd' },
    reason: "a v1 XRD's composite resources are cluster-scoped",
  },
  {
    name: 'V2Composite',
    input: 'apps.platform.acme.io',
    want: { resource: 'apps', namespaced: true },
    reason: "a v2 XRD's composite resources default to Namespaced",
  },
  {
    name: 'CoreWinsATie',
    input: 'app',
    want: { resource: 'apps', group: 'platform.acme.io' },
    reason: 'only one resource has the singular app',
  },
  {
    name: 'NonResource',
    input: '/healthz',
    want: { path: '/healthz' },
    reason: 'a leading slash is a non-resource URL',
  },
];

describe('resolveResource', () => {
  it.each(cases)('$name: $reason', ({ input, want }) => {
    expect(resolveResource(input, known)).toMatchObject(want);
  });

  it.each([
    ['Unknown', 'pdos', /doesn't have a resource type "pdos"/],
    ['EmptySubresource', 'pods/', /invalid resource/],
    ['TwoSubresources', 'pods/a/b', /invalid resource/],
  ])('%s is a usage error', (_name, input, message) => {
    expect(() => resolveResource(input, known)).toThrow(UsageError);
    expect(() => resolveResource(input, known)).toThrow(message);
  });

  it("TwoGroups: a name two groups serve is the first group's in discovery order, the other warned of", () => {
    const twice = catalogue(resourcesOfXrd(xrdV2), [
      { ...resourcesOfXrd(xrdV2)[0]!, group: 'other.acme.io' },
    ]);
    const { resource, warnings } = resolveResourceNoting('apps', twice);
    expect(resource.group).toBe('platform.acme.io');
    expect(warnings).toEqual([
      'resource "apps" could also match lower priority resource apps.other.acme.io (apps.platform.acme.io answered, as kubectl picks it)',
    ]);
    // From files, the order kube-apiserver would serve: CRD groups by name.
    expect(resolveResource('apps', inServerOrder(twice)).group).toBe('other.acme.io');
  });
});

/** A CRD as provider-aws and provider-gcp ship them: their plurals are those of the impersonation resources. */
function crd(group: string, plural: string, kind: string): KnownResource {
  const r = resourceOfCrd({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Cluster',
      names: { plural, singular: kind.toLowerCase(), kind },
      versions: [{ name: 'v1beta1', served: true }],
    },
  });
  if (r === undefined) throw new Error('bad CRD');
  return r;
}

describe('resolveResource for impersonate', () => {
  const withCrds = catalogue(builtinResources(), [
    crd('iam.aws.upbound.io', 'users', 'User'),
    crd('cognitoidp.aws.upbound.io', 'users', 'User'),
    crd('iam.aws.upbound.io', 'groups', 'Group'),
    crd('cloudplatform.gcp.upbound.io', 'serviceaccounts', 'ServiceAccount'),
    crd('example.io', 'uids', 'Uid'),
  ]);
  // The impersonation filter's requests (kubernetes/kubernetes
  // staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation/impersonation.go
  // @4f6fdb4551e8dd7b783d29e4d936d3756e4813ed): User, Group and ServiceAccount are ObjectReferences without an
  // APIVersion, so APIGroup "" and resources users, groups, serviceaccounts (Namespace: the service account's);
  // UserExtra and UID carry authentication.k8s.io/v1: resources userextras (Subresource: the extra's key) and uids.
  const impersonation: { input: string; want: Record<string, unknown>; reason: string }[] = [
    {
      input: 'users',
      want: { group: '', resource: 'users', namespaced: false, kind: 'User' },
      reason: 'two CRDs serve users, but an impersonate rule names the core group',
    },
    {
      input: 'groups',
      want: { group: '', resource: 'groups', namespaced: false, kind: 'Group' },
      reason: 'groups.iam.aws.upbound.io is not what impersonating a group asks for',
    },
    {
      input: 'serviceaccounts',
      want: { group: '', resource: 'serviceaccounts', namespaced: true },
      reason: "a service account is impersonated in its namespace, in the core group's resource",
    },
    {
      input: 'uids',
      want: { group: 'authentication.k8s.io', resource: 'uids', namespaced: false },
      reason: 'the UID is asked about in authentication.k8s.io, even with a CRD serving uids elsewhere',
    },
    {
      input: 'uids.authentication.k8s.io',
      want: { group: 'authentication.k8s.io', resource: 'uids' },
      reason: 'its group may be spelt out',
    },
    {
      input: 'userextras/scopes',
      want: { group: 'authentication.k8s.io', resource: 'userextras', subresource: 'scopes' },
      reason: "a user extra's key is the subresource",
    },
    {
      input: 'users.iam.aws.upbound.io',
      want: { group: 'iam.aws.upbound.io', resource: 'users', source: 'crd' },
      reason: 'a name with its group names that resource, as for any other verb',
    },
  ];

  it.each(impersonation)('impersonate $input: $reason', ({ input, want }) => {
    expect(resolveResource(input, withCrds, 'impersonate')).toMatchObject(want);
  });

  it("OtherVerbsTakeKubectlsChoice: get users is the first CRD group's, in the server's order", () => {
    expect(resolveResource('users', inServerOrder(withCrds), 'get')).toMatchObject({
      group: 'cognitoidp.aws.upbound.io',
    });
    expect(resolveResource('groups', withCrds, 'get')).toMatchObject({ group: 'iam.aws.upbound.io' });
  });

  it("OtherNamesAsKubectl: impersonate on a resource two groups serve is the first group's", () => {
    const twice = catalogue(withCrds, [
      crd('other.io', 'widgets', 'Widget'),
      crd('more.io', 'widgets', 'Widget'),
    ]);
    expect(resolveResource('widgets', inServerOrder(twice), 'impersonate')).toMatchObject({
      group: 'more.io',
    });
  });

  it.each([
    ['UserExtraWithoutKey', 'userextras', /per key: give "userextras\/KEY"/],
    ['SubresourceOfUsers', 'users/bob', /impersonating users has no subresource/],
  ])('%s is a usage error', (_name, input, message) => {
    expect(() => resolveResource(input, withCrds, 'impersonate')).toThrow(UsageError);
    expect(() => resolveResource(input, withCrds, 'impersonate')).toThrow(message);
  });
});
