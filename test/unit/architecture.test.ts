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

// Handlers are thin: flags -> options -> runX -> present -> exit code. A handler that grows past this does work that
// belongs in src/app (a use case) or in a presenter.
const MAX_HANDLER_LINES = 40;

/** The line counts of every `handler:` in TEXT, from its line to the line that closes it (same indentation). */
function handlerLengths(text: string): number[] {
  const lines = text.split('\n');
  const out: number[] = [];
  lines.forEach((line, i) => {
    const m = /^(\s*)handler: /.exec(line);
    if (m === null) return;
    const indent = m[1] ?? '';
    if (/[)}],?$/.test(line.trim()) && !line.trim().endsWith('{')) {
      out.push(1);
      return;
    }
    const end = lines.findIndex((l, j) => j > i && new RegExp(`^${indent}[})]`).test(l));
    out.push(end - i + 1);
  });
  return out;
}

describe('command handlers are thin', () => {
  const commands = files.filter((f) => f.includes(join('src', 'cli', 'commands')));
  it.each(commands.map((f) => relative(root, f)))('%s', (file) => {
    const lengths = handlerLengths(readFileSync(join(root, file), 'utf8'));
    for (const n of lengths)
      expect(n, `a handler of ${file} has ${n} lines`).toBeLessThanOrEqual(MAX_HANDLER_LINES);
  });

  it('measures handlers', () => {
    const probe = ['  handler: async () => {', ...Array.from({ length: 41 }, () => '    x();'), '  },'].join(
      '\n',
    );
    expect(handlerLengths(probe)).toStrictEqual([43]);
    const all = commands.flatMap((f) => handlerLengths(readFileSync(f, 'utf8')));
    expect(all.length).toBeGreaterThanOrEqual(7);
  });
});
