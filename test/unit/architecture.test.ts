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

/** The src/ files FILE imports (static, type-only and `import()` alike), as absolute paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+'|import\(\s*'|import\s+')(\.{1,2}\/[^']+)'/g)].map(
    (m) => m[1] ?? '',
  );
  return specs.map((s) => join(file, '..', s.replace(/\.js$/, '.ts')));
}

/** The import cycles among FILES: each a list of files that import each other in a ring (Tarjan's components). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (;;) {
      const w = stack.pop();
      if (w === undefined) break;
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) out.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('src/ has no import cycles', () => {
  it('none, not even through types', () => {
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    const found = cycles(graph).map((c) => c.map((f) => relative(root, f)).join(' <-> '));
    expect(found).toStrictEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph).map((c) => [...c].sort())).toStrictEqual([['a', 'b', 'c']]);
  });
});

describe('test/unit mirrors src/', () => {
  const own = new Set(['lint', 'packaging']);
  const unitDirs = readdirSync(join(root, 'test', 'unit'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  it.each(unitDirs)('test/unit/%s tests a folder of src/', (dir) => {
    const named = own.has(dir) || dirs.some((d) => relative(join(root, 'src'), d) === dir);
    expect(named, `test/unit/${dir} names no folder of src/: move its tests where their code is`).toBe(true);
  });
});
