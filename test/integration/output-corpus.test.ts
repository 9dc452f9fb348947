/**
 * The output corpus, every case in-process: each command line of test/e2e/output-corpus-cases.ts run through the CLI
 * with the real client over HTTP (runPlugin), offline on examples/cluster and examples/large and live on the test API
 * servers (one context, and a fleet with --contexts), and compared byte for byte (exit code, stdout, stderr) with
 * test/fixtures/output-corpus/, which scripts/output-corpus.ts saved from the built binary. The printers are the
 * same JavaScript in the binary; test/e2e/output-corpus.test.ts runs a sample through kubectl and the binary.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compared,
  corpusCases,
  corpusDir,
  readIndex,
  runCase,
  startServers,
  type Runner,
  type Servers,
} from '../e2e/output-corpus-cases.js';
import { repoRoot, runPlugin } from './harness.js';

// The version the build injects (scripts/build.ts: `v` and package.json's): SARIF names it.
const version = `v${(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version}`;

/** A command line in-process, with the environment the binary gets in the corpus (PATH, NO_COLOR and ENV). */
const inProcess: Runner = (args, env) =>
  runPlugin(args, { env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env }, version });

let servers: Servers | undefined;
let home = '';
const cases = corpusCases();
const index = new Map(readIndex().map((r) => [r.id, r]));

beforeAll(async () => {
  // -f's paths are relative to the repository, as the corpus was saved (the plugin prints them as given).
  expect(process.cwd()).toBe(repoRoot);
  servers = await startServers(inProcess);
  home = mkdtempSync(join(tmpdir(), 'xrbac-corpus-home-'));
}, 120_000);

afterAll(async () => {
  await servers?.stop();
  if (home !== '') rmSync(home, { recursive: true, force: true });
});

describe('the output corpus in-process, byte for byte', () => {
  it('has one saved output per case, and no other', () => {
    expect([...index.keys()]).toEqual(cases.map((c) => c.id));
    // Every file of the corpus is a case's, so each is compared below.
    const named = new Set([...index.values()].flatMap((r) => [`${r.id}.stdout`, `${r.id}.stderr`]));
    expect(readdirSync(corpusDir).filter((f) => f !== 'index.json' && !named.has(f))).toEqual([]);
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const rec = index.get(c.id);
    if (rec === undefined) throw new Error(`${c.id}: not in the corpus (run scripts/output-corpus.ts)`);
    const { got, want } = compared(rec, await runCase(c, servers, home, inProcess));
    expect(got).toEqual(want);
  });
});
