import type { CommandModule } from 'yargs';
import { ExitCode, ExitSignal, UsageError } from '../../errors.js';
import { appDeps, type Deps, type GlobalArgs } from '../context.js';
import { filenameOption, inputSource } from '../input-flags.js';
import {
  formatsOf,
  GRAPH_OUTPUTS_HELP,
  outputHelpOf,
  parseFormat,
  type FormatOf,
} from '../output/registry.js';
import { printResult } from '../output/print-result.js';
import {
  afterSyncFlags,
  afterSyncOptions,
  noHeadersOption,
  printReadRole,
  printReadRoleOption,
  refuseGraphAcrossContexts,
} from '../flags.js';
import type { AfterSyncOptions } from '../../app/after-sync.js';
import { fleetOptions, runAcrossContexts, withFleetFlags, type FleetArgs } from '../fleet.js';
import { explainMatrixHandler, matrixOptions, refuseMatrixFlags, type MatrixArgs } from './explain-matrix.js';

interface ExplainArgs extends MatrixArgs, FleetArgs {
  readonly 'print-required-role': boolean;
  readonly 'after-sync': boolean;
  readonly only: string | undefined;
}

/**
 * `--for RESOURCE --verb VERB` of explain ROLE, checked for presence: RESOURCE takes kubectl's forms (or
 * GROUP/RESOURCE) and is resolved once the cluster (or -f) is read.
 */
export function parseAccess(
  forFlag: string | undefined,
  verb: string | undefined,
): { readonly verb: string; readonly resource: string } | undefined {
  if (forFlag === undefined) {
    if (verb !== undefined)
      throw new UsageError('--verb needs --for RESOURCE', {
        hint: 'e.g. --for deployments.apps --verb delete',
      });
    return undefined;
  }
  if (verb === undefined || verb === '') {
    throw new UsageError('--for needs --verb', { hint: 'e.g. --for deployments.apps --verb delete' });
  }
  if (forFlag === '') {
    throw new UsageError('--for needs a RESOURCE', {
      hint: 'RESOURCE as kubectl takes it, e.g. pods, deployments.apps, pods/log, buckets.s3.aws.upbound.io',
    });
  }
  return { verb, resource: forFlag };
}

export function explainCommand(deps: Deps): CommandModule<GlobalArgs, ExplainArgs> {
  return {
    command: 'explain [role]',
    describe:
      'Show the effective rules of a ClusterRole as Kubernetes aggregates them, and where each came from',
    builder: (y) =>
      matrixOptions(
        withFleetFlags(y)
          .positional('role', { type: 'string', describe: 'The ClusterRole to explain' })
          .option('subject', {
            type: 'string',
            describe:
              'Explain a subject instead: User:NAME, Group:NAME or ServiceAccount:NS/NAME (with -n NS: its RoleBindings there)',
          })
          .option('group', {
            type: 'string',
            array: true,
            describe: 'With --subject: a further group of the subject (repeatable)',
          })
          .option('filename', filenameOption)
          .describe(
            'output',
            outputHelpOf(
              'explain-role',
              ` (with --subject: ${formatsOf('explain-subject').join('|')}; with --matrix: ${formatsOf('explain-matrix').join('|')}). With --subject, ${GRAPH_OUTPUTS_HELP}`,
            ),
          )
          .option('no-headers', noHeadersOption)
          .option('for', {
            type: 'string',
            describe:
              'Keep only the rules granting RESOURCE, as kubectl takes it (pods, deployments.apps, pods/log, buckets.s3.aws.upbound.io, kinds, short names; GROUP/RESOURCE too); with --subject, answered allowed or denied',
          })
          .option('verb', { type: 'string', describe: 'The verb for --for (get, list, delete, ...)' })
          .options(afterSyncOptions)
          .option('print-required-role', printReadRoleOption),
      ),
    handler: async (args) => {
      if (args['print-required-role']) {
        const command =
          args.matrix === true
            ? 'explain-matrix'
            : args.subject !== undefined
              ? 'explain-subject'
              : 'explain';
        return printReadRole(deps.io, command, args.output, afterSyncFlags(args));
      }
      const fleet = fleetOptions(args, false);
      if (args.subject !== undefined && args.matrix !== true)
        refuseGraphAcrossContexts(args.output ?? '', fleet);
      if (fleet === undefined) return explainOnce(args, deps);
      // explain prints a section per context (its tables are not merged): --no-headers applies in each.
      const present = { output: args.output ?? 'text', color: args.color, headers: true };
      await runAcrossContexts(deps, fleet, inputSource(args), present, (d, context) =>
        explainOnce({ ...args, context }, d),
      );
    },
  };
}

/** explain against one cluster (or -f): a role, a subject, or a subject's matrix. */
async function explainOnce(args: ExplainArgs, deps: Deps): Promise<void> {
  if (args.matrix === true) return explainMatrixHandler(args, deps, afterSyncFlags(args));
  refuseMatrixFlags(args);
  if (args.subject !== undefined) return explainSubjectHandler(args, deps);
  const { role, output, request, afterSync } = explainRoleFlags(args);
  const { runExplainRole } = await import('../../app/explain.js');
  const explanation = await runExplainRole(
    { source: inputSource(args), role, request, afterSync },
    appDeps(deps, args.color),
  );
  await printResult(deps, 'explain-role', output, explanation, {
    color: args.color,
    headers: args['no-headers'] !== true,
  });
}

/** explain ROLE's flags, checked before anything is read. */
function explainRoleFlags(args: ExplainArgs): {
  role: string;
  output: FormatOf<'explain-role'>;
  request: ReturnType<typeof parseAccess>;
  afterSync: AfterSyncOptions | undefined;
} {
  if (args.role === undefined || args.role === '') {
    throw new UsageError('explain needs a ClusterRole, or --subject KIND:NAME', {
      hint: 'e.g. explain crossplane-edit, or explain --subject Group:team-a-devs -n team-a',
    });
  }
  if (args.group !== undefined) throw new UsageError('--group needs --subject');
  const output = parseFormat('explain-role', args.output, 'explain');
  return {
    role: args.role,
    output,
    request: parseAccess(args.for, args.verb),
    afterSync: afterSyncFlags(args),
  };
}

async function explainSubjectHandler(args: ExplainArgs, deps: Deps): Promise<void> {
  const output = parseFormat('explain-subject', args.output, 'explain --subject');
  if (args.role !== undefined) {
    throw new UsageError('explain takes a ClusterRole or --subject, not both', {
      hint: 'explain ROLE explains a role; explain --subject KIND:NAME the bindings of a subject',
    });
  }
  if ((args.for === undefined) !== (args.verb === undefined || args.verb === '')) {
    throw new UsageError(args.for === undefined ? '--verb needs --for RESOURCE' : '--for needs --verb', {
      hint: 'e.g. --for sqlinstances.aws.platform.upbound.io --verb create',
    });
  }
  const [{ parseSubject }, { runExplainSubject }] = await Promise.all([
    import('../../explain/explain-subject.js'),
    import('../../app/explain.js'),
  ]);
  const subject = parseSubject(args.subject ?? '');
  const afterSync = afterSyncFlags(args);
  const explanation = await runExplainSubject(
    {
      source: inputSource(args),
      subject,
      groups: args.group ?? [],
      namespace: args.namespace,
      request:
        args.for !== undefined && args.verb !== undefined
          ? { verb: args.verb, resource: args.for }
          : undefined,
      afterSync,
    },
    appDeps(deps, args.color),
  );
  await printResult(deps, 'explain-subject', output, explanation, { color: args.color, headers: true });
  // As `kubectl auth can-i`: the answer is printed, and a denial exits 1.
  if (explanation.access?.allowed === false) throw new ExitSignal(ExitCode.denied);
}
