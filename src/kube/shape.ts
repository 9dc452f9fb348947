/** A small schema language for the fields the plugin reads of an object, and the check of a value against it. */

export type Shape =
  | 'string'
  | 'boolean'
  | 'number'
  | { readonly list: Shape }
  | { readonly map: Shape }
  | { readonly fields: Readonly<Record<string, Shape>>; readonly required?: readonly string[] };

export const list = (of: Shape): Shape => ({ list: of });
export const map = (of: Shape): Shape => ({ map: of });
export const fields = (f: Readonly<Record<string, Shape>>, required: readonly string[] = []): Shape => ({
  fields: f,
  required,
});

/** What a value is, for "found ..." in messages: "a string", "a list", "null", and "nothing" when it is absent. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return v === '' ? 'an empty string' : 'a string';
  return `a ${typeof v}`;
}

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

function child(path: string, key: string): string {
  if (SIMPLE_KEY.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

export interface Problem {
  readonly field: string;
  readonly problem: string;
}

function wrongType(path: string, want: string, found: unknown): Problem {
  return { field: path, problem: `${path} must be ${want}, found ${describeValue(found)}` };
}

/** The first field of `value` that does not have the type `shape` wants (absent optional fields are fine). */
export function checkShape(value: unknown, shape: Shape, path: string): Problem | undefined {
  if (shape === 'string') return typeof value === 'string' ? undefined : wrongType(path, 'a string', value);
  if (shape === 'boolean')
    return typeof value === 'boolean' ? undefined : wrongType(path, 'true or false', value);
  if (shape === 'number') return typeof value === 'number' ? undefined : wrongType(path, 'a number', value);
  if ('list' in shape) {
    if (!Array.isArray(value)) return wrongType(path, 'a list', value);
    for (let i = 0; i < value.length; i++) {
      const p = checkShape(value[i], shape.list, `${path}[${i}]`);
      if (p !== undefined) return p;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return wrongType(path, 'a mapping', value);
  }
  const record = value as Record<string, unknown>;
  if ('map' in shape) {
    for (const key of Object.keys(record)) {
      const p = checkShape(record[key], shape.map, child(path, key));
      if (p !== undefined) return p;
    }
    return undefined;
  }
  for (const key of shape.required ?? []) {
    if (record[key] === undefined) {
      const at = child(path, key);
      return { field: at, problem: `${at} is required` };
    }
  }
  for (const [key, fieldShape] of Object.entries(shape.fields)) {
    const v = record[key];
    if (v === undefined) continue;
    const p = checkShape(v, fieldShape, child(path, key));
    if (p !== undefined) return p;
  }
  return undefined;
}
