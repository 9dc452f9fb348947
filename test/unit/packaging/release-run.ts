// Runs scripts/release.mjs into a temporary directory, for the packaging tests.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** Builds the release of PLATFORMS from the existing bundle (no rebuild: other tests run it meanwhile). */
export function runRelease(platforms: readonly string[], standalone?: readonly string[]): string {
  const out = mkdtempSync(join(tmpdir(), 'xrbac-release-'));
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
