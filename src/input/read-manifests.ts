import { CORE_SCHEMA, load, loadAll, YAMLException } from 'js-yaml';
import { itemText, SPLIT_LIST_MIN_CHARS, splitList } from './yaml-list.js';
import { UsageError, UserError } from '../errors.js';
import { isKubeObject, type KubeObject } from '../kube/types.js';
import { describeValue } from '../kube/shape.js';
import { inputFiles, readInputFile, tooLarge } from './files.js';

const MiB = 1024 * 1024;

/** The default of --max-input-size: far above any real cluster's objects, far below what exhausts memory. */
export const DEFAULT_MAX_INPUT_SIZE = 256 * MiB;

/** Deeper nesting than this is no Kubernetes object (the same bound js-yaml puts on YAML). */
export const MAX_NESTING = 100;

export interface ReadManifestsOptions {
  /** Reads standard input, stopping once more than `maxBytes` bytes came in. */
  readonly readStdin: (maxBytes: number) => Promise<string>;
  /** The most bytes all inputs together may hold (--max-input-size). */
  readonly maxBytes: number;
}

/** Objects read from -f, with where each came from (for messages that name the file and the object). */
export interface Manifests {
  readonly objects: KubeObject[];
  /** `file`, `file (document 2)` or `file: items[3]`: where each object was found. */
  readonly origins: ReadonlyMap<KubeObject, string>;
}

/**
 * Reads Kubernetes objects from files, directories (recursively, .yaml/.yml/.json in name order; symbolic links to
 * directories are not followed) or `-` (stdin), at most `maxBytes` in all. Multi-document YAML, JSON and `kind: List`
 * are all accepted. Anything else (a device, a FIFO, a missing or unreadable path, malformed text, an object given
 * twice) is a UserError naming the path.
 */
export async function readManifests(
  paths: readonly string[],
  opts: ReadManifestsOptions,
): Promise<Manifests> {
  const objects: KubeObject[] = [];
  const origins = new Map<KubeObject, string>();
  // Which -f argument (its index in PATHS) each object was read through: one file can be reached by two of them.
  const argument = new Map<KubeObject, number>();
  let remaining = opts.maxBytes;
  let at = 0;
  const add = (text: string, source: string): void => {
    for (const found of parseManifestsWithOrigins(text, source)) {
      objects.push(found.object);
      origins.set(found.object, found.origin);
      argument.set(found.object, at);
    }
  };
  if (paths.filter((p) => p === '-').length > 1) {
    throw new UsageError('-f - (standard input) can be given only once');
  }
  for (const [i, path] of paths.entries()) {
    at = i;
    if (path === '-') {
      const text = await opts.readStdin(remaining);
      const bytes = Buffer.byteLength(text, 'utf8');
      if (bytes > remaining) throw tooLarge(opts.maxBytes, 'standard input');
      remaining -= bytes;
      add(text, 'standard input');
      continue;
    }
    for (const file of inputFiles(path)) {
      const { text, bytes } = readInputFile(file, remaining, opts.maxBytes);
      remaining -= bytes;
      add(text, file);
    }
  }
  rejectDuplicates(objects, origins, (o) => {
    const i = argument.get(o) ?? 0;
    return `-f ${paths[i] === '-' ? '-' : JSON.stringify(paths[i] ?? '')} (argument ${String(i + 1)} of ${String(paths.length)})`;
  });
  return { objects, origins };
}

/** Parses the text of one manifest file into objects; errors name the file, and the line for malformed text. */
export function parseManifests(
  text: string,
  source: string,
  opts: { readonly splitListMinChars?: number } = {},
): KubeObject[] {
  return parseManifestsWithOrigins(text, source, opts.splitListMinChars).map((f) => f.object);
}

interface Found {
  readonly object: KubeObject;
  readonly origin: string;
}

/** What normalize shares across a file: the alias budget, and one copy of each string value. */
interface Walk {
  nodes: number;
  readonly strings: Map<string, string>;
}

function parseManifestsWithOrigins(
  text: string,
  source: string,
  splitListMinChars = SPLIT_LIST_MIN_CHARS,
): Found[] {
  const walk: Walk = { nodes: 2 * text.length + 100_000, strings: new Map() };
  const list = text.length >= splitListMinChars ? parseListItemByItem(text, source, walk) : undefined;
  const docs = list !== undefined ? [list] : parseDocuments(text, source);
  const out: Found[] = [];
  const several = docs.filter((d) => d !== null && d !== undefined).length > 1;
  docs.forEach((doc, i) => {
    if (doc === null || doc === undefined) return;
    const where = several ? `${source} (document ${i + 1})` : source;
    if (doc !== list) normalize(doc, where, walk, 0);
    collect(doc, where, out, 0);
  });
  return out;
}

/**
 * A large List as kubectl writes it, parsed and normalized one item at a time (yaml-list.ts); undefined when the
 * text is not such a List or does not parse that way (the whole text is then parsed, and its errors reported).
 */
function parseListItemByItem(text: string, source: string, walk: Walk): Record<string, unknown> | undefined {
  const first = /\S/.exec(text)?.[0];
  if (first === '{' || first === '[' || text.charCodeAt(0) === 0xfeff) return undefined;
  const split = splitList(text);
  if (split === undefined) return undefined;
  try {
    const head: unknown = load(split.head, { schema: CORE_SCHEMA });
    if (typeof head !== 'object' || head === null || Array.isArray(head) || 'items' in head) return undefined;
    const doc = head as Record<string, unknown>;
    normalize(doc, source, walk, 0);
    const items: unknown[] = [];
    for (const range of split.items) {
      const item: unknown = load(itemText(text, range), { schema: CORE_SCHEMA });
      normalize(item, source, walk, 2);
      items.push(item);
    }
    doc.items = items;
    return doc;
  } catch (err) {
    if (err instanceof YAMLException || err instanceof RangeError) return undefined;
    throw err;
  }
}

/**
 * JSON (the first character is `{` or `[`) goes through JSON.parse: exact, fast, and its memory stays a small
 * multiple of the text. Everything else, and JSON that JSON.parse refuses (to get a line number), through js-yaml
 * with the YAML 1.2 core schema (no timestamps, no merge keys, no custom tags), which builds plain values directly.
 */
function parseDocuments(text: string, source: string): unknown[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = /\S/.exec(body)?.[0];
  if (first === '{' || first === '[') {
    try {
      return [JSON.parse(body)];
    } catch {
      // Fall through: the YAML parser reports the line.
    }
  }
  try {
    return loadAll(body, null, { schema: CORE_SCHEMA, filename: source });
  } catch (err) {
    if (err instanceof YAMLException) {
      const line = err.mark.line + 1;
      throw new UserError(`malformed YAML/JSON in ${source} at line ${line}: ${err.reason}`, {
        hint: 'fix the file, or check it with: kubectl apply --dry-run=client -f FILE',
      });
    }
    if (err instanceof RangeError)
      throw new UserError(`${source}: nested too deeply to be a Kubernetes object`);
    throw err;
  }
}

/**
 * Walks one document as a tree: refuses nesting deeper than MAX_NESTING and YAML aliases that expand to more values
 * than the text could hold without them (an alias bomb, or an alias cycle), and drops fields whose value is null, as
 * the API server does when it decodes an object.
 */
function normalize(doc: unknown, where: string, budget: Walk, depth0: number): void {
  const aliasError = (): UserError =>
    new UserError(
      `${where}: YAML aliases expand to more values than the file holds (an alias bomb or an alias cycle)`,
      { hint: 'write the objects out in full, without & anchors and * aliases' },
    );
  interface Visit {
    readonly value: unknown;
    readonly depth: number;
    readonly parent: Visit | undefined;
  }
  // One copy of each string: values repeat across objects (verbs, groups, resource names), and a parser's strings
  // may keep the whole text alive.
  const one = (s: string): string => {
    const had = budget.strings.get(s);
    if (had !== undefined) return had;
    budget.strings.set(s, s);
    return s;
  };
  const stack: Visit[] = [{ value: doc, depth: depth0, parent: undefined }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (--budget.nodes < 0) throw aliasError();
    const { value, depth } = top;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_NESTING) {
      // Only an alias can make a value its own ancestor: that is a cycle, not deep nesting.
      for (let up = top.parent; up !== undefined; up = up.parent) if (up.value === value) throw aliasError();
      throw new UserError(`${where}: nested more than ${MAX_NESTING} levels deep: not a Kubernetes object`);
    }
    if (Array.isArray(value)) {
      const list = value as unknown[];
      for (let i = 0; i < list.length; i++) {
        const v = list[i];
        // A string is a node of the budget too (an alias bomb's leaves are strings), counted here.
        if (typeof v === 'string') {
          if (--budget.nodes < 0) throw aliasError();
          list[i] = one(v);
        } else stack.push({ value: v, depth: depth + 1, parent: top });
      }
      continue;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const v = record[key];
      if (v === null) Reflect.deleteProperty(record, key);
      else if (typeof v === 'string') {
        if (--budget.nodes < 0) throw aliasError();
        record[key] = one(v);
      } else stack.push({ value: v, depth: depth + 1, parent: top });
    }
  }
}

function collect(value: unknown, where: string, out: Found[], depth: number): void {
  if (Array.isArray(value)) {
    value.forEach((v: unknown, i) => {
      collect(v, `${where}: [${i}]`, out, depth + 1);
    });
    return;
  }
  if (typeof value !== 'object' || value === null) {
    throw new UserError(`${where}: expected a Kubernetes object, found ${describeValue(value)}`);
  }
  const obj = value as Record<string, unknown>;
  const { apiVersion, kind } = obj;
  if (apiVersion === undefined && kind === undefined) {
    throw new UserError(`${where}: object without apiVersion and kind`, {
      hint: 'every document must be a Kubernetes object',
    });
  }
  for (const [field, v] of [
    ['apiVersion', apiVersion],
    ['kind', kind],
  ] as const) {
    if (typeof v !== 'string' || v === '') {
      throw new UserError(
        `${where}: ${field} must be a non-empty string, found ${v === '' ? 'an empty string' : describeValue(v)}`,
      );
    }
  }
  const k = kind as string;
  if (k.endsWith('List') && 'items' in obj) {
    const items = obj.items;
    if (!Array.isArray(items))
      throw new UserError(`${where}: ${k} items must be a list, found ${describeValue(items)}`);
    items.forEach((item: unknown, i) => {
      if (Array.isArray(item)) {
        throw new UserError(`${where}: items[${i}]: expected a Kubernetes object, found a list`);
      }
      collect(item, `${where}: items[${i}]`, out, depth + 1);
    });
    return;
  }
  const meta = obj.metadata;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    throw new UserError(
      `${where}: ${k} without metadata.name${meta !== undefined ? ` (metadata is ${describeValue(meta)})` : ''}`,
    );
  }
  const name = (meta as Record<string, unknown>).name;
  if (typeof name !== 'string' || name === '') {
    throw new UserError(
      `${where}: ${k} without metadata.name${name !== undefined ? ` (it is ${name === '' ? 'empty' : describeValue(name)})` : ''}`,
    );
  }
  // Every check isKubeObject makes was made above, each with its own message.
  if (!isKubeObject(obj)) throw new UserError(`${where}: not a Kubernetes object`);
  out.push({ object: obj, origin: where });
}

/** Kinds without a namespace: a namespace written on one does not make a second object. */
const CLUSTER_SCOPED = new Set([
  'ClusterRole',
  'ClusterRoleBinding',
  'Namespace',
  'CompositeResourceDefinition',
  'ProviderRevision',
  'Provider',
  'CustomResourceDefinition',
  'ManagedResourceDefinition',
]);

/**
 * An object given twice is ambiguous (which one is the cluster's?): refuse it, naming both places. Read twice from
 * the same place (the same file reached by two -f arguments), the places are the same: then the -f arguments
 * (ARGUMENT) are named instead.
 */
function rejectDuplicates(
  objects: readonly KubeObject[],
  origins: ReadonlyMap<KubeObject, string>,
  argument: (o: KubeObject) => string,
): void {
  const seen = new Map<string, KubeObject>();
  for (const o of objects) {
    const group = o.apiVersion.includes('/') ? o.apiVersion.slice(0, o.apiVersion.indexOf('/')) : '';
    const ns = CLUSTER_SCOPED.has(o.kind) ? '' : (o.metadata.namespace ?? '');
    const key = `${group}\u0000${o.kind}\u0000${typeof ns === 'string' ? ns : ''}\u0000${o.metadata.name}`;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, o);
      continue;
    }
    const id = ns !== '' ? `${ns}/${o.metadata.name}` : o.metadata.name;
    const [a, b] = [origins.get(first) ?? '?', origins.get(o) ?? '?'];
    if (a === b) {
      throw new UserError(
        `${o.kind} "${id}" is given twice: ${a} is read by ${argument(first)} and again by ${argument(o)}`,
        { hint: 'give each file once: a directory given with -f includes every file under it' },
      );
    }
    throw new UserError(`${o.kind} "${id}" is given twice: ${a} and ${b}`, {
      hint: 'each object may appear once in the -f input; remove one of them',
    });
  }
}
