/** The files behind -f: a file, a directory's manifests, or stdin, read with a size limit and errors as kubectl words them. */
import {
  closeSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  statSync,
} from 'node:fs';
import type { Stats } from 'node:fs';
import { extname, join } from 'node:path';
import { UserError } from '../errors.js';

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);
const MiB = 1024 * 1024;
const READ_CHUNK = 4 * MiB;

/** The manifest files a -f path names: itself when it is a regular file, its manifests when a directory. */
export function inputFiles(path: string): string[] {
  const stat = statPath(path);
  if (stat.isFile()) return [path];
  if (!stat.isDirectory()) throw notRegular(path, stat);
  const files = listManifestFiles(path);
  if (files.length === 0) throw new UserError(`no .yaml, .yml or .json files in directory ${path}`);
  return files;
}

function listManifestFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    throw cannotRead(dir, err);
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listManifestFiles(full));
    else if (MANIFEST_EXTENSIONS.has(extname(entry.name))) {
      const stat = statPath(full);
      if (stat.isDirectory()) throw new UserError(`cannot read ${full}: it is a directory, not a file`);
      if (!stat.isFile()) throw notRegular(full, stat);
      out.push(full);
    }
  }
  return out;
}

/** stat() that follows links, with errors that say what is wrong with the path. */
function statPath(path: string): Stats {
  try {
    return statSync(path);
  } catch (err) {
    throw cannotRead(path, err);
  }
}

/**
 * Reads a regular file, refusing anything else (checked again on the open descriptor) and anything that would take
 * the input past `remaining` bytes; `maxBytes` is the limit named in the message. For every file the plugin reads.
 */
export function readInputFile(
  path: string,
  remaining: number,
  maxBytes: number,
  flag = '-f',
): { text: string; bytes: number } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw cannotRead(path, err, flag);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw cannotRead(path, { code: 'EISDIR' }, flag);
    if (!stat.isFile()) throw notRegular(path, stat, flag);
    if (stat.size > remaining) throw tooLarge(maxBytes, path, stat.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK, remaining - total + 1));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > remaining) throw tooLarge(maxBytes, path);
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    }
    return { text: Buffer.concat(chunks, total).toString('utf8'), bytes: total };
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw cannotRead(path, err, flag);
  } finally {
    closeSync(fd);
  }
}

/** Why a path cannot be read, as one sentence naming it. */
export function cannotRead(path: string, err: unknown, flag = '-f'): UserError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
  const hint = {
    hint:
      flag === '-f'
        ? 'pass -f with a file, a directory or - for standard input'
        : `pass ${flag} the path of a file`,
  };
  const what = flag === '-f' ? path : `${flag} ${path}`;
  switch (code) {
    case 'ENOENT': {
      const target = danglingTarget(path);
      return new UserError(
        target !== undefined
          ? `cannot read ${what}: it is a symbolic link to ${target}, which does not exist`
          : `cannot read ${what}: no such file or directory`,
        hint,
      );
    }
    case 'ELOOP':
      return new UserError(
        `cannot read ${what}: too many levels of symbolic links (a symbolic link loop)`,
        hint,
      );
    case 'EACCES':
    case 'EPERM':
      return new UserError(`cannot read ${what}: permission denied`, {
        hint: 'check the file mode and owner, or run as a user who may read it',
      });
    case 'ENOTDIR':
      return new UserError(`cannot read ${what}: a part of the path is a file, not a directory`, hint);
    case 'EISDIR':
      return new UserError(`cannot read ${what}: it is a directory, not a file`);
    case 'ENAMETOOLONG':
      return new UserError(`cannot read ${what.slice(0, 80)}…: the file name is too long`, hint);
    default:
      return new UserError(`cannot read ${what}: ${code}`, hint);
  }
}

function danglingTarget(path: string): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

function fileType(stat: Stats): string {
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

function notRegular(path: string, stat: Stats, flag = '-f'): UserError {
  if (flag !== '-f') {
    return new UserError(`cannot read ${flag} ${path}: not a regular file (${fileType(stat)})`, {
      hint: `pass ${flag} the path of a file`,
    });
  }
  return new UserError(`cannot read ${path}: not a regular file or directory (${fileType(stat)})`, {
    hint: 'to read a pipe or the output of a command, redirect it to standard input and pass -f -',
  });
}

export function tooLarge(maxBytes: number, what: string, size?: number): UserError {
  const detail =
    size === undefined
      ? `${what} holds more than that`
      : size > maxBytes
        ? `${what} is ${formatSize(size)}`
        : `${what} (${formatSize(size)}) takes the input past it`;
  return new UserError(`input larger than --max-input-size ${formatSize(maxBytes)}: ${detail}`, {
    hint: `raise the limit (e.g. --max-input-size ${formatSize(suggestLimit(maxBytes, size))}) or read fewer files`,
  });
}

function suggestLimit(maxBytes: number, size: number | undefined): number {
  let next = Math.max(MiB, 2 ** Math.ceil(Math.log2(Math.max(maxBytes + 1, size ?? 0))));
  if (next <= maxBytes) next = maxBytes * 2;
  return next;
}

/** Bytes as Kubernetes writes quantities: 256Mi, 1Gi, 512Ki, or plain bytes. */
export function formatSize(bytes: number): string {
  for (const [unit, factor] of [
    ['Gi', 1024 ** 3],
    ['Mi', MiB],
    ['Ki', 1024],
  ] as const) {
    if (bytes >= factor) {
      const v = bytes / factor;
      return Number.isInteger(v) ? `${v}${unit}` : `${v.toFixed(1)}${unit}`;
    }
  }
  return `${bytes} bytes`;
}
