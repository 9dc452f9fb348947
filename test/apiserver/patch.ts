/**
 * The patch formats the API server accepts: JSON merge patch (RFC 7386), strategic merge patch (merge patch
 * plus merge keys for the lists kubectl merges, and its $-directives), JSON patch (RFC 6902), and the field
 * merging behind server-side apply.
 */

type Json = unknown;
type Obj = Record<string, any>;

function isObj(v: Json): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function clone<T>(v: T): T {
  return structuredClone(v);
}

export function mergePatch(target: Json, patch: Json): Json {
  if (!isObj(patch)) return clone(patch);
  const out: Obj = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) Reflect.deleteProperty(out, k);
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** Lists merged by key under strategic merge patch (patchMergeKey in k8s.io/api), by field name. */
const MERGE_KEYS: Readonly<Record<string, string>> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  env: 'name',
  imagePullSecrets: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  ports: 'containerPort',
  ownerReferences: 'uid',
  conditions: 'type',
  tolerations: 'key',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  secrets: 'name',
};
/** Primitive lists with patchStrategy "merge". */
const MERGED_PRIMITIVE_LISTS = new Set(['finalizers']);

export class PatchError extends Error {}

export function strategicMergePatch(target: Json, patch: Json): Json {
  if (!isObj(patch)) return clone(patch);
  if (patch.$patch === 'replace') {
    const rest = { ...patch };
    delete rest.$patch;
    return strategicMergePatch({}, rest);
  }
  if (patch.$patch === 'delete') return undefined;
  const out: Obj = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch' || k === '$retainKeys' || k.startsWith('$setElementOrder/')) continue;
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      if (Array.isArray(out[field]) && Array.isArray(v))
        out[field] = (out[field] as Json[]).filter((x) => !v.includes(x));
      continue;
    }
    if (v === null) {
      Reflect.deleteProperty(out, k);
      continue;
    }
    const key = MERGE_KEYS[k];
    if (Array.isArray(v) && key !== undefined && v.every(isObj)) {
      out[k] = mergeKeyedList(Array.isArray(out[k]) ? (out[k] as Json[]) : [], v, key);
    } else if (Array.isArray(v) && MERGED_PRIMITIVE_LISTS.has(k)) {
      const base = Array.isArray(out[k]) ? [...(out[k] as Json[])] : [];
      for (const item of v) if (!base.includes(item)) base.push(item);
      out[k] = base;
    } else {
      const merged = strategicMergePatch(out[k], v);
      if (merged === undefined) Reflect.deleteProperty(out, k);
      else out[k] = merged;
    }
  }
  if (Array.isArray(patch.$retainKeys)) {
    const keep = new Set(patch.$retainKeys as string[]);
    for (const k of Object.keys(out)) if (!keep.has(k)) Reflect.deleteProperty(out, k);
  }
  return out;
}

function mergeKeyedList(base: Json[], patch: Obj[], key: string): Json[] {
  const out = base.map((x) => clone(x));
  for (const item of patch) {
    const idx = out.findIndex((x) => isObj(x) && x[key] === item[key]);
    if (item.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = strategicMergePatch(out[idx], item);
    else out.push(strategicMergePatch({}, item));
  }
  return out;
}

function unescapePointer(s: string): string {
  return s.replace(/~1/g, '/').replace(/~0/g, '~');
}

function parsePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new PatchError(`invalid JSON pointer: ${path}`);
  return path.slice(1).split('/').map(unescapePointer);
}

function getAt(doc: Json, parts: readonly string[]): Json {
  let cur: Json = doc;
  for (const p of parts) {
    if (Array.isArray(cur)) cur = cur[Number(p)];
    else if (isObj(cur)) cur = cur[p];
    else return undefined;
  }
  return cur;
}

function parentOf(doc: Json, parts: readonly string[], path: string): { parent: Obj | Json[]; last: string } {
  const parent = getAt(doc, parts.slice(0, -1));
  const last = parts[parts.length - 1];
  if (last === undefined || (!Array.isArray(parent) && !isObj(parent))) {
    throw new PatchError(`doc is missing path: "${path}"`);
  }
  return { parent, last };
}

function arrayIndex(arr: Json[], last: string, path: string, forInsert: boolean): number {
  if (forInsert && last === '-') return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(last)) throw new PatchError(`invalid array index in path: "${path}"`);
  const i = Number(last);
  if (i > arr.length || (!forInsert && i === arr.length))
    throw new PatchError(`index out of range in path: "${path}"`);
  return i;
}

function addAt(doc: Json, path: string, value: Json): Json {
  const parts = parsePointer(path);
  if (parts.length === 0) return clone(value);
  const { parent, last } = parentOf(doc, parts, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, path, true), 0, clone(value));
  else parent[last] = clone(value);
  return doc;
}

function removeAt(doc: Json, path: string): Json {
  const parts = parsePointer(path);
  const { parent, last } = parentOf(doc, parts, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, path, false), 1);
  else {
    if (!(last in parent)) throw new PatchError(`unable to remove nonexistent key: ${last}: missing value`);
    Reflect.deleteProperty(parent, last);
  }
  return doc;
}

function deepEqual(a: Json, b: Json): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(v: Json): Json {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isObj(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  return v;
}

export function jsonPatch(target: Json, ops: Json): Json {
  if (!Array.isArray(ops)) throw new PatchError('json patch must be an array of operations');
  let doc = clone(target);
  for (const op of ops) {
    if (!isObj(op) || typeof op.op !== 'string' || typeof op.path !== 'string') {
      throw new PatchError('invalid json patch operation');
    }
    const path = op.path;
    switch (op.op) {
      case 'add':
        doc = addAt(doc, path, op.value);
        break;
      case 'remove':
        doc = removeAt(doc, path);
        break;
      case 'replace': {
        if (getAt(doc, parsePointer(path)) === undefined && path !== '') {
          throw new PatchError(
            `replace operation does not apply: doc is missing key: ${path}: missing value`,
          );
        }
        if (path !== '') doc = removeAt(doc, path);
        doc = addAt(doc, path, op.value);
        break;
      }
      case 'move':
      case 'copy': {
        if (typeof op.from !== 'string') throw new PatchError(`${op.op} operation needs "from"`);
        const value = getAt(doc, parsePointer(op.from));
        if (value === undefined)
          throw new PatchError(`${op.op} operation does not apply: doc is missing from path: ${op.from}`);
        if (op.op === 'move') doc = removeAt(doc, op.from);
        doc = addAt(doc, path, value);
        break;
      }
      case 'test':
        if (!deepEqual(getAt(doc, parsePointer(path)), op.value)) {
          throw new PatchError(`testing value ${path} failed: test failed`);
        }
        break;
      default:
        throw new PatchError(`Unexpected kind: ${op.op}`);
    }
  }
  return doc;
}

/**
 * A merge patch that turns `last` (what this manager applied before) into `next` (what it applies now):
 * fields it set before and no longer sets become null (removed); everything it sets is written.
 */
export function applyDelta(last: Json, next: Json): Json {
  if (!isObj(next)) return clone(next);
  const out: Obj = {};
  const before = isObj(last) ? last : {};
  for (const k of Object.keys(before)) if (!(k in next)) out[k] = null;
  for (const [k, v] of Object.entries(next))
    out[k] = isObj(v) && isObj(before[k]) ? applyDelta(before[k], v) : clone(v);
  return out;
}
