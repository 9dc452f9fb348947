// Real kubectl, the reference for how a kubeconfig and kubectl's flags are read: run with only the environment a
// test gives it (an empty HOME unless told otherwise), so no user kubeconfig or proxy setting leaks in.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

export function runKubectl(
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<KubectlResult> {
  const home = mkdtempSync(join(tmpdir(), 'xrbac-kubectl-home-'));
  const started = Date.now();
  return new Promise((resolve) => {
    const child = execFile(
      'kubectl',
      [...args],
      { env: { PATH: process.env.PATH ?? '', HOME: home, ...env }, timeout: timeoutMs, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        rmSync(home, { recursive: true, force: true });
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
        resolve({ code, stdout, stderr, ms: Date.now() - started });
      },
    );
    // Closed: kubectl asks for a username on a terminal-less 401 and would wait for it.
    child.stdin?.end();
  });
}
