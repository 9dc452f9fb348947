import { isDeleting } from '../../kube/meta.js';
import type { CommandModule } from 'yargs';
import { UsageError, UserError } from '../../errors.js';
import { type PlanEntry } from '../../plan/plan.js';
import type { Operation } from '../../cluster/apply-operations.js';
import type { EnableXrdPlan } from '../../enable-xrd/plan.js';
import { parseLabelSelector } from '../../kube/parse-selector.js';
import type { ClusterSnapshot, KubeObject, LabelSelector, Namespace } from '../../kube/types.js';
import type { Deps, GlobalArgs } from '../context.js';
import { writeLine } from '../output/terminal.js';
import {
  fromOption,
  holdInvalidOwners,
  liveCrdsOf,
  readInput,
  type FromPaths,
  type Input,
} from '../read-input.js';
import { parseDryRun, parseWriteOutput, presentAndApply } from '../write-flow.js';
import {
  adoptOption,
  allowPrivilegedRolesOption,
  checkConcurrency,
  concurrencyOption,
  dryRunOption,
  yesOption,
} from '../flags.js';

interface EnableXrdArgs extends GlobalArgs {
  readonly xrds: string[] | undefined;
  readonly selector: string | undefined;
  readonly disable: boolean;
  readonly sync: boolean;
  readonly 'dry-run': string | undefined;
  readonly interactive: boolean;
  readonly from: FromPaths | undefined;
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
        .option('interactive', {
          alias: 'i',
          type: 'boolean',
          default: false,
          describe: 'Choose XRDs and namespaces from lists, preview, confirm (terminal only)',
        })
        .option('from', fromOption)
        .option('yes', yesOption)
        .option('adopt', adoptOption('existing namespace roles that nobody owns'))
        .option('concurrency', concurrencyOption)
        .option('allow-privileged', allowPrivilegedRolesOption)
        .example(
          '$0 enable-xrd xpostgresqlinstances.database.platform.acme.io -n team-b --yes',
          'Let team-b claim PostgreSQL instances; sync crossplane-ns-team-b-edit and -view',
        )
        .example(
          '$0 enable-xrd apps.platform.acme.io -n staging,production --dry-run=client -o yaml',
          'Print the annotated Namespaces and the roles it would write',
        )
        .example(
          "$0 enable-xrd buckets.storage.acme.io -l 'acme.io/team in (a,b)' --yes",
          'Enable a namespaced XR in every namespace of teams a and b',
        )
        .example(
          '$0 enable-xrd apps.platform.acme.io -n team-a --disable --yes',
          'Take it away again (the roles drop it; a namespace left with none loses its roles)',
        )
        .example('$0 enable-xrd -i', 'Pick XRDs and namespaces from lists, preview, confirm')
        .example(
          '$0 enable-xrd apps.platform.acme.io -n team-a -f examples/cluster',
          'What it would do to a cluster stored in files, without a cluster',
        ),
    handler: async (args) => {
      const opts = checkFlags(args, deps);
      const input = await readInput({ ...args, namespace: undefined }, deps, [
        'xrds',
        'namespaces',
        'deployments',
        'clusterRoles',
        'configMaps',
        'crdOwners',
      ]);
      for (const i of input.invalidOwners) {
        if (opts.xrds.includes(i.object.metadata.name)) {
          throw new UserError(
            `${i.origin}: CompositeResourceDefinition "${i.object.metadata.name}": ${i.problem}`,
            {
              hint: 'fix the XRD first: the plugin never renders roles from an invalid one',
            },
          );
        }
      }
      const { planEnableXrd } = await import('../../enable-xrd/plan.js');
      // As kubectl: with no -n (and no -l), a live cluster's context namespace is the one.
      const given =
        opts.namespaces.length === 0 &&
        opts.selector === undefined &&
        !args.interactive &&
        input.cluster !== undefined
          ? { ...opts, namespaces: [input.cluster.defaultNamespace] }
          : opts;
      const chosen = args.interactive ? await choose(deps, input.snapshot, given) : given;
      const nsPlan = planEnableXrd(input.snapshot, {
        xrds: chosen.xrds,
        enable: !args.disable,
        ...(chosen.selector !== undefined
          ? { selector: chosen.selector, selectorText: args.selector ?? '' }
          : { namespaces: chosen.namespaces }),
      });
      await run(deps, args, input, nsPlan);
    },
  };
}

interface Selection {
  readonly xrds: string[];
  readonly namespaces: string[];
  readonly selector: LabelSelector | undefined;
}

/** Everything that can be checked from the flags alone, before reading anything. */
function checkFlags(args: EnableXrdArgs, deps: Deps): Selection {
  parseDryRun(args['dry-run']);
  parseWriteOutput(args.output);
  checkConcurrency(args.concurrency);
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
    if (namespaces.length === 0 && !hasSelector && args.from !== undefined) {
      throw new UsageError('no namespace given: pass -n NAMESPACE... or -l SELECTOR', {
        hint: 'kubectl crossplane-rbac enable-xrd XRD... -n NAMESPACE (or -i to choose on a terminal)',
      });
    }
  }
  return { xrds, namespaces, selector: hasSelector ? parseLabelSelector(args.selector ?? '') : undefined };
}

/** -i: asks for what the flags did not say (TTY only; checkFlags made sure). */
async function choose(deps: Deps, snapshot: ClusterSnapshot, given: Selection): Promise<Selection> {
  const { eligibleXrds } = await import('../../enable-xrd/plan.js');
  const { enabledXrdsOf } = await import('../../crossplane/namespace/roles.js');
  let xrds = given.xrds;
  if (xrds.length === 0) {
    const names = eligibleXrds(snapshot.xrds);
    if (names.length === 0)
      throw new UserError('no CompositeResourceDefinition offers claims or namespaced XRs');
    xrds = await deps.prompter.checkbox(
      'CompositeResourceDefinitions',
      names.map((n) => ({ name: n, value: n })),
    );
  }
  if (given.namespaces.length > 0 || given.selector !== undefined) return { ...given, xrds };
  const choices = snapshot.namespaces
    .filter((n) => !isDeleting(n))
    .map((n) => {
      const on = enabledXrdsOf(n).filter((x) => xrds.includes(x));
      const note = on.length > 0 ? ` (enables ${on.join(', ')})` : '';
      return { name: `${n.metadata.name}${note}`, value: n.metadata.name };
    });
  if (choices.length === 0) throw new UserError('there are no namespaces');
  const namespaces = await deps.prompter.checkbox('Namespaces', choices);
  return { xrds, namespaces, selector: undefined };
}

async function run(deps: Deps, args: EnableXrdArgs, input: Input, nsPlan: EnableXrdPlan): Promise<void> {
  const dryRun = parseDryRun(args['dry-run']);
  const verb = args.disable ? 'disabled' : 'enabled';
  for (const c of nsPlan.changes) {
    for (const x of c.alreadyInState) {
      writeLine(deps.io.stderr, `namespace/${c.namespace.metadata.name}: ${x} is already ${verb}`);
    }
  }

  const [{ renderSync }, { planChanges, wouldPrune }, { describeHeld }] = await Promise.all([
    import('../../sync/render.js'),
    import('../../plan/plan.js'),
    import('../../sync/held.js'),
  ]);
  let plan = planChanges([], input.snapshot, { prune: false });
  let mayDelete: ((live: KubeObject) => boolean) | undefined;
  let held: string[] = [];
  if (args.sync) {
    const desired = renderSync(nsPlan.snapshot, {
      only: ['namespaces'],
      namespaces: nsPlan.namespaces,
      hold: holdInvalidOwners(input),
      ...liveCrdsOf(input),
      allowPrivileged: args['allow-privileged'],
    });
    held = desired.held.map(describeHeld);
    for (const w of desired.warnings) writeLine(deps.io.stderr, `warning: ${w}`);
    if (desired.settings.manage !== 'all') {
      writeLine(
        deps.io.stderr,
        `warning: management level is "${desired.settings.manage}": namespace roles are not synced`,
      );
    }
    plan = planChanges(desired.objects, input.snapshot, {
      prune: true,
      pruneScope: desired.scope,
      adopt: args.adopt,
    });
    mayDelete = (live) => wouldPrune(live, desired.scope);
  }

  const patches = nsPlan.changes.filter((c) => c.patch !== null);
  const preWrites: Operation[] = patches.map((c) => ({
    action: 'patch',
    object: namespaceRef(c.namespace),
    patch: c.patch ?? {},
  }));
  const nsEntries = nsPlan.changes.map(namespaceEntry);

  const { replanOne } = await import('../../plan/replan.js');
  await presentAndApply(deps, input, plan, {
    output: args.output,
    dryRun,
    check: false,
    yes: args.yes,
    preview: args.interactive,
    replan: (live, want) => replanOne(want, live, args.adopt),
    ...(mayDelete !== undefined ? { mayDelete } : {}),
    concurrency: args.concurrency,
    color: args.color,
    what: `${args.disable ? 'disable' : 'enable'} XRDs in namespaces`,
    preWrites,
    preWritesShown: { entries: nsEntries, objects: patchedNamespaces(nsPlan) },
    held,
  });
}

function namespaceRef(ns: Namespace): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns.metadata.name } };
}

/** A Namespace shaped like a plan entry, so the plan formatters show it with the roles. */
function namespaceEntry(c: EnableXrdPlan['changes'][number]): PlanEntry<Namespace> {
  const name = c.namespace.metadata.name;
  return {
    action: c.patch === null ? 'unchanged' : 'update',
    key: `Namespace/${name}`,
    kind: 'Namespace',
    name,
    live: c.namespace,
    ...(c.patch !== null ? { object: c.after, changed: ['annotations'] } : {}),
  };
}

/** The Namespaces that change, as written by the patch (name, labels, annotations). */
function patchedNamespaces(nsPlan: EnableXrdPlan): unknown[] {
  return nsPlan.changes
    .filter((c) => c.patch !== null)
    .map((c) => {
      const { name, labels, annotations } = c.after.metadata;
      return {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name,
          ...(labels !== undefined ? { labels } : {}),
          ...(annotations !== undefined ? { annotations } : {}),
        },
      };
    });
}
