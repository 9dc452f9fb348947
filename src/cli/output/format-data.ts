import { stringify } from 'yaml';

/** YAML as kubectl prints it: block style, no line folding, keys in the order given. */
export function formatYaml(value: unknown): string {
  return stringify(value, {
    lineWidth: 0,
    indentSeq: false,
    singleQuote: true,
    aliasDuplicateObjects: false,
  });
}

export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Wraps objects in a `kind: List` as kubectl does for several objects. */
export function asList(items: readonly unknown[]): {
  apiVersion: 'v1';
  kind: 'List';
  metadata: object;
  items: unknown[];
} {
  return { apiVersion: 'v1', kind: 'List', metadata: {}, items: [...items] };
}
