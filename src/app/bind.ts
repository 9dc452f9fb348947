import { UserError } from '../errors.js';
import * as base from '../bind/base-binding.js';
import * as configSync from '../bind/config-sync.js';
import { bindOwnership } from '../bind/inventory.js';
import { desiredBindings } from '../bind/render.js';
import { BindInputError, parseRoleRefsDocument, type RoleRefSpec } from '../bind/role-refs.js';
import { bindWarnings } from '../bind/warnings.js';
import { isBinding, type Binding, type BindTarget } from '../bind/target.js';
import type { Plan, PlanAction } from '../plan/plan.js';
import type { ClusterSnapshot, KubeObject, Role } from '../kube/types.js';
import { isBindingObject } from '../kube/rbac-guards.js';
import type { AppDeps } from './deps.js';
import { readInput, type Input, type InputSource } from './read-input.js';
import { writePlan, type WriteOptions, type WriteOutcome } from './write.js';
// Imported, not loaded on demand: a CommonJS package imported with import() gives only its default export in the
// npm package's split bundle (as in Node), so named functions must come from a static import.
import { parse as parseYaml } from 'yaml';

export interface BindRunOptions {
  readonly source: InputSource;
  readonly target: BindTarget;
  /** --base-role, resolved (for a RootSync: Config Sync's base role). */
  readonly baseRole?: string | undefined;
  /** The --role-ref values, parsed. */
  readonly roleRefs: readonly RoleRefSpec[];
  /** --role-refs-file: a YAML list of roleRefs, read after the --role-ref values. */
  readonly roleRefsFile?: string | undefined;
  /** Delete this account's bindings that are no longer declared. */
  readonly prune: boolean;
  readonly adopt: boolean;
  /** Bind privileged roles (else refuse them, before anything is written). */
  readonly allowPrivileged: boolean;
  /**
   * Bind roles, service accounts and (with -f) namespaces that do not exist yet, with a warning each (else refuse,
   * before anything is written).
   */
  readonly allowMissing: boolean;
  readonly write: WriteOptions;
}

/**
 * `bind`: the roleRefs (given, or the RootSync's), rendered as bindings of the target's service account, planned
 * with bind's ownership rule, checked (what they need exists, privileged roles, the `bind` verb) before any write,
 * and written.
 */
export async function runBind(options: BindRunOptions, deps: AppDeps): Promise<WriteOutcome> {
  const { target } = options;
  const argRefs = [...options.roleRefs, ...(await readRoleRefsFile(options))];
  const parts = ['clusterRoles', 'clusterRoleBindings', 'roleBindings'] as const;
  const input = await readInput(
    options.source,
    deps,
    target.kind === 'RootSync' ? [...parts, 'rootSyncs'] : parts,
  );
  const rootSync = findRootSync(input.snapshot, target, input);
  if (rootSync !== undefined) {
    for (const w of configSync.rootSyncWarnings(rootSync)) deps.warn({ kind: 'warning', reason: w });
  }
  const refs =
    argRefs.length > 0 || rootSync === undefined ? argRefs : configSync.roleRefsOfRootSync(rootSync);
  if (refs.length === 0) {
    throw new BindInputError(
      rootSync !== undefined
        ? `RootSync ${target.kind === 'RootSync' ? target.name : ''} declares no spec.override.roleRefs and none were given: nothing to bind`
        : 'no roleRefs given: nothing to bind',
      { hint: 'give --role-ref or --role-refs-file; the plugin never binds cluster-admin by default' },
    );
  }
  const planned = await planBind(options, input, refs);
  const { desired, plan, skipPrune, ownership } = planned;
  const sa = target.serviceAccount;
  // Bindings that grant the account a role (not the shared base binding's clean-up, which takes one away).
  const granting = desired.filter((b) => !base.isSharedBaseBinding(b) || base.hasSubject(b, sa));
  const fromFiles = input.cluster === undefined;
  const [{ neededObjects }, { readExistence, checkExistence }] = await Promise.all([
    import('../bind/missing.js'),
    import('./bind-existence.js'),
  ]);
  const existence = await readExistence(input, neededObjects(sa, granting), deps);
  await checkPrivileged(granting, input, existence.roles, options.allowPrivileged, deps);
  const run = { granting, plan, allowMissing: options.allowMissing, fromFiles };
  const insist = await checkExistence(existence, run, deps);
  if (skipPrune) {
    deps.warn({ kind: 'prune-skipped', count: plan.counts.refused, serviceAccount: sa });
  }
  for (const w of bindWarnings(sa, plan, input.snapshot)) deps.warn({ kind: 'warning', reason: w });
  if (!options.prune || skipPrune) {
    const why = skipPrune ? 'pruning skipped' : '--no-prune';
    for (const e of planned.kept()) {
      deps.warn({ kind: 'kept', object: { kind: e.kind, name: e.name, namespace: e.namespace }, why });
    }
  }
  await preflightBind(
    input,
    options.write.dryRun,
    [...written(plan, 'create'), ...written(plan, 'update')],
    deps,
  );
  const { replanOne } = await import('../plan/replan.js');
  const write = insist !== undefined ? { ...options.write, insist } : options.write;
  return writePlan(deps, input.cluster, input.source, plan, write, {
    replan: (liveObj, want) => {
      // The shared base binding is planned again from its fresh subjects: another reconciler may have joined.
      if (!base.isSharedBaseBinding(want) || !base.isSharedBaseBinding(liveObj)) {
        return replanOne(want, liveObj, options.adopt, ownership);
      }
      const again = base.renderSharedBaseBinding(sa, liveObj, base.hasSubject(want, sa));
      return again === undefined ? { action: 'none' } : replanOne(again, liveObj, options.adopt, ownership);
    },
    mayDelete: (liveObj) => isBindingObject(liveObj) && ownership.prunes(liveObj),
  });
}

/**
 * Plans the bindings. Bind's ownership rule: its own bindings of this target (inventory labels, no controller),
 * Config Sync's of the RootSync and its shared base binding; it prunes only its own (and the shared one's last
 * subject, ours). A refused binding leaves one role unbound: then pruning is skipped, so the account keeps its roles.
 */
async function planBind(options: BindRunOptions, input: Input, refs: readonly RoleRefSpec[]) {
  const { planChanges } = await import('../plan/plan.js');
  const { target, baseRole } = options;
  const ownership = bindOwnership(target);
  const live = {
    clusterRoles: [],
    clusterRoleBindings: input.snapshot.clusterRoleBindings,
    roleBindings: input.snapshot.roleBindings,
  };
  const planWith = (prune: boolean): { desired: Binding[]; plan: Plan } => {
    const opts = { ...(baseRole !== undefined ? { baseRole } : {}), cleanup: prune };
    const desired = desiredBindings(target, refs, live, opts);
    return { desired, plan: planChanges(desired, live, { prune, ownership, adopt: options.adopt }) };
  };
  const first = planWith(options.prune);
  const skipPrune = options.prune && first.plan.counts.refused > 0;
  const { desired, plan } = skipPrune ? planWith(false) : first;
  const sa = target.serviceAccount;
  /** What a pruning run would take away and this one keeps (--no-prune, or pruning skipped). */
  const kept = () => planWith(true).plan.entries.filter((e) => e.action === 'delete' || base.takesOff(e, sa));
  return { desired, plan, skipPrune, ownership, kept };
}

/** The entries of --role-refs-file, if given (after the --role-ref values). */
async function readRoleRefsFile(options: BindRunOptions): Promise<RoleRefSpec[]> {
  const file = options.roleRefsFile;
  if (file === undefined) return [];
  const { readInputFile } = await import('../input/files.js');
  const max = options.source.maxInputBytes;
  const { text } = readInputFile(file, max, max, '--role-refs-file');
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    const why = (err instanceof Error ? err.message.split('\n')[0] : String(err))?.replace(/:$/, '');
    throw new BindInputError(`${file}: not valid YAML: ${why ?? ''}`, {
      hint: 'the file holds a YAML list of {kind, name, namespace}',
    });
  }
  return parseRoleRefsDocument(doc, file);
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

/** The bindings the plan writes with ACTION (create or update), in plan order. */
function written(plan: Plan, action: PlanAction): Binding[] {
  return plan.entries.flatMap((e) =>
    e.action === action && e.object !== undefined && isBinding(e.object) ? [e.object] : [],
  );
}

/**
 * Before anything else: a roleRef list that names a privileged role needs --allow-privileged (also for previews,
 * so that a dry run fails as the real run would). With the flag, each privileged role is named on stderr. ROLES: the
 * Roles the bindings refer to, as read (one the caller may not read was named in a warning and is not judged).
 */
async function checkPrivileged(
  desired: readonly Binding[],
  input: Input,
  roles: ReadonlyMap<string, Role>,
  allowed: boolean,
  deps: AppDeps,
): Promise<void> {
  const { findPrivilegedBindings, formatPrivileged } = await import('../bind/privileged-rules.js');
  const found = formatPrivileged(
    findPrivilegedBindings(desired, { clusterRoles: input.snapshot.clusterRoles, roles }),
  );
  if (found.length === 0) return;
  if (allowed) {
    for (const role of found) deps.warn({ kind: 'privileged-bound', role });
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

/** Before any write: every binding the API server would refuse for want of `bind` or of the role's rules. */
async function preflightBind(
  input: Input,
  dryRun: string,
  writes: readonly Binding[],
  deps: AppDeps,
): Promise<void> {
  if (input.cluster === undefined || dryRun === 'client' || writes.length === 0) return;
  const { checkBindPermissions } = await import('./bind-preflight.js');
  const denials = await checkBindPermissions(input.cluster, writes, input.snapshot.clusterRoles);
  if (denials.length === 0) return;
  for (const denial of denials) deps.warn({ kind: 'forbidden', denial });
  throw new UserError(
    `not allowed to bind ${denials.length} of ${writes.length} roles, nothing was written: ${denials.map((d) => d.role).join(', ')}`,
    {
      hint: 'ask for the bind verb on these roles (or for the rules they grant), or drop them from the roleRefs',
    },
  );
}
