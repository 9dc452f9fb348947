import type { Argv } from 'yargs';
import { ExitCode, ExitSignal, UsageError } from '../../errors.js';
import { parseSubject } from '../../kube/parse-subject.js';
import { appDeps } from '../context.js';
import { parseFormat, type FormatOf } from '../output/registry.js';
import { printResult } from '../output/print-result.js';
import type { ExplainSubjectOptions } from '../../app/explain-subject.js';
import type { InputSource } from '../../app/read-input.js';
import type { Deps } from '../context.js';
import type { ExplainMode } from './explain-args.js';

// `explain --subject KIND:NAME`: its own flags (--subject, --group; --for and --verb as explain ROLE declares them),
// the ones it refuses (a ClusterRole beside it; the matrix's, refused by the command), and its run: a denial exits 1.

/** --subject and --group, which the matrix takes too. */
export function subjectFlags<T>(y: Argv<T>) {
  return y
    .option('subject', {
      type: 'string',
      describe:
        'Explain a subject instead: User:NAME, Group:NAME or ServiceAccount:NS/NAME (with -n NS: its RoleBindings there)',
    })
    .option('group', {
      type: 'string',
      array: true,
      describe: 'With --subject: a further group of the subject (repeatable)',
    });
}

interface SubjectRun {
  readonly options: Omit<ExplainSubjectOptions, 'source'>;
  readonly output: FormatOf<'explain-subject'>;
  readonly color: boolean;
}

export const subjectMode: ExplainMode = {
  name: 'subject',
  kind: 'explain-subject',
  command: 'explain --subject',
  readCommand: 'explain-subject',
  check: (args, shared) => {
    const output = parseFormat('explain-subject', args.output, subjectMode.command);
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
    const subject = parseSubject(args.subject ?? '');
    const request =
      args.for !== undefined && args.verb !== undefined ? { verb: args.verb, resource: args.for } : undefined;
    const run: SubjectRun = {
      options: {
        subject,
        groups: args.group ?? [],
        namespace: args.namespace,
        request,
        converged: args.converged === true,
        afterSync: shared.afterSync,
      },
      output,
      color: shared.print.color,
    };
    return (source, deps) => runSubject(run, source, deps);
  },
};

async function runSubject(run: SubjectRun, source: InputSource, deps: Deps): Promise<void> {
  const { runExplainSubject } = await import('../../app/explain-subject.js');
  const explanation = await runExplainSubject({ ...run.options, source }, appDeps(deps, run.color));
  // Its text has no table: --no-headers changes nothing.
  await printResult(deps, 'explain-subject', run.output, explanation, { color: run.color, headers: true });
  // As `kubectl auth can-i`: the answer is printed, and a denial exits 1.
  if (explanation.access?.allowed === false) throw new ExitSignal(ExitCode.denied);
}
