// Runs the CLI in-process with captured streams, deciding the exit code as src/composition-root.ts does. Shared by the unit
// tests of commands (fake clusters) and the integration tests (the real client against the test API server).
import { runCli } from '../../src/cli/app.js';
import type { Deps } from '../../src/cli/context.js';
import type { Prompter } from '../../src/cli/output/prompt.js';
import { describeError } from '../../src/errors.js';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  /** How the command reaches a cluster; by default it may not. */
  readonly connect?: Deps['connect'];
  /** The kubeconfig's contexts (for --contexts); by default there are none. */
  readonly contextNames?: Deps['contextNames'];
  readonly prompter?: Prompter;
  /** stdin and stderr are terminals (stdout never is: its output is captured). */
  readonly tty?: boolean;
  readonly env?: Record<string, string>;
  readonly stdin?: string;
  /** The version the plugin reports (the build injects package.json's); a test's own by default. */
  readonly version?: string;
}

const noPrompts: Prompter = {
  confirm: () => Promise.reject(new Error('unexpected confirm prompt')),
  checkbox: () => Promise.reject(new Error('unexpected checkbox prompt')),
};

export async function runCaptured(argv: readonly string[], opts: RunOptions = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const tty = opts.tty ?? false;
  const deps: Deps = {
    io: {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      readStdin: () => Promise.resolve(opts.stdin ?? ''),
      stdoutIsTTY: false,
      stderrIsTTY: tty,
      stdinIsTTY: tty,
      env: { ...opts.env },
    },
    connect: opts.connect ?? (() => Promise.reject(new Error('this test gives no cluster'))),
    ...(opts.contextNames !== undefined ? { contextNames: opts.contextNames } : {}),
    prompter: opts.prompter ?? noPrompts,
    version: opts.version ?? 'v0.0.0-test',
  };
  try {
    await runCli(argv, deps);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const { lines, exitCode } = describeError(err, false);
    return { code: exitCode, stdout, stderr: stderr + lines.map((l) => `${l}\n`).join('') };
  }
}
