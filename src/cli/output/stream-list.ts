import { asList, formatJson, formatYaml } from './format-data.js';

/**
 * The text of `formatYaml|formatJson(asList(items))`, byte for byte, in one piece per item: a large list is printed
 * without ever holding all of its text. METADATA false: the same list without its `metadata: {}` (the fleet's list
 * of contexts' results).
 */
export function* formatListChunks(
  items: readonly unknown[],
  format: 'yaml' | 'json',
  metadata = true,
): Generator<string> {
  if (items.length === 0) {
    const empty = metadata ? asList([]) : { apiVersion: 'v1', kind: 'List', items: [] };
    yield format === 'yaml' ? formatYaml(empty) : formatJson(empty);
    return;
  }
  if (format === 'yaml') {
    // `items:` holds a block sequence at the list's own indentation, so each item prints as a one-item document.
    yield `apiVersion: v1\nkind: List\n${metadata ? 'metadata: {}\n' : ''}items:\n`;
    for (const item of items) yield formatYaml([item]);
    return;
  }
  const head = '{\n  "items": [\n';
  const tail = '\n  ]\n}';
  yield `{\n  "apiVersion": "v1",\n  "kind": "List",\n${metadata ? '  "metadata": {},\n' : ''}  "items": [\n`;
  let first = true;
  for (const item of items) {
    // The item as it prints inside a list's "items", at the same depth (no re-indenting of its lines).
    const text = JSON.stringify({ items: [item] }, null, 2);
    yield `${first ? '' : ',\n'}${text.slice(head.length, text.length - tail.length)}`;
    first = false;
  }
  yield '\n  ]\n}\n';
}
