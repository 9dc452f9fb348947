import type { CommandModule } from 'yargs';
import { ExitCode, ExitSignal, UsageError } from '../../errors.js';
import { appDeps, type Deps, type GlobalArgs } from '../context.js';
import { filenameOption, inputSource } from '../input-flags.js';
import { palette, useColor } from '../output/terminal.js';
import {
  afterSyncFlags,
  afterSyncOptions,
  GRAPH_OUTPUTS,
  GRAPH_OUTPUTS_HELP,
  noHeadersOption,
  printReadRole,
  printReadRoleOption,
  outputHelp,
  parseOutput,
  refuseGraphAcrossContexts,
} from '../flags.js';
import type { AfterSyncOptions } from '../../app/after-sync.js';
import { fleetOptions, runAcrossContexts, withFleetFlags, type FleetArgs } from '../fleet.js';
import {
  explainMatrixHandler,
  MATRIX_OUTPUTS,
  matrixOptions,
  refuseMatrixFlags,
  type MatrixArgs,
} from './explain-matrix.js';

export const EXPLAIN_OUTPUTS = ['tree', 'table', 'wide', 'yaml', 'json', 'dot', 'mermaid'] as const;
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
            outputHelp(
              EXPLAIN_OUTPUTS,
              ` (with --subject: ${SUBJECT_OUTPUTS.join('|')}; with --matrix: ${MATRIX_OUTPUTS.join('|')}). With --subject, ${GRAPH_OUTPUTS_HELP}`,
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
  const [fmt, data] = await Promise.all([
    import('../output/format-explain.js'),
    import('../output/format-data.js'),
  ]);
  const color = useColor(deps.io, deps.io.stdoutIsTTY, !args.color);
  // On a terminal, long lists fold to its width (-o wide, json and yaml stay complete).
  const width = deps.io.stdoutIsTTY ? deps.io.columns : undefined;
  const text = {
    tree: () => fmt.formatExplainTree(explanation, palette(color), width),
    table: () => fmt.formatExplainTable(explanation, false, args['no-headers'] !== true, width),
    wide: () => fmt.formatExplainTable(explanation, true, args['no-headers'] !== true),
    yaml: () => data.formatYaml(explanation),
    json: () => data.formatJson(explanation),
    dot: () => fmt.formatExplainDot(explanation),
    mermaid: () => fmt.formatExplainMermaid(explanation),
  }[output]();
  deps.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** explain ROLE's flags, checked before anything is read. */
function explainRoleFlags(args: ExplainArgs): {
  role: string;
  output: (typeof EXPLAIN_OUTPUTS)[number];
  request: ReturnType<typeof parseAccess>;
  afterSync: AfterSyncOptions | undefined;
} {
  if (args.role === undefined || args.role === '') {
    throw new UsageError('explain needs a ClusterRole, or --subject KIND:NAME', {
      hint: 'e.g. explain crossplane-edit, or explain --subject Group:team-a-devs -n team-a',
    });
  }
  if (args.group !== undefined) throw new UsageError('--group needs --subject');
  const output = parseOutput(args.output, EXPLAIN_OUTPUTS, 'tree', 'explain');
  return {
    role: args.role,
    output,
    request: parseAccess(args.for, args.verb),
    afterSync: afterSyncFlags(args),
  };
}

export const SUBJECT_OUTPUTS = ['text', 'wide', 'yaml', 'json', ...GRAPH_OUTPUTS] as const;

async function explainSubjectHandler(args: ExplainArgs, deps: Deps): Promise<void> {
  const output = parseOutput(args.output, SUBJECT_OUTPUTS, 'text', 'explain --subject');
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
  const [{ parseSubject }, { formatSubjectText }, data, { runExplainSubject }, graph, { subjectGraph }] =
    await Promise.all([
      import('../../explain/explain-subject.js'),
      import('../output/format-explain-subject.js'),
      import('../output/format-data.js'),
      import('../../app/explain.js'),
      import('../output/format-graph.js'),
      import('../output/graph-model.js'),
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
  const text = {
    text: () => formatSubjectText(explanation, false),
    wide: () => formatSubjectText(explanation, true),
    yaml: () => data.formatYaml(explanation),
    json: () => data.formatJson(explanation),
    dot: () => graph.formatGraph(subjectGraph(explanation), 'dot'),
    mermaid: () => graph.formatGraph(subjectGraph(explanation), 'mermaid'),
    html: () => graph.formatGraph(subjectGraph(explanation), 'html'),
  }[output]();
  deps.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  // As `kubectl auth can-i`: the answer is printed, and a denial exits 1.
  if (explanation.access?.allowed === false) throw new ExitSignal(ExitCode.denied);
}
