import { describe, expect, it } from 'vitest';
import { InvalidSelectorError, formatSelector, matchesSelector } from '../../../src/kube/selector.js';
import type { LabelSelector, Labels } from '../../../src/kube/types.js';

interface MatchCase {
  reason: string;
  selector: LabelSelector;
  labels: Labels | undefined;
  want: boolean;
}

describe('matchesSelector', () => {
  const cases: Record<string, MatchCase> = {
    EmptyMatchesAll: {
      reason: 'An empty selector is labels.Everything.',
      selector: {},
      labels: undefined,
      want: true,
    },
    EmptyListsMatchAll: {
      reason: 'Empty matchLabels and matchExpressions are still empty.',
      selector: { matchLabels: {}, matchExpressions: [] },
      labels: { a: 'b' },
      want: true,
    },
    MatchLabelsEqual: {
      reason: 'Equal value matches.',
      selector: { matchLabels: { a: 'b' } },
      labels: { a: 'b' },
      want: true,
    },
    MatchLabelsDiffer: {
      reason: 'Another value does not.',
      selector: { matchLabels: { a: 'b' } },
      labels: { a: 'c' },
      want: false,
    },
    MatchLabelsMissing: {
      reason: 'A missing key does not.',
      selector: { matchLabels: { a: 'b' } },
      labels: {},
      want: false,
    },
    MatchLabelsAllNeeded: {
      reason: 'Every matchLabels entry must hold.',
      selector: { matchLabels: { a: 'b', c: 'd' } },
      labels: { a: 'b' },
      want: false,
    },
    InMatches: {
      reason: 'In: the value is one of the values.',
      selector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['x', 'y'] }] },
      labels: { a: 'y' },
      want: true,
    },
    InNeedsTheKey: {
      reason: 'In: an object without the key does not match.',
      selector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['x'] }] },
      labels: {},
      want: false,
    },
    NotInWithoutKey: {
      reason: 'NotIn: an object without the key matches.',
      selector: { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'] }] },
      labels: undefined,
      want: true,
    },
    NotInExcluded: {
      reason: 'NotIn: a listed value does not match.',
      selector: { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'] }] },
      labels: { a: 'x' },
      want: false,
    },
    Exists: {
      reason: 'Exists: any value, even empty.',
      selector: { matchExpressions: [{ key: 'a', operator: 'Exists' }] },
      labels: { a: '' },
      want: true,
    },
    DoesNotExist: {
      reason: 'DoesNotExist: the key is absent.',
      selector: { matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] },
      labels: { b: 'x' },
      want: true,
    },
    PrototypeKeysAreNotLabels: {
      reason: 'Keys like constructor are not labels of a plain object.',
      selector: { matchExpressions: [{ key: 'constructor', operator: 'Exists' }] },
      labels: {},
      want: false,
    },
    AndAcrossLabelsAndExpressions: {
      reason: 'matchLabels and matchExpressions are ANDed.',
      selector: { matchLabels: { a: 'b' }, matchExpressions: [{ key: 'c', operator: 'DoesNotExist' }] },
      labels: { a: 'b', c: 'd' },
      want: false,
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(matchesSelector(tc.selector, tc.labels), tc.reason).toBe(tc.want);
  });
});

describe('invalid selectors', () => {
  const cases: Record<string, { reason: string; selector: LabelSelector; message: RegExp }> = {
    UnknownOperator: {
      reason: 'Only In, NotIn, Exists and DoesNotExist exist (case matters).',
      selector: { matchExpressions: [{ key: 'a', operator: 'in', values: ['x'] }] },
      message: /"in" is not a valid label selector operator/,
    },
    InWithoutValues: {
      reason: 'In and NotIn need values.',
      selector: { matchExpressions: [{ key: 'a', operator: 'NotIn' }] },
      message: /values set can't be empty/,
    },
    ExistsWithValues: {
      reason: 'Exists and DoesNotExist take no values.',
      selector: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
      message: /values set must be empty/,
    },
    BadKey: {
      reason: 'Keys are qualified names.',
      selector: { matchLabels: { 'bad key': 'x' } },
      message: /key "bad key"/,
    },
    BadValue: {
      reason: 'Values are label values.',
      selector: { matchLabels: { a: 'not ok' } },
      message: /value "not ok"/,
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(() => matchesSelector(tc.selector, {}), tc.reason).toThrow(InvalidSelectorError);
    expect(() => matchesSelector(tc.selector, {}), tc.reason).toThrow(tc.message);
  });
});

describe('formatSelector', () => {
  it('KubectlForm', () => {
    expect(
      formatSelector({
        matchLabels: { b: '1' },
        matchExpressions: [
          { key: 'd', operator: 'DoesNotExist' },
          { key: 'c', operator: 'In', values: ['y', 'x'] },
          { key: 'a', operator: 'Exists' },
          { key: 'e', operator: 'NotIn', values: ['z'] },
        ],
      }),
    ).toBe('a,b=1,c in (x,y),!d,e notin (z)');
  });
  it('EmptyIsEmpty', () => {
    expect(formatSelector({})).toBe('');
  });
});
