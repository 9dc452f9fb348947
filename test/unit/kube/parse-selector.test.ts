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
