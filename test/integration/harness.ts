import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli/app.js';
import type { Deps } from '../../src/cli/context.js';
import type { Prompter } from '../../src/cli/output/prompt.js';
import { describeError } from '../../src/errors.js';
import { connect } from '../../src/k8s/connect.js';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type ApiServerOptions, type TestApiServer } from '../apiserver/server.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const exampleCluster = join(repoRoot, 'examples', 'cluster');

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts a test API server seeded with the example cluster (or the given paths) and writes an admin kubeconfig. */
export async function startSeeded(
  seedPaths: readonly string[] = [exampleCluster],
  opts: ApiServerOptions = {},
): Promise<{ server: TestApiServer; kubeconfig: string; dir: string }> {
  const server = await startApiServer({ ...opts, seed: loadSeedFiles([...seedPaths]) });
  const dir = mkdtempSync(join(tmpdir(), 'xrbac-int-'));
  const kubeconfig = join(dir, 'admin.kubeconfig');
  server.writeKubeconfig(kubeconfig);
  return { server, kubeconfig, dir };
}

/** A kubeconfig for another user of the server (added with the given groups). */
export function userKubeconfig(
  server: TestApiServer,
  dir: string,
  user: string,
  groups: readonly string[] = [],
): string {
  const token = `token-${user}`;
  server.addUser(token, user, groups);
  const file = join(dir, `${user}.kubeconfig`);
  server.writeKubeconfig(file, { token });
  return file;
}

const noPrompts: Prompter = {
  confirm: () => Promise.reject(new Error('unexpected prompt')),
  checkbox: () => Promise.reject(new Error('unexpected prompt')),
};

/**
 * Runs the CLI in-process with real dependencies (the real client over HTTP), capturing its output; the exit code
 * is decided as main.ts decides it.
 */
export async function runPlugin(
  argv: readonly string[],
  opts: { env?: Record<string, string>; stdin?: string; prompter?: Prompter } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const env = { ...opts.env };
  const deps: Deps = {
    io: {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      readStdin: () => Promise.resolve(opts.stdin ?? ''),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      env,
    },
    connect: (flags) => Promise.resolve(connect(flags, env)),
    prompter: opts.prompter ?? noPrompts,
    version: 'v0.0.0-test',
  };
  try {
    await runCli(argv, deps);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const { lines, exitCode } = describeError(err, false);
    return { code: exitCode, stdout, stderr: stderr + lines.map((l) => `${l}\n`).join('') };
  }
}
