import { describe, expect, it } from 'vitest';
import { preferredResources } from '../../../src/cluster/discovery.js';

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
