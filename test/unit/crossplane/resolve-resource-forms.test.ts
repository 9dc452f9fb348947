// What resolveResource knows and answers, field by field. Names as kubectl's RESTMapper takes them (plural,
// singular, kind and short names, alone or with .group or .version.group, case-insensitive); CRDs as the API
// server serves them (apiextensions.k8s.io/v1: spec.group, spec.names, spec.scope Namespaced|Cluster, versions with
// served); XRDs as Crossplane serves their XRs and claims (v1 XRs cluster-scoped, v2 XRs Namespaced unless the
// scope says Cluster or LegacyCluster, claims always namespaced).
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import type { DiscoveredResource, KubeObject, Xrd } from '../../../src/kube/types.js';
import {
  builtinResources,
  catalogue,
  resolveResource,
  resourceOfCrd,
  resourcesFromDiscovery,
  resourcesOfProviderRevision,
  resourcesOfXrd,
} from '../../../src/crossplane/resolve-resource.js';
import type { KnownResource } from '../../../src/crossplane/resource-names.js';
import { rev } from '../sync/sync-fixtures.js';

function crd(spec: unknown): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'things.example.org' },
    spec,
  };
}

const known = (over: Partial<KnownResource>): KnownResource => ({
  group: 'example.org',
  versions: ['v1'],
  plural: 'things',
  singular: 'thing',
  kind: 'Thing',
  shortNames: [],
  namespaced: true,
  source: 'crd',
  ...over,
});

describe('builtinResources', () => {
  it('lists each with its version, singular (the kind lower-cased), short names and scope', () => {
    const all = builtinResources();
    expect(all.find((r) => r.plural === 'deployments')).toStrictEqual({
      group: 'apps',
      versions: ['v1'],
      plural: 'deployments',
      singular: 'deployment',
      kind: 'Deployment',
      shortNames: ['deploy'],
      namespaced: true,
      source: 'builtin',
    });
    expect(all.find((r) => r.plural === 'secrets')?.shortNames).toEqual([]);
  });
});

describe('resourceOfCrd', () => {
  it('reads group, served versions, names and scope', () => {
    expect(
      resourceOfCrd(
        crd({
          group: 'example.org',
          names: { plural: 'things', kind: 'Thing', shortNames: ['th', 5, 'tg'] },
          scope: 'Cluster',
          versions: [
            { name: 'v2' },
            { name: 'v1', served: false },
            { served: true },
            'v3',
            { name: 'v1beta1', served: true },
          ],
        }),
      ),
    ).toStrictEqual({
      group: 'example.org',
      // A version is served unless it says served: false; one without a name is no version.
      versions: ['v2', 'v1beta1'],
      plural: 'things',
      singular: 'thing',
      kind: 'Thing',
      shortNames: ['th', 'tg'],
      namespaced: false,
      source: 'crd',
    });
  });

  it('takes the singular the CRD gives, and a Namespaced scope', () => {
    const r = resourceOfCrd(
      crd({
        group: 'example.org',
        names: { plural: 'things', kind: 'Thing', singular: 'thingy' },
        scope: 'Namespaced',
      }),
    );
    expect([r?.singular, r?.namespaced, r?.versions, r?.shortNames]).toEqual(['thingy', true, [], []]);
  });

  it.each([
    ['no group', { names: { plural: 'things', kind: 'Thing' } }],
    ['no plural', { group: 'example.org', names: { kind: 'Thing' } }],
    ['an empty plural', { group: 'example.org', names: { plural: '', kind: 'Thing' } }],
    ['no kind', { group: 'example.org', names: { plural: 'things' } }],
    ['names not an object', { group: 'example.org', names: 'things' }],
    ['no names', { group: 'example.org' }],
    ['a group not a string', { group: 5, names: { plural: 'things', kind: 'Thing' } }],
  ])('is undefined for a CRD with %s', (_n, spec) => {
    expect(resourceOfCrd(crd(spec))).toBeUndefined();
  });

  it('is undefined for a CRD whose spec is null', () => {
    expect(resourceOfCrd(crd(null))).toBeUndefined();
  });
});

describe('resourcesOfXrd', () => {
  const x = (apiVersion: string, spec: Partial<Xrd['spec']>): Xrd => ({
    apiVersion,
    kind: 'CompositeResourceDefinition',
    metadata: { name: 'xthings.example.org' },
    spec: { group: 'example.org', names: { kind: 'XThing', plural: 'xthings' }, ...spec },
  });

  it('gives a v1 XR (cluster-scoped) and its claim (namespaced), with the served versions', () => {
    expect(
      resourcesOfXrd(
        x('apiextensions.crossplane.io/v1', {
          claimNames: { kind: 'Thing', plural: 'things', singular: 'thingy' },
          versions: [
            { name: 'v1', served: true, referenceable: true },
            { name: 'v1alpha1', served: false, referenceable: false },
            { name: 'v1beta1', referenceable: false },
          ],
        }),
      ),
    ).toStrictEqual([
      {
        group: 'example.org',
        versions: ['v1', 'v1beta1'],
        plural: 'xthings',
        singular: 'xthing',
        kind: 'XThing',
        shortNames: [],
        namespaced: false,
        source: 'xrd',
        xrd: 'xthings.example.org',
      },
      {
        group: 'example.org',
        versions: ['v1', 'v1beta1'],
        plural: 'things',
        singular: 'thingy',
        kind: 'Thing',
        shortNames: [],
        namespaced: true,
        source: 'claim',
        xrd: 'xthings.example.org',
      },
    ]);
  });

  it.each([
    ['apiextensions.crossplane.io/v2', undefined, true],
    ['apiextensions.crossplane.io/v2', 'Namespaced', true],
    ['apiextensions.crossplane.io/v2', 'Cluster', false],
    ['apiextensions.crossplane.io/v2', 'LegacyCluster', false],
    ['apiextensions.crossplane.io/v1', undefined, false],
  ])('%s with scope %s: the XR is namespaced: %s', (apiVersion, scope, namespaced) => {
    const out = resourcesOfXrd(x(apiVersion, scope === undefined ? {} : { scope }));
    // No versions listed: none known.
    expect(out.map((r) => [r.source, r.namespaced, r.versions])).toEqual([['xrd', namespaced, []]]);
  });

  it('skips names without a kind or a plural', () => {
    const sources = (claimNames: NonNullable<Xrd['spec']['claimNames']>) =>
      resourcesOfXrd(x('apiextensions.crossplane.io/v1', { claimNames })).map((r) => r.source);
    expect(sources({ plural: 'things' })).toEqual(['xrd']);
    expect(sources({ kind: 'Thing' })).toEqual(['xrd']);
  });
});

describe('resourcesOfProviderRevision', () => {
  it('knows only the names of what a revision defines: scope unknown', () => {
    expect(resourcesOfProviderRevision(rev('provider-a-1', ['buckets.s3.example.org']))).toStrictEqual([
      {
        group: 's3.example.org',
        versions: [],
        plural: 'buckets',
        singular: '',
        kind: '',
        shortNames: [],
        namespaced: false,
        source: 'provider',
        provider: 'provider-a-1',
        scopeUnknown: true,
      },
    ]);
  });

  it('knows nothing of a revision without status', () => {
    const r = rev('provider-a-1', []);
    delete (r as { status?: unknown }).status;
    expect(resourcesOfProviderRevision(r)).toEqual([]);
  });
});

describe('resourcesFromDiscovery', () => {
  const entry = (over: Partial<DiscoveredResource>): DiscoveredResource => ({
    group: 'apps',
    version: 'v1',
    name: 'deployments',
    singularName: 'deployment',
    kind: 'Deployment',
    namespaced: true,
    shortNames: ['deploy'],
    ...over,
  });

  it('lists resources, not subresources, and falls back to the kind lower-cased for the singular', () => {
    expect(
      resourcesFromDiscovery([
        entry({}),
        entry({ name: 'deployments/scale', kind: 'Scale' }),
        entry({
          group: '',
          name: 'nodes',
          singularName: '',
          kind: 'Node',
          namespaced: false,
          shortNames: [],
        }),
        entry({
          group: 'example.org',
          name: 'things',
          singularName: 'thingy',
          kind: 'Thing',
          shortNames: [],
        }),
      ]),
    ).toStrictEqual([
      {
        group: 'apps',
        versions: ['v1'],
        plural: 'deployments',
        singular: 'deployment',
        kind: 'Deployment',
        shortNames: ['deploy'],
        namespaced: true,
        source: 'discovery',
      },
      {
        group: '',
        versions: ['v1'],
        plural: 'nodes',
        singular: 'node',
        kind: 'Node',
        shortNames: [],
        namespaced: false,
        source: 'discovery',
      },
      {
        group: 'example.org',
        versions: ['v1'],
        plural: 'things',
        singular: 'thingy',
        kind: 'Thing',
        shortNames: [],
        namespaced: true,
        source: 'discovery',
      },
    ]);
  });
});

describe('catalogue', () => {
  it('keeps the first source of a resource, and adds the XRD or provider a later one names', () => {
    const fromDiscovery = known({ source: 'discovery' });
    const out = catalogue(
      [fromDiscovery, known({ plural: 'buckets', source: 'discovery' })],
      [known({ source: 'claim', xrd: 'xthings.example.org', kind: 'Other' })],
      [known({ plural: 'buckets', source: 'provider', provider: 'provider-a-1' })],
      [
        known({ source: 'xrd', xrd: 'other.example.org' }),
        known({ plural: 'buckets', provider: 'provider-b-1' }),
      ],
    );
    expect(out).toStrictEqual([
      { ...fromDiscovery, xrd: 'xthings.example.org', source: 'claim' },
      { ...known({ plural: 'buckets', source: 'discovery' }), provider: 'provider-a-1' },
    ]);
  });
});

describe('resolveResource, the answer in full', () => {
  const cat = [
    known({}),
    known({
      group: '',
      plural: 'events',
      singular: 'event',
      kind: 'Event',
      shortNames: ['ev'],
      source: 'builtin',
    }),
    known({ group: 'events.k8s.io', plural: 'events', singular: 'event', kind: 'Event', source: 'builtin' }),
    known({ group: 'a.example.org', plural: 'widgets', singular: 'widget', kind: 'Widget' }),
    known({ group: 'b.example.org', plural: 'widgets', singular: 'widget', kind: 'Widget' }),
    known({
      group: 's3.example.org',
      plural: 'buckets',
      singular: '',
      kind: '',
      source: 'provider',
      provider: 'p-1',
      scopeUnknown: true,
      namespaced: false,
      versions: [],
    }),
    known({
      plural: 'xthings',
      singular: 'xthing',
      kind: 'XThing',
      source: 'xrd',
      xrd: 'xthings.example.org',
      namespaced: false,
    }),
  ];

  it('answers a non-resource URL as a path', () => {
    expect(resolveResource('/healthz', cat)).toStrictEqual({
      group: '',
      resource: '',
      namespaced: false,
      kind: '',
      source: 'builtin',
      path: '/healthz',
    });
  });

  it('answers a resource with its subresource, kind and source', () => {
    expect(resolveResource('Things.example.org/status', cat)).toStrictEqual({
      group: 'example.org',
      resource: 'things',
      subresource: 'status',
      namespaced: true,
      kind: 'Thing',
      source: 'crd',
    });
  });

  it("names an XR's XRD and a managed resource's provider (scope unknown)", () => {
    expect(resolveResource('xthing', cat)).toStrictEqual({
      group: 'example.org',
      resource: 'xthings',
      namespaced: false,
      kind: 'XThing',
      source: 'xrd',
      xrd: 'xthings.example.org',
    });
    expect(
      resolveResource('buckets.v1.s3.example.org', [...cat.slice(0, 5), { ...cat[5]!, versions: ['v1'] }]),
    ).toStrictEqual({
      group: 's3.example.org',
      resource: 'buckets',
      namespaced: false,
      kind: '',
      source: 'provider',
      provider: 'p-1',
      scopeUnknown: true,
    });
  });

  it('prefers the core group when a core resource shares the name (events)', () => {
    expect(resolveResource('ev', cat).group).toBe('');
    expect(resolveResource('events', cat).group).toBe('');
    expect(resolveResource('events.events.k8s.io', cat).group).toBe('events.k8s.io');
  });

  it('does not take an empty singular or kind for a name, alone or before a group', () => {
    expect(() => resolveResource('.s3.example.org', cat)).toThrow(
      `the server doesn't have a resource type ".s3.example.org"`,
    );
    expect(() => resolveResource('', [known({ singular: '', kind: '' })])).toThrow('invalid resource ""');
  });

  it('takes plural.group with the empty group as the plural alone, as kubectl does', () => {
    expect(resolveResource('events.', cat).group).toBe('');
  });

  const usage = (fn: () => unknown): UsageError => {
    try {
      fn();
    } catch (e) {
      if (e instanceof UsageError) return e;
      throw e;
    }
    throw new Error('no UsageError');
  };

  it('refuses a name two resources of one group answer to, naming each, and says how to choose', () => {
    const e = usage(() =>
      resolveResource('widget', [
        ...cat,
        known({ group: 'a.example.org', plural: 'widgetz', singular: 'widget' }),
      ]),
    );
    expect([e.message, e.hint]).toEqual([
      'resource "widget" is ambiguous: widgets.a.example.org, widgetz.a.example.org',
      'name one with its group, e.g. widgets.a.example.org',
    ]);
    // Two groups: the first in discovery order, as kubectl picks it.
    expect(resolveResource('widget', cat).group).toBe('a.example.org');
  });

  it('refuses an unknown name with the closest known ones, or says where names come from', () => {
    const close = usage(() => resolveResource('evnts', cat));
    expect([close.message, close.hint]).toEqual([
      `the server doesn't have a resource type "evnts"`,
      // Suggestions are the qualified names (a core resource by its plural alone), found by the plural too.
      'did you mean "events", "events.events.k8s.io"?',
    ]);
    const two = usage(() => resolveResource('things.example.orgg', cat));
    expect(two.hint).toBe('did you mean "things.example.org", "xthings.example.org"?');
    // A group's prefix is the group, as kubectl takes it.
    expect(resolveResource('things.example.or', cat).group).toBe('example.org');
    const far = usage(() => resolveResource('qqqqqqqqqqqqqqqq', cat));
    expect(far.hint).toBe(
      'kubectl api-resources lists the served ones; with -f, pass the CRDs and XRDs too (kubectl get crds,xrds -A -o yaml)',
    );
  });

  it('refuses malformed text with the form it takes', () => {
    for (const text of ['things/', 'things/a/b']) {
      const e = usage(() => resolveResource(text, cat));
      expect([e.message, e.hint]).toEqual([
        `invalid resource "${text}"`,
        'use RESOURCE[.GROUP][/SUBRESOURCE], e.g. pods, deployments.apps/scale, buckets.s3.aws.upbound.io',
      ]);
    }
  });
});

describe('resolveResource for impersonate, the answer in full', () => {
  const usage = (text: string): UsageError => {
    try {
      resolveResource(text, [], 'impersonate');
    } catch (e) {
      if (e instanceof UsageError) return e;
      throw e;
    }
    throw new Error('no UsageError');
  };

  it('answers the virtual resources exactly', () => {
    expect(resolveResource('users', [], 'impersonate')).toStrictEqual({
      group: '',
      resource: 'users',
      namespaced: false,
      kind: 'User',
      source: 'builtin',
    });
    expect(resolveResource('userextras.v1.authentication.k8s.io/scopes', [], 'impersonate')).toStrictEqual({
      group: 'authentication.k8s.io',
      resource: 'userextras',
      subresource: 'scopes',
      namespaced: false,
      kind: 'UserExtra',
      source: 'builtin',
    });
  });

  it('takes no group for the core ones: users.v1. is no name', () => {
    expect(() => resolveResource('users.', [], 'impersonate')).toThrow(UsageError);
    expect(() => resolveResource('users.v1.', [], 'impersonate')).toThrow(UsageError);
  });

  it('asks for the key of a user extra', () => {
    const e = usage('userextras');
    expect([e.message, e.hint]).toEqual([
      'impersonating a user extra is authorized per key: give "userextras/KEY"',
      'e.g. userextras/scopes (the key of the Impersonate-Extra-KEY header, lower-cased)',
    ]);
  });

  it('refuses a subresource of the others, quoting the text as given', () => {
    const e = usage('Groups/admins');
    expect([e.message, e.hint]).toEqual([
      '"Groups": impersonating groups has no subresource',
      "which Group is the request's name (who-can impersonate groups NAME), not a subresource",
    ]);
  });
});

describe('GROUP/RESOURCE[/SUBRESOURCE], the alias explain --for took first', () => {
  const known = catalogue(builtinResources(), [
    {
      group: 'platform.acme.io',
      versions: ['v1'],
      plural: 'apps',
      singular: 'app',
      kind: 'App',
      shortNames: [],
      namespaced: true,
      source: 'xrd',
    },
    {
      group: 's3.aws.upbound.io',
      versions: ['v1beta1'],
      plural: 'buckets',
      singular: 'bucket',
      kind: 'Bucket',
      shortNames: [],
      namespaced: false,
      source: 'crd',
    },
  ]);
  const at = (text: string): [string, string, string | undefined] => {
    const r = resolveResource(text, known);
    return [r.group, r.resource, r.subresource];
  };

  it.each([
    ['apps/deployments', ['apps', 'deployments', undefined]],
    ['apps/deployments/scale', ['apps', 'deployments', 'scale']],
    ['core/pods', ['', 'pods', undefined]],
    ['core/pods/log', ['', 'pods', 'log']],
    ['s3.aws.upbound.io/buckets', ['s3.aws.upbound.io', 'buckets', undefined]],
    ['s3.aws.upbound.io/bucket', ['s3.aws.upbound.io', 'buckets', undefined]],
    // kubectl's RESOURCE/SUBRESOURCE stays what it is.
    ['deploy/scale', ['apps', 'deployments', 'scale']],
    ['deployments.apps/scale', ['apps', 'deployments', 'scale']],
    ['apps/status', ['platform.acme.io', 'apps', 'status']],
  ])('%s', (text, want) => {
    expect(at(text)).toEqual(want);
  });

  it.each([
    ['core/buckets', /resource type "buckets"/],
    ['s3.aws.upbound.io/bucketz', /resource type "bucketz.s3.aws.upbound.io"/],
    ['storage.example.io/things', /resource type "things.storage.example.io"/],
  ])('%s resolves to nothing: an error', (text, message) => {
    expect(() => resolveResource(text, known)).toThrow(message);
  });

  it('names the closest resources by their plural too', () => {
    expect(() => resolveResource('buckts', known)).toThrow(UsageError);
    try {
      resolveResource('buckts', known);
    } catch (err) {
      expect((err as UsageError).hint).toBe('did you mean "buckets.s3.aws.upbound.io"?');
    }
  });
});
