/**
 * A command's result printed through the registry: the printer of its kind and -o format, on the run's streams; in
 * a run across contexts, handed over as data instead (Deps.collect).
 */
import { writeLine } from '../io.js';
import type { Deps } from '../context.js';
import { toPrinter, type FormatOf } from './registry.js';
import type { PrintContext, Printed, PrintedKind, ResultOf } from './printer.js';
import type { PrintFlags } from './shown.js';
import { printChunks } from './print-chunks.js';
import { useColor } from './terminal.js';

export type { PrintFlags } from './shown.js';

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

/** Writes PRINTED: stdout's pieces (waiting whenever the stream's buffer is full), then the notes on stderr. */
async function emit(deps: Deps, printed: Printed): Promise<void> {
  await printChunks(deps.io.stdout, printed.out);
  for (const line of printed.notes) writeLine(deps.io.stderr, line);
}

/** Prints RESULT of KIND as FORMAT (in a run across contexts: hands it over). */
export async function printResult<K extends PrintedKind>(
  deps: Deps,
  kind: K,
  format: FormatOf<K>,
  result: ResultOf[K],
  flags: PrintFlags,
): Promise<void> {
  if (deps.collect !== undefined) {
    deps.collect.push({ printed: { kind, format, result, flags } });
    return;
  }
  const printer = await toPrinter(kind, format);
  await emit(deps, printer(result, printContext(deps, flags)));
}

/** A line for stderr, in words (escaped when written); in a run across contexts, handed over. */
export function showLine(deps: Deps, line: string): void {
  if (deps.collect !== undefined) deps.collect.push({ line });
  else writeLine(deps.io.stderr, line);
}
