// What every part of the release shares: the repository root, the executable's name, the platforms and how the
// release stops.
import { createHash } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = 'kubectl-crossplane_rbac';

export interface Platform {
  readonly os: 'linux' | 'darwin' | 'windows';
  readonly arch: 'amd64' | 'arm64';
  /** The bun compile target. */
  readonly bunTarget: string;
  /** The registry package holding the bun runtime of that target. */
  readonly runtime: string;
}

/**
 * Every platform krew users get. `bunTarget`/`runtime`: the bun compile target and the registry package holding
 * that runtime. x64 uses bun's baseline build so the executable also runs on CPUs without AVX2.
 */
export const PLATFORMS: Readonly<Record<string, Platform>> = {
  'linux-amd64': {
    os: 'linux',
    arch: 'amd64',
    bunTarget: 'bun-linux-x64-baseline',
    runtime: '@oven/bun-linux-x64-baseline',
  },
  'linux-arm64': {
    os: 'linux',
    arch: 'arm64',
    bunTarget: 'bun-linux-arm64',
    runtime: '@oven/bun-linux-aarch64',
  },
  'darwin-amd64': {
    os: 'darwin',
    arch: 'amd64',
    bunTarget: 'bun-darwin-x64-baseline',
    runtime: '@oven/bun-darwin-x64-baseline',
  },
  'darwin-arm64': {
    os: 'darwin',
    arch: 'arm64',
    bunTarget: 'bun-darwin-arm64',
    runtime: '@oven/bun-darwin-aarch64',
  },
  'windows-amd64': {
    os: 'windows',
    arch: 'amd64',
    bunTarget: 'bun-windows-x64-baseline',
    runtime: '@oven/bun-windows-x64-baseline',
  },
};

/** The platform of NAME; stops the release when there is none. */
export function platform(name: string): Platform {
  return PLATFORMS[name] ?? fail(`unknown platform ${name} (known: ${Object.keys(PLATFORMS).join(', ')})`);
}

/**
 * The platforms of a release. linux-amd64 runs the whole end-to-end suite (npm test), linux-arm64 runs under
 * qemu-user where it is installed, and the macOS executables are checked as Mach-O files (CPU, code signature,
 * embedded JavaScript) since nothing here can run them. Windows is left out: Debian's wine 8 cannot start bun's
 * executable without a stand-in for bcryptprimitives.dll, and cannot open the relative paths bun resolves through
 * \Device\HarddiskVolumeN, so it was not shown to work; Windows users install with npm. It can still be built
 * with --platforms windows-amd64.
 */
export const DEFAULT_PLATFORMS: readonly string[] = [
  'linux-amd64',
  'linux-arm64',
  'darwin-amd64',
  'darwin-arm64',
];

/** Stops the release with MESSAGE. */
export function fail(message: string): never {
  console.error(`release: ${message}`);
  process.exit(1);
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');
