import { describe, expect, it } from 'vitest';
import { fitRows, foldList, foldMiddle, uniqueItems } from '../../../src/cli/output/fold.js';

const items = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

describe('foldList', () => {
  it('keeps a list that fits, whole', () => {
    expect(foldList(items, 100)).toBe('alpha,beta,gamma,delta,epsilon');
    expect(foldList(items, 'alpha,beta,gamma,delta,epsilon'.length)).toBe('alpha,beta,gamma,delta,epsilon');
  });

  it.each([
    // budget, expected: as many leading items as fit with the count of the rest
    [29, 'alpha,beta,gamma … and 2 more'],
    [28, 'alpha,beta … and 3 more'],
    [24, 'alpha,beta … and 3 more'],
    [23, 'alpha,beta … and 3 more'],
    [22, 'alpha … and 4 more'],
    [5, 'alpha … and 4 more'],
  ])('folds to %i columns: %s', (budget, expected) => {
    expect(foldList(items, budget)).toBe(expected);
    // Never wider than the budget unless one item and the count are already wider.
    if (budget >= 'alpha … and 4 more'.length)
      expect(foldList(items, budget).length).toBeLessThanOrEqual(budget);
  });

  it('shows the item the question was about first', () => {
    expect(foldList(items, 22, (i) => i === 'delta')).toBe('delta … and 4 more');
  });

  it('leaves only the count when not even one item fits, if it may', () => {
    expect(foldList(items, 10, () => false, 'things')).toBe('5 things');
    expect(foldList(items, 20, () => false, 'things')).toBe('alpha … and 4 more');
  });

  it('uniqueItems keeps the first of each', () => {
    expect(uniqueItems(['b', 'a', 'b', 'c', 'a'])).toStrictEqual(['b', 'a', 'c']);
  });
});

describe('foldMiddle', () => {
  it('keeps both ends', () => {
    expect(foldMiddle('crossplane:provider:upbound-provider-aws-s3:aggregate-to-edit', 21)).toBe(
      'crossplane…te-to-edit',
    );
    expect(foldMiddle('short', 10)).toBe('short');
  });
});

describe('fitRows', () => {
  const head = ['NAME', 'LIST', 'OWNER'];
  const rows = [
    ['a', items.join(','), 'someone-with-a-rather-long-name'],
    ['b', 'one', 'x'],
  ];
  const folds = [
    { column: 1, min: 8, shrink: (c: string, w: number) => foldList(c.split(','), w, () => false, 'items') },
    { column: 2, min: 10, shrink: foldMiddle },
  ];
  const widthOf = (r: string[][]): number =>
    [0, 1, 2].map((i) => Math.max(head[i]!.length, ...r.map((x) => x[i]!.length))).reduce((a, b) => a + b) +
    2 * 2;

  it('leaves a table that fits untouched', () => {
    expect(fitRows(head, rows, 200, 2, folds)).toStrictEqual(rows);
  });

  it('folds the first column first, then the next, until the table fits', () => {
    for (const columns of [60, 50, 40, 30]) {
      const out = fitRows(head, rows, columns, 2, folds);
      expect(widthOf(out), String(columns)).toBeLessThanOrEqual(columns);
      expect(out[1]).toStrictEqual(['b', 'one', 'x']);
    }
    // 60 columns leave LIST 21: one item and the count; 50 leave it 11: only the count.
    expect(fitRows(head, rows, 50, 2, folds)[0]?.[1]).toBe('5 items');
    expect(fitRows(head, rows, 60, 2, folds)[0]).toStrictEqual([
      'a',
      'alpha … and 4 more',
      'someone-with-a-rather-long-name',
    ]);
  });

  it('gives what later folds freed back to earlier ones', () => {
    // 40 columns: LIST folds to its minimum, OWNER then folds; LIST takes back what is left.
    const out = fitRows(head, rows, 40, 2, folds);
    expect(widthOf(out)).toBeLessThanOrEqual(40);
    expect(widthOf(out)).toBeGreaterThanOrEqual(38);
  });

  it('stops at the minimums when the terminal is narrower than them', () => {
    const out = fitRows(head, rows, 10, 2, folds);
    expect(out[0]).toStrictEqual(['a', '5 items', 'someo…name']);
  });
});
