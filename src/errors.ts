import { escapeLines, escapeTerminal } from './escape.js';

/**
 * Exit codes of every command, as kubectl's nearest command has them (docs/reference/exit-codes.md): 0 success, 1 drift
 * found (`sync --check`, as `kubectl diff`) or a request denied (`explain --subject --for --verb`, as `kubectl auth
 * can-i`), 2 any error.
 */
export const ExitCode = {
  ok: 0,
  drift: 1,
  denied: 1,
  error: 2,
  /** --warnings-as-errors and the server warned: kubectl's exit code for it (cmdutil.CheckErr's 1). */
  warnings: 1,
  /** Stopped by Ctrl-C (128 + SIGINT), as shells report it. */
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error the user can act on: printed as `error: <message>` and, when set, `hint: <hint>`. */
export class UserError extends Error {
  override readonly name: string = 'UserError';
  readonly hint: string | undefined;
  readonly exitCode: ExitCode;

  constructor(
    message: string,
    options?: { hint?: string | undefined; cause?: unknown; exitCode?: ExitCode },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options?.hint;
    this.exitCode = options?.exitCode ?? ExitCode.error;
  }
}

/** Bad flags or arguments. */
export class UsageError extends UserError {
  override readonly name = 'UsageError';
}

/**
 * An answer printed in full from what could be read, some reads refused (`audit`'s unseen): an error (exit 2) so that
 * no partial answer passes for a whole one; across contexts, the context's report is kept and marked partial.
 */
export class PartialAnswer extends UserError {
  override readonly name = 'PartialAnswer';
}

/** Signals a clean, non-zero exit that has already been reported (e.g. `--check` found drift). */
export class ExitSignal extends Error {
  override readonly name = 'ExitSignal';
  constructor(readonly exitCode: ExitCode) {
    super(`exit ${exitCode}`);
  }
}

/**
 * Turns any thrown value into the lines to print and the exit code. Messages carry names from the cluster, files and
 * flags, so every line is escaped for the terminal (`escapeTerminal`): no escape sequence or line of its own.
 */
export function describeError(err: unknown, stackTraces: boolean): { lines: string[]; exitCode: ExitCode } {
  if (err instanceof ExitSignal) return { lines: [], exitCode: err.exitCode };
  if (err instanceof UserError) {
    const lines = [`error: ${escapeTerminal(oneLine(err.message))}`];
    if (err.hint !== undefined) lines.push(`hint: ${escapeTerminal(oneLine(err.hint))}`);
    if (stackTraces && err.cause instanceof Error && err.cause.stack !== undefined)
      lines.push(escapeLines(err.cause.stack));
    return { lines, exitCode: err.exitCode };
  }
  const message = err instanceof Error ? err.message : String(err);
  const lines = [`error: ${escapeTerminal(oneLine(message))}`];
  if (stackTraces && err instanceof Error && err.stack !== undefined) lines.push(escapeLines(err.stack));
  else lines.push('hint: this is a bug in kubectl-crossplane-rbac; re-run with --stack-traces and report it');
  return { lines, exitCode: ExitCode.error };
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}
