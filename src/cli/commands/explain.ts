import type { CommandModule } from 'yargs';
import type { Deps, GlobalArgs } from '../context.js';
import { filenameOption, inputSource } from '../input-flags.js';
import { formatsOf, GRAPH_OUTPUTS_HELP, outputHelpOf } from '../output/registry.js';
import {
  afterSyncFlags,
  afterSyncOptions,
  convergedOption,
  noHeadersOption,
  printReadRole,
  printReadRoleOption,
  refuseGraphAcrossContexts,
} from '../flags.js';
import { fleetOptions, inContext, runAcrossContexts, withFleetFlags } from '../fleet.js';
import type { InputSource } from '../../app/read-input.js';
import type { ExplainArgs, ExplainMode, ExplainRun, SharedExplain } from './explain-args.js';
import { roleFlags, roleMode } from './explain-role.js';
import { subjectFlags, subjectMode } from './explain-subject.js';
import { matrixFlags, matrixMode, refuseMatrixFlags } from './explain-matrix.js';

// `explain`: three modes behind one command line (a ClusterRole, --subject KIND:NAME, --subject --matrix), each in a
// module of its own (explain-role.ts, explain-subject.ts, explain-matrix.ts: its flags, their checks, its run). This
// file declares every flag, picks the mode, checks the flags every mode shares once, and runs the mode: on one
// cluster, or on each context of a fleet. Each mode loads its runner (and with it its explanation) when it runs.

export function explainCommand(deps: Deps): CommandModule<GlobalArgs, ExplainArgs> {
  return {
    command: 'explain [role]',
    describe:
      'Show the effective rules of a ClusterRole as Kubernetes aggregates them, and where each came from',
    builder: (y) =>
      // The flags in the order --help lists them: the subject's, the shared input ones, the role's (which the subject
      // takes too), the shared question ones, the matrix's; -o last.
      matrixFlags(
        roleFlags(
          subjectFlags(withFleetFlags(y))
            .option('filename', filenameOption)
            .describe(
              'output',
              outputHelpOf(
                'explain-role',
                ` (with --subject: ${formatsOf('explain-subject').join('|')}; with --matrix: ${formatsOf('explain-matrix').join('|')}). With --subject, ${GRAPH_OUTPUTS_HELP}`,
              ),
            )
            .option('no-headers', noHeadersOption),
        )
          .option('converged', {
            ...convergedOption,
            describe: `With --subject: ${convergedOption.describe}`,
          })
          .options(afterSyncOptions)
          .option('print-required-role', printReadRoleOption),
      ),
    handler: (args) => explain(args, deps),
  };
}

/** The mode a command line asks for: --matrix, else --subject, else a ClusterRole. */
function modeOf(args: ExplainArgs): ExplainMode {
  if (args.matrix === true) return matrixMode;
  return args.subject !== undefined ? subjectMode : roleMode;
}

async function explain(args: ExplainArgs, deps: Deps): Promise<void> {
  const mode = modeOf(args);
  if (args['print-required-role']) {
    // -o is the role's: printReadRole checks it, naming the mode as typed.
    const afterSync = afterSyncFlags(args);
    return printReadRole(deps.io, mode.readCommand, args.output, afterSync, undefined, mode.command);
  }
  const fleet = fleetOptions(args, false);
  // A graph (the role's aggregation, the subject's paths) draws one cluster; a format the mode lacks is -o's error.
  const output = args.output ?? '';
  if ((formatsOf(mode.kind) as readonly string[]).includes(output)) refuseGraphAcrossContexts(output, fleet);
  const { source, run } = checkFlags(args, mode);
  if (fleet === undefined) return run(source, deps);
  // explain prints a section per context (its tables are not merged): --no-headers applies in each.
  const present = { output: args.output ?? 'text', color: args.color, headers: true };
  await runAcrossContexts(deps, fleet, source, present, (d, context) => run(inContext(source, context), d));
}

/** The flags every mode shares, checked once, then the mode's own: all before anything is read. */
function checkFlags(args: ExplainArgs, mode: ExplainMode): { source: InputSource; run: ExplainRun } {
  // A forgotten --matrix is never silently ignored.
  if (mode.name !== 'matrix') refuseMatrixFlags(args);
  const shared: SharedExplain = {
    source: inputSource(args),
    afterSync: afterSyncFlags(args),
    print: { color: args.color, headers: args['no-headers'] !== true },
  };
  return { source: shared.source, run: mode.check(args, shared) };
}
