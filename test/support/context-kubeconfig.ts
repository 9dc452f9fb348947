/**
 * The set-up of the hint tests (a hint names the command that shows the failing context's server): a kubeconfig
 * whose current context is another, and the hint's command run through bash and the real kubectl against it, so a
 * hint that forgets `--context` shows the current context's server (current.example) instead.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** The cluster of the current context `here`, which a hint's command must not show. */
export const CURRENT_SERVER = 'https://current.example:6443';

export interface OtherContext {
  /** The context's name (any characters: the hint must quote it for the shell). */
  readonly context: string;
  readonly server: string;
  readonly proxyUrl?: string;
}

/** Runs a hint's command against a kubeconfig whose current context is another (see runAgainstOtherContext). */
export type OtherContextRunner = (command: string, other: OtherContext) => string;

/**
 * Call at the top of a test file: a runner that writes a kubeconfig (in a temporary directory of the file, removed
 * after its tests) whose current context is `here` and whose other context, OTHER.context, points at OTHER.server
 * (through OTHER.proxyUrl when given), runs COMMAND with `bash -c` and the real kubectl against it, and returns what
 * it prints.
 */
export function otherContextRunner(): OtherContextRunner {
  const dir = mkdtempSync(join(tmpdir(), 'xrbac-hint-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return (command, other) => {
    const file = join(dir, 'kubeconfig');
    const proxy = other.proxyUrl !== undefined ? `, proxy-url: ${JSON.stringify(other.proxyUrl)}` : '';
    const name = JSON.stringify(other.context);
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: here',
        `  cluster: {server: ${JSON.stringify(CURRENT_SERVER)}}`,
        `- name: ${name}`,
        `  cluster: {server: ${JSON.stringify(other.server)}${proxy}}`,
        'users: [{name: u, user: {token: t}}]',
        'contexts:',
        '- name: here',
        '  context: {cluster: here, user: u}',
        `- name: ${name}`,
        `  context: {cluster: ${name}, user: u}`,
        'current-context: here',
        '',
      ].join('\n'),
    );
    return execFileSync('bash', ['-c', command], {
      env: { PATH: process.env.PATH ?? '', KUBECONFIG: file },
      encoding: 'utf8',
    });
  };
}
