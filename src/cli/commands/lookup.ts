import type { CommandModule } from 'yargs';
import { UsageError } from '../../errors.js';
import { parsePattern, parseSubjectKind, type LookupQuery } from '../../lookup/query.js';
import { appDeps, type Deps, type GlobalArgs } from '../context.js';
import { filenameOption, inputSource, type FromPaths } from '../input-flags.js';
import { outputHelpOf, parseFormat, type FormatOf } from '../output/registry.js';
import { printResult } from '../output/print-result.js';
import { convergedOption, noHeadersOption, printReadRole, printReadRoleOption } from '../flags.js';
import { fleetOptions, inContext, runAcrossContexts, withFleetFlags, type FleetArgs } from '../fleet.js';
import type { InputSource } from '../../app/read-input.js';

interface LookupArgs extends GlobalArgs, FleetArgs {
  readonly pattern: string | undefined;
  readonly kind: string | undefined;
  readonly 'all-namespaces': boolean;
  readonly filename: FromPaths | undefined;
  readonly 'no-headers': boolean;
  readonly 'print-required-role': boolean;
  readonly converged: boolean;
}

export function lookupCommand(deps: Deps): CommandModule<GlobalArgs, LookupArgs> {
  return {
    command: 'lookup [pattern]',
    describe:
      'List the subjects bindings name, with each binding and role (aggregation resolved), as rbac-lookup',
    builder: (y) =>
      withFleetFlags(y)
        .positional('pattern', {
          type: 'string',
          describe:
            "A regular expression found anywhere in the subject's name (a ServiceAccount's also in NS:NAME); none: every subject",
        })
        .option('kind', {
          alias: 'k',
          type: 'string',
          describe: 'Only subjects of this kind: User, Group or ServiceAccount (any case)',
        })
        .option('all-namespaces', {
          alias: 'A',
          type: 'boolean',
          default: false,
          describe: 'RoleBindings of every namespace (the default); -n NS: only those in NS',
        })
        .option('filename', filenameOption)
        .option('converged', convergedOption)
        .describe('output', outputHelpOf('lookup'))
        .option('no-headers', noHeadersOption)
        .option('print-required-role', printReadRoleOption)
        .epilogue(
          'Subjects are listed as bindings name them: a ServiceAccount is not listed under the groups its tokens carry (system:serviceaccounts, ...), nor a user under its groups. For what one identity may do, use explain --subject.',
        ),
    handler: async (args) => {
      // With --print-required-role, -o is the role's (printReadRole checks it) and the other flags are checked.
      if (args['print-required-role']) {
        lookupFlags({ ...args, output: undefined });
        return printReadRole(deps.io, 'lookup', args.output, undefined);
      }
      const { output, query } = lookupFlags(args);
      const fleet = fleetOptions(args, false);
      const source = inputSource(args);
      if (fleet === undefined) return lookupOnce(deps, args, source, output, query);
      const present = { output, color: args.color, headers: !args['no-headers'] };
      await runAcrossContexts(deps, fleet, source, present, (d, context) =>
        lookupOnce(d, { ...args, 'no-headers': false }, inContext(source, context), output, query),
      );
    },
  };
}

/** lookup against one cluster (or -f): the answer, printed as OUTPUT. */
async function lookupOnce(
  deps: Deps,
  args: LookupArgs,
  source: InputSource,
  output: FormatOf<'lookup'>,
  query: LookupQuery,
): Promise<void> {
  const { runLookup } = await import('../../app/lookup.js');
  const result = await runLookup({ source, query, converged: args.converged }, appDeps(deps, args.color));
  await printResult(deps, 'lookup', output, result, { color: args.color, headers: !args['no-headers'] });
}

/** lookup's flags, checked before anything is read: the output format and the query. */
function lookupFlags(args: LookupArgs): { output: FormatOf<'lookup'>; query: LookupQuery } {
  const output = parseFormat('lookup', args.output, 'lookup');
  if (args['all-namespaces'] && args.namespace !== undefined) {
    throw new UsageError('-n and -A cannot be used together', {
      hint: '-n NS lists the RoleBindings of NS (and the ClusterRoleBindings), -A those of every namespace',
    });
  }
  parsePattern(args.pattern);
  return {
    output,
    query: {
      pattern: args.pattern,
      kind: parseSubjectKind(args.kind),
      namespace: args['all-namespaces'] ? undefined : args.namespace,
    },
  };
}
