import type { CommandModule } from 'yargs';
import { UsageError } from '../../errors.js';
import type { EnableXrdRunOptions } from '../../app/enable-xrd.js';
import { parseLabelSelector } from '../../kube/parse-selector.js';
import { appDeps, type Deps, type GlobalArgs } from '../context.js';
import { filenameOption, inputSource, type FromPaths } from '../input-flags.js';
import { presentWrite } from '../write-flow.js';
import {
  adoptOption,
  allowPrivilegedRolesOption,
  concurrencyOption,
  dryRunOption,
  noHeadersOption,
  writeFlags,
  yesOption,
  type PresentOptions,
} from '../flags.js';
import { outputHelpOf } from '../output/registry.js';

interface EnableXrdArgs extends GlobalArgs {
  readonly xrds: string[] | undefined;
  readonly selector: string | undefined;
  readonly disable: boolean;
  readonly sync: boolean;
  readonly 'dry-run': string | undefined;
  readonly interactive: boolean;
  readonly filename: FromPaths | undefined;
  readonly 'no-headers': boolean;
  readonly yes: boolean;
  readonly concurrency: number;
  readonly adopt: boolean;
  readonly 'allow-privileged': boolean;
}

/** `-n a -n b,c` arrives as a string or an array of strings: a flat list of names. */
export function splitNames(value: unknown): string[] {
  const raw = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return raw
    .flatMap((v) => String(v).split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function enableXrdCommand(deps: Deps): CommandModule<GlobalArgs, EnableXrdArgs> {
  return {
    command: 'enable-xrd [xrds..]',
    describe:
      'Let namespaces use XRDs (claims or namespaced XRs): annotate them and sync their crossplane-ns-<ns>-edit/view roles',
    builder: (y) =>
      y
        .positional('xrds', {
          type: 'string',
          array: true,
          describe: 'CompositeResourceDefinition names (or comma-separated lists)',
        })
        .option('selector', {
          alias: 'l',
          type: 'string',
          describe: 'Select the namespaces by label (kubectl syntax), instead of -n',
        })
        .option('disable', {
          type: 'boolean',
          default: false,
          describe: 'Remove the XRDs from the namespaces instead',
        })
        .option('sync', {
          type: 'boolean',
          default: true,
          describe: 'Sync the namespace roles of the namespaces (--no-sync: only annotate)',
        })
        .option('dry-run', dryRunOption)
        .describe('output', outputHelpOf('plan'))
        .option('no-headers', noHeadersOption)
        .option('interactive', {
          alias: 'i',
          type: 'boolean',
          default: false,
          describe: 'Choose XRDs and namespaces from lists, preview, confirm (terminal only)',
        })
        .option('filename', filenameOption)
        .option('yes', yesOption)
        .option('adopt', adoptOption('existing namespace roles that nobody owns'))
        .option('concurrency', concurrencyOption)
        .option('allow-privileged', allowPrivilegedRolesOption),
    handler: async (args) => {
      const options = enableXrdOptions(args, deps);
      const { runEnableXrd } = await import('../../app/enable-xrd.js');
      const outcome = await runEnableXrd(options.run, appDeps(deps, args.color));
      await presentWrite(deps, outcome, options.present);
    },
  };
}

/** Everything that can be checked from the flags alone, before reading anything. */
function enableXrdOptions(
  args: EnableXrdArgs,
  deps: Deps,
): { run: EnableXrdRunOptions; present: PresentOptions } {
  const { write, present } = writeFlags(
    args,
    'enable-xrd',
    `${args.disable ? 'disable' : 'enable'} XRDs in namespaces`,
    {
      preview: args.interactive,
    },
  );
  const xrds = splitNames(args.xrds);
  const namespaces = splitNames(args.namespace);
  const hasSelector = args.selector !== undefined;
  if (namespaces.length > 0 && hasSelector) {
    throw new UsageError('use either -n/--namespace or -l/--selector, not both');
  }
  if (args.interactive) {
    if (!deps.io.stdinIsTTY || !deps.io.stderrIsTTY) {
      throw new UsageError('-i/--interactive needs a terminal: nothing was written', {
        hint: 'name the XRDs and pass -n NAMESPACE or -l SELECTOR instead',
      });
    }
  } else {
    if (xrds.length === 0) {
      throw new UsageError('no CompositeResourceDefinition given', {
        hint: 'kubectl crossplane-rbac enable-xrd XRD... -n NAMESPACE (or -i to choose on a terminal)',
      });
    }
    if (namespaces.length === 0 && !hasSelector && args.filename !== undefined) {
      throw new UsageError('no namespace given: pass -n NAMESPACE... or -l SELECTOR', {
        hint: 'kubectl crossplane-rbac enable-xrd XRD... -n NAMESPACE (or -i to choose on a terminal)',
      });
    }
  }
  const run = {
    source: inputSource({ ...args, namespace: undefined }),
    xrds,
    namespaces,
    selector: hasSelector ? parseLabelSelector(args.selector ?? '') : undefined,
    selectorText: args.selector ?? '',
    enable: !args.disable,
    interactive: args.interactive,
    sync: args.sync,
    adopt: args.adopt,
    allowPrivileged: args['allow-privileged'],
    write,
  };
  return { run, present };
}
