import { ExitCode, ExitSignal, UserError } from '../errors.js';
import { helmInstalled } from '../plan/ownership.js';
import type { WriteOutcome } from '../app/write.js';
import type { Deps } from './context.js';
import { printResult, showLine } from './output/print-result.js';
import { plural } from './output/plural.js';
import type { PresentOptions } from './flags.js';

/**
 * Shows what a write command did and turns it into the exit code: the plan, printed through the registry (its
 * `plan` printers: table, yaml, json, name, diff), then one line per failure; refused and held objects fail the run
 * after everything else, drift under --check exits 1.
 */
export async function presentWrite(deps: Deps, outcome: WriteOutcome, opts: PresentOptions): Promise<void> {
  const flags = { color: opts.color, headers: opts.headers };
  const print = (written: boolean, dryRun: boolean): Promise<void> =>
    printResult(
      deps,
      'plan',
      opts.output,
      {
        outcome,
        failed: outcome.report?.failedKeys ?? new Set<string>(),
        dryRun,
        written,
        serverDryRun: opts.serverDryRun,
      },
      flags,
    );
  switch (outcome.status) {
    case 'previewed':
      await print(false, true);
      if (outcome.fromFiles) {
        showLine(deps, `read from ${outcome.source}: nothing was written (-f never writes to a cluster)`);
      }
      failIfLeftAlone(outcome, false);
      if (opts.check && outcome.hasChanges) throw new ExitSignal(ExitCode.drift);
      return;
    case 'denied': {
      // -o yaml|json prints every missing rule as a ClusterRole; then the error.
      await print(false, true);
      const missing = outcome.missing ?? { lines: [], rules: [] };
      throw new UserError(
        `not allowed to ${outcome.what}, nothing was written; missing: ${missing.lines.join('; ')}`,
        {
          hint: 'ask a cluster admin for these permissions (sync --print-required-role prints a ClusterRole with them)',
        },
      );
    }
    case 'declined':
      throw new UserError('aborted: nothing was written');
    case 'applied':
      // Each object written named first, as kubectl names them; then the summary.
      await print(true, opts.serverDryRun);
      reportApplied(deps, outcome, opts.serverDryRun);
  }
}

/** After writing: an interrupted run, a lost server, failed writes, then refused or held objects fail the run. */
function reportApplied(deps: Deps, outcome: WriteOutcome, serverDryRun: boolean): void {
  const report = outcome.report;
  if (report === undefined) return;
  const failed = report.results.filter((r) => r.error !== undefined || r.notAttempted === true);
  const total = report.results.length;
  if (report.interrupted) {
    for (const f of failed) if (f.error !== undefined) showLine(deps, `error: ${f.error}`);
    throw new UserError(
      `interrupted: ${ofWrites(report.written, total)} ${were(report.written, total)} done, ${String(report.notStarted)} ${were(report.notStarted, 0)} not started`,
      { hint: 're-run the command to finish: it converges', exitCode: ExitCode.interrupted },
    );
  }
  const gone = report.serverGone;
  if (gone !== undefined) {
    // One line for the whole run, not one per write that could not be sent.
    for (const f of failed) {
      if (f.error !== undefined && f.serverGone !== true) showLine(deps, `error: ${f.error}`);
    }
    throw new UserError(
      `${gone.error ?? 'lost the API server'}; ${ofWrites(report.written, total)} ${were(report.written, total)} done before`,
      { hint: 're-run the command when the server is back: it continues where this run stopped' },
    );
  }
  if (failed.length > 0) {
    for (const f of failed) showLine(deps, `error: ${f.error ?? ''}`);
    const rest = failed.length === total ? 'nothing was written' : 'everything else was written';
    throw new UserError(`${ofWrites(failed.length, total)} failed; ${rest}`, {
      hint: 're-run the command to finish: it converges',
    });
  }
  failIfLeftAlone(outcome, !serverDryRun);
}

/** `COUNT of TOTAL write(s)`: the noun agrees with the total ("0 of 1 write", "1 of 4 writes"). */
function ofWrites(count: number, total: number): string {
  return `${String(count)} of ${plural(total, 'write')}`;
}

/**
 * The verb after COUNT of TOTAL: `was` for one (or none of one: "0 of 1 write was"), else `were` ("0 of 2 writes
 * were", "2 were").
 */
function were(count: number, total: number): string {
  return count === 1 || total === 1 ? 'was' : 'were';
}

/** Everything else is done first; then held owners and refused objects fail the run, so that CI notices them. */
function failIfLeftAlone(outcome: WriteOutcome, written: boolean): void {
  const { held, refused } = outcome;
  if (held.length > 0) {
    throw new UserError(
      `${String(held.length)} owner${held.length === 1 ? ' is' : 's are'} held: ${held.length === 1 ? 'its' : 'their'} roles were left untouched (listed above); everything else was ${written ? 'written' : 'planned'}`,
      { hint: 'fix or remove the objects named above and run sync again' },
    );
  }
  if (refused.length === 0) return;
  throw new UserError(
    `${String(refused.length)} object${refused.length === 1 ? ' is' : 's are'} not the plugin's to change and ${refused.length === 1 ? 'was' : 'were'} left unchanged (listed above)`,
    { hint: refusedHint(refused) },
  );
}

/**
 * What to do about refused objects. --adopt takes over only objects nobody owns: it is offered only when some refused
 * object is not Helm's (a refusal says so: Helm's objects are never taken over).
 */
function refusedHint(refused: WriteOutcome['refused']): string {
  const helm = refused.filter((e) => e.live !== undefined && helmInstalled(e.live) !== undefined).length;
  if (helm === refused.length)
    return `leave ${helm === 1 ? 'it' : 'them'} to the Helm release that installed ${helm === 1 ? 'it' : 'them'} (change ${helm === 1 ? 'it' : 'them'} with helm upgrade): neither the plugin nor --adopt takes over what Helm installed`;
  return helm > 0
    ? 'remove or rename them, or pass --adopt to take over those nobody owns (not those Helm installed)'
    : 'remove or rename them, or pass --adopt to take over those nobody owns';
}
