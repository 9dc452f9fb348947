import type { CommandModule } from 'yargs';
import type { InputSource } from '../../app/read-input.js';
import type { ComposedViewOptions } from '../../app/composed-view.js';
import { appDeps, type Deps, type GlobalArgs } from '../context.js';
import { filenameOption, inputSource, type FromPaths } from '../input-flags.js';
import { outputHelpOf, parseFormat, type FormatOf } from '../output/registry.js';
import { printResult } from '../output/print-result.js';
import { checkNamespaceFlag, noHeadersOption, printReadRole, printReadRoleOption } from '../flags.js';
import { fleetOptions, inContext, runAcrossContexts, withFleetFlags, type FleetArgs } from '../fleet.js';

type Output = FormatOf<'composed'>;

interface ComposedArgs extends GlobalArgs, FleetArgs {
  readonly filename: FromPaths | undefined;
  readonly 'crossplane-namespace': string | undefined;
  readonly 'allow-privileged': boolean;
  readonly 'no-headers': boolean;
  readonly 'print-required-role': boolean;
}

export function composedCommand(deps: Deps): CommandModule<GlobalArgs, ComposedArgs> {
  return {
    command: 'composed',
    describe:
      "What Crossplane's compositions compose, and whether Crossplane may manage each kind (what sync --only composed grants)",
    builder: (y) =>
      withFleetFlags(y)
        .option('filename', filenameOption)
        .option('crossplane-namespace', {
          type: 'string',
          describe:
            "Crossplane's namespace, whose service account is judged (default: detected from its Deployment)",
        })
        .option('allow-privileged', {
          type: 'boolean',
          default: false,
          describe:
            'Count privileged kinds (RBAC objects, tokens, signers, ...) as missing, as sync --only composed --allow-privileged grants them, instead of refused',
        })
        .describe('output', outputHelpOf('composed'))
        .option('no-headers', noHeadersOption)
        .option('print-required-role', printReadRoleOption)
        .epilogue(
          "Sources that grant: Compositions and CompositionRevisions (function-patch-and-transform's resources, v1 resources, steps' required resources; other functions are listed as not analysed), Operations, CronOperations and WatchOperations (watched kinds, steps' required resources). Evidence, reported only and never granted: the resources composite resources and claims reference, their conditions, and Crossplane's Events about them with a forbidden message for Crossplane's account. Nothing is written: sync --only composed grants what is missing.",
        ),
    handler: async (args) => {
      checkNamespaceFlag('--crossplane-namespace', args['crossplane-namespace']);
      const fleet = fleetOptions(args, false);
      const source = inputSource(args);
      if (args['print-required-role']) {
        // -o is the role's (printReadRole checks it). The composite kinds to list come from the XRDs: read from the
        // cluster (or -f).
        return printReadRole(deps.io, 'composed', args.output, undefined, {
          source,
          deps: appDeps(deps, args.color),
        });
      }
      const output = parseFormat('composed', args.output, 'composed');
      const options = (s: InputSource): ComposedViewOptions => ({
        source: s,
        allowPrivileged: args['allow-privileged'],
        ...(args['crossplane-namespace'] !== undefined
          ? { crossplaneNamespace: args['crossplane-namespace'] }
          : {}),
      });
      if (fleet === undefined) return composedOnce(deps, args, options(source), output);
      const present = { output, color: args.color, headers: !args['no-headers'] };
      await runAcrossContexts(deps, fleet, source, present, (d, context) =>
        composedOnce(d, { ...args, 'no-headers': false }, options(inContext(source, context)), output),
      );
    },
  };
}

/** composed against one cluster (or -f): the answer, printed as OUTPUT. */
async function composedOnce(
  deps: Deps,
  args: ComposedArgs,
  options: ComposedViewOptions,
  output: Output,
): Promise<void> {
  const { runComposedView } = await import('../../app/composed-view.js');
  const view = await runComposedView(options, appDeps(deps, args.color));
  await printResult(deps, 'composed', output, view, { color: args.color, headers: !args['no-headers'] });
}
