import { plannedWrites, type Plan, type PlanEntry } from '../plan/plan.js';
import { ExitCode, ExitSignal, UsageError, UserError } from '../errors.js';
import type { Operation, OperationResult, Replan } from '../cluster/apply-operations.js';
import type { KubeObject } from '../kube/types.js';
import { objectKey } from '../kube/meta.js';
import type { Deps } from './context.js';
import type { Input } from './read-input.js';
import { confirmWrite } from './output/prompt.js';
import { startProgress } from './output/spinner.js';
import { useColor, writeLine } from './output/terminal.js';

export type DryRun = 'none' | 'client' | 'server';
export const DRY_RUN_CHOICES: readonly DryRun[] = ['none', 'client', 'server'];
export const WRITE_OUTPUTS = ['table', 'yaml', 'json', 'name', 'diff'] as const;
export type WriteOutput = (typeof WRITE_OUTPUTS)[number];

export interface WriteFlowOptions {
  readonly output: string | undefined;
  readonly dryRun: DryRun;
  readonly check: boolean;
  readonly yes: boolean;
  readonly concurrency: number;
  readonly color: boolean;
  /** What the command does, for the prompt and messages ("apply the Crossplane RBAC"). */
  readonly what: string;
  /** Writes that are not RBAC objects and go first (enable-xrd's namespace annotation patches). */
  readonly preWrites?: readonly Operation[];
  /**
   * How preWrites are shown: plan entries listed before the plan's own (table, name, diff) and the objects they
   * write, listed first with -o yaml|json.
   */
  readonly preWritesShown?: {
    readonly entries: readonly PlanEntry<KubeObject>[];
    readonly objects: readonly unknown[];
  };
  /** Show the plan's summary on stderr and ask before writing, even with --yes (enable-xrd -i). */
  readonly preview?: boolean;
  /** Plans one object again after a write raced with another writer; see applyOperations. */
  readonly replan?: Replan;
  /** Whether an object to delete that changed since it was read is still the plugin's; see applyOperations. */
  readonly mayDelete?: (live: KubeObject) => boolean;
  /**
   * Owners whose objects the plan leaves untouched, one line each (`Kind "name": why`): listed first, and the run
   * exits 2 after everything else was done, as for refused objects.
   */
  readonly held?: readonly string[];
}

/** `--dry-run` as kubectl spells it: a bare `--dry-run` means client. */
export function parseDryRun(value: string | boolean | undefined): DryRun {
  if (value === undefined || value === false || value === 'none') return 'none';
  if (value === true || value === '' || value === 'client') return 'client';
  if (value === 'server') return 'server';
  throw new UsageError(`invalid --dry-run "${value}"`, {
    hint: 'use --dry-run=none, client or server',
  });
}

export function parseWriteOutput(value: string | undefined): WriteOutput {
  const out = value ?? 'table';
  if (!(WRITE_OUTPUTS as readonly string[]).includes(out)) {
    throw new UsageError(`unknown output format "${out}"`, {
      hint: `use one of: ${WRITE_OUTPUTS.join(', ')}`,
    });
  }
  return out as WriteOutput;
}

/**
 * Shows a plan and, when allowed, applies it: checks permissions before the first write, asks on a terminal,
 * writes in phases (creates and updates, then recreates, then deletes), reports every failure, and exits 1 for
 * drift under --check.
 */
export async function presentAndApply(
  deps: Deps,
  input: Input,
  plan: Plan,
  opts: WriteFlowOptions,
): Promise<void> {
  const fmt = await import('./output/format-plan.js');
  const output = parseWriteOutput(opts.output);
  const color = useColor(deps.io, deps.io.stdoutIsTTY, !opts.color);
  const writes = plan.entries.filter(fmt.isWrite);
  const preWrites = opts.preWrites ?? [];
  const hasChanges = writes.length + preWrites.length > 0;
  const cluster = input.cluster;
  const willWrite = cluster !== undefined && opts.dryRun !== 'client' && !opts.check;

  const shown = [...(opts.preWritesShown?.entries ?? []), ...plan.entries];
  const leading = opts.preWritesShown?.objects ?? [];
  const print = async (failed: ReadonlySet<string>, dryRun: boolean): Promise<void> => {
    // The objects are printed one by one as they are formatted: a large plan never becomes one string.
    if (output === 'yaml' || output === 'json') {
      await fmt.printPlanObjects(deps.io.stdout, plan.entries, output, leading);
      return;
    }
    const text = {
      table: () => fmt.formatPlanSummary(shown, failed, { color, dryRun }),
      name: () => fmt.formatPlanNames(shown),
      diff: () => fmt.formatPlanDiff(shown),
    }[output]();
    deps.io.stdout.write(text);
  };
  const refused = plan.entries.filter((e) => e.action === 'refused');
  const held = opts.held ?? [];
  for (const h of held) writeLine(deps.io.stderr, `held ${h}`);
  for (const e of refused) writeLine(deps.io.stderr, `refused ${e.key}: ${e.reason ?? ''}`);
  for (const e of plan.entries) if (e.adopt === true) writeLine(deps.io.stderr, `adopting ${e.key}`);
  // Everything else is done first; then the run fails, so that CI notices what was left alone.
  const failIfRefused = (): void => {
    if (held.length > 0) {
      throw new UserError(
        `${String(held.length)} owner${held.length === 1 ? ' is' : 's are'} held: ${held.length === 1 ? 'its' : 'their'} roles were left untouched (listed above); everything else was ${willWrite && opts.dryRun === 'none' ? 'written' : 'planned'}`,
        { hint: 'fix or remove the objects named above and run sync again' },
      );
    }
    if (refused.length === 0) return;
    throw new UserError(
      `${String(refused.length)} object${refused.length === 1 ? ' is' : 's are'} not the plugin's to change and ${refused.length === 1 ? 'was' : 'were'} left unchanged (listed above)`,
      { hint: 'remove or rename them, or pass --adopt to take over those nobody owns' },
    );
  };

  if (!willWrite) {
    await print(new Set(), true);
    if (cluster === undefined) {
      writeLine(
        deps.io.stderr,
        `read from ${input.source}: nothing was written (-f never writes to a cluster)`,
      );
    }
    failIfRefused();
    if (opts.check && hasChanges) throw new ExitSignal(ExitCode.drift);
    return;
  }

  if (hasChanges) {
    const { findMissingPermissions, findMissingPatches } = await import('../cluster/preflight.js');
    const patched = preWrites.flatMap((op) => (op.action === 'patch' ? [op.object] : []));
    const [missingPatches, { lines, rules }] = await Promise.all([
      findMissingPatches(cluster, patched),
      findMissingPermissions(cluster, plannedWrites(writes)),
    ]);
    const missing = [...missingPatches, ...lines];
    if (missing.length > 0) {
      // The message summarises; -o yaml|json gets every missing rule, as a ClusterRole that would grant them.
      if (output === 'yaml' || output === 'json') {
        const [{ renderMissingRulesRole }, data] = await Promise.all([
          import('../authz/summarize-rules.js'),
          import('./output/format-data.js'),
        ]);
        const role = renderMissingRulesRole(rules);
        deps.io.stdout.write(output === 'json' ? data.formatJson(role) : data.formatYaml(role));
      }
      throw new UserError(
        `not allowed to ${opts.what}, nothing was written; missing: ${missing.join('; ')}`,
        {
          hint: 'ask a cluster admin for these permissions (sync --print-required-role prints a ClusterRole with them)',
        },
      );
    }
    if (opts.dryRun === 'none') {
      if (opts.preview === true)
        deps.io.stderr.write(fmt.formatPlanSummary(shown, new Set(), { color, dryRun: true }));
      const ok = await confirmWrite(deps.io, deps.prompter, {
        yes: opts.yes && opts.preview !== true,
        message: `${opts.what}: ${writes.length + preWrites.length} writes on ${cluster.describe}. Continue?`,
        what: opts.what,
      });
      if (!ok) throw new UserError('aborted: nothing was written');
    }
  }

  const apply = (): Promise<OperationResult[]> => applyPhases(deps, cluster, writes, preWrites, opts);
  const results = await (deps.interrupt !== undefined ? deps.interrupt.whileWriting(apply) : apply());
  const failed = results.filter((r) => r.error !== undefined || r.notAttempted === true);
  const failedKeys = new Set(failed.map((r) => objectKey(r.operation.object)));
  await print(failedKeys, opts.dryRun === 'server');
  if (deps.interrupt?.requested === true) {
    const written = results.filter((r) => r.error === undefined && r.notAttempted !== true).length;
    const notStarted = results.filter((r) => r.notAttempted === true).length;
    for (const f of failed) if (f.error !== undefined) writeLine(deps.io.stderr, `error: ${f.error}`);
    throw new UserError(
      `interrupted: ${String(written)} of ${String(results.length)} writes were done, ${String(notStarted)} were not started`,
      { hint: 're-run the command to finish: it converges', exitCode: ExitCode.interrupted },
    );
  }
  const gone = results.find((r) => r.serverGone === true);
  if (gone !== undefined) {
    // One line for the whole run, not one per write that could not be sent.
    for (const f of failed) {
      if (f.error !== undefined && f.serverGone !== true) writeLine(deps.io.stderr, `error: ${f.error}`);
    }
    const written = results.filter((r) => r.error === undefined && r.notAttempted !== true).length;
    throw new UserError(
      `${gone.error ?? 'lost the API server'}; ${String(written)} of ${String(results.length)} writes were done before`,
      { hint: 're-run the command when the server is back: it continues where this run stopped' },
    );
  }
  if (failed.length === 0) failIfRefused();
  if (failed.length > 0) {
    for (const f of failed) writeLine(deps.io.stderr, `error: ${f.error ?? ''}`);
    throw new UserError(`${failed.length} of ${results.length} writes failed; everything else was written`, {
      hint: 're-run the command to finish: it converges',
    });
  }
}

async function applyPhases(
  deps: Deps,
  cluster: NonNullable<Input['cluster']>,
  writes: readonly PlanEntry[],
  preWrites: readonly Operation[],
  opts: WriteFlowOptions,
): Promise<OperationResult[]> {
  const { applyOperations } = await import('../cluster/apply-operations.js');
  const upserts: Operation[] = writes.flatMap((e): Operation[] => {
    const object = e.object ?? e.live;
    if (object === undefined || e.recreate === true) return [];
    return e.action === 'create' || e.action === 'update' ? [{ action: e.action, object }] : [];
  });
  const recreates: Operation[] = writes.flatMap((e): Operation[] => {
    const object = e.object ?? e.live;
    if (e.action !== 'update' || e.recreate !== true || object === undefined || e.live === undefined)
      return [];
    return [{ action: 'recreate', object, live: e.live }];
  });
  const deletes: Operation[] = writes.flatMap((e): Operation[] => {
    const live = e.object ?? e.live;
    if (e.action !== 'delete' || live === undefined) return [];
    const metadata = { ...live.metadata, ...(e.uid !== undefined ? { uid: e.uid } : {}) };
    return [{ action: 'delete', object: { ...live, metadata } }];
  });
  const total = preWrites.length + upserts.length + recreates.length + deletes.length;
  const progress = await startProgress(deps.io, `applying 0/${total}`);
  let base = 0;
  const run = async (ops: readonly Operation[]): Promise<OperationResult[]> => {
    const r = await applyOperations(cluster, ops, {
      concurrency: opts.concurrency,
      dryRun: opts.dryRun === 'server',
      onProgress: (done) => {
        progress.update(`applied ${base + done}/${total}`);
      },
      shouldStop: () => deps.interrupt?.requested === true,
      ...(opts.replan !== undefined ? { replan: opts.replan } : {}),
      ...(opts.mayDelete !== undefined ? { mayDelete: opts.mayDelete } : {}),
    });
    base += ops.length;
    return r;
  };
  try {
    // A binding's roleRef cannot change: each recreate deletes it (if it is as it was read) and creates it again.
    const results = [
      ...(await run(preWrites)),
      ...(await run(upserts)),
      ...(await run(recreates)),
      ...(await run(deletes)),
    ];
    progress.stop(`applied ${total} writes`);
    return results;
  } catch (err) {
    progress.stop();
    throw err;
  }
}
