// "Did you mean": names within an edit distance of a third of the name's length (at least 2), or containing it (3
// characters or more); the closest first, ties in Go's string order, at most three, none much worse than the best.
import { describe, expect, it } from 'vitest';
import { closeMatches } from '../../../src/kube/did-you-mean.js';

describe('closeMatches', () => {
  const cases: Record<string, { name: string; names: string[]; want: string[]; reason: string }> = {
    ClosestFirst: {
      name: 'pods',
      names: ['services', 'nodes', 'pod', 'pods'],
      want: ['pods', 'pod', 'nodes'],
      reason: 'distances 0, 1 (a deletion) and 2 (p->n, one insertion); services is 4 characters longer',
    },
    TiesInGoOrder: { name: 'x', names: ['b', 'a'], want: ['a', 'b'], reason: 'both one substitution away' },
    AtMostThree: {
      name: 'abcd',
      names: ['abcz', 'abcy', 'abcx', 'abcw'],
      want: ['abcw', 'abcx', 'abcy'],
      reason: 'four at distance 1: the first three in order',
    },
    CaseIgnored: {
      name: 'Pods',
      names: ['PODS', 'jobs'],
      want: ['PODS', 'jobs'],
      reason: 'compared in lower case (0 and 2), named as given',
    },
    LimitGrowsWithLength: {
      name: 'aaaaaaaaaaaa',
      names: ['aaaaaaaaaaab', 'aaaaaaaaabbb', 'aaaaaaaabbbb', 'aaaaaaabbbbb'],
      want: ['aaaaaaaaaaab', 'aaaaaaaaabbb'],
      reason:
        'twelve characters allow distance 4; the best is 1, so 3 is shown, 4 is more than 2 worse and 5 too far',
    },
    LengthDifferenceAtTheLimit: {
      name: 'abcdef',
      names: ['abcdefgh'],
      want: ['abcdefgh'],
      reason: 'two characters more is within the limit of 2 (distance 2)',
    },
    Contained: {
      name: 'bucket',
      names: ['xbucketsclaims'],
      want: ['xbucketsclaims'],
      reason: 'too far by distance, but it contains the name',
    },
    Containing: {
      name: 'xbucketsclaims',
      names: ['bucket'],
      want: ['bucket'],
      reason: 'the name contains it',
    },
    ContainedRanksAfterClose: {
      name: 'bucket',
      names: ['xbucketsclaims', 'bucke'],
      want: ['bucke'],
      reason: 'distance 1 is best; containing scores past the limit (2 + 1 + 8), far worse',
    },
    ShortNamesNotContained: {
      name: 'ab',
      names: ['xxxabxxx'],
      want: [],
      reason: 'a name shorter than three characters is contained in too much',
    },
    TooFar: { name: 'abcdef', names: ['uvwxyz'], want: [], reason: 'six substitutions' },
    JustTooFar: {
      name: 'abcdef',
      names: ['abcxyz', 'abcdxy'],
      want: ['abcdxy'],
      reason: 'distance 3 is past the limit of 2; distance 2 is within',
    },
    Nothing: { name: 'abc', names: [], want: [], reason: 'no names' },
    InsertionAtTheStart: {
      name: 'pods',
      names: ['xpods', 'pod'],
      want: ['pod', 'xpods'],
      reason: 'a character more at the start costs one, as one less at the end: a tie, in order',
    },
    TwoInsertionsAtTheLimit: {
      name: 'abcdef',
      names: ['abxcdyef'],
      want: ['abxcdyef'],
      reason: 'two characters longer, two insertions: within the limit, though not containing the name',
    },
    ThreeCharactersContained: {
      name: 'abc',
      names: ['xxxxxabc'],
      want: ['xxxxxabc'],
      reason: 'three characters are enough to look for the name inside others',
    },
    ContainedWorseThanAClose: {
      name: 'abcdef',
      names: ['abcdxy', 'abcdefghi'],
      want: ['abcdxy'],
      reason: 'distance 2 is the best; containing it, three longer, scores 2 + 1 + 3 = 6, more than 2 worse',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(closeMatches(tc.name, tc.names), tc.reason).toStrictEqual(tc.want);
  });
});
