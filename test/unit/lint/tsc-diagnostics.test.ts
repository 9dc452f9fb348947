// scripts/typecheck-lint.ts (the gate's type check and lint on one program) reports the type errors itself
// (scripts/tsc-diagnostics.ts): it must print what `tsc --noEmit` prints into a pipe, and exit as it does. The
// oracle is the real tsc of node_modules, run on the same small projects from the same directory.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tscNoEmit } from '../../../scripts/tsc-diagnostics.js';

const root = join(import.meta.dirname, '..', '..', '..');
const TSC = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'xrbac-tsc-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const OPTIONS = { strict: true, target: 'ES2023', lib: ['ES2023'], types: [], skipLibCheck: true };

interface Case {
  readonly name: string;
  readonly reason: string;
  readonly files: Record<string, string>;
  readonly want: { readonly exit: number; readonly lines: number };
}

const CASES: readonly Case[] = [
  {
    name: 'SemanticErrorsInTwoFiles',
    reason: 'type errors of two files, sorted by file and position, one line each; exit 2',
    files: {
      'tsconfig.json': JSON.stringify({ compilerOptions: OPTIONS, include: ['*.ts'] }),
      'b.ts': 'export const n: number = "one";\nexport function f(x) { return x; }\n',
      'a.ts': 'import { n } from "./b.js";\nconst s: string = n;\nexport { s };\nmissing();\n',
    },
    want: { exit: 2, lines: 4 },
  },
  {
    name: 'SyntaxErrorHidesSemantics',
    reason:
      'a syntax error: only the syntactic diagnostics, the type error of the other file is not reported',
    files: {
      'tsconfig.json': JSON.stringify({ compilerOptions: OPTIONS, include: ['*.ts'] }),
      'a.ts': 'export const a = (1;\n',
      'b.ts': 'export const n: number = "one";\n',
    },
    want: { exit: 2, lines: 1 },
  },
  {
    name: 'ConfigErrorAndSyntaxError',
    reason: "an unknown compiler option is the config file's diagnostic, reported beside the syntactic ones",
    files: {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { ...OPTIONS, noSuchOption: true },
        include: ['*.ts'],
      }),
      'a.ts': 'export const a = (1;\n',
    },
    want: { exit: 2, lines: 2 },
  },
  {
    name: 'Clean',
    reason: 'no diagnostic: nothing printed, exit 0',
    files: {
      'tsconfig.json': JSON.stringify({ compilerOptions: OPTIONS, include: ['*.ts'] }),
      'a.ts': 'export const a: number = 1;\n',
    },
    want: { exit: 0, lines: 0 },
  },
];

describe('tscNoEmit prints and exits as `tsc --noEmit` into a pipe', () => {
  it.each(CASES)('$name: $reason', ({ files, want }) => {
    const dir = project(files);
    const real = spawnSync(process.execPath, [TSC, '--noEmit', '-p', dir], { encoding: 'utf8' });
    let out = '';
    const ours = tscNoEmit(dir, (text) => {
      out += text;
    });
    expect(real.stderr).toBe('');
    expect({ exit: ours.exitCode, out }).toEqual({ exit: real.status, out: real.stdout });
    // The projects say what they hold: a case whose errors tsc stopped reporting would compare empty with empty.
    expect({
      exit: real.status,
      lines: real.stdout.split('\n').filter((l) => / error TS\d+: /.test(l)).length,
    }).toEqual(want);
  });
});
