// Builds the release: the bundle, one archive per platform, their sha256s, the krew manifest and a custom krew
// index layout, all under dist/release/ (or --out).
//
//   tsx scripts/release.ts [--platforms linux-amd64,...] [--standalone linux-amd64,...] [--out DIR]
//                          [--skip-build] [--write-manifest | --no-write-manifest]
//
// Standalone executables are made with `bun build --compile` (scripts/release/bun.ts). Every platform is
// standalone unless --standalone leaves it out; then it ships the JavaScript bundle (it needs Node.js on PATH), and
// the manifest's caveats say so. The root plugin.yaml is rewritten for a release of every default platform (that
// is `npm run release`), or with --write-manifest: the committed plugin.yaml is the release of its commit.
//
// Every executable is checked before it is packaged (scripts/release/checks.ts): it embeds exactly the JavaScript
// of the first one built, it is run where this machine can run it, and a macOS one must be a thin Mach-O of its
// CPU with a valid ad-hoc code signature (signed again here when bun's does not verify). The archives are written
// by scripts/release/archive.ts, the manifest by scripts/release/manifest.ts.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STANDALONE_ROOT_NAME, buildBundles } from './build.js';
import { tarGz, zip, type ArchiveFile } from './release/archive.js';
import { bunCompiler, compile, type BunCompiler } from './release/bun.js';
import {
  checkEmbeddedJavaScript,
  checkMacExecutable,
  smokeRun,
  type EmbeddedDigests,
  type MacCheck,
} from './release/checks.js';
import { caveats, renderManifest, type ManifestEntry } from './release/manifest.js';
import { BIN, DEFAULT_PLATFORMS, PLATFORMS, fail, platform, root, sha256 } from './release/platforms.js';

interface Options {
  platforms: readonly string[];
  standalone: readonly string[];
  out: string;
  skipBuild: boolean;
  writeManifest: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  let platforms = DEFAULT_PLATFORMS;
  let standalone: readonly string[] | undefined;
  let out = join(root, 'dist', 'release');
  let skipBuild = false;
  let writeManifest: boolean | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = (): string => inline ?? argv[++i] ?? fail(`${flag} needs a value`);
    const list = (): string[] =>
      value()
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
    if (flag === '--platforms') platforms = list();
    else if (flag === '--standalone') standalone = list();
    else if (flag === '--out') out = resolve(value());
    else if (flag === '--skip-build') skipBuild = true;
    else if (flag === '--write-manifest') writeManifest = true;
    else if (flag === '--no-write-manifest') writeManifest = false;
    else fail(`unknown flag ${arg}`);
  }
  standalone ??= platforms;
  for (const p of [...platforms, ...standalone]) {
    if (!(p in PLATFORMS)) fail(`unknown platform ${p} (known: ${Object.keys(PLATFORMS).join(', ')})`);
  }
  // Only the release itself (every default platform, each standalone) may become the committed plugin.yaml.
  const all = standalone;
  writeManifest ??=
    platforms.length === DEFAULT_PLATFORMS.length &&
    DEFAULT_PLATFORMS.every((p) => platforms.includes(p) && all.includes(p));
  return { platforms, standalone, out, skipBuild, writeManifest };
}

/** What release.json says of one platform. */
interface Entry extends ManifestEntry {
  readonly name: string;
  readonly standalone: boolean;
  readonly sizes: { readonly executable: number; readonly archive: number };
  readonly checks: Checks;
}

interface Checks extends Partial<EmbeddedDigests> {
  macho?: MacCheck;
  ran?: boolean;
}

/** What one release run shares between its platforms. */
interface Run {
  readonly opts: Options;
  readonly version: string;
  readonly bundle: string;
  /** The CommonJS entry bun compiles, and the module it requires (the composition root). */
  readonly entry: string;
  readonly modules: readonly string[];
  readonly license: Buffer;
  readonly bun: BunCompiler | undefined;
  /** The first standalone executable's checks: every later one must embed the same JavaScript. */
  reference: (EmbeddedDigests & { readonly name: string }) | undefined;
}

/** Builds, checks and archives the executable of the platform NAME. */
function releasePlatform(run: Run, name: string): Entry {
  const { opts, version } = run;
  const p = platform(name);
  const standalone = opts.standalone.includes(name);
  const exeName = p.os === 'windows' ? `${BIN}.exe` : BIN;
  const dir = join(opts.out, name);
  mkdirSync(dir, { recursive: true });
  const exe = join(dir, exeName);
  const checks: Checks = {};
  if (standalone) {
    if (run.bun === undefined) fail('no bun compiler');
    compile(run.bun, p, run.entry, run.modules, exe);
    if (p.os === 'darwin') checks.macho = checkMacExecutable(name, exe);
    const digests = checkEmbeddedJavaScript(name, exe, run.reference);
    Object.assign(checks, digests);
    run.reference ??= { name, ...checks, ...digests };
    checks.ran = smokeRun(name, exe, version);
  } else if (p.os === 'windows') fail('windows needs a standalone executable: krew installs only .exe files');
  else copyFileSync(run.bundle, exe);
  chmodSync(exe, 0o755);
  const files: ArchiveFile[] = [
    { name: exeName, mode: 0o755, data: readFileSync(exe) },
    { name: 'LICENSE', mode: 0o644, data: run.license },
  ];
  const ext = p.os === 'windows' ? 'zip' : 'tar.gz';
  const archive = `kubectl-crossplane-rbac_${version}_${p.os}_${p.arch}.${ext}`;
  const data = ext === 'zip' ? zip(files) : tarGz(files);
  writeFileSync(join(opts.out, archive), data);
  const sum = sha256(data);
  const sizes = { executable: statSync(exe).size, archive: data.length };
  const mb = (sizes.executable / 1024 / 1024).toFixed(1);
  const kind = standalone
    ? [
        checks.ran === true ? 'ran here' : 'not run here',
        checks.macho !== undefined &&
          `signature ${checks.macho.signature === 'bun' ? "bun's, verified" : 're-signed, verified'}`,
      ]
        .filter(Boolean)
        .join(', ')
    : 'bundle, needs Node';
  console.log(`${archive}  ${sum}  (${kind}, ${mb} MiB)`);
  return { os: p.os, arch: p.arch, name, archive, sha256: sum, bin: exeName, standalone, sizes, checks };
}

// ---- main

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const version = `v${pkg.version}`;
  if (!opts.skipBuild) await buildBundles();
  const bundle = join(root, 'dist', 'bin', BIN);
  if (!existsSync(bundle)) fail(`no bundle at ${bundle}: run "npm run build"`);
  // The same sources bundled as CommonJS (scripts/build.ts), which bun's bytecode compilation needs.
  const standalone = [`${BIN}.cjs`, STANDALONE_ROOT_NAME].map((f) => join(root, 'dist', 'standalone', f));
  for (const file of standalone) if (!existsSync(file)) fail(`no bundle at ${file}: run "npm run build"`);
  const license = readFileSync(join(root, 'LICENSE'));

  rmSync(opts.out, { recursive: true, force: true });
  mkdirSync(opts.out, { recursive: true });
  // Compiled from a copy, in a directory of its own: bun's output depends on the entry's path.
  const work = join(opts.out, '.work');
  mkdirSync(work, { recursive: true });
  const [entry = '', ...modules] = standalone.map((file) => {
    const copy = join(work, basename(file));
    copyFileSync(file, copy);
    return copy;
  });

  const needsBun = opts.platforms.some((p) => opts.standalone.includes(p));
  const run: Run = {
    opts,
    version,
    bundle,
    entry,
    modules,
    license,
    bun: needsBun ? bunCompiler() : undefined,
    reference: undefined,
  };
  const entries = opts.platforms.map((name) => releasePlatform(run, name));
  rmSync(work, { recursive: true, force: true });

  writeFileSync(join(opts.out, 'SHA256SUMS'), entries.map((e) => `${e.sha256}  ${e.archive}\n`).join(''));
  const manifest = renderManifest({
    version,
    entries,
    caveatText: caveats(opts.platforms, opts.standalone),
  });
  writeFileSync(join(opts.out, 'plugin.yaml'), manifest);
  const index = join(opts.out, 'krew-index', 'plugins');
  mkdirSync(index, { recursive: true });
  writeFileSync(join(index, 'crossplane-rbac.yaml'), manifest);
  const platforms = entries.map(({ name, archive, sha256: s, bin, standalone: st, sizes, checks }) => ({
    name,
    archive,
    sha256: s,
    bin,
    standalone: st,
    sizes,
    checks,
  }));
  // Archives are deflated by Node's zlib: another zlib build may compress the same files to other bytes.
  const zlib = process.versions.zlib;
  writeFileSync(join(opts.out, 'release.json'), `${JSON.stringify({ version, zlib, platforms }, null, 2)}\n`);
  if (opts.writeManifest) {
    writeFileSync(join(root, 'plugin.yaml'), manifest);
    console.log(`wrote ${join(root, 'plugin.yaml')}`);
  }
  console.log(`release ${version} in ${opts.out}`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await main();
