import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { UserError } from '../errors.js';
import type { KubeObject } from '../rbac/types.js';

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/**
 * Reads Kubernetes objects from a file, a directory (recursively, .yaml/.yml/.json in name order) or `-` (stdin).
 * Multi-document YAML, JSON and `kind: List` are all accepted.
 */
export async function readManifests(path: string, readStdin: () => Promise<string>): Promise<KubeObject[]> {
  if (path === '-') return parseManifests(await readStdin(), '<stdin>');
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new UserError(`cannot read ${path}: no such file or directory`, {
      hint: 'pass -f with a file, a directory or - for standard input',
    });
  }
  const files = stat.isDirectory() ? listManifestFiles(path) : [path];
  if (stat.isDirectory() && files.length === 0) {
    throw new UserError(`no .yaml, .yml or .json files in directory ${path}`);
  }
  return files.flatMap((file) => parseManifests(readFileSync(file, 'utf8'), file));
}

function listManifestFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listManifestFiles(full));
    else if (MANIFEST_EXTENSIONS.has(extname(entry.name))) out.push(full);
  }
  return out;
}

/** Parses the text of one manifest file into objects; errors name the file and line. */
export function parseManifests(text: string, source: string): KubeObject[] {
  const out: KubeObject[] = [];
  const lines = lineCounter(text);
  const docs = parseAllDocuments(text, { prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [docs];
  for (const doc of list) {
    const err = doc.errors[0];
    if (err !== undefined) {
      const line = err.linePos?.[0].line ?? lineNumberAt(text, err.pos[0]);
      throw new UserError(
        `malformed YAML/JSON in ${source}${line !== undefined ? ` at line ${line}` : ''}: ${err.message.split('\n')[0] ?? ''}`,
        {
          hint: 'fix the file, or check it with: kubectl apply --dry-run=client -f FILE',
        },
      );
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    const line = doc.contents?.range ? lines(doc.contents.range[0]) : 1;
    collect(value, `${source}:${line}`, out);
  }
  return out;
}

function collect(value: unknown, where: string, out: KubeObject[]): void {
  if (Array.isArray(value)) {
    for (const v of value) collect(v, where, out);
    return;
  }
  if (typeof value !== 'object' || value === null) {
    throw new UserError(`${where}: expected a Kubernetes object, found ${typeof value}`);
  }
  const obj = value as Record<string, unknown>;
  if (typeof obj.kind === 'string' && obj.kind.endsWith('List') && Array.isArray(obj.items)) {
    for (const item of obj.items) collect(item, where, out);
    return;
  }
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') {
    throw new UserError(`${where}: object without apiVersion and kind`, {
      hint: 'every document must be a Kubernetes object',
    });
  }
  const meta = obj.metadata as Record<string, unknown> | undefined;
  if (meta === undefined || typeof meta !== 'object' || typeof meta.name !== 'string' || meta.name === '') {
    throw new UserError(`${where}: ${obj.kind} without metadata.name`);
  }
  out.push(obj as unknown as KubeObject);
}

function lineNumberAt(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/** Line numbers of offsets, for offsets asked in increasing order (documents come in file order). */
function lineCounter(text: string): (offset: number) => number {
  let pos = 0;
  let line = 1;
  return (offset) => {
    if (offset < pos) {
      pos = 0;
      line = 1;
    }
    for (; pos < offset && pos < text.length; pos++) if (text.charCodeAt(pos) === 10) line++;
    return line;
  };
}
