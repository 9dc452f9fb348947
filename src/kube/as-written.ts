/**
 * Whether an object the API server sent back is the one a client wrote: the same fields and values, apart from the
 * metadata the server sets on every object it stores, and with empty values as Go's JSON drops them (a field that is
 * absent, null, [] or {} is one and the same: the API types mark such fields omitempty). Key order never matters.
 */
import type { KubeObject } from './types.js';

/**
 * The metadata the API server sets itself (apimachinery's ObjectMeta: resourceVersion, uid, creationTimestamp,
 * generation, managedFields, selfLink): never what the client wrote.
 */
const SERVER_SET: ReadonlySet<string> = new Set([
  'resourceVersion',
  'uid',
  'creationTimestamp',
  'generation',
  'managedFields',
  'selfLink',
]);

/** Whether STORED (an object as the server answers or watches it) is WRITTEN as it was sent. */
export function isAsWritten(written: KubeObject, stored: KubeObject): boolean {
  const { metadata: w, ...wRest } = written;
  const { metadata: s, ...sRest } = stored;
  return sameValue(wRest, sRest) && sameValue(w, s, SERVER_SET);
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

function sameValue(a: unknown, b: unknown, skip?: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameValue(x, b[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
    if (skip?.has(k) === true) continue;
    if (!sameValue(x[k], y[k])) return false;
  }
  return true;
}
