import type { Argv } from 'yargs';
import { ExitCode, ExitSignal, UsageError } from '../errors.js';
import type { Capture, FleetOptions } from '../app/fleet.js';
import type { InputSource } from '../app/read-input.js';
import { writeLine, type Io, type TextSink } from './io.js';
import type { AppDeps } from '../app/deps.js';
import { appDeps, type Deps } from './context.js';
import type { Shown } from './output/shown.js';
import type { PrintedContext, printContext } from './output/fleet-output.js';
import { plural } from './output/plural.js';

export interface FleetArgs {
  readonly contexts: string[] | undefined;
  readonly 'all-contexts': boolean;
  readonly parallel: number;
}

const DEFAULT_PARALLEL = 8;

/** A stream no run across contexts may write to: each hands what it shows to Deps.collect, as data. */
const NOT_WRITTEN: TextSink = {
  write: () => {
    throw new Error('a run across contexts hands its output to Deps.collect; it never writes a stream');
  },
};

/** What one context's run works with: no terminal, no stream (what it shows is collected as data), IO's input. */
interface ContextSink {
  readonly io: Io;
  readonly collect: Shown[];
}

/**
 * One context's run collects what it shows (its result, warnings, stderr lines) as data; its input is IO's. Once it
 * is over, what it showed is printed (output/fleet-output.ts printContext) and only that is kept: a result's data
 * (a synced cluster's plan holds every live ClusterRole it compared, tens of megabytes) goes with its context.
 * VERSION: the plugin's, for the printers that name it.
 */
function collectOutput(
  io: Io,
  version: string,
  print: typeof printContext,
): (context: string) => Capture<ContextSink, PrintedContext> {
  return (context) => {
    const collect: Shown[] = [];
    const sink: Io = {
      ...io,
      stdout: NOT_WRITTEN,
      stderr: NOT_WRITTEN,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      columns: undefined,
      stderrColumns: undefined,
    };
    return { sink: { io: sink, collect }, collected: () => print(collect, context, version) };
  };
}

/** The flags of runs across contexts, shown as a group of their own after a command's other flags (help-layout.ts). */
export const FLEET_FLAGS = {
  group: 'Fleet flags (runs across contexts):',
  keys: ['contexts', 'all-contexts', 'parallel', 'fail-fast'],
} as const;

/** --contexts, --all-contexts and --parallel, for the commands that only read. */
export function withFleetFlags<T>(y: Argv<T>): Argv<T & FleetArgs> {
  return y
    .option('contexts', {
      type: 'string',
      array: true,
      describe: 'Contexts to ask, comma-separated or repeated; shell globs match context names (prod-*)',
    })
    .option('all-contexts', { type: 'boolean', default: false, describe: 'Every context of the kubeconfig' })
    .option('parallel', {
      type: 'number',
      default: DEFAULT_PARALLEL,
      describe: 'How many contexts at once (each with its own connections)',
    });
}

/** sync's --fail-fast: writing across contexts, stop at the first context that fails. */
export function withFailFast<T>(y: Argv<T>): Argv<T & { readonly 'fail-fast': boolean }> {
  return y.option('fail-fast', {
    type: 'boolean',
    default: false,
    describe: 'Writing across contexts (one at a time): stop at the first context that fails',
  });
}

/**
 * The fleet flags as given, checked; undefined for a run against one cluster. WRITES: the run would write; only
 * sync may (WRITE_ALLOWED), one context at a time.
 */
export function fleetOptions(
  args: FleetArgs & { readonly context?: string | undefined; readonly filename?: unknown },
  writes: boolean,
  writeAllowed = false,
): FleetOptions | undefined {
  const contexts = (args.contexts ?? [])
    .flatMap((c) => c.split(','))
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const all = args['all-contexts'];
  if (contexts.length === 0 && !all) {
    if (args.contexts !== undefined)
      throw new UsageError('--contexts needs at least one context name or pattern');
    return undefined;
  }
  if (all && contexts.length > 0)
    throw new UsageError('--contexts and --all-contexts cannot be used together');
  if (args.context !== undefined)
    throw new UsageError('--context and --contexts/--all-contexts cannot be used together');
  if (args.filename !== undefined)
    throw new UsageError('-f reads files, not contexts: drop --contexts/--all-contexts');
  if (writes && !writeAllowed) {
    throw new UsageError('a run across contexts only reads', {
      hint: 'add --check or --dry-run=client|server, or name one --context to write',
    });
  }
  if (!Number.isInteger(args.parallel) || args.parallel < 1) {
    throw new UsageError(
      `invalid --parallel ${String(args.parallel)}: expected a whole number of at least 1`,
    );
  }
  return { contexts, all, parallel: args.parallel };
}

/** SOURCE connected to CONTEXT instead of the current one. */
export function inContext(source: InputSource, context: string): InputSource {
  return { ...source, connection: { ...source.connection, context } };
}

/** How the merged output of a run across contexts is shown: -o, --color, and the header row of a table. */
export interface FleetPresent {
  readonly output: string;
  readonly color: boolean;
  /** false: --no-headers (the merged table's header row; a context shown in a section of its own keeps its own). */
  readonly headers: boolean;
}

/**
 * Runs RUN_ONE once per context of FLEET (what it shows collected as data: its results, warnings and stderr lines),
 * then prints the results in the order of the contexts: merged as PRESENT shows them (see output/fleet-output.ts),
 * each failure as one `error: context NAME: ...` line, and a summary. Exit code: 2 if any context failed or answered
 * partially (its answer shown, marked partial), else 1 if any drifted or was denied, else 0.
 */
export async function runAcrossContexts(
  deps: Deps,
  fleet: FleetOptions,
  source: InputSource,
  present: FleetPresent,
  runOne: (deps: Deps, context: string) => Promise<void>,
): Promise<void> {
  const { output, color } = present;
  const [{ selectContexts, runFleet }, { mergeFleetOutput, printChunks, printContext }] = await Promise.all([
    import('../app/fleet.js'),
    import('./output/fleet-output.js'),
  ]);
  const names = await (deps.contextNames ?? (() => Promise.resolve([])))(source.connection);
  const contexts = selectContexts(fleet, names);
  const base = appDeps(deps, color);
  const progress = await base.startProgress(`contexts: 0/${String(contexts.length)} done`);
  let runs;
  try {
    runs = await runFleet(
      contexts,
      fleet.parallel,
      base,
      collectOutput(deps.io, deps.version, printContext),
      async (context, d, sink) => {
        await runOne({ ...deps, ...sink, connect: d.connect, renderShare: d.renderShare }, context);
        return ExitCode.ok;
      },
      (done, failed) => {
        const failures = failed > 0 ? `, ${String(failed)} failed` : '';
        progress.update(`contexts: ${String(done)}/${String(contexts.length)} done${failures}`);
      },
      false,
      source.connection.verbosity,
    );
  } finally {
    progress.stop();
  }
  const merged = mergeFleetOutput(runs, output, present.headers);
  await printChunks(deps.io.stdout, merged.stdout);
  for (const line of merged.stderr) writeLine(deps.io.stderr, line);
  const partial = runs.filter((r) => r.partial === true).length;
  const failed = runs.filter((r) => r.error !== undefined).length - partial;
  const flagged = runs.filter((r) => r.error === undefined && r.exitCode !== ExitCode.ok).length;
  const partly = partial > 0 ? `, ${String(partial)} partial` : '';
  writeLine(
    deps.io.stderr,
    `${plural(runs.length, 'context')}: ${String(runs.length - failed - flagged - partial)} ok, ${String(flagged)} drifted or denied${partly}, ${String(failed)} failed`,
  );
  // A partial answer ends as it does alone: with an error.
  if (failed > 0 || partial > 0) throw new ExitSignal(ExitCode.error);
  if (flagged > 0) throw new ExitSignal(ExitCode.drift);
}

/**
 * sync across contexts with writes: without --yes, the plan of every context first (in parallel, shown before the one
 * question on a terminal that names every context; a context whose plan cannot be made stops everything before the
 * first write), then the writes one context at a time in the order given, each context planned again as it is
 * written (with --yes, only then: one that cannot be planned fails alone); --fail-fast stops at the first context
 * that fails.
 */
export async function writeAcrossContexts(
  deps: Deps,
  fleet: FleetOptions,
  run: {
    readonly source: InputSource;
    readonly color: boolean;
    /** false: --no-headers, for the merged table of what was written (the plans shown first keep theirs). */
    readonly headers: boolean;
    readonly yes: boolean;
    readonly failFast: boolean;
    readonly what: string;
    readonly preview: (deps: Deps, context: string) => Promise<void>;
    readonly apply: (deps: Deps, context: string) => Promise<void>;
  },
): Promise<void> {
  const [{ selectContexts, runFleet }, { mergeFleetOutput, printChunks, printContext }, { confirmWrite }] =
    await Promise.all([
      import('../app/fleet.js'),
      import('./output/fleet-output.js'),
      import('./output/prompt.js'),
    ]);
  const names = await (deps.contextNames ?? (() => Promise.resolve([])))(run.source.connection);
  const contexts = selectContexts(fleet, names);
  const base = appDeps(deps, run.color);
  const each =
    (fn: (deps: Deps, context: string) => Promise<void>) =>
    async (context: string, d: AppDeps, sink: ContextSink): Promise<number> => {
      await fn({ ...deps, ...sink, connect: d.connect, renderShare: d.renderShare }, context);
      return ExitCode.ok;
    };
  if (!run.yes) {
    // Off a terminal this refuses before anything is read, as sync alone does.
    if (!deps.io.stdinIsTTY || !deps.io.stderrIsTTY) {
      await confirmWrite(deps.io, deps.prompter, { yes: false, message: '', what: run.what });
    }
    const plans = await runFleet(
      contexts,
      fleet.parallel,
      base,
      collectOutput(deps.io, deps.version, printContext),
      each(run.preview),
      undefined,
      false,
      run.source.connection.verbosity,
    );
    const shown = mergeFleetOutput(plans, 'table', true);
    await printChunks(deps.io.stderr, shown.stdout);
    for (const line of shown.stderr) writeLine(deps.io.stderr, line);
    const failed = plans.filter((p) => p.error !== undefined).length;
    if (failed > 0) {
      throw new UsageError(
        `${String(failed)} of ${String(contexts.length)} contexts could not be planned: nothing was written`,
      );
    }
    const yes = await confirmWrite(deps.io, deps.prompter, {
      yes: false,
      message: `${run.what} in ${String(contexts.length)} contexts (${contexts.join(', ')}), one at a time?`,
      what: run.what,
    });
    if (!yes) throw new UsageError('aborted: nothing was written');
  }
  const applied = await runFleet(
    contexts,
    1,
    base,
    collectOutput(deps.io, deps.version, printContext),
    each(run.apply),
    undefined,
    run.failFast,
  );
  const merged = mergeFleetOutput(applied, 'table', run.headers);
  await printChunks(deps.io.stdout, merged.stdout);
  for (const line of merged.stderr) writeLine(deps.io.stderr, line);
  const failed = applied.filter((r) => r.error !== undefined).length;
  const skipped = contexts.length - applied.length;
  writeLine(
    deps.io.stderr,
    `${plural(contexts.length, 'context')}: ${String(applied.length - failed)} written, ${String(failed)} failed${skipped > 0 ? `, ${String(skipped)} not started (--fail-fast)` : ''}`,
  );
  if (failed > 0) throw new ExitSignal(ExitCode.error);
}
