import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { matchesSelector } from '../../../src/kube/selector.js';
import { parseLabelSelector } from '../../../src/kube/parse-selector.js';
import type { LabelSelector } from '../../../src/kube/types.js';

describe('parseLabelSelector', () => {
  const cases: Record<string, { text: string; want: LabelSelector; reason: string }> = {
    Equality: {
      text: 'team=a',
      want: { matchLabels: { team: 'a' } },
      reason: 'key=value is an equality requirement, kept as matchLabels',
    },
    DoubleEquals: {
      text: 'team==a, env = dev',
      want: { matchLabels: { team: 'a', env: 'dev' } },
      reason: '== means = and blanks around the operator are allowed',
    },
    NotEqual: {
      text: 'team!=a',
      want: { matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['a'] }] },
      reason: '!= is NotIn with one value',
    },
    SetBased: {
      text: 'acme.io/team in (a, b),env notin (prod)',
      want: {
        matchExpressions: [
          { key: 'acme.io/team', operator: 'In', values: ['a', 'b'] },
          { key: 'env', operator: 'NotIn', values: ['prod'] },
        ],
      },
      reason: 'commas inside parentheses separate values, not requirements',
    },
    ExistsAndNot: {
      text: 'frozen,!gone',
      want: {
        matchExpressions: [
          { key: 'frozen', operator: 'Exists' },
          { key: 'gone', operator: 'DoesNotExist' },
        ],
      },
      reason: 'a bare key means Exists and !key DoesNotExist',
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(parseLabelSelector(tc.text), tc.reason).toStrictEqual(tc.want);
  });

  const bad: Record<string, { text: string; reason: string }> = {
    Empty: { text: '', reason: 'an empty selector selects nothing useful here' },
    EmptyPart: { text: 'a=b,,c', reason: 'an empty requirement is a typo' },
    EmptySet: { text: 'a in ()', reason: 'in needs values' },
    Garbage: { text: 'a b c', reason: 'not a requirement' },
    GreaterThan: { text: 'a>1', reason: 'gt/lt are not supported for namespaces' },
  };
  it.each(Object.entries(bad))('rejects %s', (_name, tc) => {
    expect(() => parseLabelSelector(tc.text), tc.reason).toThrow(UsageError);
  });

  it('selects like Kubernetes when combined with matchesSelector', () => {
    const sel = parseLabelSelector('team in (a,b),!frozen,env!=prod');
    expect(matchesSelector(sel, { team: 'a' })).toBe(true);
    expect(matchesSelector(sel, { team: 'b', env: 'dev' })).toBe(true);
    expect(matchesSelector(sel, { team: 'a', env: 'prod' })).toBe(false);
    expect(matchesSelector(sel, { team: 'a', frozen: '' })).toBe(false);
    expect(matchesSelector(sel, { team: 'c' })).toBe(false);
  });
});

describe('parseLabelSelector: where each requirement starts and ends', () => {
  // kubectl's selector grammar (k8s.io/apimachinery pkg/labels/selector.go Parse): blanks between tokens, none inside
  // a key; set-based values in parentheses; a comma inside them separates values, not requirements.
  const ok: Record<string, { text: string; want: LabelSelector }> = {
    BlanksBeforeIn: {
      text: 'a  in (b)',
      want: { matchExpressions: [{ key: 'a', operator: 'In', values: ['b'] }] },
    },
    NoBlankBeforeParen: {
      text: 'a in(b)',
      want: { matchExpressions: [{ key: 'a', operator: 'In', values: ['b'] }] },
    },
    BlanksAroundNotEqual: {
      text: 'a != b',
      want: { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['b'] }] },
    },
    SameKeyTwoValues: {
      text: 'a=1,a=2',
      want: { matchLabels: { a: '1' }, matchExpressions: [{ key: 'a', operator: 'In', values: ['2'] }] },
    },
    SameKeySameValue: { text: 'a=1,a==1', want: { matchLabels: { a: '1' } } },
    BlankAfterNot: { text: '! a', want: { matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] } },
  };
  it.each(Object.entries(ok))('%s', (_n, tc) => {
    expect(parseLabelSelector(tc.text)).toStrictEqual(tc.want);
  });

  const bad: Record<string, { text: string; why: string }> = {
    Empty: { text: '', why: 'it is empty' },
    Blank: { text: '  ', why: 'it is empty' },
    TrailingComma: { text: 'a,', why: 'it has an empty requirement' },
    EmptyBetween: { text: 'a,,b', why: 'it has an empty requirement' },
    NoValues: { text: 'k in ( , )', why: '"k in" needs at least one value' },
    TwoWordsBeforeIn: { text: 'a b in (c)', why: 'cannot parse "a b in (c)"' },
    AfterTheParenthesis: { text: 'a in (b)c', why: 'cannot parse "a in (b)c"' },
    TwoWordsBeforeNotEqual: { text: 'x y!=z', why: 'cannot parse "x y!=z"' },
    AfterNotEqual: { text: 'a!=b c', why: 'cannot parse "a!=b c"' },
    TwoWordsBeforeEqual: { text: 'x y=z', why: 'cannot parse "x y=z"' },
    AfterEqual: { text: 'a=b c', why: 'cannot parse "a=b c"' },
    WordBeforeNot: { text: 'x !y', why: 'cannot parse "x !y"' },
    AfterNot: { text: '!a b', why: 'cannot parse "!a b"' },
    NestedParentheses: { text: 'a in ((b),c)', why: 'cannot parse "a in ((b),c)"' },
    ClosingFirst: { text: 'a),b', why: 'cannot parse "a)"' },
  };
  it.each(Object.entries(bad))('%s', (_n, tc) => {
    let err: unknown;
    try {
      parseLabelSelector(tc.text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe(`invalid selector "${tc.text}": ${tc.why}`);
    expect((err as UsageError).hint).toBe(
      'use kubectl selector syntax, e.g. -l team=a,env in (dev,test),!frozen',
    );
  });
});
