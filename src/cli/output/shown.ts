/**
 * What a command's run shows, as data: in a run across contexts each context's run hands over its result (the kind,
 * -o format and flags it would have printed with), its warnings and its stderr lines, in the order it shows them,
 * instead of printing them; fleet-output.ts prints them all as one output.
 */
import type { Warning } from '../../app/warning.js';
import type { FormatOf } from './output-formats.js';
import type { PrintedKind, ResultOf } from './printer.js';

/** The flags of how to print, as the command has them: --color (not --no-color) and the header row. */
export interface PrintFlags {
  readonly color: boolean;
  readonly headers: boolean;
}

/** A result to print: its kind, its -o format and the command's print flags. */
export interface PrintJob<K extends PrintedKind = PrintedKind> {
  readonly kind: K;
  readonly format: FormatOf<K>;
  readonly result: ResultOf[K];
  readonly flags: PrintFlags;
}

/** One thing a run shows: a result, a warning (as app/ returns it), or a line for stderr (already in words). */
export type Shown =
  { readonly printed: PrintJob } | { readonly warning: Warning } | { readonly line: string };
