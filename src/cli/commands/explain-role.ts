import type { Argv } from 'yargs';
import { UsageError } from '../../errors.js';
import { appDeps } from '../context.js';
import { parseFormat, type FormatOf } from '../output/registry.js';
import { printResult } from '../output/print-result.js';
import type { ExplainRoleOptions } from '../../app/explain-role.js';
import type { InputSource } from '../../app/read-input.js';
import type { Deps } from '../context.js';
import type { ExplainMode } from './explain-args.js';

// `explain ROLE`: its own flags (the role, and --for with --verb, which explain --subject shares), the flags it
// refuses (--group: --subject's; the matrix's are refused by the command for every mode but the matrix), and its run.

/** The ClusterRole, --for and --verb. */
export function roleFlags<T>(y: Argv<T>) {
  return y
    .positional('role', { type: 'string', describe: 'The ClusterRole to explain' })
    .option('for', {
      type: 'string',
      describe:
        'Keep only the rules granting RESOURCE, as kubectl takes it (pods, deployments.apps, pods/log, buckets.s3.aws.upbound.io, kinds, short names; GROUP/RESOURCE too); with --subject, answered allowed or denied',
    })
    .option('verb', { type: 'string', describe: 'The verb for --for (get, list, delete, ...)' });
}

/**
 * `--for RESOURCE --verb VERB` of explain ROLE, checked for presence: RESOURCE takes kubectl's forms (or
 * GROUP/RESOURCE) and is resolved once the cluster (or -f) is read.
 */
function parseAccess(
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

interface RoleRun {
  readonly options: Omit<ExplainRoleOptions, 'source'>;
  readonly output: FormatOf<'explain-role'>;
  readonly color: boolean;
  readonly headers: boolean;
}

export const roleMode: ExplainMode = {
  name: 'role',
  kind: 'explain-role',
  command: 'explain',
  readCommand: 'explain',
  check: (args, shared) => {
    if (args.role === undefined || args.role === '') {
      throw new UsageError('explain needs a ClusterRole, or --subject KIND:NAME', {
        hint: 'e.g. explain crossplane-edit, or explain --subject Group:team-a-devs -n team-a',
      });
    }
    if (args.group !== undefined) throw new UsageError('--group needs --subject');
    if (args.converged === true) {
      throw new UsageError('--converged needs --subject', {
        hint: 'explain ROLE always shows the rules the aggregation controller converges to, and which are stored',
      });
    }
    const output = parseFormat('explain-role', args.output, roleMode.command);
    const request = parseAccess(args.for, args.verb);
    const run: RoleRun = {
      options: { role: args.role, request, afterSync: shared.afterSync },
      output,
      ...shared.print,
    };
    return (source, deps) => runRole(run, source, deps);
  },
};

async function runRole(run: RoleRun, source: InputSource, deps: Deps): Promise<void> {
  const { runExplainRole } = await import('../../app/explain-role.js');
  const explanation = await runExplainRole({ ...run.options, source }, appDeps(deps, run.color));
  await printResult(deps, 'explain-role', run.output, explanation, run);
}
