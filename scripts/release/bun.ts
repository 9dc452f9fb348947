// Standalone executables, made with `bun build --compile`. The compiler is the `bun` devDependency; the runtime
// embedded in each executable is the matching `@oven/bun-<os>-<arch>` package, fetched with `npm pack` and passed
// to bun with --compile-executable-path, so bun never downloads anything itself.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fail, root, type Platform } from './platforms.js';

/** The bun compiler: its executable and version. */
export interface BunCompiler {
  readonly bin: string;
  readonly version: string;
}

export function bunCompiler(): BunCompiler {
  const fromEnv = process.env.BUN;
  if (fromEnv !== undefined && fromEnv !== '')
    return { bin: fromEnv, version: execFileSync(fromEnv, ['--version']).toString().trim() };
  const require = createRequire(join(root, 'package.json'));
  let pkgJson: string;
  try {
    pkgJson = require.resolve('bun/package.json');
  } catch {
    fail('the bun compiler is not installed: run "npm install -D bun" (or set BUN=/path/to/bun)');
  }
  const { version } = JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string };
  const bin = join(dirname(pkgJson), 'bin', 'bun.exe'); // the package's name for its executable on every OS
  return { bin, version };
}

/**
 * The bun runtime for a target, from the registry package of the same version as the compiler; cached. Fetched
 * into a private directory and renamed into place, so releases running at the same time (tests) never see a
 * half-extracted runtime.
 */
function bunRuntime(platform: Platform, version: string): string {
  const cache = join(root, 'node_modules', '.cache', 'kubectl-crossplane-rbac-release');
  const dir = join(cache, `${platform.runtime.replace('/', '+')}@${version}`);
  const inPackage = join('package', 'bin', platform.os === 'windows' ? 'bun.exe' : 'bun');
  const exe = join(dir, inPackage);
  if (existsSync(exe)) return exe;
  mkdirSync(cache, { recursive: true });
  const tmp = mkdtempSync(`${dir}.tmp-`);
  try {
    execFileSync('npm', ['pack', `${platform.runtime}@${version}`, '--pack-destination', tmp, '--silent'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (tgz === undefined) fail(`npm pack ${platform.runtime}@${version} wrote no archive`);
    execFileSync('tar', ['-xzf', join(tmp, tgz), '-C', tmp]);
    if (!existsSync(join(tmp, inPackage))) fail(`${platform.runtime}@${version} holds no ${inPackage}`);
    try {
      renameSync(tmp, dir);
    } catch (err) {
      // Another release put it in place first: use that one.
      if (!existsSync(exe)) throw err;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return exe;
}

/**
 * Compiles the CommonJS bundle into the standalone executable OUTFILE for PLATFORM: ENTRY and the MODULES it
 * require()s by their names relative to it (files in its directory), each embedded as a module of its own with its
 * bytecode, loaded when first required.
 */
export function compile(
  bun: BunCompiler,
  platform: Platform,
  entry: string,
  modules: readonly string[],
  outfile: string,
): void {
  const runtime = bunRuntime(platform, bun.version);
  // bun embeds the files' absolute paths with their bytecode: compile in a folder named after the bundle's content,
  // the same wherever the checkout and --out are, so that the archives of a commit are the same everywhere.
  const hash = createHash('sha256');
  for (const file of [entry, ...modules]) hash.update(basename(file)).update('\0').update(readFileSync(file));
  const dir = join('/tmp', 'kubectl-crossplane-rbac-compile', hash.digest('hex').slice(0, 16));
  mkdirSync(dir, { recursive: true });
  withLock(`${dir}.lock`, () => {
    for (const file of [entry, ...modules]) copyFileSync(file, join(dir, basename(file)));
    compileIn(
      bun,
      platform,
      runtime,
      join(dir, basename(entry)),
      modules.map((m) => basename(m)),
      outfile,
    );
  });
}

/** Runs FN holding a lock directory (concurrent releases of the same bundle share the compile folder). */
function withLock<T>(lock: string, fn: () => T): T {
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock older than ten minutes was left by a release that was killed.
      if (Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function compileIn(
  bun: BunCompiler,
  platform: Platform,
  runtime: string,
  entry: string,
  modules: readonly string[],
  outfile: string,
): void {
  execFileSync(
    bun.bin,
    [
      'build',
      '--compile',
      `--target=${platform.bunTarget}`,
      `--compile-executable-path=${runtime}`,
      // A kubectl plugin must not pick up a .env or bunfig.toml from the user's working directory.
      '--no-compile-autoload-dotenv',
      '--no-compile-autoload-bunfig',
      // bun would inline process.platform and process.arch for the target; keeping them run-time values makes
      // every executable embed the same JavaScript, so the one the tests run vouches for the others.
      '--define',
      'process.platform=process.platform',
      '--define',
      'process.arch=process.arch',
      // The bundle is esbuild-minified with its names kept; bun prints it again, and would add whitespace back.
      '--minify',
      // Ship the bytecode bun compiles the bundle to, so that the executable does not parse 2 MB of JavaScript at
      // every start (most of the start-up time of --help without it). Needs the CommonJS entry.
      '--bytecode',
      '--format=cjs',
      // The entry's require()s of the other modules stay require()s, answered from the executable's own files.
      ...modules.flatMap((m) => ['--external', `./${m}`]),
      // Relative to the entry's directory: bun's output depends on the entry's path, so this keeps it reproducible.
      `./${basename(entry)}`,
      ...modules.map((m) => `./${m}`),
      '--outfile',
      `./${basename(outfile)}`,
    ],
    { cwd: dirname(entry), stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NO_COLOR: '1' } },
  );
  const built = join(dirname(entry), basename(outfile));
  if (!existsSync(built)) fail(`bun wrote no ${built}`);
  copyFileSync(built, outfile);
  chmodSync(outfile, 0o755);
  rmSync(built, { force: true });
}
