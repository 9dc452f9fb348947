// ARCHITECTURE.md is the map of src/: a folder or file it does not name is a stale map, and fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const map = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');

function walk(dir: string): { dirs: string[]; files: string[] } {
  const out = { dirs: [] as string[], files: [] as string[] };
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      out.dirs.push(path);
      const inner = walk(path);
      out.dirs.push(...inner.dirs);
      out.files.push(...inner.files);
    } else if (e.name.endsWith('.ts')) out.files.push(path);
  }
  return out;
}

const { dirs, files } = walk(join(root, 'src'));

describe('ARCHITECTURE.md names every folder and file of src/', () => {
  it.each(dirs.map((d) => relative(join(root, 'src'), d)))('folder %s', (dir) => {
    const last = dir.split('/').pop() ?? dir;
    const named = dir.includes('/') ? map.includes(`${last}/`) : map.includes(`src/${dir}/`);
    expect(named, `add src/${dir}/ to ARCHITECTURE.md`).toBe(true);
  });

  it.each(files.map((f) => relative(root, f)))('file %s', (file) => {
    const name = file.split('/').pop() ?? file;
    expect(map.includes(name), `add ${file} to ARCHITECTURE.md`).toBe(true);
  });

  it('finds the tree it checks', () => {
    expect(files.length).toBeGreaterThan(90);
    expect(dirs).toContain(join(root, 'src', 'cli', 'output'));
  });
});
