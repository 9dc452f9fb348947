// Runs scripts/release.mjs into a temporary directory, for the packaging tests.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const bundlePath = join(repoRoot, 'dist', 'bin', 'kubectl-crossplane_rbac');
export const haveBundle = existsSync(bundlePath);
/** bun compiles the standalone executables: the devDependency, or $BUN. */
export const haveBun =
  process.env.BUN !== undefined || existsSync(join(repoRoot, 'node_modules', 'bun', 'package.json'));

export interface ReleaseEntry {
  readonly name: string;
  readonly archive: string;
  readonly sha256: string;
  readonly bin: string;
  readonly standalone: boolean;
}

const releases: string[] = [];
// Registered while the importing test file is collected: the releases it built go when the file is done.
afterAll(() => {
  for (const dir of releases.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Builds the release of PLATFORMS from the existing bundle (no rebuild: other tests run it meanwhile). */
export function runRelease(platforms: readonly string[], standalone?: readonly string[]): string {
  const out = mkdtempSync(join(tmpdir(), 'xrbac-release-'));
  releases.push(out);
  const args = [
    join(repoRoot, 'scripts', 'release.mjs'),
    '--skip-build',
    '--no-write-manifest',
    '--out',
    out,
  ];
  args.push('--platforms', platforms.join(','));
  if (standalone !== undefined) args.push('--standalone', standalone.join(','));
  execFileSync(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
  return out;
}
