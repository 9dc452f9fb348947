/**
 * `sync --output-dir DIR`: the objects sync would apply, one YAML file per object plus a kustomization.yaml listing
 * them, for a GitOps engine (Argo CD, Flux, Config Sync) to apply. Deterministic: the same objects give the same
 * bytes. Objects a run would prune are simply absent (the engine prunes); files an earlier render wrote and this
 * one does not are removed, so the plugin's files in DIR are exactly this render.
 *
 * What it writes it writes only inside DIR, and only its own files, all or nothing:
 *  - the render is built in a new directory beside DIR and swapped in by renaming, so a failure midway (a full
 *    disk, a name too long) leaves the previous render as it was;
 *  - its kustomization.yaml starts with a mark; only the files a marked kustomization lists are ever replaced or
 *    deleted (an earlier version's unmarked render is recognised by its exact bytes, see previousRender);
 *  - a symbolic link in DIR (or DIR itself as one) is never followed: it is refused.
 * DIR is the plugin's alone: one that holds anything else (a README, someone's manifests, a home directory given
 * by mistake) is refused, so that swapping it whole never takes anything along.
 */
import { randomBytes } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  chmodSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { UserError } from '../errors.js';
import { isKubeObject, isRbacObject, type KubeObject } from '../kube/types.js';
import {
  contextDirName,
  fileHash,
  KUSTOMIZATION,
  manifestFiles,
  readableFileName,
} from './output-dir-names.js';

/** The first line of the plugin's kustomization.yaml: it says the files listed are the plugin's. */
export const KUSTOMIZATION_MARK =
  '# Written by kubectl-crossplane-rbac (sync --output-dir), which replaces and deletes only the files listed here.';

/** The kustomization.yaml listing FILES, without the mark (as versions before the mark wrote it). */
function kustomization(files: readonly string[], format: (value: unknown) => string): string {
  return format({
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: [...files],
  });
}

/** What DIR holds now: whether it exists (and its mode), and the plugin's files in it. */
interface PreviousRender {
  readonly mode: number | undefined;
  /** The files the previous render listed that exist (kustomization.yaml aside). */
  readonly listed: readonly string[];
}

/** How many of the files that are not the plugin's a refusal names. */
const MAX_NAMED = 3;

function lstatOrUndefined(file: string): Stats | undefined {
  try {
    return lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function refuse(dir: string, what: string, hint: string): UserError {
  return new UserError(`refusing to write ${dir}: ${what}`, { hint });
}

const LINK_HINT =
  'the plugin never writes through a symbolic link: remove it, or give --output-dir a directory without links';
const NOT_OURS_HINT =
  'the plugin replaces or deletes only files its own kustomization.yaml lists, and swaps DIR whole: give --output-dir a directory of its own (new or empty)';

/** A file name as a kustomization of the plugin's lists it: a plain `.yaml` name in DIR. */
function isPlainYamlName(r: unknown): r is string {
  return (
    typeof r === 'string' &&
    r === path.basename(r) &&
    r.endsWith('.yaml') &&
    r !== KUSTOMIZATION &&
    !r.startsWith('.')
  );
}

/** The resources of a kustomization's text, if it lists only plain `.yaml` names. */
function listedResources(text: string): string[] | undefined {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch {
    return undefined;
  }
  const resources = (doc as { resources?: unknown } | null)?.resources;
  if (!Array.isArray(resources) || !resources.every(isPlainYamlName)) return undefined;
  return resources;
}

/**
 * Whether FILE in DIR is what a version before the mark wrote: one RBAC object (the only kinds sync renders), in
 * the file that version named after it (`<readable>.yaml`, or `<readable>-<hash>.yaml` for a shared name).
 */
function isEarlierVersionFile(dir: string, file: string): boolean {
  try {
    const docs = parseAllDocuments(readFileSync(path.join(dir, file), 'utf8'));
    if (docs.length !== 1 || docs[0] === undefined || docs[0].errors.length > 0) return false;
    const o: unknown = docs[0].toJS();
    if (!isKubeObject(o) || !isRbacObject(o)) return false;
    const base = readableFileName(o);
    return file === `${base}.yaml` || file === `${base}-${fileHash(o)}.yaml`;
  } catch {
    return false;
  }
}

/**
 * DIR as it is: refused when it is a symbolic link or not a directory, when its kustomization.yaml is a link or
 * not the plugin's, or when it holds a link or anything its kustomization does not list. A
 * kustomization.yaml without the mark is an earlier version's when its bytes are exactly what that version wrote
 * for the files it lists and each of those files is exactly what it wrote (one RBAC object, in the file named after
 * it): a hand-written kustomization passes neither, so it is never overwritten and its files are never deleted.
 */
function previousRender(dir: string, format: (value: unknown) => string): PreviousRender {
  const stat = lstatOrUndefined(dir);
  if (stat === undefined) return { mode: undefined, listed: [] };
  if (stat.isSymbolicLink()) throw refuse(dir, 'it is a symbolic link', LINK_HINT);
  if (!stat.isDirectory()) throw refuse(dir, 'it exists and is not a directory', NOT_OURS_HINT);
  const entries = new Map(readdirSync(dir, { withFileTypes: true }).map((e) => [e.name, e]));
  const at = (name: string): string => path.join(dir, name);
  let listed: string[] = [];
  const k = entries.get(KUSTOMIZATION);
  if (k !== undefined) {
    if (k.isSymbolicLink()) throw refuse(dir, `${at(KUSTOMIZATION)} is a symbolic link`, LINK_HINT);
    const notOurs = refuse(
      dir,
      `${at(KUSTOMIZATION)} was not written by kubectl-crossplane-rbac`,
      NOT_OURS_HINT,
    );
    if (!k.isFile()) throw notOurs;
    const text = readFileSync(at(KUSTOMIZATION), 'utf8');
    const [first, ...rest] = text.split('\n');
    const marked = first === KUSTOMIZATION_MARK;
    const resources = listedResources(marked ? rest.join('\n') : text);
    if (resources === undefined) throw notOurs;
    const links = resources.filter((r) => entries.get(r)?.isSymbolicLink() === true);
    if (links[0] !== undefined) throw refuse(dir, `${at(links[0])} is a symbolic link`, LINK_HINT);
    const odd = resources.find((r) => entries.has(r) && entries.get(r)?.isFile() !== true);
    if (odd !== undefined) throw refuse(dir, `${at(odd)} is not a regular file`, NOT_OURS_HINT);
    listed = resources.filter((r) => entries.has(r));
    if (
      !marked &&
      (text !== kustomization(resources, format) || !listed.every((r) => isEarlierVersionFile(dir, r)))
    ) {
      throw notOurs;
    }
  }
  const ours = new Set([KUSTOMIZATION, ...listed]);
  const foreign = [...entries.keys()].filter((name) => !ours.has(name)).sort();
  const link = foreign.find((name) => entries.get(name)?.isSymbolicLink() === true);
  if (link !== undefined) throw refuse(dir, `${at(link)} is a symbolic link`, LINK_HINT);
  if (foreign.length > 0) {
    const named = foreign.slice(0, MAX_NAMED).map(at).join(', ');
    const more = foreign.length > MAX_NAMED ? ` and ${String(foreign.length - MAX_NAMED)} more` : '';
    throw refuse(dir, `it holds files kubectl-crossplane-rbac did not write: ${named}${more}`, NOT_OURS_HINT);
  }
  return { mode: stat.mode & 0o7777, listed };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A new empty directory in PARENT whose name starts with PREFIX (never one that exists). */
function newDir(parent: string, prefix: string): string {
  for (;;) {
    const dir = path.join(parent, `${prefix}${randomBytes(6).toString('hex')}`);
    try {
      mkdirSync(dir);
      return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/**
 * Swaps the render built in NEXT in for DIR (which holds only the plugin's files): DIR renamed aside, NEXT renamed to
 * DIR, the old render removed. If NEXT cannot take DIR's place, DIR is renamed back.
 */
function swapIn(next: string, dir: string, previous: PreviousRender): void {
  if (previous.mode === undefined) {
    renameSync(next, dir);
    return;
  }
  chmodSync(next, previous.mode);
  const old = `${next}-old`;
  renameSync(dir, old);
  try {
    renameSync(next, dir);
  } catch (error) {
    renameSync(old, dir);
    throw error;
  }
  rmSync(old, { recursive: true, force: true });
}

/** Writes OBJECTS to DIR (made if missing); returns how many files were written and removed. */
export function writeManifestDir(
  dir: string,
  objects: readonly KubeObject[],
  format: (value: unknown) => string,
): { written: number; removed: number } {
  const files = manifestFiles(objects);
  const names = new Set(files.map((f) => f.file));
  const texts = files.map((f) => ({ file: f.file, text: format(f.object) }));
  const list = `${KUSTOMIZATION_MARK}\n${kustomization([...names], format)}`;
  const failed = (error: unknown): UserError =>
    error instanceof UserError
      ? error
      : new UserError(`cannot write ${dir}: ${messageOf(error)}`, {
          hint: 'nothing was changed: the previous render (if any) is as it was',
        });
  const target = path.resolve(dir);
  const cwd = process.cwd();
  if (cwd === target || cwd.startsWith(`${target}${path.sep}`)) {
    throw refuse(
      dir,
      'it is the current directory or holds it',
      'the render replaces DIR whole: give --output-dir a directory of its own, e.g. gitops/',
    );
  }
  let previous: PreviousRender;
  let next: string;
  try {
    previous = previousRender(dir, format);
    const parent = path.dirname(target);
    mkdirSync(parent, { recursive: true });
    next = newDir(parent, '.crossplane-rbac-render-');
  } catch (error) {
    throw failed(error);
  }
  try {
    for (const f of texts) writeFileSync(path.join(next, f.file), f.text, { flag: 'wx' });
    writeFileSync(path.join(next, KUSTOMIZATION), list, { flag: 'wx' });
    swapIn(next, target, previous);
  } catch (error) {
    // The render that was not swapped in: only the plugin's new files.
    rmSync(next, { recursive: true, force: true });
    throw failed(error);
  }
  return { written: files.length, removed: previous.listed.filter((f) => !names.has(f)).length };
}

/** With --contexts, each context's render goes to DIR/<context>/ (see contextDirName). */
export function inContextDir(dir: string | undefined, context: string): string | undefined {
  return dir === undefined ? undefined : path.join(dir, contextDirName(context));
}
