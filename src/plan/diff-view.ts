/**
 * The live and desired objects of one write as `-o diff` compares them: only what the plugin decides may differ.
 * The API server adds what the plugin never writes (resourceVersion, uid, creationTimestamp, generation,
 * managedFields, selfLink), leaves apiVersion and kind out of a list's items, defaults fields the plugin leaves out
 * (a subject's and a roleRef's apiGroup), may keep an empty list the plugin omits, and orders keys its own way; the
 * aggregation controller owns an aggregated ClusterRole's rules. Both sides are normalised for all of it, and the
 * live object's keys follow the desired object's order, so an updated role shows only its changed lines.
 */
import { RBAC_API_GROUP } from '../kube/api-names.js';

type Json = unknown;
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Metadata fields only the API server writes. */
const SERVER_METADATA = [
  'resourceVersion',
  'uid',
  'creationTimestamp',
  'managedFields',
  'generation',
  'selfLink',
];

function withoutServerMetadata(o: Obj): Obj {
  if (!isObj(o.metadata)) return o;
  const metadata = Object.fromEntries(
    Object.entries(o.metadata).filter(([k]) => !SERVER_METADATA.includes(k)),
  );
  return { ...o, metadata };
}

/** A subject's apiGroup as the API server defaults it: "" for a ServiceAccount, RBAC's group for User and Group. */
function defaultedSubjects(subjects: unknown): unknown {
  if (!Array.isArray(subjects)) return subjects;
  return subjects.map((s: unknown) =>
    isObj(s) && s.apiGroup === undefined
      ? { ...s, apiGroup: s.kind === 'ServiceAccount' ? '' : RBAC_API_GROUP }
      : s,
  );
}

function defaulted(o: Obj): Obj {
  const out = { ...o };
  if (out.subjects !== undefined) out.subjects = defaultedSubjects(out.subjects);
  if (isObj(out.roleRef) && out.roleRef.apiGroup === undefined)
    out.roleRef = { ...out.roleRef, apiGroup: RBAC_API_GROUP };
  return out;
}

const isEmpty = (v: unknown): boolean =>
  v === null || (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);

/**
 * LIVE with its keys in DESIRED's order (recursively, list items by position), the keys DESIRED lacks after them;
 * an empty value (null, [], {}) DESIRED lacks is left out, as the plugin's omitted field.
 */
function ordered(live: Json, desired: Json): Json {
  if (Array.isArray(live) && Array.isArray(desired))
    return live.map((item: unknown, i) => ordered(item, desired[i]));
  if (!isObj(live) || !isObj(desired)) return live;
  const out: Obj = {};
  for (const k of Object.keys(desired)) if (k in live) out[k] = ordered(live[k], desired[k]);
  for (const [k, v] of Object.entries(live)) if (!(k in desired) && !isEmpty(v)) out[k] = v;
  return out;
}

/** Both sides of one write, normalised (see the module's comment); either may be absent (a create or a delete). */
export function diffView(
  live: object | undefined,
  desired: object | undefined,
): { live: object | undefined; desired: object | undefined } {
  const d = desired !== undefined ? defaulted(withoutServerMetadata(desired as Obj)) : undefined;
  if (live === undefined) return { live: undefined, desired: d };
  let l = defaulted(withoutServerMetadata(live as Obj));
  // A list's items carry no apiVersion and kind: they are the desired object's.
  if (d !== undefined) {
    if (l.apiVersion === undefined && d.apiVersion !== undefined) l = { apiVersion: d.apiVersion, ...l };
    if (l.kind === undefined && d.kind !== undefined) l = { ...l, kind: d.kind };
  }
  if (d === undefined) return { live: l, desired: undefined };
  // The aggregation controller fills an aggregated ClusterRole's rules: the plugin writes the selectors only.
  const desiredView = d.aggregationRule !== undefined && 'rules' in l ? { ...d, rules: l.rules } : d;
  return { live: ordered(l, desiredView) as object, desired: desiredView };
}
