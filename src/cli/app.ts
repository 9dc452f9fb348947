import yargs, { type Argv, type CommandModule } from 'yargs';
import { UsageError } from '../errors.js';
import { bindCommand } from './commands/bind.js';
import { completionCommand } from './commands/completion.js';
import { enableXrdCommand } from './commands/enable-xrd.js';
import { explainCommand } from './commands/explain.js';
import { syncCommand } from './commands/sync.js';
import { versionCommand } from './commands/version.js';
import { whoCanCommand } from './commands/who-can.js';
import { connectionFlags, type Deps, type GlobalArgs } from './context.js';
import { checkConnectionFlags } from '../app/read-input.js';
import { DEFAULT_MAX_INPUT_SIZE_TEXT } from './input-flags.js';

export const PROGRAM = 'kubectl crossplane-rbac';

const CONNECTION_FLAGS = [
  'kubeconfig',
  'context',
  'cluster',
  'user',
  'namespace',
  'server',
  'token',
  'username',
  'password',
  'certificate-authority',
  'client-certificate',
  'client-key',
  'insecure-skip-tls-verify',
  'tls-server-name',
  'disable-compression',
  'as',
  'as-group',
  'as-uid',
  'request-timeout',
  'v',
];

/** Builds the parser: kubectl's global flags and ours, and the explicit list of commands. */
export function buildCli(argv: readonly string[], deps: Deps): Argv<GlobalArgs> {
  const cli = withGlobalFlags(yargs([...argv]))
    .scriptName(PROGRAM)
    .locale('en')
    .detectLocale(false)
    .usage(
      `${PROGRAM}: render, apply and explain the RBAC of Crossplane clusters\n\nUsage: ${PROGRAM} <command> [flags]`,
    )
    .middleware((args) => {
      rejectNaNNumbers(args, argv);
    }, true)
    // kubectl's own flags are checked before any command runs, also when it reads -f and never connects.
    .middleware((args) => {
      checkConnectionFlags(connectionFlags(args));
    })
    .command(commands(deps) as CommandModule<GlobalArgs, GlobalArgs>[])
    .demandCommand(1, 'a command is required')
    .strict()
    .recommendCommands()
    .help('help')
    .alias('help', 'h')
    .version(false)
    .wrap(Math.min(120, deps.io.columns ?? 100))
    .exitProcess(false)
    .fail((msg, err) => {
      if (err !== undefined && err !== null) throw err;
      throw new UsageError(msg, { hint: `see: ${PROGRAM} --help` });
    });
  return cli;
}

/** kubectl's global flags and ours, on every command. */
export function withGlobalFlags(y: Argv): Argv<GlobalArgs> {
  return y
    .group(CONNECTION_FLAGS, 'Connection flags (as kubectl):')
    .option('kubeconfig', { type: 'string', describe: 'Path to the kubeconfig file', global: true })
    .option('context', { type: 'string', describe: 'The kubeconfig context to use', global: true })
    .option('cluster', { type: 'string', describe: 'The kubeconfig cluster to use', global: true })
    .option('user', { type: 'string', describe: 'The kubeconfig user to use', global: true })
    .option('namespace', { alias: 'n', type: 'string', describe: 'The namespace scope', global: true })
    .option('server', {
      alias: 's',
      type: 'string',
      describe: 'The address and port of the API server',
      global: true,
    })
    .option('token', {
      type: 'string',
      describe: 'Bearer token for authentication to the API server',
      global: true,
    })
    .option('username', { type: 'string', describe: 'Username for basic authentication', global: true })
    .option('password', { type: 'string', describe: 'Password for basic authentication', global: true })
    .option('certificate-authority', {
      type: 'string',
      describe: 'Path to a cert file for the certificate authority',
      global: true,
    })
    .option('client-certificate', {
      type: 'string',
      describe: 'Path to a client certificate file for TLS',
      global: true,
    })
    .option('client-key', { type: 'string', describe: 'Path to a client key file for TLS', global: true })
    .option('insecure-skip-tls-verify', {
      type: 'boolean',
      describe: "Do not check the server's certificate (insecure)",
      global: true,
    })
    .option('tls-server-name', {
      type: 'string',
      describe: 'Server name for certificate validation (default: the server host)',
      global: true,
    })
    .option('disable-compression', {
      type: 'boolean',
      describe: 'Do not ask the server for compressed responses',
      global: true,
    })
    .option('as', { type: 'string', describe: 'Username to impersonate for the operation', global: true })
    .option('as-group', {
      type: 'string',
      array: true,
      describe: 'Group to impersonate (repeatable)',
      global: true,
    })
    .option('as-uid', { type: 'string', describe: 'UID to impersonate for the operation', global: true })
    .option('request-timeout', {
      type: 'string',
      describe: 'Time to wait for one server request (e.g. 1s, 2m; 0 = no limit; default: 60s without data)',
      global: true,
    })
    .option('v', {
      type: 'string',
      describe: 'Log level: 6 logs each request, 7 its headers, 8 bodies (as kubectl -v)',
      global: true,
      requiresArg: true,
    })
    .option('output', {
      alias: 'o',
      type: 'string',
      describe: 'Output format (see each command)',
      global: true,
    })
    .option('color', {
      type: 'boolean',
      default: true,
      describe: 'Colour output (--no-color disables)',
      global: true,
    })
    .option('max-input-size', {
      type: 'string',
      describe: `The most bytes -f and --role-refs-file may read in all (e.g. 64Mi, 1Gi; default ${DEFAULT_MAX_INPUT_SIZE_TEXT})`,
      global: true,
    })
    .option('stack-traces', {
      type: 'boolean',
      default: false,
      describe: 'Print stack traces with errors (for bug reports)',
      global: true,
    });
}

/** Every command, in the order --help lists them. */
export function commands(deps: Deps): CommandModule<GlobalArgs, never>[] {
  return [
    syncCommand(deps),
    enableXrdCommand(deps),
    explainCommand(deps),
    whoCanCommand(deps),
    bindCommand(deps),
    versionCommand(deps),
    completionCommand(deps),
  ] as CommandModule<GlobalArgs, never>[];
}

/** Parses and runs a command; every failure becomes a rejection (handled once in main.ts). */
export async function runCli(argv: readonly string[], deps: Deps): Promise<void> {
  if (argv[0] === '__complete' || argv[0] === '--get-yargs-completions') {
    const { completeWords } = await import('./complete.js');
    const cobra = argv[0] === '__complete';
    const { words, directive } = completeWords(argv.slice(1), deps);
    deps.io.stdout.write(words.map((w) => `${w}\n`).join('') + (cobra ? `:${String(directive)}\n` : ''));
    return;
  }
  // Every cluster a command connects to is closed when the command ends, however it ends.
  const opened: Awaited<ReturnType<Deps['connect']>>[] = [];
  const tracked: Deps = {
    ...deps,
    connect: async (flags) => {
      const cluster = await deps.connect(flags);
      opened.push(cluster);
      return cluster;
    },
  };
  const cli = buildCli(argv, tracked);
  let helpText = '';
  try {
    await cli.parseAsync([...argv], {}, (err, _parsed, output) => {
      if (err !== null && err !== undefined) return;
      helpText = output;
    });
  } finally {
    for (const cluster of opened) cluster.close?.();
  }
  if (helpText !== '') deps.io.stdout.write(`${helpText}\n`);
}

/**
 * A number flag given something that is not a number (`--concurrency abc`) reaches the command as NaN, with the
 * text lost: name the flag and the text here, before any command runs.
 */
function rejectNaNNumbers(args: Record<string, unknown>, argv: readonly string[]): void {
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'number' || !Number.isNaN(value)) continue;
    if (!/^[a-z][a-z-]*$/.test(key)) continue;
    const flag = `--${key}`;
    const at = argv.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
    const given =
      at < 0 ? '' : argv[at]?.startsWith(`${flag}=`) ? argv[at].slice(flag.length + 1) : (argv[at + 1] ?? '');
    throw new UsageError(`invalid ${flag} ${JSON.stringify(given)}: expected a whole number`, {
      hint: `e.g. ${flag} 8`,
    });
  }
}
