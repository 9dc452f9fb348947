/**
 * The unit and integration projects share one module graph across files (isolate: false), so a file that replaces a
 * module with vi.mock must run in the isolated project: in the shared graph its mock either misses the module another
 * file loaded first (its test then fails by file order alone) or leaks into the files after it. This walks test/
 * for vi.mock and checks that every file using it is in vitest.config.ts's MOCKING list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return testFiles(path);
    return e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The string literals of the MOCKING array in vitest.config.ts. */
function mockingList(): string[] {
  const config = readFileSync(join(root, 'vitest.config.ts'), 'utf8');
  const list = /const MOCKING = \[([^\]]*)\]/.exec(config)?.[1];
  if (list === undefined) throw new Error('vitest.config.ts has no MOCKING list');
  return [...list.matchAll(/'([^']+)'/g)].map((m) => m[1] ?? '');
}

describe('files that replace modules', () => {
  it('run isolated: each unit or integration file using vi.mock is in MOCKING', () => {
    const mocking = (['unit', 'integration'] as const)
      .flatMap((d) => testFiles(join(root, 'test', d)))
      .filter((f) => /\bvi\.mock\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f).split('\\').join('/'));
    expect(mocking.length).toBeGreaterThan(0);
    expect(mockingList().sort()).toEqual(expect.arrayContaining(mocking.sort()));
  });
});
