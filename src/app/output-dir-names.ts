/**
 * The names `sync --output-dir` writes: one file per object and, with --contexts, one directory per context. Every
 * name is made of bytes safe on every filesystem, fits in 255 bytes (the most ext4, XFS, APFS, NTFS and tmpfs take
 * for one name) and is unique: where a readable name could collide or would be too long, a short hash of the full
 * name makes it unique. The same input always gives the same names.
 */
import { createHash } from 'node:crypto';
import { compareStrings } from '../kube/order.js';
import type { KubeObject } from '../kube/types.js';

export const KUSTOMIZATION = 'kustomization.yaml';

/** The most bytes one file or directory name may have (NAME_MAX on Linux, and the limit of APFS and NTFS). */
export const MAX_NAME_BYTES = 255;

const YAML = '.yaml';
const HASH_CHARS = 8;

/** A name safe on every filesystem: lower-case letters, digits, `.`, `-`, `_`; anything else becomes `_`. */
function safe(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9._-]/g, '_');
}

function hashOf(text: string, chars = HASH_CHARS): string {
  return createHash('sha256').update(text).digest('hex').slice(0, chars);
}

/** READABLE (safe ASCII) then `-HASH` and SUFFIX, READABLE shortened so that the whole fits MAX_NAME_BYTES. */
function withHash(readable: string, hash: string, suffix: string): string {
  return `${readable.slice(0, MAX_NAME_BYTES - suffix.length - hash.length - 1)}-${hash}${suffix}`;
}

/** An object's key: what makes it unique in a cluster. */
function keyOf(o: KubeObject): string {
  return `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}

/**
 * The readable part of an object's file name, `<kind>-<name>` (`<kind>-<namespace>-<name>` for namespaced
 * objects), made safe. The files of earlier versions were named `<this>.yaml` or, when two objects shared it,
 * `<this>-<hash of the key>.yaml`.
 */
export function readableFileName(o: KubeObject): string {
  const ns = o.metadata.namespace;
  return safe(`${o.kind}-${ns !== undefined && ns !== '' ? `${ns}-` : ''}${o.metadata.name}`);
}

/** The hash an object's file name carries when it needs one. */
export function fileHash(o: KubeObject, chars = HASH_CHARS): string {
  return hashOf(keyOf(o), chars);
}

/**
 * The file of each object: `<readable>.yaml`; `<readable>-<hash>.yaml` when another object has the same readable
 * name or the name would pass 255 bytes (the readable part then shortened: a valid 253-character XRD name gives
 * roles of 298). Unique: should two names still be equal, both take the whole hash. Sorted by file name.
 */
export function manifestFiles(objects: readonly KubeObject[]): { file: string; object: KubeObject }[] {
  const named = objects.map((object) => ({ object, base: readableFileName(object) }));
  const count = new Map<string, number>();
  for (const n of named) count.set(n.base, (count.get(n.base) ?? 0) + 1);
  const first = named.map((n) => ({
    object: n.object,
    base: n.base,
    file:
      (count.get(n.base) ?? 0) > 1 || n.base.length + YAML.length > MAX_NAME_BYTES
        ? withHash(n.base, fileHash(n.object), YAML)
        : `${n.base}${YAML}`,
  }));
  const uses = new Map<string, number>();
  for (const f of first) uses.set(f.file, (uses.get(f.file) ?? 0) + 1);
  return first
    .map((f) =>
      (uses.get(f.file) ?? 0) > 1
        ? { file: withHash(f.base, fileHash(f.object, 64), YAML), object: f.object }
        : { file: f.file, object: f.object },
    )
    .sort((a, b) => compareStrings(a.file, b.file));
}

/**
 * The directory of a context's render with --contexts: the context's name where it is already a safe name (lower
 * case letters, digits, `.`, `_`, `-`, starting with a letter or digit, not ending in what looks like a hash);
 * otherwise its safe form followed by a hash of the name, so that `prod` and `PROD`, or `a/b` and `a_b`, never share
 * a directory, and `.` or `..` never names DIR itself or its parent.
 */
export function contextDirName(context: string): string {
  if (
    /^[a-z0-9][a-z0-9._-]*$/.test(context) &&
    !/-[0-9a-f]{8}$/.test(context) &&
    context.length <= MAX_NAME_BYTES
  ) {
    return context;
  }
  const readable = safe(context).replace(/^[._-]+/, '');
  return withHash(readable === '' ? 'context' : readable, hashOf(context), '');
}
