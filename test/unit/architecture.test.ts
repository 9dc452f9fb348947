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

/**
 * The map's entries, each folder's own text: the folder table (## Folders) gives each `src/...` line and each indented
 * `name/` line under it an entry (its continuation lines included; a subfolder's lines are its own, not its
 * parent's), and a section whose heading names a folder (`src/cluster/connection/`) adds its text to that folder's.
 * A file is on the map when its name is in the text of its own folder's entry: by path, not by base name (names
 * such as roles.ts or plan.ts repeat across folders).
 */
function mapEntries(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  const add = (path: string, line: string): void => {
    entries.set(path, `${entries.get(path) ?? ''}\n${line}`);
  };
  const folders = /## Folders\n[\s\S]*?\n```\n([\s\S]*?)\n```/.exec(text)?.[1] ?? '';
  let top = '';
  let current = '';
  for (const line of folders.split('\n')) {
    const topEntry = /^src\/(\S+)/.exec(line);
    if (topEntry !== null) {
      const name = topEntry[1] ?? '';
      top = name.endsWith('/') ? `src/${name}` : 'src/';
      current = top;
      add(current, line);
      continue;
    }
    const sub = /^ {2}([\w.-]+\/)/.exec(line);
    if (sub !== null && top !== 'src/') {
      current = `${top}${sub[1] ?? ''}`;
      add(current, line);
      continue;
    }
    // A file entry (two spaces, a name) goes back to the folder; deeper lines continue the current entry.
    if (/^ {2}\S/.test(line)) current = top;
    add(current, line);
  }
  for (const section of text.split(/^## /m)) {
    const folder = /^[^\n]*`(src\/[\w/.-]+\/)`/.exec(section)?.[1];
    if (folder !== undefined) add(folder, section);
  }
  return entries;
}

const entries = mapEntries(map);

describe('ARCHITECTURE.md names every folder and file of src/', () => {
  it.each(dirs.map((d) => relative(root, d)))('folder %s', (dir) => {
    expect(entries.has(`${dir}/`), `add ${dir}/ to ARCHITECTURE.md's folder table`).toBe(true);
  });

  it.each(files.map((f) => relative(root, f)))('file %s', (file) => {
    const folder = `${file.slice(0, file.lastIndexOf('/'))}/`;
    const name = file.slice(file.lastIndexOf('/') + 1);
    expect(entries.get(folder) ?? '', `name ${name} in the entry of ${folder} in ARCHITECTURE.md`).toContain(
      name,
    );
  });

  it('finds the tree it checks, and reads a file by its folder', () => {
    expect(files.length).toBeGreaterThan(90);
    expect(dirs).toContain(join(root, 'src', 'cli', 'output'));
    const probe = mapEntries(
      [
        '## Folders',
        '',
        '```',
        'src/a/   a',
        '  x.ts   x',
        '  b/     y.ts',
        '```',
        '',
        '## C (`src/c/`)',
        'z.ts',
      ].join('\n'),
    );
    expect(probe.get('src/a/')).toContain('x.ts');
    expect(probe.get('src/a/')).not.toContain('y.ts');
    expect(probe.get('src/a/b/')).toContain('y.ts');
    expect(probe.get('src/c/')).toContain('z.ts');
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
