import { runCli } from './cli/app.js';
import type { Deps } from './cli/context.js';
import { inquirerPrompter } from './cli/output/prompt.js';
import { describeError } from './errors.js';

declare const __VERSION__: string | undefined;

/** The composition root: real dependencies, run, print the error once, exit code. The only user of process.*. */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const deps: Deps = {
    io: {
      stdout: process.stdout,
      stderr: process.stderr,
      readStdin: readStdin,
      stdoutIsTTY: process.stdout.isTTY,
      stderrIsTTY: process.stderr.isTTY,
      stdinIsTTY: process.stdin.isTTY,
      env: process.env,
      columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    },
    // Loaded on first use: the client library is most of the start-up time, and --help never needs it.
    connect: async (flags) => (await import('./k8s/connect.js')).connect(flags, process.env),
    prompter: inquirerPrompter,
    version: typeof __VERSION__ === 'string' ? __VERSION__ : 'v0.0.0-dev',
  };
  try {
    await runCli(argv, deps);
  } catch (err) {
    const verbose = argv.includes('-v') || argv.includes('--verbose');
    const { lines, exitCode } = describeError(err, verbose);
    for (const line of lines) process.stderr.write(`${line}\n`);
    process.exitCode = exitCode;
  }
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

// Deprecation warnings come from bundled libraries (node-fetch's url.parse, printed by the standalone runtime);
// users cannot act on them, so they are shown only with -v.
if (!process.argv.includes('-v') && !process.argv.includes('--verbose')) process.noDeprecation = true;

// Piped output closed early (e.g. `| head`): stop quietly, as kubectl does.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
});

await main();
