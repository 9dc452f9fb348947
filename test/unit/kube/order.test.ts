// The orders Kubernetes and Crossplane sort names in: Go compares strings byte by byte (UTF-8), which is code-point
// order; JavaScript's `<` compares UTF-16 code units, which differs only where a surrogate pair meets a character
// from U+E000 to U+FFFF (the pair's code point is above U+FFFF, its first unit below U+E000).
import { describe, expect, it } from 'vitest';
import { compareNames, compareStrings, sortNames } from '../../../src/kube/order.js';

describe('compareStrings', () => {
  it('ByteOrder: -1, 0 or 1, as sort.Strings', () => {
    expect(compareStrings('a', 'b')).toBe(-1);
    expect(compareStrings('b', 'a')).toBe(1);
    expect(compareStrings('a', 'a')).toBe(0);
    expect(compareStrings('B', 'a')).toBe(-1);
  });
});

describe('compareNames', () => {
  const cases: Record<string, { a: string; b: string; sign: -1 | 0 | 1; reason: string }> = {
    Less: { a: 'a', b: 'b', sign: -1, reason: 'plain ASCII' },
    Greater: { a: 'b', b: 'a', sign: 1, reason: 'plain ASCII' },
    Equal: { a: 'abc', b: 'abc', sign: 0, reason: 'the same string' },
    PrefixFirst: { a: 'ab', b: 'abc', sign: -1, reason: 'a prefix sorts first' },
    LongerLast: { a: 'abc', b: 'ab', sign: 1, reason: 'either way round' },
    AstralAfterPrivateUse: {
      a: '\u{10000}',
      b: '\uE000',
      sign: 1,
      reason: 'U+10000 (UTF-8 F0 90 80 80, first UTF-16 unit D800) sorts after U+E000 (EE 80 80)',
    },
    PrivateUseBeforeAstral: { a: '\uE000', b: '\u{10000}', sign: -1, reason: 'either way round' },
    AstralAfterFFFF: {
      a: '\u{10FC00}',
      b: '\uFFFF',
      sign: 1,
      reason: 'U+10FC00 (first unit DBFF) sorts after U+FFFF',
    },
    TwoAstralByLowUnit: {
      a: '\u{10FFFF}',
      b: '\u{10FC00}',
      sign: 1,
      reason: 'two astral characters with the same high surrogate compare by the low one (DFFF > DC00)',
    },
    TwoAstralByLowUnitLess: {
      a: '\u{10FC00}',
      b: '\u{10FFFF}',
      sign: -1,
      reason: 'either way round (DC00 < DFFF)',
    },
    TwoAstralLess: {
      a: '\u{1F600}',
      b: '\u{1F601}',
      sign: -1,
      reason: 'code-point order among astral characters',
    },
    BmpByCodeUnit: {
      a: '\uD7FF',
      b: '\uE000',
      sign: -1,
      reason: 'outside the surrogate range, code-unit order',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(Math.sign(compareNames(tc.a, tc.b)), tc.reason).toBe(tc.sign);
  });
});

describe('sortNames', () => {
  it('GoOrderWithSurrogates: an astral character sorts after U+FFFF', () => {
    expect(sortNames(['\u{1F600}', '\uFFFD', 'b', 'a'])).toStrictEqual(['a', 'b', '\uFFFD', '\u{1F600}']);
  });
  it('AsciiOrder: upper case before lower case, prefixes first', () => {
    expect(sortNames(['b', 'ab', 'a', 'B', 'a'])).toStrictEqual(['B', 'a', 'a', 'ab', 'b']);
  });
  it('SortsInPlace: the array it was given, sorted', () => {
    const names = ['c', 'a', 'b'];
    expect(sortNames(names)).toBe(names);
    expect(names).toStrictEqual(['a', 'b', 'c']);
  });
});
