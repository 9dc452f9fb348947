import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The directory holding the executable under test: the built bundle, or $E2E_BIN_DIR (e.g. a standalone binary). */
export const binDir = process.env.E2E_BIN_DIR ?? join(repoRoot, 'dist', 'bin');

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function assertBuilt(): void {
  if (!existsSync(join(binDir, 'kubectl-crossplane_rbac'))) {
    throw new Error(`no executable in ${binDir}: run "npm run build" first (npm test does)`);
  }
}

const made: string[] = [];

/**
 * Removes every directory tempDir made so far. test/e2e/setup.ts (the e2e projects' setup file, run before each
 * file) calls it after each file: the files of a worker share this module (isolate: false), so a hook registered
 * here, when the module is evaluated, would belong to the first file only.
 */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh temporary directory (e.g. an empty HOME, so no user kubeconfig leaks into a test), removed after the file. */
export function tempDir(prefix = 'xrbac-e2e-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** The path of CMD on PATH, if it is there. */
export function findOnPath(cmd: string): string | undefined {
  for (const d of (process.env.PATH ?? '').split(delimiter)) {
    if (d !== '' && existsSync(join(d, cmd))) return join(d, cmd);
  }
  return undefined;
}

/** util-linux script(1): runs a command on a pseudo-terminal. */
export const scriptPath = findOnPath('script');

/**
 * Runs the shell COMMAND on a pseudo-terminal (script -qec), with the plugin on PATH as `kubectl` finds it. What
 * the terminal showed (stdout and stderr together, lines ending in CRLF) is `stdout`.
 */
export function onPty(command: string, env: Record<string, string> = {}): Promise<RunResult> {
  return run(scriptPath ?? 'script', ['-qec', command, '/dev/null'], { env });
}

/**
 * A kubectl discovery cache for the server of KUBECONFIG (a directory beside it), for KUBECACHEDIR. Each run has a
 * fresh HOME, so without one every kubectl run first asks the server for every API group (about 60 requests on
 * examples/cluster: most of a `kubectl auth can-i`); with one, kubectl asks for what it does not know yet, as it
 * does on a user's machine, and discovers again when a resource is missing (a CRD created since). Only for a
 * kubeconfig whose server stays the same one for its whole life; the plugin keeps no cache of its own.
 */
export function discoveryCache(kubeconfig: string): string {
  return join(dirname(kubeconfig), 'kubectl-cache');
}

/** Runs `kubectl ARGS` with the plugin on PATH and a controlled environment. */
export function kubectl(
  args: readonly string[],
  opts: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  return run('kubectl', args, opts);
}

function run(
  command: string,
  args: readonly string[],
  opts: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  const home = tempDir('xrbac-home-');
  const env: Record<string, string> = {
    PATH: `${binDir}:${process.env.PATH ?? ''}`,
    HOME: home,
    NO_COLOR: '1',
  };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) Reflect.deleteProperty(env, k);
    else env[k] = v;
  }
  return new Promise((resolvePromise) => {
    const child = execFile(
      command,
      [...args],
      { env, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
        rmSync(home, { recursive: true, force: true });
        resolvePromise({ code, stdout, stderr });
      },
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
    else child.stdin?.end();
  });
}

/** Writes a kubeconfig pointing at SERVER with a bearer token; returns its path. */
export function writeKubeconfig(dir: string, server: string, token = 'unused', context = 'test'): string {
  const file = join(dir, `kubeconfig-${context}`);
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- name: ${context}`,
      '  cluster:',
      `    server: ${server}`,
      'users:',
      `- name: ${context}`,
      '  user:',
      `    token: ${token}`,
      'contexts:',
      `- name: ${context}`,
      '  context:',
      `    cluster: ${context}`,
      `    user: ${context}`,
      `current-context: ${context}`,
      '',
    ].join('\n'),
  );
  return file;
}
