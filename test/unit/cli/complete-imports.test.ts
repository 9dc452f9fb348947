// Shell completion runs on every Tab: it loads what it needs and no more. esbuild's metafile (the build's own bundler)
// gives each module's imports; the static ones (`import ... from`, kept at run time: type-only imports are erased)
// are what loading src/cli/complete.ts loads, while `import()` waits until a command reaches it.
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

async function staticallyLoaded(entry: string): Promise<Set<string>> {
  const { metafile } = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    splitting: true,
    outdir: 'unused',
    packages: 'external',
    logLevel: 'silent',
  });
  const inputs: Metafile['inputs'] = metafile.inputs;
  const seen = new Set<string>([entry]);
  const queue = [entry];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const i of inputs[file]?.imports ?? []) {
      if (i.kind !== 'import-statement' || i.external === true || seen.has(i.path)) continue;
      seen.add(i.path);
      queue.push(i.path);
    }
  }
  return seen;
}

describe('what completion loads', () => {
  it('is not the matrix, nor any other explanation (only the verbs it offers)', async () => {
    const loaded = await staticallyLoaded('src/cli/complete.ts');
    // The walk itself works: completion reaches the command list and the registry's format lists.
    expect(loaded).toContain('src/cli/command-list.ts');
    expect(loaded).toContain('src/cli/output/output-formats.ts');
    expect([...loaded].filter((f) => f.startsWith('src/explain/'))).toStrictEqual([
      'src/explain/matrix-verbs.ts',
    ]);
    expect(loaded).not.toContain('src/explain/matrix.ts');
  });
});
