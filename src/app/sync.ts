import type { SyncOptions } from '../sync/settings.js';
import type { DesiredState } from '../sync/render.js';
import type { ClusterSnapshot, RbacObject } from '../kube/types.js';
import type { AppDeps } from './deps.js';
import { writeLine } from './io.js';
import { holdInvalidOwners, liveCrdsOf, readInput, type Input, type InputSource } from './read-input.js';
import { writePlan, type WriteOptions, type WriteOutcome } from './write.js';
import { COMPOSED_PARTS, type ComposedReport } from './composed.js';

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

/** `sync`: read, render what Crossplane's RBAC manager would make, plan against the live objects, write. */
export async function runSync(options: SyncRunOptions, deps: AppDeps): Promise<SyncOutcome> {
  const withComposed = options.render.only?.includes('composed') === true;
  const parts = withComposed ? [...SYNC_PARTS, 'roles' as const, ...COMPOSED_PARTS] : SYNC_PARTS;
  const input = await readInput(options.source, deps, parts);
  const desired = await renderDesired(input, options.render, deps);
  for (const s of desired.skipped) writeLine(deps.io.stderr, `skipped ${s.kind} ${s.name}: ${s.reason}`);
  const [{ planChanges, wouldPrune }, { replanOne }, { describeHeld }] = await Promise.all([
    import('../plan/plan.js'),
    import('../plan/replan.js'),
    import('../sync/held.js'),
  ]);
  let objects = desired.objects;
  let scope = desired.scope;
  let composed: ComposedReport | undefined;
  if (withComposed) {
    const [{ renderComposedPart }, { formatComposedReport }] = await Promise.all([
      import('./composed.js'),
      import('../composed/report.js'),
    ]);
    composed = await renderComposedPart(input, options.render, desired.settings, desired.objects);
    objects = [...objects, ...composed.objects];
    scope = { ...scope, groups: [...scope.groups, ...composed.groups] };
    for (const line of formatComposedReport(composed.analysis, composed.compositionAuthors))
      writeLine(deps.io.stderr, line);
    for (const w of composed.warnings) writeLine(deps.io.stderr, `warning: ${w}`);
  }
  const pruneScope = scope;
  const plan = planChanges(objects, input.snapshot, {
    prune: options.prune,
    pruneScope,
    adopt: options.adopt,
  });
  const outcome = await writePlan(deps, input.cluster, input.source, plan, options.write, {
    replan: (live, want) => replanOne(want, live, options.adopt),
    mayDelete: (live) => wouldPrune(live, pruneScope),
    held: [...desired.held.map(describeHeld), ...(composed?.held ?? [])],
  });
  return { ...outcome, desired: objects, ...(composed !== undefined ? { composed } : {}) };
}

/**
 * Renders the desired objects from INPUT as sync does: its invalid owners held, its live CRDs checked (an owner
 * whose CRDs are not its own is held), and the renderer's warnings written. Shared by sync and enable-xrd (which
 * renders from SNAPSHOT: the input with its namespace changes).
 */
export async function renderDesired(
  input: Input,
  options: RenderOptions,
  deps: Pick<AppDeps, 'io'>,
  snapshot: ClusterSnapshot = input.snapshot,
): Promise<DesiredState> {
  const { renderSync } = await import('../sync/render.js');
  const desired = renderSync(snapshot, {
    ...options,
    hold: holdInvalidOwners(input),
    ...liveCrdsOf(input),
  });
  for (const w of desired.warnings) writeLine(deps.io.stderr, `warning: ${w}`);
  return desired;
}
