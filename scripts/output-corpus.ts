/**
 * Saves the output corpus (test/fixtures/output-corpus/): each case of test/e2e/output-corpus-cases.ts run with the
 * built binary (run `npm run build` first), its exit code, stdout and stderr, whole or as a sha256 and byte count
 * when large. test/integration/output-corpus.test.ts compares every case with it byte for byte in-process, and
 * test/e2e/output-corpus.test.ts a sample through kubectl and the binary. Run it only when an
 * output is meant to change, and say which in the commit.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  corpusCases,
  corpusDir,
  record,
  runCase,
  startServers,
  type Recorded,
} from '../test/e2e/output-corpus-cases.js';

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'xrbac-corpus-home-'));
  const servers = await startServers();
  try {
    mkdirSync(corpusDir, { recursive: true });
    for (const f of readdirSync(corpusDir)) if (f !== 'README.md') rmSync(join(corpusDir, f));
    const index: Recorded[] = [];
    for (const c of corpusCases()) {
      const r = record(c, await runCase(c, servers, home));
      index.push(r.index);
      for (const [name, text] of r.files) writeFileSync(join(corpusDir, name), text);
    }
    writeFileSync(join(corpusDir, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
    process.stdout.write(`${String(index.length)} outputs saved in ${corpusDir}\n`);
  } finally {
    await servers.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
