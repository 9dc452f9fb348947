/**
 * The output corpus: every read and write command with every -o format, offline on examples/cluster and
 * examples/large and live on the test API server (one context, and a fleet with --contexts), run with the built
 * binary and compared byte for byte (exit code, stdout, stderr) with what the build before the printer refactor
 * printed (test/fixtures/output-corpus/, saved by scripts/output-corpus.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  corpusCases,
  corpusDir,
  readIndex,
  runCase,
  startServers,
  type Output,
  type Recorded,
  type Servers,
} from './output-corpus-cases.js';
import { assertBuilt, tempDir } from './harness.js';

let servers: Servers | undefined;
const outputs = new Map<string, Promise<Output>>();
const cases = corpusCases();
const index = new Map(readIndex().map((r) => [r.id, r]));

/** Runs the cases two at a time, in order, each once: each test awaits its own. */
function startAll(home: string): void {
  let next = 0;
  const resolvers = new Map<string, (o: Output) => void>();
  for (const c of cases) outputs.set(c.id, new Promise((done) => resolvers.set(c.id, done)));
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const c = cases[next++];
      if (c === undefined) return;
      resolvers.get(c.id)?.(await runCase(c, servers, home));
    }
  };
  void Promise.all([worker(), worker()]);
}

beforeAll(async () => {
  assertBuilt();
  servers = await startServers();
  startAll(tempDir('xrbac-corpus-home-'));
}, 120_000);

afterAll(async () => {
  await servers?.stop();
});

function expected(rec: Recorded, part: 'stdout' | 'stderr'): { sha256: string; bytes: number } | string {
  const kept = rec[part];
  return kept === 'file' ? readFileSync(join(corpusDir, `${rec.id}.${part}`), 'utf8') : kept;
}

function actual(
  text: string,
  like: { sha256: string; bytes: number } | string,
): { sha256: string; bytes: number } | string {
  if (typeof like === 'string') return text;
  return { sha256: createHash('sha256').update(text).digest('hex'), bytes: Buffer.byteLength(text) };
}

describe('the output corpus, byte for byte', () => {
  it('has one saved output per case, and no other', () => {
    expect([...index.keys()]).toEqual(cases.map((c) => c.id));
  });

  for (const c of cases) {
    it(
      c.id,
      async () => {
        const rec = index.get(c.id);
        if (rec === undefined) throw new Error(`${c.id}: not in the corpus (run scripts/output-corpus.ts)`);
        const out = await outputs.get(c.id);
        if (out === undefined) throw new Error(`${c.id}: not run`);
        const stdout = expected(rec, 'stdout');
        const stderr = expected(rec, 'stderr');
        expect({
          code: out.code,
          stdout: actual(out.stdout, stdout),
          stderr: actual(out.stderr, stderr),
        }).toEqual({
          code: rec.code,
          stdout,
          stderr,
        });
      },
      600_000,
    );
  }
});
