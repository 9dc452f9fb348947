/** Reading the untyped values of a kubeconfig file as kubectl does: a wrong type counts as absent. */

export type Raw = Record<string, unknown>;
export type RawNamed = { name?: unknown; [key: string]: unknown };

export function findNamed(list: readonly RawNamed[] | undefined, name: string): RawNamed | undefined {
  return list?.find((e) => e.name === name);
}

export function names(list: readonly RawNamed[] | undefined): string[] {
  return (list ?? []).map((e) => asString(e.name)).filter((n): n is string => n !== undefined);
}

export function asRecord(v: unknown): Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Raw) : {};
}

export function asString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

export function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : [];
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
}
