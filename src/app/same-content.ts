/**
 * Whether two render inputs are the same by content (render-share.ts), compared in place: no object is serialised,
 * copied or hashed, and the walk stops at the first difference.
 *
 * Two inputs are the same when their objects are equal as JSON text would be (the same keys in the same order, the
 * same values; an array element for element), but for:
 * - the metadata the API server stamps on every object and the renderer never reads (SERVER_FIELDS of a top-level
 *   object's metadata), left out on both sides;
 * - uids (a `uid` member whose value is a non-empty string, at any depth): equal when one input's uids map onto the
 *   other's one to one, place for place. A uid is compared by where it appears, not by its text: the renderer compares
 *   uids (ownership, families, CRDs' controllers) and copies them into owner references, so two inputs whose uids
 *   differ only by a renaming render alike but for the names, while two uids that are one in an input and two in the
 *   other (or the reverse) may render differently. An empty uid is no uid to the renderer: it equals only an empty
 *   uid.
 *
 * Anything else is a difference, also where JSON text would not show one (a value present but undefined on one side,
 * NaN): a difference only costs a render.
 */
import type { KubeObject } from '../kube/types.js';

/** Metadata the API server sets on every object that nothing in the renderer reads or copies. */
const SERVER_FIELDS: ReadonlySet<string> = new Set([
  'resourceVersion',
  'creationTimestamp',
  'managedFields',
  'generation',
  'selfLink',
]);

/** The one-to-one map between the uids of two inputs being compared, built as the walk meets them. */
export class UidMatch {
  /** From the first input's uids to the second's. */
  readonly forward = new Map<string, string>();
  private readonly backward = new Map<string, string>();

  /** Whether uid A of the first input may stand where B stands in the second (recording the pair). */
  pair(a: string, b: string): boolean {
    const had = this.forward.get(a);
    if (had !== undefined) return had === b;
    if (this.backward.has(b)) return false;
    this.forward.set(a, b);
    this.backward.set(b, a);
    return true;
  }
}

/** Whether A and B are the same value (see the module's comment), their uids paired in M. */
function sameValue(a: unknown, b: unknown, m: UidMatch): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    // Primitives: equal as JSON text shows them (NaN, never equal to itself, is a difference).
    return a === b;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i], m)) return false;
    return true;
  }
  return !Array.isArray(b) && sameMembers(a, b, m, 'value');
}

/** What a record being compared is: any value, a whole object, or a whole object's metadata. */
type RecordRole = 'value' | 'object' | 'metadata';

/**
 * Whether records A and B have the same members in the same order. A whole object's metadata (ROLE) is compared
 * without SERVER_FIELDS.
 */
function sameMembers(a: object, b: object, m: UidMatch, role: RecordRole): boolean {
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  const kb = Object.keys(rb);
  // The members compared are those left once metadata's SERVER_FIELDS are skipped (walked past in place: a fleet
  // compares thousands of objects per context).
  const skip = role === 'metadata';
  let j = 0;
  for (let i = 0; i < ka.length; i++) {
    const key = ka[i] ?? '';
    if (skip && SERVER_FIELDS.has(key)) continue;
    while (skip && j < kb.length && SERVER_FIELDS.has(kb[j] ?? '')) j++;
    if (j >= kb.length || key !== kb[j]) return false;
    j++;
    const va = ra[key];
    const vb = rb[key];
    if (key === 'uid' && typeof va === 'string' && typeof vb === 'string' && (va !== '' || vb !== '')) {
      if (va === '' || vb === '' || !m.pair(va, vb)) return false;
    } else if (role === 'object' && key === 'metadata' && isRecord(va) && isRecord(vb)) {
      if (!sameMembers(va, vb, m, 'metadata')) return false;
    } else if (!sameValue(va, vb, m)) return false;
  }
  while (skip && j < kb.length && SERVER_FIELDS.has(kb[j] ?? '')) j++;
  return j === kb.length;
}

/** Whether objects A and B are the same, the server-stamped fields of their metadata left out. */
export function sameObject(a: KubeObject, b: KubeObject, m: UidMatch): boolean {
  return sameMembers(a, b, m, 'object');
}

/** Whether lists A and B hold the same objects in the same order (sameObject). */
export function sameObjects(a: readonly KubeObject[], b: readonly KubeObject[], m: UidMatch): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined || !sameObject(x, y, m)) return false;
  }
  return true;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
