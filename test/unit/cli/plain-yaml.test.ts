import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { formatPlainYaml } from '../../../src/cli/output/plain-yaml.js';
import { prng as random } from '../explain/helpers.js';

/** What formatYaml asks of the yaml package; the fast printer must give exactly this. */
const reference = (value: unknown): string =>
  stringify(value, { lineWidth: 0, indentSeq: false, singleQuote: true, aliasDuplicateObjects: false });

/** Strings that hit every branch of YAML's quoting rules, and pieces to build more from. */
const TRICKY = [
  '',
  ' ',
  'a b',
  'a: b',
  'a:b',
  'a:',
  ':a',
  'a #b',
  'a#b',
  '#a',
  '- a',
  '-a',
  '-',
  '?',
  '? a',
  '?a',
  'a ',
  ' a',
  "it's",
  'say "hi"',
  `'"`,
  '*',
  '*a',
  '&a',
  '!a',
  '|',
  '>',
  '%a',
  '@a',
  '`a',
  '[a]',
  '{a}',
  'a,b',
  ',a',
  'null',
  'Null',
  'NULL',
  'nUll',
  '~',
  'true',
  'True',
  'tRue',
  'false',
  'FALSE',
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  '0',
  '1',
  '-1',
  '+1',
  '007',
  '0o17',
  '0o8',
  '0x1F',
  '0xg',
  '1.5',
  '1.',
  '.5',
  '.',
  '1e3',
  '1E-3',
  '.5e+2',
  '1e',
  'e3',
  '.inf',
  '-.Inf',
  '+.INF',
  '.nan',
  '.NaN',
  'NaN',
  'inf',
  '1_000',
  '1:20',
  '2026-01-12',
  '2026-01-12T14:05:00Z',
  '---',
  '--- a',
  '...',
  'a---',
  'rbac.authorization.k8s.io/v1',
  'crossplane:provider:x-1:aggregate-to-edit',
  '*/finalizers',
  'a\nb',
  'tab\there',
  'ünïcode',
  'x'.repeat(1030),
];
const PIECES = [
  'a',
  'Z',
  '0',
  '9',
  ' ',
  ':',
  '#',
  '-',
  '?',
  "'",
  '"',
  '.',
  '/',
  '_',
  '~',
  'e',
  '+',
  'x',
  'o',
  '*',
];

function randomString(next: () => number): string {
  if (next() < 0.5) return TRICKY[Math.floor(next() * TRICKY.length)] ?? '';
  const n = Math.floor(next() * 6);
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)] ?? '';
  return s;
}

function randomValue(next: () => number, depth: number): unknown {
  const r = next();
  if (depth > 0 && r < 0.3) {
    const o: Record<string, unknown> = {};
    const n = Math.floor(next() * 5);
    for (let i = 0; i < n; i++) o[randomString(next)] = randomValue(next, depth - 1);
    if (next() < 0.05) o.gone = undefined;
    return o;
  }
  if (depth > 0 && r < 0.55)
    return Array.from({ length: Math.floor(next() * 5) }, () => randomValue(next, depth - 1));
  if (r < 0.85) return randomString(next);
  if (r < 0.9) return next() < 0.5;
  if (r < 0.95) return null;
  const numbers = [0, -0, 1, -7, 3.25, 1e21, 1e-7, 123456789012, Number.NaN, Number.POSITIVE_INFINITY];
  return numbers[Math.floor(next() * numbers.length)];
}

describe('formatPlainYaml', () => {
  it('PrintsWhatTheYamlPackagePrints: random plain data, tricky strings included', () => {
    let covered = 0;
    const runs = 3000;
    for (let seed = 1; seed <= runs; seed++) {
      const next = random(seed);
      const value = next() < 0.5 ? randomValue(next, 4) : [randomValue(next, 4), randomValue(next, 3)];
      const got = formatPlainYaml(value);
      if (got === undefined) continue;
      covered++;
      expect(got, `seed ${String(seed)}: ${JSON.stringify(value)}`).toBe(reference(value));
    }
    // The printer must really cover most data, not give up on everything.
    expect(covered).toBeGreaterThan(runs / 3);
  });

  it('PrintsEachTrickyStringAsKeyAndValue', () => {
    for (const s of TRICKY) {
      for (const value of [
        { [s]: s },
        [s],
        { k: [s, { [s]: [s] }] },
        [[s, s], []],
        { a: {}, b: [], [s]: null },
      ]) {
        const got = formatPlainYaml(value);
        if (got !== undefined) expect(got, JSON.stringify(value)).toBe(reference(value));
      }
    }
  });

  it('CoversRenderedObjects: Kubernetes objects never need the yaml package', () => {
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {
        labels: { 'rbac.crossplane.io/aggregate-to-edit': 'true' },
        name: 'crossplane:provider:provider-aws-s3-1234:aggregate-to-edit',
        ownerReferences: [{ apiVersion: 'pkg.crossplane.io/v1', controller: true, kind: 'ProviderRevision' }],
      },
      rules: [{ apiGroups: [''], resources: ['*/finalizers', 'secrets'], verbs: ['*'] }],
      empty: {},
      none: [],
      n: 5,
    };
    const got = formatPlainYaml(role);
    expect(got).toBeDefined();
    expect(got).toBe(reference(role));
  });

  it('GivesUpOnWhatItDoesNotCover: multi-line, non-ASCII, document markers, non-finite numbers, scalars', () => {
    for (const value of [
      { a: 'x\ny' },
      { a: 'ü' },
      ['--- a'],
      { a: Number.NaN },
      [undefined],
      { a: new Date(0) },
      'scalar',
      { ['k'.repeat(1100)]: 1 },
    ]) {
      expect(formatPlainYaml(value), JSON.stringify(value)).toBeUndefined();
    }
  });
});
