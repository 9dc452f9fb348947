import type { CommandModule } from 'yargs';
import { ExitCode, ExitSignal, PartialAnswer, UsageError } from '../../errors.js';
import type { AuditOptions } from '../../app/audit.js';
import { parseSubject } from '../../kube/parse-subject.js';
import { appDeps, type Deps, type GlobalArgs } from '../context.js';
import { filenameOption, inputSource, type FromPaths } from '../input-flags.js';
import { fleetOptions, inContext, runAcrossContexts, withFleetFlags, type FleetArgs } from '../fleet.js';
import { outputHelpOf, parseFormat, type FormatOf } from '../output/registry.js';
import { GRAPH_FORMATS } from '../output/output-formats.js';
import { printResult } from '../output/print-result.js';
import {
  afterSyncFlags,
  afterSyncOptions,
  noHeadersOption,
  printReadRole,
  printReadRoleOption,
} from '../flags.js';

const FAIL_ON = ['critical', 'high', 'medium', 'low'] as const;

interface AuditArgs extends GlobalArgs, FleetArgs {
  readonly subject: string | undefined;
  readonly accept: string | undefined;
  readonly 'fail-on': string | undefined;
  readonly filename: FromPaths | undefined;
  readonly 'no-headers': boolean;
  readonly 'after-sync': boolean;
  readonly converged: boolean;
  readonly only: string | undefined;
  readonly 'print-required-role': boolean;
}

export function auditCommand(deps: Deps): CommandModule<GlobalArgs, AuditArgs> {
  return {
    command: 'audit',
    describe:
      'Find who may become more than their roles say, through Kubernetes and through Crossplane, by which steps, and the least change that closes each path',
    builder: (y) =>
      withFleetFlags(y)
        .option('subject', {
          type: 'string',
          describe: 'Audit one subject: KIND:NAME (ServiceAccount:NAMESPACE/NAME)',
        })
        .option('accept', {
          type: 'string',
          describe:
            'A YAML list of accepted findings ({subject, capability, firstStep, reason}): reported apart, never failed on',
        })
        .option('fail-on', {
          type: 'string',
          describe: `Exit 1 when a finding at or above this severity remains: ${FAIL_ON.join('|')}`,
        })
        .option('filename', filenameOption)
        .option('converged', {
          type: 'boolean',
          default: false,
          describe:
            'Read every ClusterRole and audit with the rules the aggregation controller converges to (default: the rules each bound role stores, as the API server authorizes; -f and --after-sync imply it)',
        })
        .options(afterSyncOptions)
        .describe('output', outputHelpOf('audit'))
        .option('no-headers', noHeadersOption)
        .option('print-required-role', printReadRoleOption),
    handler: async (args) => {
      // With --print-required-role, -o is the role's (printReadRole checks it) and the other flags are checked.
      if (args['print-required-role']) {
        const { options: o } = auditFlags({ ...args, output: undefined });
        return printReadRole(deps.io, 'audit', args.output, o.afterSync);
      }
      const { output, options, failOn } = auditFlags(args);
      const fleet = fleetOptions(args, false);
      if (fleet === undefined) return auditOnce(deps, args, output, options, failOn);
      if (output === 'sarif' || GRAPH_FORMATS.includes(output)) {
        throw new UsageError(`-o ${output} describes one cluster and cannot be merged across contexts`, {
          hint: 'give one --context (or -f), or use -o json across contexts',
        });
      }
      const present = { output, color: args.color, headers: !args['no-headers'] };
      await runAcrossContexts(deps, fleet, options.source, present, (d, context) =>
        auditOnce(
          d,
          { ...args, 'no-headers': false },
          output,
          { ...options, source: inContext(options.source, context) },
          failOn,
        ),
      );
    },
  };
}

/**
 * audit against one cluster (or -f): the report as OUTPUT; exit 1 under --fail-on when a finding remains. A read it
 * could not make ends it as `kubectl get` ends a list it may not make, after printing what it could read: with an
 * error (exit 2), so that no partial audit passes for a whole one.
 */
async function auditOnce(
  deps: Deps,
  args: AuditArgs,
  output: FormatOf<'audit'>,
  options: AuditOptions,
  failOn: (typeof FAIL_ON)[number] | undefined,
): Promise<void> {
  const { runAudit, failsOn } = await import('../../app/audit.js');
  const run = await runAudit(options, appDeps(deps, args.color));
  await printResult(deps, 'audit', output, run, { color: args.color, headers: !args['no-headers'] });
  const unseen = run.report.unseen.length;
  if (unseen > 0) {
    throw new PartialAnswer(
      `the audit is partial: ${String(unseen)} read${unseen === 1 ? ' was' : 's were'} forbidden (named above and in "unseen")`,
      {
        hint: 'bind the ClusterRole that --print-required-role prints to whoever runs it, for the whole picture',
      },
    );
  }
  if (failOn !== undefined && failsOn(run.report, failOn)) throw new ExitSignal(ExitCode.drift);
}

/** --fail-on's severity; anything else is a usage error naming the severities. */
function parseFailOn(value: string): (typeof FAIL_ON)[number] {
  const severity = FAIL_ON.find((s) => s === value);
  if (severity === undefined) {
    throw new UsageError(`--fail-on "${value}" is not a severity`, {
      hint: `use one of: ${FAIL_ON.join(', ')}`,
    });
  }
  return severity;
}

/** The flags checked into the run's options before anything is read. */
function auditFlags(args: AuditArgs): {
  output: FormatOf<'audit'>;
  options: AuditOptions;
  failOn: (typeof FAIL_ON)[number] | undefined;
} {
  const output = parseFormat('audit', args.output, 'audit');
  const failOn = args['fail-on'] === undefined ? undefined : parseFailOn(args['fail-on']);
  const subject = args.subject !== undefined ? parseSubject(args.subject) : undefined;
  const options: AuditOptions = {
    source: inputSource(args),
    subject,
    acceptFile: args.accept,
    afterSync: afterSyncFlags(args),
    converged: args.converged,
  };
  return { output, options, failOn };
}
