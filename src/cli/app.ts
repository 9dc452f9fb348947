import yargs, { type Argv, type CommandModule } from 'yargs';
import { ExitCode, UsageError, UserError } from '../errors.js';
import { commands } from './command-list.js';
import { connectionFlags, type Deps, type GlobalArgs } from './context.js';
import { checkConnectionFlags } from '../app/read-input.js';
import { withGlobalFlags } from './global-flags.js';
import { checkArgs } from './check-args.js';
import { flagTable } from './flag-table.js';
import { PROGRAM } from './command-help.js';
import { finishHelp, helpArgv } from './help-layout.js';
import { allowsWarningColor, ServerWarningPrinter, warningsAsErrorsMessage } from './server-warnings.js';

/**
 * Builds the parser: kubectl's global flags and ours, and the explicit list of commands. ARGV is checked
 * (checkArgs): unknown commands and flags never reach it. COMMAND names the command, for the hint of an error.
 */
export function buildCli(
  argv: readonly string[],
  deps: Deps,
  command?: string,
  serverWarnings?: ServerWarningPrinter,
): Argv<GlobalArgs> {
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
      serverWarnings?.setColor(allowsWarningColor(deps.io, !args.color));
    })
    .command(commands(deps) as CommandModule<GlobalArgs, GlobalArgs>[])
    .strict()
    .help('help')
    .alias('help', 'h')
    .version(false)
    .wrap(Math.min(120, deps.io.columns ?? 100))
    .exitProcess(false)
    .fail((msg, err) => {
      if (err !== undefined && err !== null) throw err;
      const hint = `see: ${PROGRAM}${command !== undefined ? ` ${command}` : ''} --help`;
      // Flags are checked before: what yargs still calls unknown are words beyond the command's arguments.
      const extra = /^Unknown arguments?: (.*)$/.exec(msg);
      if (extra !== null)
        throw new UsageError(`unexpected arguments: [${(extra[1] ?? '').split(', ').join(' ')}]`, { hint });
      throw new UsageError(msg, { hint });
    });
  skipHelpCache(cli);
  return cli;
}

/**
 * yargs renders a command's whole help text as soon as the command's handler has started, in case the handler fails
 * and yargs shows help then (15-25 ms of every command's start, before its first request leaves). This parser never
 * shows help for a failure (see fail above): the text would be thrown away. Left as it is if yargs' internals differ.
 */
function skipHelpCache(cli: Argv<GlobalArgs>): void {
  const internal = cli as unknown as {
    getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
  };
  const usage = internal.getInternalMethods?.().getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}

/** Parses and runs a command; every failure becomes a rejection (handled once in composition-root.ts). */
export async function runCli(argv: readonly string[], deps: Deps): Promise<void> {
  if (argv[0] === '__complete' || argv[0] === '--get-yargs-completions') {
    const { completeWords } = await import('./complete.js');
    const cobra = argv[0] === '__complete';
    const { words, directive } = await completeWords(argv.slice(1), deps);
    deps.io.stdout.write(words.map((w) => `${w}\n`).join('') + (cobra ? `:${String(directive)}\n` : ''));
    return;
  }
  // Every cluster a command connects to is closed when the command ends, however it ends.
  const opened: Awaited<ReturnType<Deps['connect']>>[] = [];
  // The server's warnings of the whole run, every connection's (each context's in a run across contexts).
  const serverWarnings = new ServerWarningPrinter(deps.io.stderr);
  const tracked: Deps = {
    ...deps,
    connect: async (flags) => {
      const context = flags.logContext;
      const cluster = await deps.connect({
        ...flags,
        serverWarnings: (warnings) => {
          serverWarnings.print(warnings, context);
        },
      });
      opened.push(cluster);
      return cluster;
    },
  };
  const checked = checkArgs(helpArgv(argv), flagTable(deps), PROGRAM);
  const cli = buildCli(checked.argv, tracked, checked.command, serverWarnings);
  let helpText = '';
  let asErrors = false;
  try {
    const parsed = await cli.parseAsync([...checked.argv], {}, (err, _parsed, output) => {
      if (err !== null && err !== undefined) return;
      helpText = output;
    });
    asErrors = parsed['warnings-as-errors'];
  } finally {
    for (const cluster of opened) cluster.close?.();
  }
  // kubectl's --warnings-as-errors: a command that succeeded fails, exit 1, when the server warned.
  const asError = asErrors ? warningsAsErrorsMessage(serverWarnings.count) : undefined;
  if (asError !== undefined) throw new UserError(asError, { exitCode: ExitCode.warnings });
  // No command (a bare `kubectl crossplane-rbac`): the help, on stdout, exit 0, as a bare `kubectl` does.
  if (helpText === '' && checked.command === undefined) helpText = await cli.getHelp();
  if (helpText !== '')
    deps.io.stdout.write(`${finishHelp(helpText, checked.command, PROGRAM, deps.io.columns)}\n`);
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
