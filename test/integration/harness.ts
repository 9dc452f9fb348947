import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Prompter } from '../../src/cli/output/prompt.js';
import { connect } from '../support/connect.js';
import { contextNames } from '../../src/cluster/connection/kubeconfig.js';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type ApiServerOptions, type TestApiServer } from '../apiserver/server.js';
import { runCaptured, type CliResult } from '../support/run-cli.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const exampleCluster = join(repoRoot, 'examples', 'cluster');

export type { CliResult };

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

/** Runs the CLI in-process with the real client over HTTP, as composition-root.ts wires it, capturing its output. */
export function runPlugin(
  argv: readonly string[],
  opts: {
    env?: Record<string, string>;
    stdin?: string;
    prompter?: Prompter;
    tty?: boolean;
    version?: string;
  } = {},
): Promise<CliResult> {
  const env = { ...opts.env };
  return runCaptured(argv, {
    ...opts,
    env,
    connect: (flags) => Promise.resolve(connect(flags, env)),
    contextNames: (flags) => Promise.resolve(contextNames(flags, env)),
  });
}
