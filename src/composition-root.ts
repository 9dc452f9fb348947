import type { Deps } from './cli/context.js';
import { inquirerPrompter } from './cli/output/prompt.js';
import { ExitCode, describeError } from './errors.js';
import { Interrupt } from './app/interrupt.js';

/**
 * The composition root: real dependencies, run, print the error once, exit code. With main.ts, the only user of
 * process.*; main.ts loads it for every command line it does not answer itself.
 */
export async function main(argv: readonly string[], version: string): Promise<void> {
  const interrupt = new Interrupt();
  process.on('SIGINT', () => {
    if (interrupt.signal() === 'exit') process.exit(ExitCode.interrupted);
    process.stderr.write('\ninterrupted: finishing the writes in flight (Ctrl-C again stops at once)\n');
  });
  const deps: Deps = {
    interrupt,
    io: {
      stdout: process.stdout,
      stderr: process.stderr,
      readStdin: readStdin,
      stdoutIsTTY: process.stdout.isTTY,
      stderrIsTTY: process.stderr.isTTY,
      stdinIsTTY: process.stdin.isTTY,
      env: process.env,
      columns: process.stdout.isTTY ? process.stdout.columns : undefined,
      stderrColumns: process.stderr.isTTY ? (process.stderr.columns ?? 0) : undefined,
    },
    // Loaded on first use: the client library is most of the start-up time, and --help never needs it.
    connect: async (flags) =>
      (await import('./cluster/connect.js')).connect(flags, process.env, {
        env: process.env,
        userAgent: userAgent(version),
        log: (line) => process.stderr.write(line),
        pid: process.pid,
        execIo: {
          env: process.env,
          stdin: process.stdin,
          stdinIsTTY: process.stdin.isTTY,
          stderr: process.stderr,
          now: () => Date.now(),
        },
      }),
    contextNames: async (flags) =>
      (await import('./cluster/connection/kubeconfig.js')).contextNames(flags, process.env),
    prompter: inquirerPrompter,
    version,
  };
  try {
    // Loaded here, not imported: the parser and the commands are not needed by the answers above.
    const { runCli } = await import('./cli/app.js');
    await runCli(argv, deps);
  } catch (err) {
    const { lines, exitCode } = describeError(err, argv.includes('--stack-traces'));
    for (const line of lines) process.stderr.write(`${line}\n`);
    process.exitCode = exitCode;
  }
}

/** kubectl's User-Agent shape: name/version (os/arch), with Go's names for them. */
function userAgent(version: string): string {
  const arch =
    { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' }[process.arch as string] ?? process.arch;
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  return `kubectl-crossplane-rbac/${version} (${os}/${arch})`;
}

/** All of stdin, or as soon as more than `maxBytes` came in, that much (the caller refuses it): never unbounded. */
async function readStdin(maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      process.stdin.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

// Piped output closed early (e.g. `| head`): stop quietly, as kubectl does.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
});
