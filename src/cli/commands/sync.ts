import type { CommandModule } from 'yargs';
import { UsageError } from '../../errors.js';
import type { SyncRunOptions } from '../../app/sync.js';
import type { WriteOptions } from '../../app/write.js';
import { appDeps, type Deps, type GlobalArgs } from '../context.js';
import { MANAGE_LEVELS, SYNC_FAMILIES, type ManageLevel } from '../../sync/choices.js';
import { filenameOption, inputSource, type FromPaths } from '../input-flags.js';
import { presentWrite } from '../write-flow.js';
import {
  fleetOptions,
  inContext,
  runAcrossContexts,
  withFailFast,
  withFleetFlags,
  writeAcrossContexts,
  type FleetArgs,
} from '../fleet.js';
import {
  adoptOption,
  allowPrivilegedRolesOption,
  checkNamespaceFlag,
  concurrencyOption,
  dryRunOption,
  noHeadersOption,
  parseOnly,
  printRole,
  roleFormat,
  writeFlags,
  yesOption,
  type PresentOptions,
} from '../flags.js';
import { outputHelpOf } from '../output/registry.js';

interface SyncArgs extends GlobalArgs, FleetArgs {
  readonly 'fail-fast': boolean;
  readonly filename: FromPaths | undefined;
  readonly 'no-headers': boolean;
  readonly manage: ManageLevel | undefined;
  readonly only: string | undefined;
  readonly provider: string[] | undefined;
  readonly xrd: string[] | undefined;
  readonly 'dry-run': string | undefined;
  readonly check: boolean;
  readonly prune: boolean;
  readonly adopt: boolean;
  readonly concurrency: number;
  readonly 'crossplane-version': 'auto' | 'v1' | 'v2';
  readonly 'crossplane-namespace': string | undefined;
  readonly 'provider-clusterrole': string | undefined;
  readonly yes: boolean;
  readonly 'allow-privileged': boolean;
  readonly 'print-required-role': boolean;
  readonly 'output-dir': string | undefined;
  readonly watch: boolean;
}

export function syncCommand(deps: Deps): CommandModule<GlobalArgs, SyncArgs> {
  return {
    command: 'sync',
    describe:
      "Render and apply the RBAC Crossplane's RBAC manager would make (providers, XRDs, base and namespace roles)",
    builder: (y) =>
      withFailFast(withFleetFlags(y))
        .option('filename', filenameOption)
        .option('output-dir', {
          type: 'string',
          describe:
            'Write the objects to DIR (one YAML file each and a kustomization.yaml) for a GitOps engine; with --contexts, DIR/<context>/',
        })
        .option('manage', {
          choices: MANAGE_LEVELS,
          describe: 'Management level (default all, or the crossplane-rbac ConfigMap)',
        })
        .option('only', {
          type: 'string',
          describe: `Only some families: ${SYNC_FAMILIES.join(',')} (default: all but composed)`,
        })
        .option('provider', {
          type: 'string',
          array: true,
          describe: 'Only this Provider or ProviderRevision: a name or a unique prefix of one (repeatable)',
        })
        .option('xrd', {
          type: 'string',
          array: true,
          describe: 'Only this CompositeResourceDefinition (repeatable)',
        })
        .option('dry-run', dryRunOption)
        .describe('output', outputHelpOf('plan'))
        .option('no-headers', noHeadersOption)
        .option('check', {
          type: 'boolean',
          default: false,
          describe: 'Exit 1 when the cluster differs from what sync would make',
        })
        .option('prune', {
          type: 'boolean',
          default: false,
          describe: 'Delete plugin-owned objects that are no longer desired',
        })
        .option(
          'adopt',
          adoptOption('existing objects that nobody owns (no managed-by label, no controller)'),
        )
        .option('concurrency', concurrencyOption)
        .option('crossplane-version', {
          choices: ['auto', 'v1', 'v2'] as const,
          default: 'auto' as const,
          describe: 'Render the roles of this Crossplane version',
        })
        .option('crossplane-namespace', {
          type: 'string',
          describe: 'Crossplane namespace (default: detected from its Deployment)',
        })
        .option('provider-clusterrole', {
          type: 'string',
          describe:
            "Crossplane v1: the ClusterRole listing the permissions providers may request (default: the chart's allowed-provider-permissions role)",
        })
        .option('yes', yesOption)
        .option('allow-privileged', allowPrivilegedRolesOption)
        .option('watch', {
          type: 'boolean',
          default: false,
          describe:
            'Keep the RBAC in sync: list, watch what sync reads, and write each change as it comes (and repair drift) until Ctrl-C',
        })
        .option('print-required-role', {
          type: 'boolean',
          default: false,
          describe: 'Print a ClusterRole with what sync needs, and exit',
        }),
    handler: async (args) => {
      if (args.watch) return syncWatch(deps, args);
      // Every flag is checked before anything is read or printed (-o for the role with --print-required-role).
      const options = syncOptions(args['print-required-role'] ? { ...args, output: undefined } : args);
      if (args['print-required-role']) {
        await printRequiredRole(deps, args.output, options.run, args.color);
        return;
      }
      const { write } = options.run;
      const writes = !write.check && write.dryRun === 'none' && options.outputDir === undefined;
      const fleet = fleetOptions(args, writes, true);
      if (fleet === undefined) return syncOnce(deps, options, args.color);
      const source = options.run.source;
      const { present } = options;
      // Each context's table keeps its header row when shown in a section; the merged table's follows --no-headers.
      const inOne = (context: string, w: Partial<WriteOptions>): typeof options => ({
        ...options,
        run: { ...options.run, source: inContext(source, context), write: { ...write, ...w } },
        present: { ...present, headers: true },
      });
      if (writes) {
        return writeAcrossContexts(deps, fleet, {
          source,
          color: args.color,
          headers: present.headers,
          yes: write.yes,
          failFast: args['fail-fast'],
          what: write.what,
          preview: (d, context) => syncOnce(d, inOne(context, { dryRun: 'client' }), args.color),
          apply: (d, context) => syncOnce(d, inOne(context, { yes: true }), args.color),
        });
      }
      await runAcrossContexts(deps, fleet, source, { ...present, color: args.color }, async (d, context) => {
        const outputDir = (await import('../../app/output-dir.js')).inContextDir(options.outputDir, context);
        return syncOnce(d, { ...inOne(context, {}), outputDir }, args.color);
      });
    },
  };
}

/** sync against one cluster (or -f): run, then show the outcome, or write it to --output-dir. */
async function syncOnce(
  deps: Deps,
  options: { run: SyncRunOptions; present: PresentOptions; outputDir?: string | undefined },
  color: boolean,
): Promise<void> {
  const { runSync } = await import('../../app/sync.js');
  const outcome = await runSync(options.run, appDeps(deps, color));
  if (options.outputDir === undefined) return presentWrite(deps, outcome, options.present);
  const { writeOutputDir } = await import('../output-dir.js');
  await writeOutputDir(deps, outcome, options.outputDir);
}

/** `sync --watch`: its own flags checked first, then sync's; one cluster, until Ctrl-C. */
async function syncWatch(deps: Deps, args: SyncArgs): Promise<void> {
  const { checkWatchFlags, watchSync } = await import('../sync-watch.js');
  const format = checkWatchFlags(args);
  const { run } = syncOptions({ ...args, output: undefined });
  await watchSync(deps, run, format, args.color);
}

/** The flags as sync's options, every one checked; -o is checked only when sync writes a plan. */
function syncOptions(args: SyncArgs): {
  run: SyncRunOptions;
  present: PresentOptions;
  outputDir: string | undefined;
} {
  const outputDir = outputDirOf(args);
  // -o is checked against sync's formats with --print-required-role too (as who-can's, lookup's, audit's).
  const { write: flagged, present } = writeFlags(args, 'sync', 'apply the Crossplane RBAC', {
    check: args.check,
  });
  const only = parseOnly(args.only);
  checkNamespaceFlag('--crossplane-namespace', args['crossplane-namespace']);
  const render = {
    ...(args.manage !== undefined ? { manage: args.manage } : {}),
    ...(only !== undefined ? { only } : {}),
    ...(args.provider !== undefined ? { providers: args.provider } : {}),
    ...(args.xrd !== undefined ? { xrds: args.xrd } : {}),
    ...(args['crossplane-version'] !== 'auto' ? { crossplaneVersion: args['crossplane-version'] } : {}),
    ...(args['crossplane-namespace'] !== undefined
      ? { crossplaneNamespace: args['crossplane-namespace'] }
      : {}),
    ...(args['provider-clusterrole'] !== undefined
      ? { providerClusterRole: args['provider-clusterrole'] }
      : {}),
    allowPrivileged: args['allow-privileged'],
  };
  // --output-dir writes files, never the cluster: the plan is only previewed.
  const write = outputDir !== undefined ? { ...flagged, dryRun: 'client' as const } : flagged;
  const run = { source: inputSource(args), render, prune: args.prune, adopt: args.adopt, write };
  return { run, present, outputDir };
}

/** --output-dir DIR, checked against the flags it cannot go with. */
function outputDirOf(args: SyncArgs): string | undefined {
  const dir = args['output-dir'];
  if (dir === undefined) return undefined;
  if (dir === '') throw new UsageError('--output-dir needs a directory');
  const clash = (
    [
      ['--yes', args.yes],
      ['--check', args.check],
      ['--prune', args.prune],
      ['--dry-run', args['dry-run'] !== undefined],
      ['-o', args.output !== undefined],
    ] as const
  ).find(([, given]) => given);
  if (clash !== undefined) {
    throw new UsageError(`--output-dir and ${clash[0]} cannot be used together`, {
      hint: '--output-dir writes what sync would apply to files, for a GitOps engine; it never writes the cluster',
    });
  }
  return dir;
}

/**
 * --print-required-role: the ClusterRole the account that runs sync needs (YAML, or as -o says: flags.ts's roleFormat). With
 * `--only ...,composed` also what the composed part reads (Compositions, each XRD's composite resources and claims,
 * Events, WatchOperations, Roles): the `composed` command's role, whose kinds come from the XRDs of the cluster or -f.
 */
async function printRequiredRole(
  deps: Deps,
  output: string | undefined,
  run: SyncRunOptions,
  color: boolean,
): Promise<void> {
  const format = roleFormat(output, 'sync');
  const { renderSyncRequiredRole } = await import('../../authz/required-permissions.js');
  const role = renderSyncRequiredRole();
  if (run.render.only?.includes('composed') !== true) return printRole(deps.io, role, format);
  const { readRequiredRole } = await import('../../app/required-role.js');
  const reads = await readRequiredRole('composed', undefined, {
    source: run.source,
    deps: appDeps(deps, color),
  });
  await printRole(deps.io, { ...role, rules: [...(role.rules ?? []), ...(reads.rules ?? [])] }, format);
}
