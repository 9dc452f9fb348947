// `npm run typecheck-lint`: `npm run typecheck` and `npm run lint` on one TypeScript program.
//
// typescript-eslint's type-aware rules need a whole TypeScript program, and `tsc --noEmit` builds one: run one
// after the other, the gate parsed, bound and checked every file twice. Here the program is built once, from
// tsconfig.json with `--noEmit` as `tsc --noEmit` builds it; its diagnostics are reported as tsc reports them into a
// pipe (scripts/tsc-diagnostics.ts), then ESLint lints the repository (`eslint .`, the same config) with that
// program handed to typescript-eslint (parserOptions.programs), whose rules find the checker's types already there.
// The two JavaScript config files, which that program does not hold (no allowJs), lint on a small program of their
// own: through the config's project service they cost 11 CPU-s and 600 MB alone (measured 2026-11-28).
//
// Prints tsc's diagnostics, then ESLint's report (the stylish formatter, as `eslint .`), and exits with the larger of
// the two exit codes (tsc's 2 on a type error, ESLint's 1 on a lint error, 2 when ESLint could not run). `npm run
// typecheck` and `npm run lint` still run each alone; `npm test` and `npm run test:quick` run this instead.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { root } from './release/platforms.js';
import { tscNoEmit } from './tsc-diagnostics.js';

const tsc = tscNoEmit(root, process.stdout.write.bind(process.stdout));

// The JavaScript config files: tsconfig.json's options with allowJs, as the project service's default project.
const JS_CONFIGS = ['eslint.config.js', 'stryker.config.mjs'];
const options = { ...tsc.program.getCompilerOptions(), allowJs: true };
const jsProgram = ts.createProgram({
  rootNames: JS_CONFIGS.map((f) => join(root, f)),
  options,
  host: ts.createCompilerHost(options),
});

const eslint = new ESLint({
  cwd: root,
  overrideConfig: [
    {
      files: ['**/*.ts'],
      languageOptions: { parserOptions: { programs: [tsc.program], projectService: false } },
    },
    {
      files: JS_CONFIGS,
      languageOptions: { parserOptions: { programs: [jsProgram], projectService: false } },
    },
  ],
});
let lintCode: number;
try {
  const results = await eslint.lintFiles(['.']);
  const formatter = await eslint.loadFormatter('stylish');
  const report = await formatter.format(results);
  if (report !== '') process.stdout.write(report);
  lintCode = results.some((r) => r.errorCount > 0 || r.fatalErrorCount > 0) ? 1 : 0;
} catch (err) {
  process.stderr.write(`eslint: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  lintCode = 2;
}
process.exitCode = Math.max(lintCode, tsc.exitCode);
