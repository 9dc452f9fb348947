import type { CommandModule } from 'yargs';
import { UsageError, UserError } from '../../errors.js';
import type { RoleRefSpec } from '../../bind/role-refs.js';
import { isBinding, type Binding, type BindTarget } from '../../bind/target.js';
import type { Plan, PlanAction } from '../../plan/plan.js';
import type { ClusterSnapshot, KubeObject, Role } from '../../kube/types.js';
import { isBindingObject, isRoleObject } from '../../kube/rbac-guards.js';
import type { Deps, GlobalArgs } from '../context.js';
import { writeLine } from '../output/terminal.js';
import { fromOption, readInput, type FromPaths, type Input } from '../read-input.js';
import { parseDryRun, presentAndApply, WRITE_OUTPUTS } from '../write-flow.js';
import { adoptOption, checkConcurrency, concurrencyOption, dryRunOption, yesOption } from '../flags.js';

interface BindArgs extends GlobalArgs {
  readonly from: FromPaths | undefined;
  readonly 'root-sync': string | undefined;
  readonly 'service-account': string | undefined;
  readonly 'role-ref': string[] | undefined;
  readonly 'role-refs-file': string | undefined;
  readonly 'base-role': string | undefined;
  readonly prune: boolean;
  readonly 'dry-run': string | undefined;
  readonly yes: boolean;
  readonly concurrency: number;
  readonly 'allow-privileged': boolean;
  readonly adopt: boolean;
}

/** The pure core of bind, loaded when the command runs. */
interface BindCore {
  readonly refs: typeof import('../../bind/role-refs.js');
  readonly configSync: typeof import('../../bind/config-sync.js');
  readonly render: typeof import('../../bind/render.js');
  readonly inventory: typeof import('../../bind/inventory.js');
  readonly base: typeof import('../../bind/base-binding.js');
  readonly warnings: typeof import('../../bind/warnings.js');
}

async function loadBindCore(): Promise<BindCore> {
  const [refs, configSync, render, inventory, base, warnings] = await Promise.all([
    import('../../bind/role-refs.js'),
    import('../../bind/config-sync.js'),
    import('../../bind/render.js'),
    import('../../bind/inventory.js'),
    import('../../bind/base-binding.js'),
    import('../../bind/warnings.js'),
  ]);
  return { refs, configSync, render, inventory, base, warnings };
}

/** The target named by exactly one of --root-sync and --service-account. */
function parseTarget(args: BindArgs, rb: BindCore): BindTarget {
  const rootSync = args['root-sync'];
  const sa = args['service-account'];
  if ((rootSync === undefined) === (sa === undefined)) {
    throw new UsageError(
      rootSync === undefined
        ? 'bind needs --root-sync NAME or --service-account NAMESPACE/NAME'
        : 'give either --root-sync or --service-account, not both',
      { hint: 'e.g. bind --root-sync root-sync, or bind --service-account flux-system/kustomize-controller' },
    );
  }
  if (rootSync !== undefined) {
    if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(rootSync) || rootSync.length > 253) {
      throw new rb.refs.BindInputError(`invalid --root-sync "${rootSync}": not a valid RootSync name`);
    }
    return rb.configSync.rootSyncTarget(rootSync);
  }
  return { kind: 'ServiceAccount', serviceAccount: rb.refs.parseServiceAccountFlag(sa ?? '') };
}

/** The roleRefs given on the command line: every --role-ref, then the entries of --role-refs-file. */
async function readRoleRefArgs(args: BindArgs, rb: BindCore): Promise<RoleRefSpec[]> {
  const refs = (args['role-ref'] ?? []).map((s) => rb.refs.parseRoleRefFlag(s));
  const file = args['role-refs-file'];
  if (file === undefined) return refs;
  const [{ readInputFile }, { maxInputSize }, YAML] = await Promise.all([
    import('../../input/files.js'),
    import('../read-input.js'),
    import('yaml'),
  ]);
  if (file === '')
    throw new UsageError('--role-refs-file needs a path', { hint: 'e.g. --role-refs-file roles.yaml' });
  const max = maxInputSize(args);
  const { text } = readInputFile(file, max, max, '--role-refs-file');
  let doc: unknown;
  try {
    doc = YAML.parse(text, { maxAliasCount: 100 });
  } catch (err) {
    const why = (err instanceof Error ? err.message.split('\n')[0] : String(err))?.replace(/:$/, '');
    throw new rb.refs.BindInputError(`${file}: not valid YAML: ${why ?? ''}`, {
      hint: 'the file holds a YAML list of {kind, name, namespace}',
    });
  }
  return [...refs, ...rb.refs.parseRoleRefsDocument(doc, file)];
}

/** The RootSync of the target, from the cluster's RootSync list or the -f objects. */
function findRootSync(snapshot: ClusterSnapshot, target: BindTarget, input: Input): KubeObject | undefined {
  if (target.kind !== 'RootSync') return undefined;
  const all = snapshot.others.filter(
    (o) => o.kind === 'RootSync' && o.apiVersion.startsWith('configsync.gke.io/'),
  );
  const found = all.find(
    (o) =>
      o.metadata.name === target.name &&
      (o.metadata.namespace === undefined || o.metadata.namespace === target.namespace),
  );
  if (found !== undefined) return found;
  const names = all.map((o) => o.metadata.name).sort();
  throw new UserError(`RootSync ${target.namespace}/${target.name} not found in ${input.source}`, {
    hint:
      names.length > 0
        ? `RootSyncs there: ${names.join(', ')}`
        : 'no RootSyncs there; for another sync account use --service-account NAMESPACE/NAME',
  });
}

/**
 * The base role: any ClusterRole for a ServiceAccount; for a RootSync only Config Sync's base role, which bind
 * binds through Config Sync's shared base binding (another role there would be a binding Config Sync deletes).
 */
function resolveBaseRole(value: string | undefined, target: BindTarget, rb: BindCore): string | undefined {
  if (value === undefined) return undefined;
  const base = rb.configSync.ROOT_RECONCILER_BASE_ROLE;
  if (target.kind === 'RootSync') {
    if (value === '' || value === base) return base;
    throw new UsageError(
      `--base-role with --root-sync binds Config Sync's base role ${base} (through its shared ClusterRoleBinding ${rb.configSync.ROOT_RECONCILER_BASE_BINDING}), not "${value}"`,
      { hint: `give --base-role without a value, and other roles with --role-ref ClusterRole/${value}` },
    );
  }
  if (value !== '') return value;
  throw new UsageError('--base-role needs a ClusterRole name with --service-account', {
    hint: 'e.g. --base-role crossplane-view',
  });
}

export function bindCommand(deps: Deps): CommandModule<GlobalArgs, BindArgs> {
  return {
    command: 'bind',
    describe:
      'Bind a list of roles to the service account a GitOps sync runs as (least privilege instead of cluster-admin)',
    builder: (y) =>
      y
        .option('root-sync', {
          type: 'string',
          describe:
            'Config Sync RootSync whose reconciler to bind (roleRefs default to its spec.override.roleRefs)',
        })
        .option('service-account', { type: 'string', describe: 'Any service account, as NAMESPACE/NAME' })
        .option('role-ref', {
          type: 'string',
          array: true,
          describe: 'A role to bind: ClusterRole/NAME, ClusterRole/NAME@NS or Role/NAME@NS (repeatable)',
        })
        .option('role-refs-file', {
          type: 'string',
          describe: 'A YAML list of roleRefs {kind, name, namespace}',
        })
        .option('base-role', {
          type: 'string',
          describe:
            "Also bind this ClusterRole (for a RootSync, bare: Config Sync's base role, through its shared configsync.gke.io:root-reconciler-base binding)",
        })
        .option('prune', {
          type: 'boolean',
          default: true,
          describe: 'Delete our bindings of this account that are no longer declared (--no-prune keeps them)',
        })
        .option('dry-run', dryRunOption)
        .option('allow-privileged', {
          type: 'boolean',
          default: false,
          describe:
            'Also bind privileged roles (cluster-admin, * on *, escalate, bind, impersonate, token or certificate minting)',
        })
        .option(
          'adopt',
          adoptOption('existing bindings that nobody owns (no managed-by label, no controller)'),
        )
        .option('from', fromOption)
        .option('yes', yesOption)
        .option('concurrency', concurrencyOption)
        .example(
          '$0 bind --root-sync root-sync -f examples/cluster --allow-privileged',
          "The bindings for the example RootSync's roleRefs (edit grants impersonate), without a cluster",
        )
        .example(
          '$0 bind --root-sync root-sync --base-role --yes',
          'Bind the RootSync roleRefs and the Config Sync base role',
        )
        .example(
          '$0 bind --service-account flux-system/kustomize-controller --role-ref ClusterRole/crossplane-edit --role-ref Role/deployer@team-a',
          'Bind two roles to a Flux controller',
        )
        .example(
          '$0 bind --root-sync root-sync --role-refs-file roles.yaml -o diff --dry-run=server',
          'Diff, validated by the API server',
        )
        .epilogue(
          `-o: ${WRITE_OUTPUTS.join(', ')}. The plugin never binds cluster-admin by default: an empty roleRef list is an error.`,
        ),
    handler: async (args) => {
      const rb = await loadBindCore();
      const dryRun = parseDryRun(args['dry-run']);
      checkConcurrency(args.concurrency);
      const target = parseTarget(args, rb);
      const baseRole = resolveBaseRole(args['base-role'], target, rb);
      const argRefs = await readRoleRefArgs(args, rb);
      const parts = ['clusterRoles', 'clusterRoleBindings', 'roleBindings'] as const;
      const input = await readInput(args, deps, target.kind === 'RootSync' ? [...parts, 'rootSyncs'] : parts);
      const rootSync = findRootSync(input.snapshot, target, input);
      if (rootSync !== undefined) {
        for (const w of rb.configSync.rootSyncWarnings(rootSync)) writeLine(deps.io.stderr, `warning: ${w}`);
      }
      const refs =
        argRefs.length > 0 || rootSync === undefined ? argRefs : rb.configSync.roleRefsOfRootSync(rootSync);
      if (refs.length === 0) {
        throw new rb.refs.BindInputError(
          rootSync !== undefined
            ? `RootSync ${target.kind === 'RootSync' ? target.name : ''} declares no spec.override.roleRefs and none were given: nothing to bind`
            : 'no roleRefs given: nothing to bind',
          { hint: 'give --role-ref or --role-refs-file; the plugin never binds cluster-admin by default' },
        );
      }
      const [{ planChanges }, { replanOne }] = await Promise.all([
        import('../../plan/plan.js'),
        import('../../plan/replan.js'),
      ]);
      // Bind's ownership rule: its own bindings of this target (inventory labels, no controller), Config Sync's of
      // the RootSync and its shared base binding; prune only its own (and the shared one's last subject, ours).
      const ownership = rb.inventory.bindOwnership(target);
      const live = {
        clusterRoles: [],
        clusterRoleBindings: input.snapshot.clusterRoleBindings,
        roleBindings: input.snapshot.roleBindings,
      };
      const sa = target.serviceAccount;
      const planWith = (prune: boolean): { desired: Binding[]; plan: Plan } => {
        const opts = { ...(baseRole !== undefined ? { baseRole } : {}), cleanup: prune };
        const desired = rb.render.desiredBindings(target, refs, live, opts);
        return { desired, plan: planChanges(desired, live, { prune, ownership, adopt: args.adopt }) };
      };
      let { desired, plan } = planWith(args.prune);
      // A refused binding leaves one role unbound: pruning now could leave the account with none of its roles.
      const skipPrune = args.prune && plan.counts.refused > 0;
      if (skipPrune) ({ desired, plan } = planWith(false));
      // Bindings that grant the account a role (not the shared base binding's clean-up, which takes one away).
      const granting = desired.filter((b) => !rb.base.isSharedBaseBinding(b) || rb.base.hasSubject(b, sa));
      await checkPrivileged(granting, input, args['allow-privileged'], deps);
      if (skipPrune) {
        const n = plan.counts.refused;
        writeLine(
          deps.io.stderr,
          `warning: ${n} binding${n === 1 ? ' is' : 's are'} refused (listed below): pruning is skipped in this run, so that ServiceAccount ${sa.namespace}/${sa.name} keeps the bindings it has`,
        );
      }
      const fromFiles = input.cluster === undefined;
      for (const w of rb.warnings.bindWarnings(sa, granting, plan, input.snapshot, fromFiles)) {
        writeLine(deps.io.stderr, `warning: ${w}`);
      }
      if (!args.prune || skipPrune) {
        const why = skipPrune ? 'pruning skipped' : '--no-prune';
        const kept = planWith(true).plan.entries.filter(
          (e) => e.action === 'delete' || rb.base.takesOff(e, sa),
        );
        for (const e of kept) {
          writeLine(
            deps.io.stderr,
            `kept (${why}): ${e.kind} ${e.namespace !== undefined ? `${e.namespace}/` : ''}${e.name}`,
          );
        }
      }
      await preflightBind(input, dryRun, [...written(plan, 'create'), ...written(plan, 'update')], deps);
      await presentAndApply(deps, input, plan, {
        output: args.output,
        dryRun,
        check: false,
        yes: args.yes,
        concurrency: args.concurrency,
        color: args.color,
        what: `bind roles to ServiceAccount ${sa.namespace}/${sa.name}`,
        replan: (liveObj, want) => {
          // The shared base binding is planned again from its fresh subjects: another reconciler may have joined.
          if (!rb.base.isSharedBaseBinding(want) || !rb.base.isSharedBaseBinding(liveObj)) {
            return replanOne(want, liveObj, args.adopt, ownership);
          }
          const again = rb.base.renderSharedBaseBinding(sa, liveObj, rb.base.hasSubject(want, sa));
          return again === undefined ? { action: 'none' } : replanOne(again, liveObj, args.adopt, ownership);
        },
        mayDelete: (liveObj) => isBindingObject(liveObj) && ownership.prunes(liveObj),
      });
    },
  };
}

/** The bindings the plan writes with ACTION (create or update), in plan order. */
function written(plan: Plan, action: PlanAction): Binding[] {
  return plan.entries.flatMap((e) =>
    e.action === action && e.object !== undefined && isBinding(e.object) ? [e.object] : [],
  );
}

/**
 * Before anything else: a roleRef list that names a privileged role needs --allow-privileged (also for previews,
 * so that a dry run fails as the real run would). With the flag, each privileged role is named on stderr.
 */
async function checkPrivileged(
  desired: readonly Binding[],
  input: Input,
  allowed: boolean,
  deps: Deps,
): Promise<void> {
  const { findPrivilegedBindings, formatPrivileged } = await import('../../bind/privileged-rules.js');
  const roles = await readBoundRoles(desired, input, deps);
  const found = formatPrivileged(
    findPrivilegedBindings(desired, { clusterRoles: input.snapshot.clusterRoles, roles }),
  );
  if (found.length === 0) return;
  if (allowed) {
    for (const line of found)
      writeLine(deps.io.stderr, `warning: binding a privileged role (--allow-privileged): ${line}`);
    return;
  }
  const what = found.length === 1 ? 'a privileged role' : `${found.length} privileged roles`;
  throw new UserError(
    `refusing to bind ${what} without --allow-privileged, nothing was written: ${found.join('; ')}`,
    {
      hint: 'bind a narrower role, or pass --allow-privileged if the account is meant to hold exactly that',
    },
  );
}

/**
 * The Roles the bindings refer to: from the -f objects, or one GET each from the cluster. A Role the caller may not
 * read is left unchecked with a warning: an account given `bind` on a Role but not `get` was trusted with it by
 * whoever granted that, and the API server still checks the binding.
 */
async function readBoundRoles(
  desired: readonly Binding[],
  input: Input,
  deps: Deps,
): Promise<Map<string, Role>> {
  const out = new Map<string, Role>();
  const wanted = desired.filter((b) => b.roleRef.kind === 'Role');
  if (wanted.length === 0) return out;
  const cluster = input.cluster;
  if (cluster === undefined) {
    for (const o of input.snapshot.others) {
      if (isRoleObject(o)) out.set(`${o.metadata.namespace ?? ''}/${o.metadata.name}`, o);
    }
    return out;
  }
  const [{ Kinds }, { ApiError, translateError }, { findInvalidField }] = await Promise.all([
    import('../../cluster/cluster.js'),
    import('../../cluster/translate-error.js'),
    import('../../crossplane/validate-input.js'),
  ]);
  await Promise.all(
    wanted.map(async (b) => {
      const ns = b.metadata.namespace ?? '';
      const id = `Role ${ns}/${b.roleRef.name}`;
      let role: KubeObject | undefined;
      try {
        role = await cluster.get(Kinds.role, b.roleRef.name, ns);
      } catch (err) {
        if (err instanceof ApiError && err.code === 403) {
          writeLine(
            deps.io.stderr,
            `warning: not allowed to read ${id}: it is bound without checking it for privileged rules`,
          );
          return;
        }
        throw translateError(err, `reading ${id} to check it for privileged rules`, cluster.describe);
      }
      if (role === undefined) return;
      const invalid = findInvalidField(role);
      if (invalid !== undefined) throw new UserError(`${id}: ${invalid.problem}`);
      if (isRoleObject(role)) out.set(`${ns}/${b.roleRef.name}`, role);
    }),
  );
  return out;
}

/** Before any write: every binding the API server would refuse for want of `bind` or of the role's rules. */
async function preflightBind(
  input: Input,
  dryRun: string,
  writes: readonly Binding[],
  deps: Deps,
): Promise<void> {
  if (input.cluster === undefined || dryRun === 'client' || writes.length === 0) return;
  const [{ checkBindPermissions }, { formatBindDenials }] = await Promise.all([
    import('../../cluster/bind-preflight.js'),
    import('../../bind/permission.js'),
  ]);
  const denials = await checkBindPermissions(input.cluster, writes, input.snapshot.clusterRoles);
  if (denials.length === 0) return;
  for (const line of formatBindDenials(denials)) writeLine(deps.io.stderr, `forbidden: ${line}`);
  throw new UserError(
    `not allowed to bind ${denials.length} of ${writes.length} roles, nothing was written: ${denials.map((d) => d.role).join(', ')}`,
    {
      hint: 'ask for the bind verb on these roles (or for the rules they grant), or drop them from the roleRefs',
    },
  );
}
