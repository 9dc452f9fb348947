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

describe('the reasons a key or value is refused', () => {
  // apimachinery pkg/util/validation IsQualifiedName (a key: an optional DNS-1123 subdomain prefix of at most 253
  // characters, a name of at most 63) and IsValidLabelValue (at most 63, empty allowed); the messages are theirs.
  const NAME_RULE =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  const VALUE_RULE =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  const PREFIX_RULE = 'prefix part must be a lowercase DNS-1123 subdomain';
  const key = (k: string, why: string): [string, LabelSelector, string | undefined] => [
    k,
    { matchLabels: { [k]: 'v' } },
    why === '' ? undefined : `invalid label selector: key ${JSON.stringify(k)}: ${why}`,
  ];
  const value = (v: string, why: string): [string, LabelSelector, string | undefined] => [
    v,
    { matchLabels: { k: v } },
    why === '' ? undefined : `invalid label selector: value ${JSON.stringify(v)}: ${why}`,
  ];
  const cases: [string, LabelSelector, string | undefined][] = [
    key('a', ''),
    key('example.org/a_b.c-d', ''),
    key(`${'a'.repeat(253)}/a`, ''),
    key(`${'a'.repeat(254)}/a`, PREFIX_RULE),
    key('/a', PREFIX_RULE),
    key('Example.org/a', PREFIX_RULE),
    key('example.org/', 'name part must be non-empty'),
    key('', 'name part must be non-empty'),
    key('a'.repeat(63), ''),
    key('a'.repeat(64), 'name part must be no more than 63 characters'),
    key('-a', NAME_RULE),
    key('a-', NAME_RULE),
    value('', ''),
    value('A_b.c-1', ''),
    value('a'.repeat(63), ''),
    value('a'.repeat(64), 'must be no more than 63 characters'),
    value('-a', VALUE_RULE),
    value('a.', VALUE_RULE),
  ];
  it.each(cases)('%s', (_n, selector, want) => {
    if (want === undefined) expect(() => matchesSelector(selector, {})).not.toThrow();
    else expect(() => matchesSelector(selector, {})).toThrow(new InvalidSelectorError(want));
  });

  it('ErrorName: the error names its class', () => {
    expect(new InvalidSelectorError('x').name).toBe('InvalidSelectorError');
  });
  it('OperatorMessages: the whole message, as the API server words it', () => {
    expect(() =>
      matchesSelector({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, {}),
    ).toThrow(
      new InvalidSelectorError('invalid label selector: "Gt" is not a valid label selector operator'),
    );
    expect(() =>
      matchesSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, {}),
    ).toThrow(
      new InvalidSelectorError(
        "invalid label selector: key \"a\": for 'In', 'NotIn' operators, values set can't be empty",
      ),
    );
    expect(() =>
      matchesSelector({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist', values: ['x'] }] }, {}),
    ).toThrow(
      new InvalidSelectorError(
        "invalid label selector: key \"a\": values set must be empty for 'Exists' and 'DoesNotExist'",
      ),
    );
    expect(() =>
      matchesSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: ['ok', '-bad'] }] }, {}),
    ).toThrow(/value "-bad"/);
  });
});

describe('formatSelector, every operator', () => {
  it('UnknownOperatorAsWritten: a selector not yet validated is shown as it is', () => {
    expect(formatSelector({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['2', '1'] }] })).toBe(
      'a Gt (1,2)',
    );
  });
  it('NoValues: an unknown operator without values shows empty parentheses', () => {
    expect(formatSelector({ matchExpressions: [{ key: 'a', operator: 'Gt' }] })).toBe('a Gt ()');
  });
  it('SameKeyKeepsItsOrder: requirements of one key stay in the order given', () => {
    expect(
      formatSelector({
        matchLabels: { a: '1' },
        matchExpressions: [
          { key: 'a', operator: 'NotIn', values: ['2'] },
          { key: 'a', operator: 'Exists' },
        ],
      }),
    ).toBe('a=1,a notin (2),a');
  });
});
