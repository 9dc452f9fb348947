import { stringify } from 'yaml';
import { formatPlainYaml } from './plain-yaml.js';

/** YAML as kubectl prints it: block style, no line folding, keys in the order given. */
export function formatYaml(value: unknown): string {
  // Plain data (nearly everything) takes the fast printer; it gives up, to the yaml package, on what it cannot match.
  return (
    formatPlainYaml(value) ??
    stringify(value, {
      lineWidth: 0,
      indentSeq: false,
      singleQuote: true,
      aliasDuplicateObjects: false,
    })
  );
}

export { formatJson } from './format-json.js';

/** Wraps objects in a `kind: List` as kubectl does for several objects. */
export function asList(items: readonly unknown[]): {
  apiVersion: 'v1';
  kind: 'List';
  metadata: object;
  items: unknown[];
} {
  return { apiVersion: 'v1', kind: 'List', metadata: {}, items: [...items] };
}
