/** What a printer takes and gives: the results by kind, how to print them, and the text printed. */
import type { AuditRun } from '../../app/audit.js';
import type { Incomplete } from '../../app/who-can.js';
import type { AccessMatrix } from '../../explain/matrix.js';
import type { Explanation } from '../../explain/explain-role.js';
import type { SubjectExplanation } from '../../explain/explain-subject.js';
import type { ComposedView } from '../../composed/report.js';
import type { LookupResult } from '../../lookup/lookup.js';
import type { WhoCanResult } from '../../who-can/who-can.js';
import type { FormatOf } from './output-formats.js';

/** The results the printers of printers/ take, by kind (the plan and the version print through their own code). */
export interface ResultOf {
  readonly 'who-can': WhoCanResult & Incomplete;
  readonly lookup: LookupResult;
  readonly composed: ComposedView;
  readonly audit: AuditRun;
  readonly 'explain-role': Explanation;
  readonly 'explain-subject': SubjectExplanation;
  readonly 'explain-matrix': AccessMatrix;
}
export type PrintedKind = keyof ResultOf;

/** How a printer shows a result: resolved from the flags and the terminal by the command. */
export interface PrintContext {
  /** Colour on stdout (a terminal, without --no-color and NO_COLOR). */
  readonly color: boolean;
  /** Tables with their header row (false: --no-headers). */
  readonly headers: boolean;
  /** The terminal's width when stdout is one (long lists fold to it), else undefined. */
  readonly width: number | undefined;
  /** The plugin's version (SARIF names its tool). */
  readonly version: string;
}

/** What a printer gives back: stdout's text in pieces (a long table is never one string), and lines for stderr. */
export interface Printed {
  readonly out: Iterable<string>;
  /** Lines for stderr, after stdout (a table's summary, a note that nothing was found, warnings). */
  readonly notes: readonly string[];
}

export type Printer<R> = (result: R, ctx: PrintContext) => Printed;
export type Printers<K extends PrintedKind> = { readonly [F in FormatOf<K>]: Printer<ResultOf[K]> };

/** Text as the commands print it: ending in one line break. */
export function text(s: string): Printed {
  return { out: [s.endsWith('\n') ? s : `${s}\n`], notes: [] };
}
