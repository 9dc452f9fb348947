// The bad-input corpus through the in-process CLI: each case exits 2 with exactly one `error:` line (the one the
// case names), no "this is a bug" hint, no stack trace, and nothing on stdout.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../../support/run-cli.js';
import { makeBadInputCases } from './bad-input-cases.js';
import { exampleCluster } from './bind-fakes.js';

const dir = mkdtempSync(join(tmpdir(), 'xrbac-bad-input-'));
const corpus = await makeBadInputCases(dir, exampleCluster);

afterAll(async () => {
  await corpus.close();
  rmSync(dir, { recursive: true, force: true });
});

const all = Object.entries(corpus.cases);
// A case that cannot run here (a mode-000 file is readable by root) is skipped, with its reason in its name.
const runnable = all.filter(([, tc]) => tc.skip === undefined);
const skipped = all
  .filter(([, tc]) => tc.skip !== undefined)
  .map(([name, tc]) => `${name}: ${tc.skip ?? ''}`);

describe('bad input', () => {
  it('the corpus holds at least 60 cases', () => {
    expect(all.length).toBeGreaterThanOrEqual(60);
  });

  it.skip.each(skipped)('%s', () => undefined);

  it.each(runnable)('%s', async (_name, tc) => {
    const r = await runCaptured(tc.argv, tc.stdin !== undefined ? { stdin: tc.stdin } : {});
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
    if (tc.held === true) {
      // The owner is held, named on its own line; everything else is planned; the run exits 2.
      expect(r.stderr.split('\n'), tc.reason).toContain(`held ${tc.error}`);
      expect(errors, tc.reason).toStrictEqual([
        'error: 1 owner is held: its roles were left untouched (listed above); everything else was planned',
      ]);
      expect(r.code, tc.reason).toBe(2);
      expect(r.stderr, 'never a bug report for bad input').not.toMatch(/this is a bug|\n\s+at /);
      return;
    }
    expect(errors, tc.reason).toStrictEqual([`error: ${tc.error}`]);
    expect(r.code, tc.reason).toBe(2);
    expect(r.stderr, 'never a bug report for bad input').not.toMatch(/this is a bug|\n\s+at /);
    if (tc.hint !== undefined) expect(r.stderr, tc.reason).toContain(`\nhint: ${tc.hint}\n`);
    expect(r.stdout, 'nothing printed as data').toBe('');
  });
});
