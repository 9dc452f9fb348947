// Builds the release: the bundle, one archive per platform, their sha256s, the krew manifest and a custom krew
// index layout, all under dist/release/ (or --out).
//
//   node scripts/release.mjs [--platforms linux-amd64,...] [--standalone linux-amd64,...] [--out DIR]
//                            [--skip-build] [--write-manifest | --no-write-manifest]
//
// Standalone executables are made with `bun build --compile`. The compiler is the `bun` devDependency; the runtime
// embedded in each executable is the matching `@oven/bun-<os>-<arch>` package, fetched with `npm pack` and passed
// to bun with --compile-executable-path, so bun never downloads anything itself. Every platform is standalone
// unless --standalone leaves it out; then it ships the JavaScript bundle (it needs Node.js on PATH), and the
// manifest's caveats say so. The root plugin.yaml is rewritten for a release of every default platform (that is
// `npm run release`), or with --write-manifest: the committed plugin.yaml is the release of its commit.
//
// Every executable is checked before it is packaged: it embeds exactly the JavaScript of the first one built
// (linux-amd64, which the end-to-end suite runs), it is run where this machine can run it, and a macOS one must be
// a thin Mach-O of its CPU with a valid ad-hoc code signature. bun signs darwin-arm64 executables itself but leaves
// darwin-x64 ones with the runtime's stale signature, so an executable whose signature does not verify is signed
// again here (scripts/macho-signature.mjs) and must verify after that.
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
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { readBunModuleGraph } from './bun-module-graph.mjs';
import { CPU_TYPES, readMachO, signMachOAdHoc, verifyMachOSignature } from './macho-signature.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = 'kubectl-crossplane_rbac';
const HOMEPAGE = 'https://github.com/kubectl-crossplane-rbac/kubectl-crossplane-rbac';
const ARCHIVE_MTIME = 315532800; // 1980-01-01T00:00:00Z: the earliest time a zip can hold; keeps archives reproducible.

/**
 * Every platform krew users get. `bunTarget`/`runtime`: the bun compile target and the registry package holding
 * that runtime. x64 uses bun's baseline build so the executable also runs on CPUs without AVX2.
 */
export const PLATFORMS = {
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

/**
 * The platforms of a release. linux-amd64 runs the whole end-to-end suite (npm test), linux-arm64 runs under
 * qemu-user where it is installed, and the macOS executables are checked as Mach-O files (CPU, code signature,
 * embedded JavaScript) since nothing here can run them. Windows is left out: Debian's wine 8 cannot start bun's
 * executable without a stand-in for bcryptprimitives.dll, and cannot open the relative paths bun resolves through
 * \Device\HarddiskVolumeN, so it was not shown to work; Windows users install with npm. It can still be built
 * with --platforms windows-amd64.
 */
export const DEFAULT_PLATFORMS = ['linux-amd64', 'linux-arm64', 'darwin-amd64', 'darwin-arm64'];

function parseArgs(argv) {
  const opts = {
    platforms: DEFAULT_PLATFORMS,
    standalone: undefined,
    out: join(root, 'dist', 'release'),
    skipBuild: false,
    writeManifest: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = () => inline ?? argv[++i] ?? fail(`${flag} needs a value`);
    const list = () =>
      value()
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
    if (flag === '--platforms') opts.platforms = list();
    else if (flag === '--standalone') opts.standalone = list();
    else if (flag === '--out') opts.out = resolve(value());
    else if (flag === '--skip-build') opts.skipBuild = true;
    else if (flag === '--write-manifest') opts.writeManifest = true;
    else if (flag === '--no-write-manifest') opts.writeManifest = false;
    else fail(`unknown flag ${arg}`);
  }
  opts.standalone ??= opts.platforms;
  for (const p of [...opts.platforms, ...opts.standalone]) {
    if (!(p in PLATFORMS)) fail(`unknown platform ${p} (known: ${Object.keys(PLATFORMS).join(', ')})`);
  }
  // Only the release itself (every default platform, each standalone) may become the committed plugin.yaml.
  opts.writeManifest ??=
    opts.platforms.length === DEFAULT_PLATFORMS.length &&
    DEFAULT_PLATFORMS.every((p) => opts.platforms.includes(p) && opts.standalone.includes(p));
  return opts;
}

function fail(message) {
  console.error(`release: ${message}`);
  process.exit(1);
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

// ---- archives: written here, byte for byte, so they hold exactly the files we say, with fixed owners and times.

/** A ustar tar.gz of regular files. */
export function tarGz(files) {
  const blocks = [];
  for (const f of files) {
    const header = Buffer.alloc(512);
    const field = (offset, length, text) => header.write(text, offset, length, 'ascii');
    const octal = (offset, length, n) =>
      field(offset, length, `${n.toString(8).padStart(length - 1, '0')}\0`);
    field(0, 100, f.name);
    octal(100, 8, f.mode);
    octal(108, 8, 0);
    octal(116, 8, 0);
    octal(124, 12, f.data.length);
    octal(136, 12, ARCHIVE_MTIME);
    header.fill(' ', 148, 156);
    field(156, 1, '0');
    field(257, 6, 'ustar\0');
    field(263, 2, '00');
    let sum = 0;
    for (const b of header) sum += b;
    field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
    blocks.push(header, f.data, Buffer.alloc((512 - (f.data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks), { level: 9 });
}

/** A zip of regular files, deflated, with unix modes in the external attributes. */
export function zip(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  const dosTime = 0; // 00:00:00
  const dosDate = (0 << 9) | (1 << 5) | 1; // 1980-01-01
  for (const f of files) {
    const name = Buffer.from(f.name, 'utf8');
    const body = deflateRawSync(f.data, { level: 9 });
    const crc = crc32(f.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(f.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(f.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((0o100000 | f.mode) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

// ---- standalone executables

function bunCompiler() {
  if (process.env.BUN)
    return { bin: process.env.BUN, version: execFileSync(process.env.BUN, ['--version']).toString().trim() };
  const require = createRequire(join(root, 'package.json'));
  let pkgJson;
  try {
    pkgJson = require.resolve('bun/package.json');
  } catch {
    fail('the bun compiler is not installed: run "npm install -D bun" (or set BUN=/path/to/bun)');
  }
  const version = JSON.parse(readFileSync(pkgJson, 'utf8')).version;
  const bin = join(dirname(pkgJson), 'bin', 'bun.exe'); // the package's name for its executable on every OS
  return { bin, version };
}

/**
 * The bun runtime for a target, from the registry package of the same version as the compiler; cached. Fetched
 * into a private directory and renamed into place, so releases running at the same time (tests) never see a
 * half-extracted runtime.
 */
function bunRuntime(platform, version) {
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

function compile(bun, platform, entry, outfile) {
  const runtime = bunRuntime(platform, bun.version);
  // bun embeds the entry's absolute path with its bytecode: compile in a folder named after the bundle's content,
  // the same wherever the checkout and --out are, so that the archives of a commit are the same everywhere.
  const digest = createHash('sha256').update(readFileSync(entry)).digest('hex').slice(0, 16);
  const dir = join('/tmp', 'kubectl-crossplane-rbac-compile', digest);
  mkdirSync(dir, { recursive: true });
  withLock(`${dir}.lock`, () => {
    const fixedEntry = join(dir, basename(entry));
    copyFileSync(entry, fixedEntry);
    compileIn(bun, platform, runtime, fixedEntry, outfile);
  });
}

/** Runs FN holding a lock directory (concurrent releases of the same bundle share the compile folder). */
function withLock(lock, fn) {
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
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

function compileIn(bun, platform, runtime, entry, outfile) {
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
      // Relative to the entry's directory: bun's output depends on the entry's path, so this keeps it reproducible.
      `./${basename(entry)}`,
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

/** The first of CANDIDATES that is an executable file, or undefined. */
function findExecutable(candidates) {
  for (const c of candidates) {
    try {
      if (statSync(c).isFile()) return c;
    } catch {
      // not there
    }
  }
  return undefined;
}

/**
 * Runs a freshly built executable's `version` where this machine can run it: linux-amd64 natively on an x64
 * Linux, linux-arm64 under qemu-user with Debian's arm64 libc. Returns true when it ran and answered its version,
 * false when this machine cannot run it; a build that runs and answers wrongly stops the release.
 */
function smokeRun(name, exe, version) {
  let cmd;
  let args;
  if (name === 'linux-amd64' && process.platform === 'linux' && process.arch === 'x64') {
    cmd = exe;
    args = ['version'];
  } else if (name === 'linux-arm64') {
    const qemu = findExecutable(['/usr/bin/qemu-aarch64-static', '/usr/bin/qemu-aarch64']);
    if (qemu === undefined || !existsSync('/usr/aarch64-linux-gnu')) return false;
    cmd = qemu;
    args = ['-L', '/usr/aarch64-linux-gnu', exe, 'version'];
  } else {
    return false;
  }
  const want = `kubectl-crossplane-rbac ${version}\n`;
  let got;
  try {
    got = execFileSync(cmd, args, { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' }, timeout: 120_000 });
  } catch (err) {
    fail(`the ${name} executable does not run: ${err.message}`);
  }
  if (got !== want)
    fail(`the ${name} executable answered ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
  return true;
}

/**
 * Checks a macOS executable the way macOS will before running it, and signs it again (ad hoc) when bun left a
 * signature that does not verify. Returns what was done, for the log and release.json; stops the release when the
 * executable is not a thin Mach-O of its CPU or its signature still does not verify.
 */
function checkMacExecutable(name, exe) {
  const arch = PLATFORMS[name].arch;
  const data = readFileSync(exe);
  let macho;
  try {
    macho = readMachO(data);
  } catch (err) {
    fail(`the ${name} executable is not a thin Mach-O: ${err.message}`);
  }
  // Signing cannot make an executable of the wrong CPU right.
  if (macho.header.cputype !== CPU_TYPES[arch])
    fail(`the ${name} executable is for CPU type 0x${macho.header.cputype.toString(16)}, not ${arch}`);
  const found = verifyMachOSignature(data, arch);
  if (found.errors.length === 0) return { signature: 'bun', ...signatureSummary(found.info) };
  console.log(
    `${name}: bun's code signature does not verify (${found.errors.join('; ')}); signing it ad hoc`,
  );
  let signed;
  try {
    signed = signMachOAdHoc(data, BIN);
  } catch (err) {
    fail(`cannot sign the ${name} executable: ${err.message}`);
  }
  const check = verifyMachOSignature(signed, arch);
  if (check.errors.length > 0)
    fail(`the ${name} executable does not verify after signing: ${check.errors.join('; ')}`);
  writeFileSync(exe, signed);
  return { signature: 're-signed ad hoc', bunSignatureErrors: found.errors, ...signatureSummary(check.info) };
}

function signatureSummary(info) {
  return { cpu: info.cpu, identifier: info.identifier, pages: info.pages, codeLimit: info.codeLimit };
}

/**
 * The sha256s of the JavaScript an executable runs (its bun entry point) and of the bytecode bun compiled it to;
 * stops the release when either is not the same as REFERENCE's, the executable first built, or the bytecode is
 * missing (the executable would parse the whole bundle at every start).
 */
function checkEmbeddedJavaScript(name, exe, reference) {
  let graph;
  try {
    graph = readBunModuleGraph(readFileSync(exe));
  } catch (err) {
    fail(`cannot read the JavaScript embedded in the ${name} executable: ${err.message}`);
  }
  const entry = graph.modules[graph.entryPoint];
  if (graph.modules.length !== 1)
    fail(`the ${name} executable embeds ${graph.modules.length} modules, want 1`);
  if (entry.bytecode === undefined) fail(`the ${name} executable embeds no bytecode for its JavaScript`);
  const digests = { javascriptSha256: sha256(entry.contents), bytecodeSha256: sha256(entry.bytecode) };
  for (const [what, key] of [
    ['JavaScript', 'javascriptSha256'],
    ['bytecode', 'bytecodeSha256'],
  ]) {
    if (reference !== undefined && digests[key] !== reference[key])
      fail(
        `the ${name} executable embeds other ${what} than the ${reference.name} one (${digests[key]} ≠ ${reference[key]})`,
      );
  }
  return digests;
}

// ---- manifest

/**
 * The caveats for PLATFORMS: a fixed text, so that the manifest is the same whatever this machine could run (the
 * release log and release.json say what ran).
 */
function caveats(platforms, standalone) {
  const names = (list) => list.map((p) => `${PLATFORMS[p].os}/${PLATFORMS[p].arch}`).join(', ');
  const bundled = platforms.filter((p) => !standalone.includes(p));
  const mac = platforms.filter((p) => standalone.includes(p) && PLATFORMS[p].os === 'darwin');
  const lines = [];
  if (bundled.length > 0) {
    lines.push(
      `On ${names(bundled)} this plugin is a JavaScript bundle, not a`,
      'standalone executable: it needs Node.js 20.19 or newer on PATH.',
    );
  }
  if (mac.length > 0) {
    lines.push(
      'The macOS executables are built on Linux: their code signatures and',
      'the JavaScript they embed are verified there, but they were not run',
      'on a Mac before this release.',
    );
  }
  return lines.map((l) => `    ${l}`).join('\n');
}

export function renderManifest({ version, entries, caveatText }) {
  const tmpl = readFileSync(join(root, 'scripts', 'plugin.yaml.tmpl'), 'utf8');
  const platforms = entries
    .map((e) =>
      [
        '    - selector:',
        '        matchLabels:',
        `          os: ${e.os}`,
        `          arch: ${e.arch}`,
        `      uri: ${HOMEPAGE}/releases/download/${version}/${e.archive}`,
        `      sha256: '${e.sha256}'`,
        `      bin: ${e.bin}`,
      ].join('\n'),
    )
    .join('\n');
  return tmpl
    .replaceAll('{{version}}', version)
    .replaceAll('{{homepage}}', HOMEPAGE)
    .replace('{{caveats}}\n', caveatText === '' ? '' : `${caveatText}\n`)
    .replace('{{platforms}}', platforms);
}

// ---- main

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const version = `v${pkg.version}`;
  if (!opts.skipBuild)
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  const bundle = join(root, 'dist', 'bin', BIN);
  if (!existsSync(bundle)) fail(`no bundle at ${bundle}: run "npm run build"`);
  // The same sources bundled as CommonJS (scripts/build.mjs), which bun's bytecode compilation needs.
  const standaloneEntry = join(root, 'dist', 'standalone', `${BIN}.cjs`);
  if (!existsSync(standaloneEntry)) fail(`no bundle at ${standaloneEntry}: run "npm run build"`);
  const license = readFileSync(join(root, 'LICENSE'));

  rmSync(opts.out, { recursive: true, force: true });
  mkdirSync(opts.out, { recursive: true });
  // Compiled from a copy, in a directory of its own: bun's output depends on the entry's path.
  const work = join(opts.out, '.work');
  mkdirSync(work, { recursive: true });
  const entry = join(work, `${BIN}.cjs`);
  copyFileSync(standaloneEntry, entry);

  const needsBun = opts.platforms.some((p) => opts.standalone.includes(p));
  const bun = needsBun ? bunCompiler() : undefined;
  const entries = [];
  const ran = [];
  let reference;
  for (const name of opts.platforms) {
    const platform = PLATFORMS[name];
    const standalone = opts.standalone.includes(name);
    const exeName = platform.os === 'windows' ? `${BIN}.exe` : BIN;
    const dir = join(opts.out, name);
    mkdirSync(dir, { recursive: true });
    const exe = join(dir, exeName);
    const checks = {};
    if (standalone) {
      compile(bun, platform, entry, exe);
      if (platform.os === 'darwin') checks.macho = checkMacExecutable(name, exe);
      Object.assign(checks, checkEmbeddedJavaScript(name, exe, reference));
      reference ??= { name, ...checks };
      if (smokeRun(name, exe, version)) ran.push(name);
      checks.ran = ran.includes(name);
    } else if (platform.os === 'windows')
      fail('windows needs a standalone executable: krew installs only .exe files');
    else copyFileSync(bundle, exe);
    chmodSync(exe, 0o755);
    const files = [
      { name: exeName, mode: 0o755, data: readFileSync(exe) },
      { name: 'LICENSE', mode: 0o644, data: license },
    ];
    const ext = platform.os === 'windows' ? 'zip' : 'tar.gz';
    const archive = `kubectl-crossplane-rbac_${version}_${platform.os}_${platform.arch}.${ext}`;
    const data = ext === 'zip' ? zip(files) : tarGz(files);
    writeFileSync(join(opts.out, archive), data);
    const sum = sha256(data);
    const sizes = { executable: statSync(exe).size, archive: data.length };
    entries.push({ ...platform, name, archive, sha256: sum, bin: exeName, standalone, sizes, checks });
    const mb = (sizes.executable / 1024 / 1024).toFixed(1);
    const kind = standalone
      ? [
          checks.ran ? 'ran here' : 'not run here',
          checks.macho &&
            `signature ${checks.macho.signature === 'bun' ? "bun's, verified" : 're-signed, verified'}`,
        ]
          .filter(Boolean)
          .join(', ')
      : 'bundle, needs Node';
    console.log(`${archive}  ${sum}  (${kind}, ${mb} MiB)`);
  }
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

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
