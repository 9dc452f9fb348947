import type { CommandModule } from 'yargs';
import { writeLine } from '../io.js';
import type { InputSource } from '../../app/read-input.js';
import type { ComposedViewOptions } from '../../app/composed-view.js';
import { appDeps, type Deps, type GlobalArgs } from '../context.js';
import { filenameOption, inputSource, type FromPaths } from '../input-flags.js';
import { useColor } from '../output/terminal.js';
import {
  checkNamespaceFlag,
  noHeadersOption,
  outputHelp,
  parseOutput,
  printReadRole,
  printReadRoleOption,
} from '../flags.js';
import { fleetOptions, inContext, runAcrossContexts, withFleetFlags, type FleetArgs } from '../fleet.js';

export const COMPOSED_OUTPUTS = ['table', 'wide', 'json', 'yaml'] as const;
type Output = (typeof COMPOSED_OUTPUTS)[number];

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
        .describe('output', outputHelp(COMPOSED_OUTPUTS))
        .option('no-headers', noHeadersOption)
        .option('print-required-role', printReadRoleOption)
        .epilogue(
          "Sources that grant: Compositions and CompositionRevisions (function-patch-and-transform's resources, v1 resources, steps' required resources; other functions are listed as not analysed), Operations, CronOperations and WatchOperations (watched kinds, steps' required resources). Evidence, reported only and never granted: the resources composite resources and claims reference, their conditions, and Crossplane's Events about them with a forbidden message for Crossplane's account. Nothing is written: sync --only composed grants what is missing.",
        ),
    handler: async (args) => {
      const output = parseOutput(args.output, COMPOSED_OUTPUTS, 'table', 'composed');
      checkNamespaceFlag('--crossplane-namespace', args['crossplane-namespace']);
      const fleet = fleetOptions(args, false);
      const source = inputSource(args);
      const options = (s: InputSource): ComposedViewOptions => ({
        source: s,
        allowPrivileged: args['allow-privileged'],
        ...(args['crossplane-namespace'] !== undefined
          ? { crossplaneNamespace: args['crossplane-namespace'] }
          : {}),
      });
      if (args['print-required-role']) {
        // The composite kinds to list come from the XRDs: read from the cluster (or -f).
        return printReadRole(deps.io, 'composed', output, undefined, {
          source,
          deps: appDeps(deps, args.color),
        });
      }
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
  const [{ formatComposedTable }, { authorsLine, REPORTED_ONLY }, data] = await Promise.all([
    import('../output/format-composed.js'),
    import('../composed-report.js'),
    import('../output/format-data.js'),
  ]);
  if (output === 'json' || output === 'yaml') {
    const text = output === 'json' ? data.formatJson(view) : data.formatYaml(view);
    deps.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    return;
  }
  const empty = view.resources.length + view.unresolved.length + view.notAnalysed.length === 0;
  if (empty) {
    writeLine(deps.io.stderr, 'no composition, operation, composite resource or event names a kind');
    return;
  }
  const color = useColor(deps.io, deps.io.stdoutIsTTY, !args.color);
  const text = formatComposedTable(view, output === 'wide', color, !args['no-headers']);
  deps.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  if (view.resources.some((r) => r.status === 'missing' || r.status === 'refused'))
    writeLine(deps.io.stderr, authorsLine(view.grantAuthors));
  if (view.resources.some((r) => r.status === 'reported-only')) writeLine(deps.io.stderr, REPORTED_ONLY);
}
