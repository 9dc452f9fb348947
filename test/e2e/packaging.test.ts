import { execFile, execFileSync } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  symlinkSync,
} from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { haveBun, platformExecutable, standaloneLinuxAmd64 } from '../unit/packaging/release-run.js';
import { assertBuilt, repoRoot, tempDir, type RunResult } from './harness.js';

const BIN = 'kubectl-crossplane_rbac';

function onPath(cmd: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const file = join(dir, cmd);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** A directory holding only kubectl (the real binary, linked), so PATH can leave everything else out. */
function kubectlOnlyDir(): string {
  const kubectl = onPath('kubectl');
  if (kubectl === undefined) throw new Error('kubectl is not on PATH');
  const dir = join(tempDir('xrbac-kubectl-'), 'bin');
  mkdirSync(dir);
  symlinkSync(realpathSync(kubectl), join(dir, 'kubectl'));
  return dir;
}

/** Runs `kubectl ARGS` with exactly PATH (no inherited PATH), an empty HOME and no kubeconfig. */
function kubectlWith(path: readonly string[], args: readonly string[], cmd = 'kubectl'): Promise<RunResult> {
  const env = { PATH: path.join(delimiter), HOME: tempDir('xrbac-home-'), NO_COLOR: '1' };
  return new Promise((resolve) => {
    execFile(
      cmd,
      [...args],
      { env, cwd: repoRoot, timeout: 120_000, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
      },
    ).stdin?.end();
  });
}

const version = `v${JSON.parse(execFileSync('npm', ['pkg', 'get', 'version'], { cwd: repoRoot, encoding: 'utf8' })) as string}`;

describe('the npm package', () => {
  let prefix = '';
  let files: string[] = [];

  beforeAll(() => {
    assertBuilt();
    const dir = tempDir('xrbac-npm-');
    // --ignore-scripts: no prepack rebuild of dist/bin while other e2e tests run it (npm test built it already).
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
        cwd: repoRoot,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as { filename: string; files: { path: string }[] }[];
    files = packed[0]?.files.map((f) => f.path).sort() ?? [];
    prefix = join(dir, 'prefix');
    // --offline: the tarball alone must be enough, with no registry and nothing from npm's cache.
    execFileSync(
      'npm',
      [
        'install',
        '-g',
        '--prefix',
        prefix,
        '--offline',
        '--no-audit',
        '--no-fund',
        join(dir, packed[0]?.filename ?? ''),
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, npm_config_cache: join(dir, 'empty-cache') },
      },
    );
  }, 300_000);

  it('PacksOnlyTheBundle: the tarball holds the bundle (the executable and its chunks), LICENSE, README and package.json', () => {
    const chunks = readdirSync(join(repoRoot, 'dist', 'bin', 'chunks')).map((f) => `dist/bin/chunks/${f}`);
    expect(chunks.length).toBeGreaterThan(0);
    expect(files).toEqual(['LICENSE', 'README.md', ...chunks, `dist/bin/${BIN}`, 'package.json'].sort());
  });

  it('NoRuntimeDependencies: package.json declares none, and an install adds this package alone', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies'])
      expect(pkg[field], `${field}: the bundle already holds every library`).toBeUndefined();
    const installed = join(prefix, 'lib', 'node_modules');
    expect(readdirSync(installed)).toEqual(['kubectl-crossplane-rbac']);
    expect(existsSync(join(installed, 'kubectl-crossplane-rbac', 'node_modules'))).toBe(false);
  });

  it('RunsFromTheInstall: the installed kubectl-crossplane_rbac answers its version', async () => {
    const node = onPath('node');
    expect(node).toBeDefined();
    const r = await kubectlWith([join(prefix, 'bin'), join(node ?? '', '..')], ['version'], BIN);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`kubectl-crossplane-rbac ${version}\n`);
    // A command that loads the chunks (version is answered before them): the same objects as from the sources.
    const examples = join(repoRoot, 'examples', 'cluster');
    const args = ['sync', '-f', examples, '--dry-run=client', '-o', 'name'];
    const installed = await kubectlWith([join(prefix, 'bin'), join(node ?? '', '..')], args, BIN);
    const built = await kubectlWith([join(repoRoot, 'dist', 'bin'), join(node ?? '', '..')], args, BIN);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout.split('\n').length).toBeGreaterThan(100);
    expect(installed).toStrictEqual(built);
  });

  it('InstallsOnPath: a global install puts the plugin on PATH for kubectl', async () => {
    const node = onPath('node');
    expect(node).toBeDefined();
    const binDir = join(prefix, 'bin');
    expect(existsSync(join(binDir, BIN))).toBe(true);
    const r = await kubectlWith(
      [binDir, kubectlOnlyDir(), join(node ?? '', '..')],
      ['crossplane-rbac', 'version'],
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`kubectl-crossplane-rbac ${version}\n`);
  });
});

describe.skipIf(!haveBun)('the standalone linux-amd64 executable', () => {
  let binDir = '';
  let kubectlDir = '';

  beforeAll(() => {
    assertBuilt();
    // npm test made it already (E2E_STANDALONE_DIR), the release of these sources; else it is made here.
    binDir = standaloneLinuxAmd64();
    kubectlDir = kubectlOnlyDir();
  }, 300_000);

  it('NoNodeOnPath: the PATH used below really has no node', async () => {
    const r = await kubectlWith([binDir, kubectlDir], ['-c', 'command -v node || echo none'], '/bin/sh');
    expect(r.stdout.trim()).toBe('none');
  });

  it('Version: answers kubectl crossplane-rbac version with no node anywhere on PATH', async () => {
    const r = await kubectlWith([binDir, kubectlDir], ['crossplane-rbac', 'version']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`kubectl-crossplane-rbac ${version}\n`);
  });

  it('ExplainMatchesTheBundle: explain -f examples/cluster prints what the Node bundle prints', async () => {
    const args = ['crossplane-rbac', 'explain', 'admin', '-f', 'examples/cluster'];
    const standalone = await kubectlWith([binDir, kubectlDir], args);
    const node = onPath('node') ?? 'node';
    const bundle = await kubectlWith([join(repoRoot, 'dist', 'bin'), kubectlDir, join(node, '..')], args);
    expect(standalone.code).toBe(0);
    expect(standalone.stderr).toBe('');
    expect(standalone.stdout).toContain('admin (aggregated');
    expect(standalone.stdout).toBe(bundle.stdout);
  });
});

// linux-arm64 runs under qemu-user when the machine has it (Debian: qemu-user-static and libc6-arm64-cross).
const qemu = onPath('qemu-aarch64-static') ?? onPath('qemu-aarch64');
const arm64Libc = '/usr/aarch64-linux-gnu';
const haveQemu = haveBun && qemu !== undefined && existsSync(arm64Libc);
if (!haveQemu)
  console.log('linux-arm64 executable not run: needs bun, qemu-aarch64(-static) and libc6-arm64-cross');

describe.skipIf(!haveQemu)('the standalone linux-arm64 executable under qemu', () => {
  let exe = '';
  beforeAll(() => {
    exe = platformExecutable('linux-arm64', BIN);
  }, 300_000);

  it('VersionAndExplain: the arm64 build answers version and explain', async () => {
    const run = (args: string[]) => kubectlWith(['/usr/bin', '/bin'], ['-L', arm64Libc, exe, ...args], qemu);
    const v = await run(['version']);
    expect(v.stdout).toBe(`kubectl-crossplane-rbac ${version}\n`);
    const e = await run(['explain', 'admin', '-f', 'examples/cluster']);
    expect(e.code).toBe(0);
    expect(e.stdout).toContain('admin (aggregated');
  }, 120_000);
});
