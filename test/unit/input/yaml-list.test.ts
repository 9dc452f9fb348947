import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_SCHEMA, dump, load, loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseManifests } from '../../../src/input/read-manifests.js';
import { itemText, splitList } from '../../../src/input/yaml-list.js';

const examples = join(import.meta.dirname, '..', '..', '..', 'examples', 'cluster');
const exampleObjects = readdirSync(examples)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((f) => loadAll(readFileSync(join(examples, f), 'utf8'), null, { schema: CORE_SCHEMA }))
  .filter((o): o is Record<string, unknown> => typeof o === 'object' && o !== null);

/** A List as kubectl prints one: keys in order, `items:` a sequence at column 0, kind and metadata after it. */
function kubectlList(items: readonly unknown[]): string {
  return dump(
    { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } },
    { noArrayIndent: true, noRefs: true },
  );
}

/** What js-yaml makes of the whole text, with null fields dropped as the API server drops them: the reference. */
function reference(text: string): unknown[] {
  const drop = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(drop);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== null)
        .map(([k, x]) => [k, drop(x)]),
    );
  };
  const [doc] = loadAll(text, null, { schema: CORE_SCHEMA }) as [{ items: unknown[] }];
  return doc.items.map(drop);
}

const tricky = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'tricky',
    namespace: 'default',
    annotations: { note: 'line one\n\n- not an item\n  indented\n' },
  },
  data: {
    script: '#!/bin/sh\n# a comment inside a block scalar\n- still text\n',
    empty: '',
    quoted: 'it\'s "quoted"',
  },
};

const cases: { name: string; reason: string; text: string }[] = [
  {
    name: 'ExampleCluster',
    reason: 'every object of examples/cluster as one kubectl List',
    text: kubectlList(exampleObjects),
  },
  {
    name: 'BlockScalarsThatLookLikeItems',
    reason:
      'lines of a block scalar that start with "- " or "#" are indented, so they stay inside their item',
    text: kubectlList([tricky, ...exampleObjects.slice(0, 3), tricky]),
  },
  {
    name: 'NullFieldsAndCRLF',
    reason: 'null fields are dropped item by item as for the whole text; CRLF line ends parse the same',
    text: kubectlList(exampleObjects.slice(0, 5).map((o) => ({ ...o, status: null }))).replace(/\n/g, '\r\n'),
  },
];

describe('a kubectl List parsed item by item', () => {
  it.each(cases)('$name', ({ text }) => {
    // The split itself: each item's text is a document that parses to that item (not a fallback to the whole).
    const split = splitList(text);
    const [doc] = loadAll(text, null, { schema: CORE_SCHEMA }) as [{ items: unknown[] }];
    expect(split?.items.map((r) => load(itemText(text, r), { schema: CORE_SCHEMA }))).toStrictEqual(
      doc.items,
    );
    expect(load(split?.head ?? '', { schema: CORE_SCHEMA })).toStrictEqual(
      Object.fromEntries(Object.entries(doc).filter(([k]) => k !== 'items')),
    );
    const byItem = parseManifests(text, 'list.yaml', { splitListMinChars: 0 });
    const whole = parseManifests(text, 'list.yaml', { splitListMinChars: Number.POSITIVE_INFINITY });
    expect(byItem).toStrictEqual(whole);
    expect(byItem).toStrictEqual(reference(text));
  });

  const fallbacks: { name: string; reason: string; text: string }[] = [
    {
      name: 'AliasAcrossItems',
      reason: 'an alias to an anchor in another item only resolves in the whole text',
      text: 'apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Namespace\n  metadata: &m\n    name: a\n- apiVersion: v1\n  kind: Namespace\n  metadata:\n    name: b\n    labels: {}\n  spec: *m\nkind: List\n',
    },
    {
      name: 'IndentedSequence',
      reason: 'items indented under the key are not the shape the split takes',
      text: 'apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: a\n',
    },
    {
      name: 'TwoDocuments',
      reason: 'a second document is left to the whole parser',
      text: 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Namespace\n  metadata:\n    name: a\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: b\n',
    },
  ];
  it.each(fallbacks)('$name: the same objects as the whole text', ({ text }) => {
    expect(parseManifests(text, 'f.yaml', { splitListMinChars: 0 })).toStrictEqual(
      parseManifests(text, 'f.yaml', { splitListMinChars: Number.POSITIVE_INFINITY }),
    );
  });

  it('MalformedItem: the error names the line in the whole file, as without the split', () => {
    const text = kubectlList(exampleObjects.slice(0, 3)).replace(
      /\nkind: List\n/,
      '\n- a: [unclosed\nkind: List\n',
    );
    const error = (min: number): string => {
      try {
        parseManifests(text, 'bad.yaml', { splitListMinChars: min });
        return 'no error';
      } catch (err) {
        return String(err);
      }
    };
    expect(error(0)).toMatch(/malformed YAML\/JSON in bad\.yaml at line \d+/);
    expect(error(0)).toBe(error(Number.POSITIVE_INFINITY));
  });
});
