import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { describe, expect, it, beforeAll } from 'vitest';
import { runCaptured } from '../support/run-cli.js';
import { assertBuilt, binDir, kubectl, onPty, scriptPath, tempDir, writeKubeconfig } from './harness.js';

/** The bun devDependency's package.json: the standalone executable embeds the bun runtime of its version. */
const bunPackage = createRequire(import.meta.url).resolve('bun/package.json');

/** A port on loopback that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => {
    server.listen(0, '127.0.0.1', r);
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((r) => {
    server.close(() => {
      r();
    });
  });
  return port;
}

describe('the plugin through the real kubectl', () => {
  beforeAll(() => {
    assertBuilt();
  });

  it('is found by kubectl plugin list', async () => {
    const r = await kubectl(['plugin', 'list']);
    expect(r.stdout).toContain('kubectl-crossplane_rbac');
  });

  it('shows help with the four commands and the kubectl program name', async () => {
    const r = await kubectl(['crossplane-rbac', '--help']);
    expect(r.code).toBe(0);
    for (const cmd of ['sync', 'enable-xrd', 'explain', 'bind', 'version', 'completion']) {
      expect(r.stdout).toContain(`kubectl crossplane-rbac ${cmd}`);
    }
    expect(r.stderr).toBe('');
  });

  it('prints off a terminal the top-level help the sources render (the executable answers it before its parser)', async () => {
    const r = await kubectl(['crossplane-rbac', '--help']);
    const rendered = await runCaptured(['--help']);
    expect(rendered.code).toBe(0);
    expect(r).toStrictEqual({ code: 0, stdout: rendered.stdout, stderr: '' });
  });

  // The executable asks whether stdout is a terminal without its stream (bun's tty binding): on one, the parser
  // prints the help wrapped to its width instead of the pre-rendered text.
  it.skipIf(scriptPath === undefined)(
    'on a terminal, the top-level help is wrapped to its width',
    async () => {
      const rendered = (await runCaptured(['--help'])).stdout.split('\n');
      expect(rendered.some((l) => l.length > 60)).toBe(true);
      const r = await onPty('stty cols 60; kubectl crossplane-rbac --help');
      expect(r.code, r.stderr).toBe(0);
      const shown = r.stdout.replace(/\r/g, '').split('\n');
      expect(shown.filter((l) => l.length > 60)).toStrictEqual([]);
      expect(shown.join('\n')).toContain('kubectl crossplane-rbac sync');
    },
  );

  it('prints the version injected at build time', async () => {
    const r = await kubectl(['crossplane-rbac', 'version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^kubectl-crossplane-rbac v\d+\.\d+\.\d+/);
    const json = await kubectl(['crossplane-rbac', 'version', '-o', 'json']);
    expect(JSON.parse(json.stdout).clientVersion.gitVersion).toMatch(/^v\d+\.\d+\.\d+/);
  });

  it('names the runtime it runs on: bun for the standalone executable (E2E_BIN_DIR), else node', async () => {
    const json = await kubectl(['crossplane-rbac', 'version', '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const info = (JSON.parse(json.stdout) as { clientVersion: Record<string, unknown> }).clientVersion;
    // The e2e-standalone project points E2E_BIN_DIR at the bun executable; its runtime is the @oven/bun package of
    // the bun devDependency's version (scripts/release/bun.ts). The bundle runs on the node its shebang finds on PATH.
    const want =
      process.env.E2E_BIN_DIR !== undefined
        ? {
            name: 'bun',
            version: (JSON.parse(readFileSync(bunPackage, 'utf8')) as { version: string }).version,
          }
        : {
            name: 'node',
            version: execFileSync('node', ['-p', 'process.versions.node'], {
              env: { PATH: `${binDir}:${process.env.PATH ?? ''}` },
              encoding: 'utf8',
            }).trim(),
          };
    expect(info.runtime).toStrictEqual(want);
    expect(info).not.toHaveProperty('nodeVersion');
  });

  it.each([
    { kubectl: 'version --dryrun', plugin: 'sync --dryrun', hint: 'did you mean --dry-run?' },
    { kubectl: 'version -Z', plugin: 'sync -Z', hint: 'see: kubectl crossplane-rbac sync --help' },
    { kubectl: 'synk', plugin: 'synk', hint: 'did you mean sync?' },
    { kubectl: 'frobnicate', plugin: 'frobnicate', hint: 'see: kubectl crossplane-rbac --help' },
  ])(
    'answers `$plugin` as kubectl answers `kubectl $kubectl`: one error line, a hint, exit 2',
    async ({ kubectl: ref, plugin, hint }) => {
      // kubectl (cobra) prints `Error: <message>` and exits 1; the plugin's errors are `error:` lines, exit 2.
      const want = await kubectl(ref.split(' '));
      expect(want.code, want.stderr).toBe(1);
      const message = /^Error: (.*)$/m
        .exec(want.stderr)?.[1]
        ?.replace('"kubectl"', '"kubectl crossplane-rbac"');
      expect(message).toBeDefined();
      const r = await kubectl(['crossplane-rbac', ...plugin.split(' ')]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`error: ${message ?? ''}\nhint: ${hint}\n`);
    },
  );

  it('prints the help on stdout, exit 0, when no command is given, as a bare kubectl does', async () => {
    const ref = await kubectl([]);
    expect(ref.code).toBe(0);
    expect(ref.stderr).toBe('');
    expect(ref.stdout).toMatch(/^kubectl controls the Kubernetes cluster manager\./);
    const bare = await kubectl(['crossplane-rbac']);
    const help = await kubectl(['crossplane-rbac', '--help']);
    expect(bare).toStrictEqual({ code: 0, stdout: help.stdout, stderr: '' });
    expect(bare.stdout).toMatch(/^kubectl crossplane-rbac: /);
  });

  it('reports an unreachable server in one line, exit 2', async () => {
    const dir = tempDir();
    const port = await closedPort();
    const kc = writeKubeconfig(dir, `http://127.0.0.1:${port}`);
    const r = await kubectl(['crossplane-rbac', 'explain', 'crossplane-edit', '--kubeconfig', kc]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: cannot reach the API server at http:\/\/127\.0\.0\.1:\d+ .*ECONNREFUSED/,
    );
    expect(r.stderr).toMatch(/\nhint: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports a missing kubeconfig instead of falling back to localhost', async () => {
    const r = await kubectl(['crossplane-rbac', 'explain', 'crossplane-edit'], {
      env: { KUBECONFIG: undefined },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: no kubeconfig found: .*\.kube\/config does not exist/);
  });

  it('reports an unknown context with the known ones', async () => {
    const dir = tempDir();
    const kc = writeKubeconfig(dir, 'http://127.0.0.1:1', 'x', 'real');
    const r = await kubectl([
      'crossplane-rbac',
      'explain',
      'crossplane-edit',
      '--kubeconfig',
      kc,
      '--context',
      'nope',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: context "nope" does not exist in .*\nhint: known contexts: real\n$/);
  });
});
