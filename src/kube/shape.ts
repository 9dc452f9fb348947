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
  const miss = firstMiss(value, shape);
  if (miss === undefined) return undefined;
  // The path is spelled only for the field that is wrong: spelling one for every field checked cost more than the
  // check (a provider's roles list tens of thousands of resources).
  let at = path;
  for (let i = miss.steps.length - 1; i >= 0; i--) {
    const step = miss.steps[i] ?? '';
    at = typeof step === 'number' ? `${at}[${String(step)}]` : child(at, step);
  }
  return miss.want === undefined
    ? { field: at, problem: `${at} is required` }
    : wrongType(at, miss.want, miss.found);
}

/**
 * Where a value first misses its shape: the steps to it from the value (innermost first; numbers are list indexes),
 * and what was wanted there and found, or no `want` for a required field that is absent.
 */
interface Miss {
  readonly steps: (string | number)[];
  readonly want?: string;
  readonly found?: unknown;
}

function firstMiss(value: unknown, shape: Shape): Miss | undefined {
  if (shape === 'string')
    return typeof value === 'string' ? undefined : { steps: [], want: 'a string', found: value };
  if (shape === 'boolean')
    return typeof value === 'boolean' ? undefined : { steps: [], want: 'true or false', found: value };
  if (shape === 'number')
    return typeof value === 'number' ? undefined : { steps: [], want: 'a number', found: value };
  if ('list' in shape) {
    if (!Array.isArray(value)) return { steps: [], want: 'a list', found: value };
    for (let i = 0; i < value.length; i++) {
      const miss = firstMiss(value[i], shape.list);
      if (miss !== undefined) {
        miss.steps.push(i);
        return miss;
      }
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { steps: [], want: 'a mapping', found: value };
  }
  const record = value as Record<string, unknown>;
  if ('map' in shape) {
    for (const key of Object.keys(record)) {
      const miss = firstMiss(record[key], shape.map);
      if (miss !== undefined) {
        miss.steps.push(key);
        return miss;
      }
    }
    return undefined;
  }
  for (const key of shape.required ?? []) {
    if (record[key] === undefined) return { steps: [key] };
  }
  for (const key in shape.fields) {
    const v = record[key];
    if (v === undefined) continue;
    const miss = firstMiss(v, shape.fields[key] as Shape);
    if (miss !== undefined) {
      miss.steps.push(key);
      return miss;
    }
  }
  return undefined;
}
