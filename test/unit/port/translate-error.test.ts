// A network error's hint names the command that shows the failing context's server address: with several contexts
// (a fleet run, or --context), `kubectl config view --minify` alone shows the current context's, not the one that
// failed. The hint is run through the real kubectl against a kubeconfig whose current context is another.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { translateError } from '../../../src/port/translate-error.js';

const dir = mkdtempSync(join(tmpdir(), 'xrbac-hint-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A kubeconfig whose current context is `here`; CONTEXT points at SERVER. */
function kubeconfig(context: string, server: string): string {
  const file = join(dir, 'kubeconfig');
  const entry = (name: string, url: string): string[] => [
    `- name: ${JSON.stringify(name)}`,
    `  cluster: {server: ${JSON.stringify(url)}}`,
  ];
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      ...entry('here', 'https://current.example:6443'),
      ...entry(context, server),
      'users: [{name: u, user: {token: t}}]',
      'contexts:',
      '- name: here',
      '  context: {cluster: here, user: u}',
      `- name: ${JSON.stringify(context)}`,
      `  context: {cluster: ${JSON.stringify(context)}, user: u}`,
      'current-context: here',
      '',
    ].join('\n'),
  );
  return file;
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });

describe('translateError: a network hint names the context that failed', () => {
  it.each([
    ['prod-eu', 'a plain name'],
    ["team's cluster (eu)", 'a name the shell would split or read, quoted'],
  ])('%s (%s): the hint, run, shows its server, not the current context', (context) => {
    const server = 'https://127.0.0.1:9';
    const error = translateError(refused, 'listing ClusterRoles', `${server} (context ${context})`);
    const hint = error.hint ?? '';
    const command = /check the server address with: (.*)$/.exec(hint)?.[1];
    expect(command, hint).toMatch(/^kubectl config view --minify --context /);
    const shown = execFileSync('bash', ['-c', command ?? 'false'], {
      env: { PATH: process.env.PATH ?? '', KUBECONFIG: kubeconfig(context, server) },
      encoding: 'utf8',
    });
    expect(shown).toContain(server);
    expect(shown).not.toContain('current.example');
  });

  it('without a context (no kubeconfig), the hint has no --context', () => {
    const error = translateError(refused, 'listing ClusterRoles', 'https://127.0.0.1:9');
    expect(error.hint).toBe(
      'is the cluster running? check the server address with: kubectl config view --minify',
    );
  });
});
