import yargs, { type Argv } from 'yargs';
import { UsageError } from '../errors.js';
import { bindCommand } from './commands/bind.js';
import { completionCommand } from './commands/completion.js';
import { enableXrdCommand } from './commands/enable-xrd.js';
import { explainCommand } from './commands/explain.js';
import { syncCommand } from './commands/sync.js';
import { versionCommand } from './commands/version.js';
import type { Deps, GlobalArgs } from './context.js';
import { DEFAULT_MAX_INPUT_SIZE_TEXT } from './read-input.js';

export const PROGRAM = 'kubectl crossplane-rbac';

/** Builds the parser: the global flags of SPEC §2 and the explicit list of commands. */
export function buildCli(argv: readonly string[], deps: Deps): Argv<GlobalArgs> {
  const cli = yargs([...argv])
    .scriptName(PROGRAM)
    .locale('en')
    .detectLocale(false)
    .usage(
      `${PROGRAM}: render, apply and explain the RBAC of Crossplane clusters\n\nUsage: ${PROGRAM} <command> [flags]`,
    )
    .option('kubeconfig', { type: 'string', describe: 'Path to the kubeconfig file', global: true })
    .option('context', { type: 'string', describe: 'The kubeconfig context to use', global: true })
    .option('cluster', { type: 'string', describe: 'The kubeconfig cluster to use', global: true })
    .option('user', { type: 'string', describe: 'The kubeconfig user to use', global: true })
    .option('namespace', { alias: 'n', type: 'string', describe: 'The namespace scope', global: true })
    .option('as', { type: 'string', describe: 'Username to impersonate for the operation', global: true })
    .option('as-group', {
      type: 'string',
      array: true,
      describe: 'Group to impersonate (repeatable)',
      global: true,
    })
    .option('request-timeout', {
      type: 'string',
      describe: 'Time to wait for one server request (e.g. 1s, 2m; 0 = no limit)',
      global: true,
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
    .option('verbose', {
      alias: 'v',
      type: 'boolean',
      default: false,
      describe: 'Verbose errors',
      global: true,
    })
    // Input safety (issue #12): bounded -f input, and number flags that name what they got.
    .option('max-input-size', {
      type: 'string',
      describe: `The most bytes -f and --role-refs-file may read in all (e.g. 64Mi, 1Gi; default ${DEFAULT_MAX_INPUT_SIZE_TEXT})`,
      global: true,
    })
    .middleware((args) => {
      rejectNaNNumbers(args, argv);
    }, true)
    .command(syncCommand(deps))
    .command(enableXrdCommand(deps))
    .command(explainCommand(deps))
    .command(bindCommand(deps))
    .command(versionCommand(deps))
    .command(completionCommand(deps))
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

/** Parses and runs a command; every failure becomes a rejection (handled once in main.ts). */
export async function runCli(argv: readonly string[], deps: Deps): Promise<void> {
  const cli = buildCli(argv, deps);
  let helpText = '';
  await cli.parseAsync([...argv], {}, (err, _parsed, output) => {
    if (err !== null && err !== undefined) return;
    helpText = output;
  });
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
