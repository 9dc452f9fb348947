import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  aggregatedGroups,
  discovered,
  isAggregatedDiscovery,
  preferredResources,
} from '../../../src/cluster/discovery.js';
import { fixturePath } from '../../support/fixtures.js';

// client-go's ServerPreferredResources (kubernetes/client-go discovery/discovery_client.go): for each group, its
// versions in discovery order; a GroupResource already chosen is overridden only by the preferred version.
const r = (name: string, version: string) => ({
  group: 'apiextensions.crossplane.io',
  version,
  name,
  singularName: '',
  kind: name,
  namespaced: false,
  shortNames: [],
});

describe('preferredResources', () => {
  it('KeepsAResourceOnlyAnOlderVersionServes', () => {
    // Crossplane v2: XRDs in v2 (preferred) and v1, Compositions in v1 only.
    const v2 = [r('compositeresourcedefinitions', 'v2')];
    const v1 = [r('compositeresourcedefinitions', 'v1'), r('compositions', 'v1')];
    expect(preferredResources([v2, v1], 'v2').map((x) => `${x.name}/${x.version}`)).toStrictEqual([
      'compositeresourcedefinitions/v2',
      'compositions/v1',
    ]);
  });

  it('ThePreferredVersionWinsWhereverItIsListed', () => {
    const v1 = [r('a', 'v1'), r('b', 'v1')];
    const v1beta1 = [r('a', 'v1beta1'), r('c', 'v1beta1')];
    const v2 = [r('b', 'v2')];
    // Preferred listed last: it still wins for b; a stays with the first version that served it.
    expect(preferredResources([v1, v1beta1, v2], 'v2').map((x) => `${x.name}/${x.version}`)).toStrictEqual([
      'a/v1',
      'b/v2',
      'c/v1beta1',
    ]);
  });
});

// Kubernetes' own discovery documents (test/fixtures/README.md): apps/v1 in the legacy format, and an excerpt of the
// aggregated list. Read by the plugin's two readers, they must give the same resources.
const goldenJson = (name: string): unknown =>
  JSON.parse(readFileSync(fixturePath('kubernetes', 'discovery', name), 'utf8')) as unknown;

describe('aggregated discovery (apidiscovery.k8s.io/v2)', () => {
  it('reads apps/v1 as the legacy list of the same API reads, but for the subresources singular name', () => {
    const groups = aggregatedGroups(goldenJson('aggregated_v2-excerpt.json'));
    const apps = groups.find((g) => g.name === 'apps');
    const legacy = discovered('apps', 'v1', goldenJson('apis__apps__v1.json'));
    expect(legacy).toHaveLength(12);
    // client-go's convertAPISubresource gives a subresource its parent's singular name; the legacy list has ''.
    const singular = new Map(
      legacy.filter((x) => !x.name.includes('/')).map((x) => [x.name, x.singularName]),
    );
    const asAggregated = legacy.map((x) =>
      x.name.includes('/') ? { ...x, singularName: singular.get(x.name.split('/')[0] ?? '') ?? '' } : x,
    );
    // Verbs aside: the two documents of the fixture list deployments' differently (the aggregated one adds watch).
    const noVerbs = (xs: readonly object[] | undefined): object[] =>
      (xs ?? []).map((x) => Object.fromEntries(Object.entries(x).filter(([k]) => k !== 'verbs')));
    expect(noVerbs(apps?.resources?.get('v1'))).toStrictEqual(noVerbs(asAggregated));
    // The verbs each lists (the unknown-verb warning knows them), as Kubernetes serves them for deployments/scale.
    expect(legacy.find((x) => x.name === 'deployments/scale')?.verbs).toStrictEqual([
      'get',
      'patch',
      'update',
    ]);
    expect(apps?.versions).toStrictEqual(['v1']);
  });

  it('takes the first version as preferred, in the server order, and skips stale ones', () => {
    const doc = goldenJson('aggregated_v2-excerpt.json') as {
      items: { metadata: { name: string }; versions: { version: string; freshness: string }[] }[];
    };
    const byName = (list: unknown) => new Map(aggregatedGroups(list).map((g) => [g.name, g]));
    const groups = byName(doc);
    expect(groups.get('autoscaling')?.versions).toStrictEqual(['v2', 'v1']);
    expect(groups.get('autoscaling')?.preferred).toBe('v2');
    expect(groups.get('authentication.k8s.io')?.versions).toStrictEqual(['v1', 'v1beta1', 'v1alpha1']);
    const stale = structuredClone(doc);
    const autoscaling = stale.items.find((i) => i.metadata.name === 'autoscaling');
    if (autoscaling?.versions[0] !== undefined) autoscaling.versions[0].freshness = 'Stale';
    const after = byName(stale).get('autoscaling');
    expect(after?.versions).toStrictEqual(['v1']);
    expect(after?.preferred).toBe('v1');
    expect(after?.resources?.has('v2')).toBe(false);
  });

  it('leaves out a resource without a responseKind, keeping its subresources that have one', () => {
    const list = {
      items: [
        {
          metadata: { name: 'example.io' },
          versions: [
            {
              version: 'v1',
              freshness: 'Current',
              resources: [
                {
                  resource: 'things',
                  scope: 'Namespaced',
                  singularResource: 'thing',
                  responseKind: { group: '', version: '', kind: '' },
                  subresources: [
                    { subresource: 'status', responseKind: { group: '', version: '', kind: 'Thing' } },
                    { subresource: 'scale' },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(aggregatedGroups(list)[0]?.resources?.get('v1')).toStrictEqual([
      {
        group: 'example.io',
        version: 'v1',
        name: 'things/status',
        singularName: 'thing',
        kind: 'Thing',
        namespaced: true,
        shortNames: [],
      },
    ]);
  });

  it('knows the aggregated list by its Content-Type, as client-go ContentTypeIsGVK', () => {
    const cases: readonly [string | undefined, boolean][] = [
      // client-go's own examples (discovery_client.go ContentTypeIsGVK).
      ['application/json; g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList', true],
      ['application/json; as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io', true],
      ['application/json; as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io;charset=utf-8', true],
      ['application/json', false],
      ['application/json; charset=UTF-8', false],
      ['malformed content type string', false],
      // v2beta1, which servers 1.26-1.29 answer and kubectl 1.32 still reads.
      ['application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList', true],
      ['application/json;g=apidiscovery.k8s.io;v=v1;as=APIGroupDiscoveryList', false],
      ['application/json;g=meta.k8s.io;v=v1;as=PartialObjectMetadataList', false],
      ['Application/JSON;G=apidiscovery.k8s.io;V=v2;AS=APIGroupDiscoveryList', true],
      [undefined, false],
    ];
    for (const [type, want] of cases) expect(isAggregatedDiscovery(type), String(type)).toBe(want);
  });
});
