/**
 * One output from the runs of a command across contexts, merged from what each run handed over as data (its result,
 * warnings and stderr lines: output/shown.ts), never from printed text. Each result goes through the printer it
 * would have been printed with alone, as soon as its context is done (printContext: the result's data is let go
 * then, not held until the last context is done); then tables (printers that give their rows) gain a first CONTEXT
 * column and are laid out once, json and yaml become a List with one item per context (`context`, and `result`, the
 * value the printer prints, or `error`; a partial answer has both, and `partial: true`), a plan's diff names the
 * context in its headers (the diff printer's own parameter), and anything else comes in one section per context. A context's name is the kubeconfig's, which may hold
 * anything: wherever it is shown to a person (a cell, a header, a stderr line) it is escaped for the terminal; json
 * and yaml carry it as it is.
 */
import { escapeTerminal } from '../../escape.js';
import type { ContextRun } from '../../app/fleet.js';
import { formatWarning } from '../warnings.js';
import { formatListChunks } from './stream-list.js';

// The fleet prints its merged output in pieces (loaded with it, lazily).
export { printChunks } from './print-chunks.js';
import type { Printed, TableModel } from './printer.js';
import { toPrinter } from './registry.js';
import type { Shown } from './shown.js';
import { formatTable } from './table.js';

/** One context's run as the fleet keeps it: what it showed, printed (printContext). */
export type CollectedRun = ContextRun<PrintedContext>;

/** What to print once every context is done: stdout, then stderr's lines (to be escaped as they are written). */
export interface FleetOutput {
  /** In pieces: a fleet's -o json|yaml may pass the longest string JavaScript can hold (twenty large clusters). */
  readonly stdout: Iterable<string>;
  readonly stderr: string[];
}

/** What a context printed: one table (its rows as data, and the printed table), or text. */
type Part =
  | { readonly run: CollectedRun; readonly table: TableModel; readonly printed: Printed }
  | { readonly run: CollectedRun; readonly table: undefined; readonly text: string };

/** A context's results printed, and its stderr lines in the order it showed them. */
export interface PrintedContext {
  readonly printed: readonly Printed[];
  readonly stderr: readonly string[];
}

/** A context's run with what it showed, printed. */
interface Shown1 extends PrintedContext {
  readonly run: CollectedRun;
}

/**
 * Each result SHOWN through its printer, as a run's own capture printed it (no terminal: no colour, no width),
 * CONTEXT given to the printers that name it; VERSION: the plugin's, for the printers that name it.
 */
export async function printContext(
  shown: readonly Shown[],
  context: string,
  version: string,
): Promise<PrintedContext> {
  const printed: Printed[] = [];
  const stderr: string[] = [];
  for (const item of shown) {
    if ('warning' in item) stderr.push(...formatWarning(item.warning));
    else if ('line' in item) stderr.push(item.line);
    else {
      const { kind, format, result, flags } = item.printed;
      const printer = await toPrinter(kind, format);
      const p = printer(result, {
        color: false,
        headers: flags.headers,
        width: undefined,
        version,
        context,
      });
      printed.push(p);
      stderr.push(...p.notes);
    }
  }
  return { printed, stderr };
}

function errorText(r: CollectedRun): string {
  return (r.error ?? []).map((l) => l.replace(/^error: /, '')).join('; ');
}

/** Each context's stderr lines (`context NAME: ...`), then one error line per failed context with its hint lines. */
function stderrOf(shown: readonly Shown1[]): string[] {
  const stderr: string[] = [];
  for (const { run, stderr: lines } of shown) {
    const name = escapeTerminal(run.context);
    for (const line of lines) {
      const escaped = escapeTerminal(line);
      if (escaped !== '') stderr.push(`context ${name}: ${escaped}`);
    }
    if (run.error !== undefined) {
      const [first = 'error: failed', ...rest] = run.error;
      stderr.push(
        first.replace(/^error: /, () => `error: context ${name}: `),
        ...rest,
      );
    }
  }
  return stderr;
}

const textOf = (p: readonly Printed[]): string => p.flatMap((x) => [...x.out]).join('');

/** A table's own text, without its lead lines (the table printers print the lead first, one line each). */
function tableText(p: Printed): string {
  const lead = p.table?.lead?.length ?? 0;
  return lead === 0 ? textOf([p]) : [...p.out].slice(lead).join('');
}

/**
 * What to print for RUNS as OUTPUT (the -o format). HEADERS: false for --no-headers (the merged table's header row;
 * each context's result keeps its own for the sections).
 */
export function mergeFleetOutput(runs: readonly CollectedRun[], output: string, headers = true): FleetOutput {
  const shown: Shown1[] = runs.map((run) => ({ run, ...run.output }));
  const stderr = stderrOf(shown);
  if (output === 'json' || output === 'yaml') {
    const items = shown.map(({ run, printed }) =>
      run.error === undefined
        ? { context: run.context, result: printed[0]?.data ?? null }
        : run.partial === true
          ? { context: run.context, result: printed[0]?.data ?? null, partial: true, error: errorText(run) }
          : { context: run.context, error: errorText(run) },
    );
    return { stdout: { [Symbol.iterator]: () => formatListChunks(items, output, false) }, stderr };
  }
  if (output === 'diff') return { stdout: shown.map((s) => textOf(s.printed)).join(''), stderr };
  // The contexts that printed something, each as one table (its rows as data) or as text.
  const parts = shown.flatMap(({ run, printed }): Part[] => {
    const [only] = printed;
    if (printed.length === 1 && only?.table !== undefined) return [{ run, table: only.table, printed: only }];
    const text = textOf(printed);
    return text === '' ? [] : [{ run, table: undefined, text }];
  });
  // A write's lines naming each object written (`namespace/team-a configured`) come first, each with its context.
  const before = parts
    .flatMap(({ run, table }) =>
      (table?.lead ?? []).map((l) => `context ${escapeTerminal(run.context)}: ${l}\n`),
    )
    .join('');
  const tables = parts.flatMap((p) => (p.table !== undefined ? [{ run: p.run, table: p.table }] : []));
  if (parts.length > 0 && tables.length === parts.length)
    return { stdout: `${before}${mergeTables(tables, headers)}`, stderr };
  const sections = parts.map((p) => {
    const text = p.table !== undefined ? tableText(p.printed) : p.text;
    return `# context ${escapeTerminal(p.run.context)}\n${text}`;
  });
  return { stdout: `${before}${sections.join('\n')}`, stderr };
}

/** One table of every context's rows, with a first CONTEXT column (the first table's header); HEADERS: its row. */
function mergeTables(
  tables: readonly { readonly run: CollectedRun; readonly table: TableModel }[],
  headers: boolean,
): string {
  const head = ['CONTEXT', ...(tables[0]?.table.head ?? [])];
  const rows = tables.flatMap(({ run, table }) => table.rows.map((row) => [run.context, ...row]));
  return `${formatTable(headers ? head : [], rows, false)}\n`;
}
