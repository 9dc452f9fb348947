// A handful of the bad-input corpus through the built executable and the real kubectl: devices, FIFOs, links, an
// alias bomb, a huge file and stdin over the limit must each end in one `error:` line and exit code 2, quickly.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBadInputCases, type Corpus } from '../unit/cli/bad-input-cases.js';
import { assertBuilt, kubectl, repoRoot, tempDir } from './harness.js';

const PICKED = [
  'DevZero',
  'DevUrandom',
  'Fifo',
  'SymlinkLoop',
  'HugeSparseFile',
  'StdinOverTheLimit',
  'BillionLaughs',
  'XrdGroupAndPluralStar',
  'RevisionObjectRefStarStar',
  'BindClusterAdmin',
  'ConcurrencyNotANumber',
];

let corpus: Corpus;
beforeAll(async () => {
  assertBuilt();
  corpus = await makeBadInputCases(tempDir('xrbac-e2e-bad-'), join(repoRoot, 'examples', 'cluster'));
});

afterAll(async () => {
  await corpus.close();
});

describe('bad input through the built executable', () => {
  it.each(PICKED)('%s', async (name) => {
    const tc = corpus.cases[name];
    if (tc === undefined) throw new Error(`no case ${name}`);
    const started = Date.now();
    const r = await kubectl(['crossplane-rbac', ...tc.argv], {
      timeoutMs: 30_000,
      ...(tc.stdin !== undefined ? { input: tc.stdin } : {}),
    });
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
    if (tc.held === true) {
      // An invalid XRD or ProviderRevision is held on its own line; the rest is planned; exit 2.
      expect(r.stderr.split('\n'), tc.reason).toContain(`held ${tc.error}`);
      expect(errors, tc.reason).toStrictEqual([
        'error: 1 owner is held: its roles were left untouched (listed above); everything else was planned',
      ]);
    } else {
      expect(errors, tc.reason).toStrictEqual([`error: ${tc.error}`]);
      expect(r.stdout).toBe('');
    }
    expect(r.code, tc.reason).toBe(2);
    expect(r.stderr).not.toMatch(/this is a bug|\n\s+at |FATAL/);
    expect(Date.now() - started, 'refused quickly, not after reading it all').toBeLessThan(20_000);
  });
});
