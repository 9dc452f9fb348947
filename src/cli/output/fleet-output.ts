/**
 * One output from the runs of a command across contexts, each printed as it would have been alone: tables gain a
 * first CONTEXT column, json and yaml become a List with one item per context (`context`, and `result` or `error`),
 * diffs name the context in their headers, other text comes in one section per context. A context's name is the
 * kubeconfig's, which may hold anything: wherever it is shown to a person (a cell, a header, a stderr line) it is
 * escaped for the terminal; json and yaml carry it as it is.
 */
import { parse } from 'yaml';
import { escapeTerminal } from '../../escape.js';
import type { ContextRun } from '../../app/fleet.js';
import { formatJson, formatYaml } from './format-data.js';

/** The columns of a table printed with two spaces between them: where each header cell starts. */
function columnStarts(header: string): number[] {
  const starts: number[] = [];
  for (let i = 0; i < header.length; i++) {
    if (header[i] !== ' ' && (i === 0 || (header[i - 1] === ' ' && header[i - 2] === ' '))) starts.push(i);
  }
  return starts;
}

function cells(line: string, starts: readonly number[]): string[] {
  return starts.map((s, i) => line.slice(s, starts[i + 1] ?? line.length).trim());
}

/** Whether TEXT is one table of ours: a header of upper-case words, then rows. */
/** A line of a write naming an object written, as kubectl apply prints it (format-plan.ts, formatPlanWritten). */
const WRITTEN = /^[a-z0-9.-]+\/\S+ (created|configured|deleted)( \(server dry run\))?$/;

function isTable(text: string): boolean {
  const first = text.split('\n', 1)[0] ?? '';
  return /^[A-Z][A-Z ]*[A-Z]$/.test(first.trimEnd()) && columnStarts(first).length > 1;
}

/** Display columns of a cell: one per code point (the cells are escaped: no control or combining tricks). */
function width(s: string): number {
  return Array.from(s).length;
}

function align(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, width(c))));
  return rows
    .map((row) =>
      row
        .map((c, i) => (i === row.length - 1 ? c : c + ' '.repeat((widths[i] ?? 0) - width(c) + 2)))
        .join('')
        .trimEnd(),
    )
    .join('\n')
    .concat('\n');
}

/** One table of every context's, with a first CONTEXT column; without the header row unless HEADERS. */
function mergeTables(runs: readonly ContextRun[], headers: boolean): string {
  const rows: string[][] = [];
  let head: string[] | undefined;
  for (const r of runs) {
    const lines = r.stdout.split('\n').filter((l) => l.trim() !== '');
    const [header, ...body] = lines;
    if (header === undefined) continue;
    const starts = columnStarts(header);
    head ??= ['CONTEXT', ...cells(header, starts)];
    for (const line of body) rows.push([escapeTerminal(r.context), ...cells(line, starts)]);
  }
  return head === undefined ? '' : align(headers ? [head, ...rows] : rows);
}

function parsed(r: ContextRun, output: 'json' | 'yaml'): unknown {
  return output === 'json' ? (JSON.parse(r.stdout) as unknown) : (parse(r.stdout) as unknown);
}

function errorText(r: ContextRun): string {
  return (r.error ?? []).map((l) => l.replace(/^error: /, '')).join('; ');
}

/**
 * What to print: stdout, then stderr lines (each context's own, then one error line per failed context). HEADERS:
 * false for --no-headers (the runs' tables carry their header rows, which the merge reads their columns from).
 */
export function mergeFleetOutput(
  runs: readonly ContextRun[],
  output: string,
  headers = true,
): { stdout: string; stderr: string[] } {
  const stderr: string[] = [];
  for (const r of runs) {
    const name = escapeTerminal(r.context);
    for (const line of r.stderr.split('\n')) if (line !== '') stderr.push(`context ${name}: ${line}`);
    if (r.error !== undefined) {
      const [first = 'error: failed', ...rest] = r.error;
      stderr.push(
        first.replace(/^error: /, () => `error: context ${name}: `),
        ...rest,
      );
    }
  }
  if (output === 'json' || output === 'yaml') {
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      items: runs.map((r) =>
        r.error !== undefined
          ? { context: r.context, error: errorText(r) }
          : { context: r.context, result: parsed(r, output) },
      ),
    };
    return { stdout: output === 'json' ? formatJson(list) : formatYaml(list), stderr };
  }
  // A write's lines naming each object written (`namespace/team-a configured`) come before its table: each is shown
  // with its context, and the tables that follow are merged.
  const written: string[] = [];
  const ok = runs
    .filter((r) => r.stdout !== '')
    .map((r) => {
      if (output !== 'table') return r;
      const lines = r.stdout.split('\n');
      const n = lines.findIndex((l) => !WRITTEN.test(l));
      if (n <= 0) return r;
      const name = escapeTerminal(r.context);
      written.push(...lines.slice(0, n).map((l) => `context ${name}: ${l}\n`));
      return { ...r, stdout: lines.slice(n).join('\n') };
    });
  const before = written.join('');
  if (output === 'diff') {
    const stdout = ok
      .map((r) =>
        r.stdout.replace(
          /^(---|\+\+\+) (live|desired)\//gm,
          (_m, sign: string, side: string) => `${sign} ${side}/${escapeTerminal(r.context)}/`,
        ),
      )
      .join('');
    return { stdout, stderr };
  }
  if (ok.length > 0 && ok.every((r) => isTable(r.stdout)))
    return { stdout: `${before}${mergeTables(ok, headers)}`, stderr };
  return {
    stdout: `${before}${ok.map((r) => `# context ${escapeTerminal(r.context)}\n${r.stdout}`).join('\n')}`,
    stderr,
  };
}
