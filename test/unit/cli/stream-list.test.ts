import { describe, expect, it } from 'vitest';
import { asList, formatJson, formatYaml } from '../../../src/cli/output/format-data.js';
import { formatListChunks } from '../../../src/cli/output/stream-list.js';
import { printChunks } from '../../../src/cli/output/print-chunks.js';

const role = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name, labels: { 'rbac.crossplane.io/aggregate-to-edit': 'true' }, ...extra },
  rules: [{ apiGroups: ['s3.aws.upbound.io'], resources: ['buckets', 'buckets/status'], verbs: ['*'] }],
});

const cases: Record<string, { items: unknown[]; reason: string }> = {
  Empty: { items: [], reason: 'an empty list prints `items: []`, not a header with nothing under it' },
  One: { items: [role('a')], reason: 'one object' },
  Several: { items: [role('a'), role('b'), { kind: 'Namespace', metadata: {} }], reason: 'several objects' },
  NeedsTheYamlPackage: {
    items: [role('a', { annotations: { note: 'two\nlines', ü: 'é', doc: '--- x', tab: 'a\tb' } }), role('b')],
    reason: 'objects the fast printer gives up on print through the yaml package at the same place',
  },
  NestedAndEmpty: {
    items: [{ a: [[1, 2], []], b: {}, c: null, d: undefined, e: -0, f: 1.5 }],
    reason: 'nested sequences, empty collections, null, undefined fields and numbers',
  },
};

describe('formatListChunks', () => {
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    for (const format of ['yaml', 'json'] as const) {
      const whole = format === 'yaml' ? formatYaml(asList(tc.items)) : formatJson(asList(tc.items));
      expect([...formatListChunks(tc.items, format)].join(''), `${format}: ${tc.reason}`).toBe(whole);
    }
  });

  it.each(Object.entries(cases))("%s, a list without metadata (a fleet run's contexts)", (_name, tc) => {
    const list = { apiVersion: 'v1', kind: 'List', items: tc.items };
    expect([...formatListChunks(tc.items, 'json', false)].join(''), tc.reason).toBe(
      `${JSON.stringify(list, null, 2)}\n`,
    );
    expect([...formatListChunks(tc.items, 'yaml', false)].join(''), tc.reason).toBe(formatYaml(list));
  });
});

describe('printChunks', () => {
  it('WaitsForDrain: a full stream buffer holds the writer until the stream drains', async () => {
    const written: string[] = [];
    const listeners = new Map<string, () => void>();
    const sink = {
      // The buffer is full after each large write.
      write: (text: string): boolean => {
        written.push(text);
        return text.length < 1000;
      },
      once: (event: string, listener: () => void): void => {
        listeners.set(event, listener);
      },
      off: (event: string): void => {
        listeners.delete(event);
      },
    };
    const big = 'x'.repeat(70_000);
    const done = printChunks(sink, [big, big, 'end']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toStrictEqual([big]);
    listeners.get('drain')?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toStrictEqual([big, big]);
    listeners.get('drain')?.();
    await done;
    expect(written.join('')).toBe(`${big}${big}end`);
  });

  it('PlainSinks: a sink without drain events (a test fake) gets everything at once', async () => {
    const written: string[] = [];
    await printChunks({ write: (t: string) => written.push(t) }, ['a', 'b', 'c']);
    expect(written).toStrictEqual(['abc']);
  });
});
