/**
 * The ```text transcripts of the documentation (a `$ kubectl crossplane-rbac ...` line and what a terminal shows for
 * it, readme-blocks.ts terminalTranscripts): the docs test (test/e2e/docs.test.ts) runs its blocks through a pipe,
 * where the plugin neither folds to a width nor knows one, so it cannot check them. They are run here, in-process and
 * offline: each must read `-f` (no cluster to start, no process to spawn: a few hundred milliseconds for the whole
 * documentation, where a docs-test block costs a test API server and the built binary through kubectl), on a
 * terminal as wide as the page says (`On a terminal N columns wide:` before the block), without colour (a page shows
 * none), standard error and output interleaved as a terminal shows them, compared as the docs test compares
 * (readme-blocks.ts outputMatches: `...` elides lines).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/app.js';
import { describeError } from '../../src/errors.js';
import { outputMatches, terminalTranscripts, type ReadmeCommand } from '../e2e/readme-blocks.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PREFIX = 'kubectl crossplane-rbac ';

function pages(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? pages(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : [],
  );
}

/** The command's terminal: stdout and stderr interleaved, COLUMNS wide (undefined: no width known). */
async function onTerminal(
  argv: readonly string[],
  columns: number | undefined,
): Promise<{ code: number; shown: string }> {
  let shown = '';
  const write = (s: string): boolean => {
    shown += s;
    return true;
  };
  const refuse = (): Promise<never> => Promise.reject(new Error('a transcript runs offline, with -f'));
  try {
    await runCli(argv, {
      io: {
        stdout: { write },
        stderr: { write },
        readStdin: refuse,
        stdoutIsTTY: true,
        columns,
        stderrIsTTY: true,
        stdinIsTTY: false,
        env: { NO_COLOR: '1' },
      },
      connect: refuse,
      prompter: { confirm: refuse, checkbox: refuse },
      version: 'v0.0.0-test',
    });
    return { code: 0, shown };
  } catch (err) {
    const { lines, exitCode } = describeError(err, false);
    return { code: exitCode, shown: shown + lines.map((l) => `${l}\n`).join('') };
  }
}

const cases: { name: string; command: ReadmeCommand; columns: number | undefined }[] = [
  'README.md',
  ...pages('docs'),
].flatMap((page) =>
  terminalTranscripts(readFileSync(join(ROOT, page), 'utf8'), page).flatMap((t) =>
    t.commands.map((command) => ({ name: `${page}:${String(command.line)}`, command, columns: t.columns })),
  ),
);

describe('terminal transcripts in the documentation', () => {
  it('finds them (docs/commands/explain.md has one)', () => {
    expect(cases.map((c) => c.name.split(':')[0])).toContain('docs/commands/explain.md');
  });

  it.each(cases)('$name', async ({ command, columns }) => {
    const text = command.text.slice(PREFIX.length);
    expect(text, 'one plain command: no quotes, pipes or variables').toMatch(/^[\w./:=,@ -]+$/);
    const argv = text.split(' ').filter((w) => w !== '');
    expect(argv, 'reads -f: a transcript runs offline').toContain('-f');
    const r = await onTerminal(argv, columns);
    expect(r.code).toBe(0);
    const want = command.expected?.text ?? '';
    expect(outputMatches(want, r.shown), `shown:\n${r.shown}\nthe page:\n${want}`).toBe(true);
  });
});
