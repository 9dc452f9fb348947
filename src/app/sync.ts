import type { SyncOptions } from '../sync/settings.js';
import type { DesiredState } from '../sync/render.js';
import type { ClusterSnapshot, RbacObject } from '../kube/types.js';
import type { SyncFamily } from '../sync/choices.js';
import type { SnapshotPart } from '../crossplane/validate-input.js';
import type { PruneScope } from '../crossplane/owned-objects.js';
import type { Plan } from '../plan/plan.js';
import type { AppDeps } from './deps.js';
import { holdInvalidOwners, liveCrdsOf, readInput, type Input, type InputSource } from './read-input.js';
import { writePlan, type WriteOptions, type WriteOutcome } from './write.js';
import { COMPOSED_PARTS, readComposedPart, type ComposedReads, type ComposedReport } from './composed.js';

/** What to render: sync's settings as flags give them (the invalid owners and live CRDs are added from the input). */
export type RenderOptions = Omit<SyncOptions, 'hold' | 'liveCrds'>;

export interface SyncRunOptions {
  readonly source: InputSource;
  readonly render: RenderOptions;
  /** Delete plugin-owned objects no longer desired. */
  readonly prune: boolean;
  /** Take over objects nobody owns instead of refusing them. */
  readonly adopt: boolean;
  readonly write: WriteOptions;
}

/** Everything sync reads: the owners, what detection and settings need, the live RBAC, and the CRDs' owners. */
const SYNC_PARTS = [
  'xrds',
  'providerRevisions',
  'deployments',
  'namespaces',
  'clusterRoles',
  'clusterRoleBindings',
  'roleBindings',
  'configMaps',
  'crdOwners',
] as const;

/** What sync did; with the composed part, also its report. */
export interface SyncOutcome extends WriteOutcome {
  readonly composed?: ComposedReport;
  /** Every object this run wants to exist (what --output-dir writes), in render order. */
  readonly desired: readonly RbacObject[];
}

/** The parts sync reads for the families it renders (with `composed`, also what compositions need). */
export function syncParts(only: readonly SyncFamily[] | undefined): readonly SnapshotPart[] {
  return only?.includes('composed') === true ? [...SYNC_PARTS, 'roles', ...COMPOSED_PARTS] : SYNC_PARTS;
}

/** What planSync needs read beyond the input: with the composed part, the composites and the resources known. */
export interface PlanReads {
  readonly composed?: ComposedReads | undefined;
}

/**
 * Reads what planning the families of ONLY needs beyond INPUT (with `composed`: readComposedPart), so that planSync
 * plans from what it is given and reads nothing.
 */
export async function readForPlan(input: Input, only: readonly SyncFamily[] | undefined): Promise<PlanReads> {
  return only?.includes('composed') === true ? { composed: await readComposedPart(input) } : {};
}

/** What sync would write: the plan against the live objects, the owners it holds, and the composed report. */
export interface SyncPlan {
  readonly plan: Plan;
  /** One line per owner left untouched (`Kind "name": why`). */
  readonly held: readonly string[];
  readonly pruneScope: PruneScope;
  readonly composed?: ComposedReport;
  /** Every object sync wants to exist, in render order. */
  readonly desired: readonly RbacObject[];
}

/**
 * Renders what sync makes from INPUT (read with syncParts) and READS (readForPlan) and plans it against the live
 * objects, reading nothing; reports the renderer's skipped owners and warnings (and, with `report`, the composed
 * report) as sync does. Shared by sync and the answers `--after-sync` gives.
 */
export async function planSync(
  input: Input,
  reads: PlanReads,
  render: RenderOptions,
  how: { readonly prune: boolean; readonly adopt: boolean; readonly report: boolean },
  deps: Pick<AppDeps, 'warn' | 'renderShare'>,
): Promise<SyncPlan> {
  const desired = await renderDesired(input, render, deps);
  for (const s of desired.skipped) {
    deps.warn({ kind: 'skipped', object: { kind: s.kind, name: s.name }, reason: s.reason });
  }
  const [{ planChanges }, { describeHeld }] = await Promise.all([
    import('../plan/plan.js'),
    import('../sync/held.js'),
  ]);
  let objects = desired.objects;
  let scope = desired.scope;
  let composed: ComposedReport | undefined;
  if (render.only?.includes('composed') === true) {
    const { renderComposedPart } = await import('./composed.js');
    // Read before planning (readForPlan); its absence is a bug of the caller, not input.
    if (reads.composed === undefined) throw new Error('planSync: the composed part was not read');
    composed = await renderComposedPart(input, reads.composed, render, desired.settings, desired.objects);
    objects = [...objects, ...composed.objects];
    scope = { ...scope, groups: [...scope.groups, ...composed.groups] };
    if (how.report) {
      deps.warn({ kind: 'composed-report', analysis: composed.analysis, authors: composed.grantAuthors });
    }
    for (const w of composed.warnings) deps.warn({ kind: 'warning', reason: w });
  }
  const plan = planChanges(objects, input.snapshot, {
    prune: how.prune,
    pruneScope: scope,
    adopt: how.adopt,
    ...(render.memo !== undefined ? { memo: render.memo.plan } : {}),
  });
  const held = [...desired.held.map(describeHeld), ...(composed?.held ?? [])];
  return { plan, held, pruneScope: scope, desired: objects, ...(composed !== undefined ? { composed } : {}) };
}

/** `sync`: read, render what Crossplane's RBAC manager would make, plan against the live objects, write. */
export async function runSync(options: SyncRunOptions, deps: AppDeps): Promise<SyncOutcome> {
  // Loaded while the reads are in flight, when this process mostly waits for the server, not after them.
  void Promise.all([
    import('../sync/render.js'),
    import('../plan/plan.js'),
    import('../sync/held.js'),
    import('../plan/replan.js'),
    import('./preflight.js'),
  ]).catch(() => undefined);
  const input = await readInput(options.source, deps, syncParts(options.render.only));
  return syncInput(input, options, deps, true);
}

/**
 * Plans and writes what sync makes from INPUT (read with syncParts): one sync after its reads, and each reconcile of
 * `sync --watch` against its in-memory state, so both apply the same ownership, held-owner, privileged-rule and
 * pre-flight rules. REPORT: write the composed report.
 */
export async function syncInput(
  input: Input,
  options: Omit<SyncRunOptions, 'source'>,
  deps: AppDeps,
  report: boolean,
): Promise<SyncOutcome> {
  const reads = await readForPlan(input, options.render.only);
  const { plan, held, pruneScope, composed, desired } = await planSync(
    input,
    reads,
    options.render,
    { prune: options.prune, adopt: options.adopt, report },
    deps,
  );
  const [{ wouldPrune }, { replanOne }] = await Promise.all([
    import('../plan/plan.js'),
    import('../plan/replan.js'),
  ]);
  const outcome = await writePlan(deps, input.cluster, input.source, plan, options.write, {
    replan: (live, want) => replanOne(want, live, options.adopt),
    mayDelete: (live) => wouldPrune(live, pruneScope),
    held,
  });
  return { ...outcome, desired, ...(composed !== undefined ? { composed } : {}) };
}

/**
 * Renders the desired objects from INPUT as sync does: its invalid owners held, its live CRDs checked (an owner
 * whose CRDs are not its own is held), and the renderer's warnings reported. Shared by sync and enable-xrd (which
 * renders from SNAPSHOT: the input with its namespace changes).
 */
export async function renderDesired(
  input: Input,
  options: RenderOptions,
  deps: Pick<AppDeps, 'warn' | 'renderShare'>,
  snapshot: ClusterSnapshot = input.snapshot,
): Promise<DesiredState> {
  const [{ renderSync }, { renderInput }] = await Promise.all([
    import('../sync/render.js'),
    import('./render-share.js'),
  ]);
  const opts = { ...options, hold: holdInvalidOwners(input), ...liveCrdsOf(input) };
  // Alone or across contexts, the renderer sees only the parts a shared render is keyed by.
  const desired =
    deps.renderShare !== undefined
      ? deps.renderShare.render(snapshot, opts, renderSync)
      : renderSync(renderInput(snapshot, opts), opts);
  for (const w of desired.warnings) deps.warn({ kind: 'warning', reason: w });
  return desired;
}
