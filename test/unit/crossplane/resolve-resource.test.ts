import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import type { Xrd } from '../../../src/kube/types.js';
import {
  builtinResources,
  catalogue,
  resolveResource,
  resourcesOfXrd,
} from '../../../src/crossplane/resolve-resource.js';

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

  it('AmbiguousAcrossGroups: refuses a name two groups serve, naming both', () => {
    const twice = catalogue(resourcesOfXrd(xrdV2), [
      { ...resourcesOfXrd(xrdV2)[0]!, group: 'other.acme.io' },
    ]);
    expect(() => resolveResource('apps', twice)).toThrow(
      /ambiguous: apps.other.acme.io, apps.platform.acme.io/,
    );
  });
});
