/**
 * The output corpus through the process boundary: a sample of its cases (processSample: every command, every -o
 * format, one live and one fleet case) run as `kubectl crossplane-rbac ...` with the built binary, and compared byte
 * for byte (exit code, stdout, stderr) with test/fixtures/output-corpus/. The printers are the same JavaScript
 * in-process: test/integration/output-corpus.test.ts compares every case of the corpus that way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compared,
  corpusCases,
  facets,
  invocation,
  processSample,
  readIndex,
  startServers,
  type Servers,
} from './output-corpus-cases.js';
import { assertBuilt, kubectl, tempDir } from './harness.js';

let servers: Servers | undefined;
let home = '';
const cases = corpusCases();
const sample = processSample(cases);
const index = new Map(readIndex().map((r) => [r.id, r]));

beforeAll(async () => {
  assertBuilt();
  servers = await startServers();
  home = tempDir('xrbac-corpus-home-');
}, 120_000);

afterAll(async () => {
  await servers?.stop();
});

describe('the output corpus through kubectl and the built binary, byte for byte', () => {
  it('the sample shows every command and every -o format of the corpus, live and across contexts', () => {
    const shown = (list: readonly (typeof cases)[number][]): string[][] => [
      [...new Set(list.map((c) => facets(c).command))].sort(),
      [...new Set(list.map((c) => facets(c).format))].sort(),
    ];
    expect(shown(sample)).toEqual(shown(cases));
    expect(sample.map((c) => c.where)).toContain('live');
    expect(sample.map((c) => c.where)).toContain('fleet');
    // A fraction of the corpus: the rest runs in-process.
    expect(sample.length).toBeLessThan(cases.length / 4);
  });

  it.each(sample.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const rec = index.get(c.id);
    if (rec === undefined) throw new Error(`${c.id}: not in the corpus (run scripts/output-corpus.ts)`);
    const { args, env } = invocation(c, servers, home);
    const out = await kubectl(['crossplane-rbac', ...args], { env });
    const { got, want } = compared(rec, out);
    expect(got).toEqual(want);
  });
});
