// Runs scripts/release.ts (with tsx) into a temporary directory, for the packaging tests.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
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
  readonly sizes: { readonly executable: number; readonly archive: number };
  readonly checks: {
    readonly javascriptSha256?: string;
    readonly bytecodeSha256?: string;
    readonly ran?: boolean;
    readonly macho?: { readonly signature: string; readonly bunSignatureErrors?: readonly string[] };
  };
}

/** dist/release/release.json: what the release built and checked. */
export interface ReleaseJson {
  readonly version: string;
  readonly zlib: string;
  readonly platforms: readonly ReleaseEntry[];
}

const releases: string[] = [];
// Registered while the importing test file is collected: the releases it built go when the file is done.
afterAll(() => {
  for (const dir of releases.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Builds the release of PLATFORMS (default: the default ones, as `npm run release`) from the existing bundle (no
 * rebuild: other tests run it meanwhile) into a temporary directory, and returns that directory.
 */
export function runRelease(platforms?: readonly string[], standalone?: readonly string[]): string {
  const out = mkdtempSync(join(tmpdir(), 'xrbac-release-'));
  releases.push(out);
  const args = [
    '--import',
    'tsx',
    join(repoRoot, 'scripts', 'release.ts'),
    '--skip-build',
    '--no-write-manifest',
    '--out',
    out,
  ];
  if (platforms !== undefined) args.push('--platforms', platforms.join(','));
  if (standalone !== undefined) args.push('--standalone', standalone.join(','));
  execFileSync(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
  return out;
}

export function readReleaseJson(out: string): ReleaseJson {
  return JSON.parse(readFileSync(join(out, 'release.json'), 'utf8')) as ReleaseJson;
}

/**
 * The release of every default platform, as `npm run release` makes it: $RELEASE_DIR when npm test made it before
 * the tests (`npm run release:test`: release.ts with the flags runRelease passes, into dist/release-test; its
 * linux-amd64 executable is the one the e2e-standalone project runs), else one made here. One older than the
 * bundles it is compiled from is refused, as in standaloneLinuxAmd64.
 */
export function defaultRelease(): string {
  const dir = process.env.RELEASE_DIR;
  if (dir === undefined || dir === '') return runRelease();
  refuseStale(join(dir, 'release.json'), 'npm run release:test');
  return dir;
}

/** The executable of PLATFORM (a default one): from $RELEASE_DIR when npm test made it, else a release made here. */
export function platformExecutable(platform: string, bin: string): string {
  const dir = process.env.RELEASE_DIR;
  if (dir === undefined || dir === '') return join(runRelease([platform]), platform, bin);
  refuseStale(join(dir, 'release.json'), 'npm run release:test');
  return join(dir, platform, bin);
}

/** Throws when FILE is missing or older than the bundles the executables are compiled from (dist/standalone). */
function refuseStale(file: string, remedy: string): void {
  const sources = join(repoRoot, 'dist', 'standalone');
  const built = Math.max(...readdirSync(sources).map((f) => statSync(join(sources, f)).mtimeMs));
  if (!existsSync(file) || statSync(file).mtimeMs < built)
    throw new Error(`${file} is missing or older than ${sources}: run "${remedy}"`);
}

/**
 * The directory of the standalone linux-amd64 executable: $E2E_STANDALONE_DIR when npm test (the linux-amd64 of
 * its release, see defaultRelease) or `npm run test:e2e:standalone` (`npm run release:e2e`: linux-amd64 alone,
 * into dist/release-e2e) made it before the tests, else a release of linux-amd64 made here. One older than the bundles it is compiled from is refused: it would not be the
 * executable of these sources.
 */
export function standaloneLinuxAmd64(): string {
  const dir = process.env.E2E_STANDALONE_DIR;
  if (dir === undefined || dir === '') return join(runRelease(['linux-amd64']), 'linux-amd64');
  refuseStale(join(dir, 'kubectl-crossplane_rbac'), 'npm run release:e2e');
  return dir;
}
