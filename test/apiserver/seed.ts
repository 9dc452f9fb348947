/**
 * Reads seed objects from YAML files: multi-document files, `kind: List` flattened, directories recursed
 * (files ending in .yaml, .yml or .json, in name order).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';

function flatten(doc: unknown): unknown[] {
  if (doc === null || doc === undefined) return [];
  if (typeof doc === 'object' && !Array.isArray(doc)) {
    const o = doc as Record<string, unknown>;
    if (typeof o.kind === 'string' && o.kind.endsWith('List') && Array.isArray(o.items))
      return o.items.flatMap(flatten);
  }
  return [doc];
}

/**
 * The objects of each file parsed so far in this process, by path, with the file's size and modification time: most
 * test files start several servers seeded with the same examples, and parsing them is most of a server's start.
 */
const parsed = new Map<string, { readonly stamp: string; readonly objects: readonly unknown[] }>();

function readFile(path: string): unknown[] {
  const { size, mtimeMs } = statSync(path);
  const stamp = `${String(size)}/${String(mtimeMs)}`;
  let entry = parsed.get(path);
  if (entry?.stamp !== stamp) {
    const docs = YAML.parseAllDocuments(readFileSync(path, 'utf8'));
    const objects: unknown[] = [];
    for (const d of docs) {
      if (d.errors.length > 0) throw new Error(`${path}: ${d.errors[0]?.message ?? 'invalid YAML'}`);
      objects.push(...flatten(d.toJS()));
    }
    entry = { stamp, objects };
    parsed.set(path, entry);
  }
  // A copy each time: a test may change the objects it was given.
  return structuredClone(entry.objects) as unknown[];
}

export function loadSeedFiles(paths: string[]): unknown[] {
  const out: unknown[] = [];
  for (const p of paths) {
    if (statSync(p).isDirectory()) {
      const entries = readdirSync(p).sort();
      out.push(
        ...loadSeedFiles(
          entries
            .filter((e) => statSync(join(p, e)).isDirectory() || /\.(ya?ml|json)$/.test(e))
            .map((e) => join(p, e)),
        ),
      );
    } else {
      out.push(...readFile(p));
    }
  }
  return out;
}
