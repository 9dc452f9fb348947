import { execFile, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
const cli = join(repoRoot, 'test', 'apiserver', 'cli.ts');
const dir = mkdtempSync(join(tmpdir(), 'apiserver-cli-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd: repoRoot, timeout: 60_000 }, (err, stdout, stderr) => {
      done({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });
}

describe('npm run apiserver', () => {
  it('is the script package.json names', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.apiserver).toBe('tsx test/apiserver/cli.ts');
  });

  it('--help prints the usage on stdout and exits 0', async () => {
    const r = await run(tsx, [cli, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Serve a loopback Kubernetes API/);
    for (const flag of [
      '--seed PATH',
      '--write-kubeconfig FILE',
      '--port N',
      '--no-aggregation',
      '-h, --help',
    ])
      expect(r.stdout).toContain(flag);
  });

  it('refuses an unknown flag and a bad number with exit 2', async () => {
    const unknown = await run(tsx, [cli, '--sed', 'examples/cluster']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/error: .*--sed.*\nhint: see npm run apiserver -- --help\n$/);
    const port = await run(tsx, [cli, '--port', 'http']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('error: --port takes a whole number, not "http"\n');
  });

  it('prints the https URL its kubeconfig names, serves pods to kubectl, and stops on SIGTERM', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    const child = spawn(tsx, [cli, '--seed', 'examples/cluster', '--write-kubeconfig', kubeconfig], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((done) =>
      child.on('exit', (code) => {
        done(code);
      }),
    );
    try {
      const url = await new Promise<string>((done, fail) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const line = out.split('\n');
          if (line.length > 1) done(line[0] ?? '');
        });
        child.on('exit', () => {
          fail(new Error(`exited before printing its URL: ${out}`));
        });
      });
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const config = YAML.parse(readFileSync(kubeconfig, 'utf8')) as {
        clusters: { cluster: { server: string } }[];
      };
      expect(config.clusters[0]?.cluster.server).toBe(url);
      const pods = await run('kubectl', ['--kubeconfig', kubeconfig, 'get', 'pods', '-A']);
      expect(pods).toMatchObject({ code: 0, stderr: 'No resources found\n' });
      const ns = await run('kubectl', ['--kubeconfig', kubeconfig, 'get', 'ns', 'team-a', '-o', 'name']);
      expect(ns.stdout).toBe('namespace/team-a\n');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('started in the background through npm, stops when npm is killed (kill PID)', async () => {
    // The reader's `npm run apiserver -- ... &` then `kill %1`: npm's PID, not the server's, which runs below it
    // (npm → sh → tsx → node). Its own process group, so that whatever is left is cleaned up here.
    const npm = spawn('npm', ['run', 'apiserver', '--', '--seed', 'examples/cluster'], {
      cwd: repoRoot,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((done, fail) => {
        let out = '';
        npm.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const found = /^https:\/\/127\.0\.0\.1:\d+$/m.exec(out);
          if (found !== null) done(found[0]);
        });
        npm.on('exit', () => {
          fail(new Error(`exited before printing its URL: ${out}`));
        });
      });
      const port = Number(new URL(url).port);
      expect(await listening(port)).toBe(true);
      npm.kill('SIGTERM');
      // The server notices that what started it is gone, and stops listening.
      while (await listening(port)) await new Promise((r) => setTimeout(r, 200));
    } finally {
      try {
        if (npm.pid !== undefined) process.kill(-npm.pid, 'SIGKILL');
      } catch {
        // Already gone: what the test wants.
      }
    }
  }, 60_000);
});

/** Whether something accepts connections on 127.0.0.1:PORT. */
function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.on('error', () => {
      done(false);
    });
  });
}
