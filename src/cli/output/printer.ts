/** What a printer takes and gives: the results by kind, how to print them, and the text printed. */
import type { AuditRun } from '../../app/audit.js';
import type { WriteOutcome } from '../../app/write.js';
import type { Incomplete } from '../../app/who-can.js';
import type { AccessMatrix } from '../../explain/matrix.js';
import type { Explanation } from '../../explain/explain-role.js';
import type { SubjectExplanation } from '../../explain/explain-subject.js';
import type { ComposedView } from '../../composed/report.js';
import type { LookupResult } from '../../lookup/lookup.js';
import type { WhoCanResult } from '../../who-can/who-can.js';
import type { FormatOf } from './output-formats.js';
import { formatJson } from './format-json.js';

/** A write command's plan as printed: its outcome, and how far it went. */
export interface PlanView {
  readonly outcome: WriteOutcome;
  /** The writes that failed or never started: left to their error lines. */
  readonly failed: ReadonlySet<string>;
  /** The table says what would be done (TO CREATE, ...), not what was done. */
  readonly dryRun: boolean;
  /** Written (or sent with --dry-run=server): the table is led by a line per object written. */
  readonly written: boolean;
  /** --dry-run=server: each written line says so. */
  readonly serverDryRun: boolean;
}

/** The results the printers of printers/ take, by kind (the version prints through its own code). */
export interface ResultOf {
  readonly plan: PlanView;
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
  /** In a run across contexts, the context printed (a plan's diff names it in its headers); else undefined. */
  readonly context?: string | undefined;
}

/**
 * A table as rows of cells, before it is laid out: what runs across contexts merge (a first CONTEXT column added),
 * the text made once at the end. LEAD: lines printed before the table (the objects a write named, as kubectl does).
 */
export interface TableModel {
  readonly head: readonly string[];
  readonly rows: readonly (readonly string[])[];
  readonly lead?: readonly string[];
}

/** What a printer gives back: stdout's text in pieces (a long table is never one string), and lines for stderr. */
export interface Printed {
  readonly out: Iterable<string>;
  /** Lines for stderr, after stdout (a table's summary, a note that nothing was found, warnings). */
  readonly notes: readonly string[];
  /** A table's rows as data, when stdout is that one table (and its LEAD lines): runs across contexts merge them. */
  readonly table?: TableModel;
  /** -o json|yaml: the value printed, which runs across contexts put in their List as each context's result. */
  readonly data?: unknown;
}

export type Printer<R> = (result: R, ctx: PrintContext) => Printed;
export type Printers<K extends PrintedKind> = { readonly [F in FormatOf<K>]: Printer<ResultOf[K]> };

/** Text as the commands print it: ending in one line break. */
export function text(s: string): Printed {
  return { out: [s.endsWith('\n') ? s : `${s}\n`], notes: [] };
}

/**
 * formatYaml, set by toPrinter when it hands out a `-o yaml` printer: the `yaml` package (format-data.ts) is loaded
 * only for YAML, not at start-up for every format.
 */
let yamlFormat: ((value: unknown) => string) | undefined;

export function useYamlFormat(format: (value: unknown) => string): void {
  yamlFormat = format;
}

/** VALUE printed as FORMAT (json or yaml), the value kept as data for runs across contexts. */
export function data(value: unknown, format: 'json' | 'yaml'): Printed {
  if (format === 'json') return { ...text(formatJson(value)), data: value };
  if (yamlFormat === undefined) throw new Error('a yaml printer used before toPrinter loaded formatYaml');
  return { ...text(yamlFormat(value)), data: value };
}
