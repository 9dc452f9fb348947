import type { Argv } from 'yargs';
import { UsageError } from '../../errors.js';
import { parseSubject } from '../../kube/parse-subject.js';
import { appDeps } from '../context.js';
import { parseFormat, type FormatOf } from '../output/registry.js';
import { printResult } from '../output/print-result.js';
import { checkNamespaceFlag } from '../flags.js';
import type { ExplainMatrixOptions } from '../../app/explain-matrix.js';
import type { InputSource } from '../../app/read-input.js';
import type { Deps } from '../context.js';
import type { ExplainArgs, ExplainMode } from './explain-args.js';

// `explain --subject KIND:NAME --matrix`: its own flags (--matrix, --all, --diff-with; --subject and --group as
// explain --subject declares them), the ones it refuses (a ClusterRole, --for and --verb: it answers every resource
// and verb), and its run.

/** The matrix's own flags. */
export function matrixFlags<T>(y: Argv<T>) {
  return y
    .option('matrix', {
      type: 'boolean',
      describe:
        'With --subject: the access matrix, every resource served against get, list, watch, create, update, patch, delete, deletecollection',
    })
    .option('all', {
      type: 'boolean',
      describe:
        'With --matrix: also the rows where everything is denied (with --diff-with: where both are alike)',
    })
    .option('diff-with', {
      type: 'string',
      describe: 'With --matrix: a second subject (KIND:NAME) side by side, each cell SUBJECT/OTHER',
    });
}

/** The matrix's flags without --matrix (explain ROLE, explain --subject): refused, so a forgotten --matrix is never silently ignored. */
export function refuseMatrixFlags(args: ExplainArgs): void {
  for (const [flag, given] of [
    ['--all', args.all !== undefined],
    ['--diff-with', args['diff-with'] !== undefined],
  ] as const) {
    if (given) {
      throw new UsageError(`${flag} needs --matrix`, {
        hint: 'e.g. explain --subject Group:team-a-devs --matrix -n team-a --all',
      });
    }
  }
}

interface MatrixRun {
  readonly options: Omit<ExplainMatrixOptions, 'source'>;
  readonly output: FormatOf<'explain-matrix'>;
  readonly color: boolean;
  readonly headers: boolean;
}

export const matrixMode: ExplainMode = {
  name: 'matrix',
  kind: 'explain-matrix',
  command: 'explain --matrix',
  readCommand: 'explain-matrix',
  check: (args, shared) => {
    const subject = args.subject;
    if (subject === undefined || subject === '') {
      throw new UsageError('--matrix needs --subject KIND:NAME', {
        hint: 'e.g. explain --subject ServiceAccount:crossplane-system/crossplane --matrix',
      });
    }
    if (args.role !== undefined) {
      throw new UsageError('explain takes a ClusterRole or --subject, not both', {
        hint: 'explain --subject KIND:NAME --matrix shows the access matrix of a subject',
      });
    }
    if (args.for !== undefined || args.verb !== undefined) {
      throw new UsageError(
        `--matrix answers every resource and verb: drop ${args.for !== undefined ? '--for' : '--verb'}`,
        {
          hint: 'explain --subject KIND:NAME --for RESOURCE --verb VERB answers one request, with why',
        },
      );
    }
    if (args.converged === true) {
      throw new UsageError('--matrix shows both views: drop --converged', {
        hint: 'a cell that only rules the aggregation controller has not stored yet allow is marked',
      });
    }
    checkNamespaceFlag('--namespace', args.namespace);
    const output = parseFormat('explain-matrix', args.output, matrixMode.command);
    const diffWith = args['diff-with'];
    const run: MatrixRun = {
      options: {
        subject: parseSubject(subject),
        groups: args.group ?? [],
        namespace: args.namespace,
        diffWith: diffWith !== undefined ? parseSubject(diffWith, '--diff-with') : undefined,
        all: args.all === true,
        afterSync: shared.afterSync,
      },
      output,
      ...shared.print,
    };
    return (source, deps) => runMatrix(run, source, deps);
  },
};

async function runMatrix(run: MatrixRun, source: InputSource, deps: Deps): Promise<void> {
  const { runExplainMatrix } = await import('../../app/explain-matrix.js');
  const matrix = await runExplainMatrix({ ...run.options, source }, appDeps(deps, run.color));
  await printResult(deps, 'explain-matrix', run.output, matrix, run);
}
