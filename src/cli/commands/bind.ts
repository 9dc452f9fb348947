import type { CommandModule } from 'yargs';
import { UsageError } from '../../errors.js';
import type { BindTarget } from '../../bind/target.js';
import type { BindRunOptions } from '../../app/bind.js';
import { appDeps, type Deps, type GlobalArgs } from '../context.js';
import { filenameOption, inputSource, type FromPaths } from '../input-flags.js';
import { presentWrite } from '../write-flow.js';
import {
  adoptOption,
  concurrencyOption,
  dryRunOption,
  noHeadersOption,
  writeFlags,
  yesOption,
  type PresentOptions,
} from '../flags.js';
import { outputHelpOf } from '../output/registry.js';

interface BindArgs extends GlobalArgs {
  readonly filename: FromPaths | undefined;
  readonly 'no-headers': boolean;
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
  readonly 'allow-missing': boolean;
  readonly adopt: boolean;
}

/** The pure parts of bind the flags need, loaded when the command runs. */
interface BindCore {
  readonly refs: typeof import('../../bind/role-refs.js');
  readonly configSync: typeof import('../../bind/config-sync.js');
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
        .describe('output', outputHelpOf('plan'))
        .option('no-headers', noHeadersOption)
        .option('allow-privileged', {
          type: 'boolean',
          default: false,
          describe:
            'Also bind privileged roles (cluster-admin, * on *, escalate, bind, impersonate, token or certificate minting)',
        })
        .option('allow-missing', {
          type: 'boolean',
          default: false,
          describe:
            'Bind ahead of creation: roles, the service account and (with -f) namespaces that do not exist yet, with a warning each',
        })
        .option(
          'adopt',
          adoptOption('existing bindings that nobody owns (no managed-by label, no controller)'),
        )
        .option('filename', filenameOption)
        .option('yes', yesOption)
        .option('concurrency', concurrencyOption)
        .epilogue('The plugin never binds cluster-admin by default: an empty roleRef list is an error.'),
    handler: async (args) => {
      const options = await bindOptions(args);
      const { runBind } = await import('../../app/bind.js');
      const outcome = await runBind(options.run, appDeps(deps, args.color));
      await presentWrite(deps, outcome, options.present);
    },
  };
}

/** The flags as bind's options, every one checked before anything is read. */
async function bindOptions(args: BindArgs): Promise<{ run: BindRunOptions; present: PresentOptions }> {
  const [refs, configSync] = await Promise.all([
    import('../../bind/role-refs.js'),
    import('../../bind/config-sync.js'),
  ]);
  const rb = { refs, configSync };
  const flags = writeFlags(args, 'bind', 'bind roles');
  const target = parseTarget(args, rb);
  const sa = target.serviceAccount;
  const write = { ...flags.write, what: `bind roles to ServiceAccount ${sa.namespace}/${sa.name}` };
  const baseRole = resolveBaseRole(args['base-role'], target, rb);
  const roleRefs = (args['role-ref'] ?? []).map((v) => rb.refs.parseRoleRefFlag(v));
  const file = args['role-refs-file'];
  if (file === '')
    throw new UsageError('--role-refs-file needs a path', { hint: 'e.g. --role-refs-file roles.yaml' });
  const run = {
    source: inputSource(args),
    target,
    baseRole,
    roleRefs,
    roleRefsFile: file,
    prune: args.prune,
    adopt: args.adopt,
    allowPrivileged: args['allow-privileged'],
    allowMissing: args['allow-missing'],
    write,
  };
  return { run, present: flags.present };
}
