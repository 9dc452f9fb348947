// Vitest's global setup: every test file's temporary files go under one fresh directory, removed when the run ends.
// Tests (and the kubectl and plugin processes they start) make their directories with os.tmpdir(), which reads
// TMPDIR; the workers are started after this runs and inherit it. Without it, each run left hundreds of directories
// in /tmp.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'xrbac-run-'));
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
