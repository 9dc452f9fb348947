import type { CommandModule } from 'yargs';
import { UsageError } from '../../errors.js';
import { appDeps, type Deps, type GlobalArgs } from '../context.js';
import { filenameOption, inputSource, type FromPaths } from '../input-flags.js';
import { outputHelpOf, parseFormat, type FormatOf } from '../output/registry.js';
import { printResult } from '../output/print-result.js';
import {
  afterSyncFlags,
  afterSyncOptions,
  convergedOption,
  noHeadersOption,
  printReadRole,
  printReadRoleOption,
  refuseGraphAcrossContexts,
} from '../flags.js';
import type { AfterSyncOptions } from '../../app/after-sync.js';
import { fleetOptions, inContext, runAcrossContexts, withFleetFlags, type FleetArgs } from '../fleet.js';
import type { InputSource } from '../../app/read-input.js';

interface WhoCanArgs extends GlobalArgs, FleetArgs {
  readonly verb: string | undefined;
  readonly resource: string | undefined;
  readonly name: string | undefined;
  readonly 'print-required-role': boolean;
  readonly 'all-namespaces': boolean;
  readonly filename: FromPaths | undefined;
  readonly 'no-headers': boolean;
  readonly 'after-sync': boolean;
  readonly converged: boolean;
  readonly only: string | undefined;
}

export function whoCanCommand(deps: Deps): CommandModule<GlobalArgs, WhoCanArgs> {
  return {
    // VERB and RESOURCE are checked by the handler: --print-required-role needs neither.
    command: 'who-can [verb] [resource] [name]',
    describe:
      "List every subject the cluster's RBAC allows to do something, and through which binding and rule",
    builder: (y) =>
      withFleetFlags(y)
        .positional('verb', {
          type: 'string',
          describe: 'get, list, create, delete, ...',
        })
        .positional('resource', {
          type: 'string',
          describe:
            'As kubectl takes it: pods, deployments.apps/scale, buckets.s3.aws.upbound.io, a short name or kind',
        })
        .positional('name', { type: 'string', describe: 'One object by name (rules with resourceNames)' })
        .option('all-namespaces', {
          alias: 'A',
          type: 'boolean',
          default: false,
          describe: 'Every namespace: RoleBindings of all namespaces count',
        })
        .option('filename', filenameOption)
        .option('converged', convergedOption)
        .options(afterSyncOptions)
        .describe('output', outputHelpOf('who-can'))
        .option('no-headers', noHeadersOption)
        .option('print-required-role', printReadRoleOption),
    handler: async (args) => {
      // With --print-required-role, -o is the role's (printReadRole checks it) and the other flags are checked.
      if (args['print-required-role']) {
        const { afterSync: a } = whoCanFlags({ ...args, output: undefined });
        return printReadRole(deps.io, 'who-can', args.output, a);
      }
      const { output, afterSync } = whoCanFlags(args);
      const { verb, resource } = args;
      if (verb === undefined || resource === undefined) {
        throw new UsageError('who-can needs VERB and RESOURCE', {
          hint: 'e.g. who-can delete buckets.s3.aws.upbound.io -A',
        });
      }
      const asked = { ...args, verb, resource };
      const fleet = fleetOptions(args, false);
      refuseGraphAcrossContexts(output, fleet);
      const source = inputSource(args);
      if (fleet === undefined) return whoCanOnce(deps, asked, source, output, afterSync);
      const present = { output, color: args.color, headers: !args['no-headers'] };
      await runAcrossContexts(deps, fleet, source, present, (d, context) =>
        whoCanOnce(d, { ...asked, 'no-headers': false }, inContext(source, context), output, afterSync),
      );
    },
  };
}

/** who-can against one cluster (or -f): the answer, printed as OUTPUT. */
async function whoCanOnce(
  deps: Deps,
  args: WhoCanArgs & { readonly verb: string; readonly resource: string },
  source: InputSource,
  output: FormatOf<'who-can'>,
  afterSync: AfterSyncOptions | undefined,
): Promise<void> {
  const { runWhoCan } = await import('../../app/who-can.js');
  const result = await runWhoCan(
    {
      source,
      verb: args.verb,
      resource: args.resource,
      name: args.name,
      namespace: args.namespace,
      allNamespaces: args['all-namespaces'],
      converged: args.converged,
      afterSync,
    },
    appDeps(deps, args.color),
  );
  await printResult(deps, 'who-can', output, result, { color: args.color, headers: !args['no-headers'] });
}

/** who-can's flags, checked before anything is read: the output format and --after-sync. */
function whoCanFlags(args: WhoCanArgs): {
  output: FormatOf<'who-can'>;
  afterSync: AfterSyncOptions | undefined;
} {
  const output = parseFormat('who-can', args.output, 'who-can');
  if (args['all-namespaces'] && args.namespace !== undefined) {
    throw new UsageError('-n and -A cannot be used together', {
      hint: '-n NS asks about one namespace, -A about all of them',
    });
  }
  if (args.verb === '') throw new UsageError('a verb is required', { hint: 'e.g. who-can get pods' });
  return { output, afterSync: afterSyncFlags(args) };
}
