// The schema language of the fields the plugin reads: each value checked against its shape, the first wrong field
// named by its path (dotted for plain keys, quoted in brackets for keys such as labels).
import { describe, expect, it } from 'vitest';
import { checkShape, describeValue, fields, list, map, type Shape } from '../../../src/kube/shape.js';

describe('describeValue', () => {
  const cases: [unknown, string][] = [
    [undefined, 'nothing'],
    [null, 'null'],
    [[], 'a list'],
    [{}, 'a mapping'],
    ['', 'an empty string'],
    ['x', 'a string'],
    [7, 'a number'],
    [true, 'a boolean'],
  ];
  it.each(cases)('%j is %s', (v, want) => {
    expect(describeValue(v)).toBe(want);
  });
});

describe('checkShape', () => {
  const role: Shape = fields(
    {
      metadata: fields({ name: 'string', labels: map('string') }, ['name']),
      rules: list(fields({ verbs: list('string') })),
      enabled: 'boolean',
      count: 'number',
    },
    ['metadata'],
  );
  const cases: Record<string, { value: unknown; want: { field: string; problem: string } | undefined }> = {
    Valid: {
      value: {
        metadata: { name: 'r', labels: { a: 'b' } },
        rules: [{ verbs: ['get'] }],
        enabled: true,
        count: 1,
      },
      want: undefined,
    },
    AbsentOptionalFields: { value: { metadata: { name: 'r' } }, want: undefined },
    RequiredMissing: { value: {}, want: { field: 'metadata', problem: 'metadata is required' } },
    NestedRequiredMissing: {
      value: { metadata: {} },
      want: { field: 'metadata.name', problem: 'metadata.name is required' },
    },
    NotAString: {
      value: { metadata: { name: 7 } },
      want: { field: 'metadata.name', problem: 'metadata.name must be a string, found a number' },
    },
    NotABoolean: {
      value: { metadata: { name: 'r' }, enabled: 'yes' },
      want: { field: 'enabled', problem: 'enabled must be true or false, found a string' },
    },
    NotANumber: {
      value: { metadata: { name: 'r' }, count: '1' },
      want: { field: 'count', problem: 'count must be a number, found a string' },
    },
    NotAList: {
      value: { metadata: { name: 'r' }, rules: {} },
      want: { field: 'rules', problem: 'rules must be a list, found a mapping' },
    },
    ListEntry: {
      value: { metadata: { name: 'r' }, rules: [{ verbs: ['get'] }, { verbs: ['get', 5] }] },
      want: { field: 'rules[1].verbs[1]', problem: 'rules[1].verbs[1] must be a string, found a number' },
    },
    NotAMapping: {
      value: { metadata: [] },
      want: { field: 'metadata', problem: 'metadata must be a mapping, found a list' },
    },
    NullMapping: {
      value: { metadata: null },
      want: { field: 'metadata', problem: 'metadata must be a mapping, found null' },
    },
    MapValueQuotedKey: {
      value: { metadata: { name: 'r', labels: { ok: 'x', 'app.kubernetes.io/name': 1 } } },
      want: {
        field: 'metadata.labels["app.kubernetes.io/name"]',
        problem: 'metadata.labels["app.kubernetes.io/name"] must be a string, found a number',
      },
    },
    MapValuePlainKey: {
      value: { metadata: { name: 'r', labels: { _a1: false } } },
      want: {
        field: 'metadata.labels._a1',
        problem: 'metadata.labels._a1 must be a string, found a boolean',
      },
    },
    MapNotAMapping: {
      value: { metadata: { name: 'r', labels: 'a=b' } },
      want: { field: 'metadata.labels', problem: 'metadata.labels must be a mapping, found a string' },
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(checkShape(tc.value, role, '')).toStrictEqual(tc.want);
  });

  it('RootKeysNeedNoDot: a quoted key at the root has no path before it', () => {
    expect(checkShape({ 'a-b': 1 }, map('string'), '')).toStrictEqual({
      field: '["a-b"]',
      problem: '["a-b"] must be a string, found a number',
    });
    expect(checkShape({ '1a': 1 }, map('string'), 'x')).toStrictEqual({
      field: 'x["1a"]',
      problem: 'x["1a"] must be a string, found a number',
    });
  });

  it('ShapeWithoutRequiredList: a fields shape written without required requires nothing', () => {
    expect(checkShape({}, { fields: { a: 'string' } }, 'o')).toBeUndefined();
  });
  it('FieldsWithoutRequired: fields() without a required list requires nothing', () => {
    expect(checkShape({}, fields({ a: 'string' }), 'o')).toBeUndefined();
  });
});
