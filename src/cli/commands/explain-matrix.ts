import type { Argv } from 'yargs';
import { UsageError } from '../../errors.js';
import { appDeps, type Deps, type GlobalArgs } from '../context.js';
import { inputSource, type FromPaths } from '../input-flags.js';
import { parseFormat, type FormatOf } from '../output/registry.js';
import { printResult } from '../output/print-result.js';
import { checkNamespaceFlag } from '../flags.js';
import type { AfterSyncOptions } from '../../app/after-sync.js';

// `explain --subject KIND:NAME --matrix`: its flags, checked before anything is read, and its presentation. The
// explain command routes here; its own file stays the role and subject explanations.

export interface MatrixArgs extends GlobalArgs {
  readonly role: string | undefined;
  readonly subject: string | undefined;
  readonly group: string[] | undefined;
  readonly filename: FromPaths | undefined;
  readonly 'no-headers': boolean | undefined;
  readonly for: string | undefined;
  readonly verb: string | undefined;
  readonly matrix: boolean | undefined;
  readonly all: boolean | undefined;
  readonly 'diff-with': string | undefined;
}

/** The matrix's own flags, added to explain's. */
export function matrixOptions<T>(y: Argv<T>) {
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

/** Refuses the matrix's flags without --matrix, so a forgotten --matrix is never silently ignored. */
export function refuseMatrixFlags(args: MatrixArgs): void {
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

/** The matrix's flags, checked before anything is read. */
function matrixFlags(args: MatrixArgs): { output: FormatOf<'explain-matrix'>; subject: string } {
  if (args.subject === undefined || args.subject === '') {
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
  checkNamespaceFlag('--namespace', args.namespace);
  return {
    output: parseFormat('explain-matrix', args.output, 'explain --matrix'),
    subject: args.subject,
  };
}

export async function explainMatrixHandler(
  args: MatrixArgs,
  deps: Deps,
  afterSync?: AfterSyncOptions,
): Promise<void> {
  const { output, subject } = matrixFlags(args);
  const [{ parseSubject }, { runExplainMatrix }] = await Promise.all([
    import('../../explain/explain-subject.js'),
    import('../../app/explain.js'),
  ]);
  const diffWith = args['diff-with'];
  const matrix = await runExplainMatrix(
    {
      source: inputSource(args),
      subject: parseSubject(subject),
      groups: args.group ?? [],
      namespace: args.namespace,
      diffWith: diffWith !== undefined ? parseSubject(diffWith, '--diff-with') : undefined,
      all: args.all === true,
      afterSync,
    },
    appDeps(deps, args.color),
  );
  await printResult(deps, 'explain-matrix', output, matrix, {
    color: args.color,
    headers: args['no-headers'] !== true,
  });
}
