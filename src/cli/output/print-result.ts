/** A command's result printed through the registry: the printer of its kind and -o format, on the run's streams. */
import { writeLine } from '../io.js';
import type { Deps } from '../context.js';
import { toPrinter, type FormatOf } from './registry.js';
import type { PrintContext, Printed, PrintedKind, ResultOf } from './printer.js';
import { useColor } from './terminal.js';

/** The flags of how to print, as the command has them: --color (not --no-color) and the header row. */
export interface PrintFlags {
  readonly color: boolean;
  readonly headers: boolean;
}

/** How to print on DEPS' stdout: colour and width from the terminal, the header row from the flags. */
export function printContext(deps: Deps, flags: PrintFlags): PrintContext {
  const io = deps.io;
  return {
    color: useColor(io, io.stdoutIsTTY, !flags.color),
    headers: flags.headers,
    width: io.stdoutIsTTY ? io.columns : undefined,
    version: deps.version,
  };
}

/** Writes PRINTED: stdout's pieces, then the notes on stderr. */
export function emit(deps: Deps, printed: Printed): void {
  for (const piece of printed.out) deps.io.stdout.write(piece);
  for (const line of printed.notes) writeLine(deps.io.stderr, line);
}

/** Prints RESULT of KIND as FORMAT. */
export async function printResult<K extends PrintedKind>(
  deps: Deps,
  kind: K,
  format: FormatOf<K>,
  result: ResultOf[K],
  flags: PrintFlags,
): Promise<void> {
  const printer = await toPrinter(kind, format);
  emit(deps, printer(result, printContext(deps, flags)));
}
