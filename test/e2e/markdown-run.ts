/**
 * Every command of the user documentation (README.md and every page under docs/), run as the page writes it (see
 * readme-blocks.ts for how blocks are read), with the built plugin through the real kubectl, from a scratch copy of
 * the clone, one per page: each top-level entry of the repository is linked into it, so `-f examples/cluster` and
 * `npm run` work and what commands write (`roles.yaml`, `clusters/`) stays out of the clone. readme.test.ts runs README.md,
 * docs.test.ts the pages under docs/ (two files, so vitest runs them side by side).
 *
 * - Each ```sh block (and transcript) gets a fresh test API server seeded with examples/cluster, its kubeconfig in
 *   KUBECONFIG; its commands run in page order, so a block reads as one session on the example cluster.
 *   Files persist across the blocks of a page (a later block reads what an earlier one wrote), as in the reader's
 *   shell, but not across pages: each page has its own scratch copy, `/tmp/` and empty HOME, so a page stands
 *   alone (DOCS_PAGE runs it alone as it runs in the whole suite).
 * - A command runs in `bash -o pipefail -c`, and must exit 0 unless EXIT below says otherwise and why. `export
 *   NAME=VALUE` carries into the block's later commands, as in the reader's shell.
 * - Where a page shows output, the command's terminal output (stderr and stdout as they interleave) must be it,
 *   with the normalisations of readme-blocks.ts outputMatches: `...` lines elide, a line ending in ` ...` matches
 *   any line beginning so, and trailing blanks are ignored. Other normalisation: `/tmp/` in a command is the
 *   page's SCRATCH/tmp/, so runs and pages never share files with each other or the machine.
 * - What cannot run here is in SKIP, with why; what asks on a terminal is in TERMINAL and runs in a pseudo-terminal
 *   (`script`) that answers `y`; what serves until Ctrl-C is in SERVE and runs in the background until the end.
 *   Every key of these lists must be a command of some page (readme.test.ts checks), so the lists cannot outlive
 *   what they are about.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeedFiles } from '../apiserver/seed.js';
import { ADMIN_TOKEN, startApiServer, type TestApiServer } from '../apiserver/server.js';
import { TEST_CERT } from '../apiserver/tls.js';
import { assertBuilt, binDir, kubectl, repoRoot, tempDir } from './harness.js';
import { outputMatches, readmeBlocks, type ReadmeBlock, type ReadmeCommand } from './readme-blocks.js';
import { EXIT, SERVE, SKIP, TERMINAL } from './readme-exceptions.js';

const seed = loadSeedFiles([join(repoRoot, 'examples', 'cluster')]);
const background: number[] = [];
const servers: TestApiServer[] = [];

interface Ran {
  readonly code: number;
  readonly output: string;
}

/** A loopback port nothing listens on (a cluster that cannot be reached). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const address = probe.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((r) =>
    probe.close(() => {
      r();
    }),
  );
  return port;
}

/** A kubeconfig with the context `admin` (current) on SERVER, and the fleet's prod-* contexts when given. */
function kubeconfig(file: string, server: TestApiServer, fleet?: Record<string, string>): string {
  const clusters = { admin: server.httpsUrl(), ...fleet };
  const ca = Buffer.from(TEST_CERT).toString('base64');
  const lines = ['apiVersion: v1', 'kind: Config', 'current-context: admin', 'clusters:'];
  for (const [name, url] of Object.entries(clusters))
    lines.push(
      `- name: ${name}`,
      '  cluster:',
      `    server: ${url}`,
      `    certificate-authority-data: ${ca}`,
    );
  lines.push('users:', '- name: admin', '  user:', `    token: ${ADMIN_TOKEN}`, 'contexts:');
  for (const name of Object.keys(clusters))
    lines.push(`- name: ${name}`, '  context:', `    cluster: ${name}`, '    user: admin');
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  return file;
}

/** prod-eu (the example cluster, not synced), prod-us (synced) and prod-dead (nothing listens). */
async function fleet(scratch: string): Promise<Record<string, string>> {
  const eu = await startApiServer({ seed });
  const us = await startApiServer({ seed });
  servers.push(eu, us);
  const file = kubeconfig(join(scratch, 'fleet-setup.kubeconfig'), us);
  const synced = await kubectl(['crossplane-rbac', 'sync', '--yes'], { env: { KUBECONFIG: file } });
  if (synced.code !== 0) throw new Error(`could not sync prod-us: ${synced.stderr}`);
  return {
    'prod-eu': eu.httpsUrl(),
    'prod-us': us.httpsUrl(),
    'prod-dead': `https://127.0.0.1:${String(await closedPort())}`,
  };
}

/** A page's own scratch copy of the clone under SCRATCH (cwd of its commands, its `/tmp/` and HOME inside). */
function pageScratch(scratch: string, page: string): string {
  return join(scratch, page.replace(/[^A-Za-z0-9]+/g, '-'));
}

function shell(
  dir: string,
  text: string,
  env: Record<string, string>,
  terminal: boolean,
  input?: string,
): Promise<Ran> {
  const script = `exec 2>&1\n${text.replaceAll('/tmp/', `${dir}/tmp/`)}`;
  const [cmd, args] = terminal
    ? ['script', ['-qec', `bash -o pipefail -c ${quote(script)}`, '/dev/null']]
    : ['bash', ['-o', 'pipefail', '-c', script]];
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: dir, env, stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => {
      done({ code: code ?? 1, output });
    });
    // A command that never reads its input may exit before it is written: EPIPE then says nothing about it.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

function quote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Starts TEXT in the background (its own process group) and resolves once it prints an https URL. */
function serve(dir: string, text: string, env: Record<string, string>): Promise<string> {
  const command = text.replaceAll('/tmp/', `${dir}/tmp/`);
  const child = spawn('bash', ['-c', command], { cwd: dir, env, detached: true, stdio: 'pipe' });
  if (child.pid !== undefined) background.push(child.pid);
  return new Promise((done, fail) => {
    let output = '';
    const timer = setTimeout(() => {
      fail(new Error(`no URL within 90 s:\n${output}`));
    }, 90_000);
    const seen = (d: Buffer): void => {
      output += d.toString();
      const url = /^https:\/\/127\.0\.0\.1:\d+$/m.exec(output);
      if (url !== null) {
        clearTimeout(timer);
        done(url[0]);
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`exited with ${String(code)} before printing its URL:\n${output}`));
    });
  });
}

/** A page's command blocks, read from the clone (PAGE relative to the repository's root). */
export function pageBlocks(page: string): ReadmeBlock[] {
  return readmeBlocks(readFileSync(join(repoRoot, page), 'utf8'), page);
}

/** Every page of the user documentation: README.md, then docs/ in name order. */
export function documentationPages(): string[] {
  const pages: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(repoRoot, dir), { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) pages.push(path);
    }
  };
  walk('docs');
  return ['README.md', ...pages];
}

const title = (page: string, c: ReadmeCommand): string =>
  `${page}:${String(c.line)}: ${c.text.split('\n')[0] ?? ''}`;

/** Runs every command block of PAGES (paths relative to the repository's root), each block on its own server. */
export function runPages(pages: readonly string[]): void {
  // The calling file's own: a directory made when this module is first evaluated would be removed after the first
  // file of a worker whose files share their modules (the e2e project: vitest.config.ts).
  const scratch = tempDir('xrbac-readme-');
  beforeAll(() => {
    assertBuilt();
    for (const page of pages) {
      const dir = pageScratch(scratch, page);
      mkdirSync(join(dir, 'tmp'), { recursive: true });
      for (const entry of readdirSync(repoRoot))
        if (entry !== '.git') symlinkSync(join(repoRoot, entry), join(dir, entry));
      // HOME starts empty, as on a fresh machine: a page that writes to ~/bin makes it first.
      mkdirSync(join(dir, '.home'));
    }
  });

  afterAll(async () => {
    for (const pid of background.splice(0)) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await Promise.all(servers.splice(0).map((s) => s.stop()));
  });

  for (const page of pages) {
    const blocks = pageBlocks(page);
    const dir = pageScratch(scratch, page);
    for (const block of blocks) {
      describe(`${page}:${String(block.line)} (${block.heading})`, () => {
        let server: TestApiServer;
        const env: Record<string, string> = {};

        beforeAll(async () => {
          server = await startApiServer({ seed });
          servers.push(server);
          const wantsFleet = block.commands.some((c) => /--contexts|--all-contexts/.test(c.text));
          const file = kubeconfig(
            join(dir, `kubeconfig-${String(block.line)}`),
            server,
            wantsFleet ? await fleet(scratch) : undefined,
          );
          Object.assign(env, {
            PATH: `${binDir}:${process.env.PATH ?? ''}`,
            HOME: join(dir, '.home'),
            NO_COLOR: '1',
            TERM: 'dumb',
            KUBECONFIG: file,
          });
        }, 180_000);

        for (const command of block.commands) {
          const skip =
            SKIP[command.text] ??
            (TERMINAL[command.text] !== undefined && !existsSync('/usr/bin/script')
              ? 'asks on a terminal, and script(1) is not installed here'
              : undefined);
          if (skip !== undefined) {
            it.skip(`${title(page, command)} (skipped: ${skip})`, () => undefined);
            continue;
          }
          it(
            title(page, command),
            async () => {
              if (SERVE[command.text] !== undefined) {
                expect(await serve(dir, command.text, env)).toMatch(/^https:/);
                return;
              }
              const exported = /^export ([A-Za-z_][A-Za-z0-9_]*)=/.exec(command.text);
              if (exported !== null) {
                const name = exported[1] ?? '';
                const r = await shell(dir, `${command.text}\nprintf %s "$${name}"`, env, false);
                expect(r.code, r.output).toBe(0);
                env[name] = r.output;
                return;
              }
              const terminal = TERMINAL[command.text] !== undefined;
              const r = await shell(dir, command.text, env, terminal, terminal ? 'y\n' : undefined);
              expect(r.code, r.output).toBe(EXIT[command.text]?.code ?? 0);
              if (command.expected !== undefined && !outputMatches(command.expected.text, r.output)) {
                // The README's text against the output, as a diff (README.md:LINE is where to change it).
                expect(
                  r.output.replace(/\n$/, ''),
                  `the output shown at ${page}:${String(command.expected.line)}`,
                ).toBe(command.expected.text);
              }
            },
            300_000,
          );
        }
      });
    }
  }
}
