import Table from 'cli-table3';
import { escapeTerminal } from '../../escape.js';

/**
 * Renders a table. cli-table3 colours headers and borders even when piped and ignores NO_COLOR, so the style is
 * always set explicitly: colour only when the caller decided it may. Columns are `gap` spaces apart; no borders.
 * Every cell is escaped for the terminal (its text comes from the cluster): a control character, a line break or a
 * bidi control in a name prints as its Go escape and can neither move the cursor nor split or reorder a row.
 * With an empty HEAD (--no-headers) there is no header row, and the columns are as wide as their cells, as kubectl's
 * tabwriter makes them.
 */
export function formatTable(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  color: boolean,
  gap = 2,
): string {
  return [...tableChunks(head, rows, color, gap)].join('\n');
}

/**
 * Rows cli-table3 lays out in one call. It passes a table's rows as one call's arguments (past about 120,000 rows
 * the stack overflows), and it places each cell by scanning every row above it (time grows with the square of the
 * rows): a longer table is laid out in pieces of this many rows, at the whole table's column widths.
 */
const CHUNK_ROWS = 1_000;

/** Rows per piece of the plain path (no layout: the size of a piece only bounds the strings held at once). */
const PLAIN_CHUNK_ROWS = 10_000;

/**
 * Text whose every UTF-16 unit is one terminal column, as cli-table3 measures it (string-width): printable ASCII, and
 * the arrows, ellipsis, marks and box-drawing characters the plugin's own output puts in cells.
 */
const ONE_COLUMN_EACH = /^[\x20-\x7e→←…✓✗─│├└↻−⇄]*$/;

/**
 * The table of formatTable in pieces, each a run of whole lines without the final line break, to be joined with
 * one: a table of any length prints without being built in one call (as kubectl's printers write row by row), in
 * time proportional to its rows.
 *
 * When every character of every cell (once escaped) is one column wide (ONE_COLUMN_EACH) and every row has a cell per
 * column, the layout is plain: each column as wide as its widest cell plus the gap,
 * cells padded with spaces, each line's trailing spaces dropped. The rows are written that way; the header line
 * (which cli-table3 colours) is still cli-table3's own, at those widths. Any other table (wide characters, combining
 * marks, rows of different lengths) is laid out by cli-table3 piece by piece (chunkRows rows each), a piece narrower
 * than the whole table in some column laid out again at the whole table's widths.
 */
export function* tableChunks(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  color: boolean,
  gap = 2,
  chunkRows = CHUNK_ROWS,
): Generator<string> {
  const escapedHead = head.map(escapeTerminal);
  const escaped = (row: readonly string[]): string[] => row.map(escapeTerminal);
  const widths = plainWidths(escapedHead, rows, gap);
  if (widths !== undefined) {
    if (escapedHead.length > 0) yield trimLines(render(escapedHead, [], color, gap, widths).text);
    for (let i = 0; i < rows.length; i += PLAIN_CHUNK_ROWS) {
      const lines: string[] = [];
      for (const row of rows.slice(i, i + PLAIN_CHUNK_ROWS)) {
        let line = '';
        row.forEach((cell, c) => {
          const text = escapeTerminal(cell);
          line += text + ' '.repeat((widths[c] ?? 0) - text.length);
        });
        lines.push(line.trimEnd());
      }
      yield lines.join('\n');
    }
    return;
  }
  if (rows.length <= chunkRows) {
    yield trimLines(render(escapedHead, rows.map(escaped), color, gap).text);
    return;
  }
  const pieces: { text: string; widths: number[] }[] = [];
  for (let i = 0; i < rows.length; i += chunkRows) {
    pieces.push(render(i === 0 ? escapedHead : [], rows.slice(i, i + chunkRows).map(escaped), color, gap));
  }
  const all: number[] = [];
  for (const p of pieces) p.widths.forEach((w, c) => (all[c] = Math.max(all[c] ?? 0, w)));
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k] as { text: string; widths: number[] };
    pieces[k] = { text: '', widths: [] };
    const same = all.every((w, c) => piece.widths[c] === w);
    const slice = rows.slice(k * chunkRows, (k + 1) * chunkRows).map(escaped);
    yield trimLines(same ? piece.text : render(k === 0 ? escapedHead : [], slice, color, gap, all).text);
  }
}

/**
 * The column widths cli-table3 gives a table whose characters are each one column wide and whose rows all have one
 * cell per column (the widest cell's length plus the gap, at least 1); undefined for any other table.
 */
function plainWidths(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  gap: number,
): number[] | undefined {
  const columns = head.length > 0 ? head.length : (rows[0]?.length ?? 0);
  // A row of no cells is no line at all in cli-table3's layout.
  if (columns === 0) return undefined;
  const widths = new Array<number>(columns).fill(0);
  const measure = (row: readonly string[], escape: boolean): boolean => {
    if (row.length !== columns) return false;
    for (let c = 0; c < columns; c++) {
      const text = escape ? escapeTerminal(row[c] ?? '') : (row[c] ?? '');
      if (!ONE_COLUMN_EACH.test(text)) return false;
      if (text.length > (widths[c] ?? 0)) widths[c] = text.length;
    }
    return true;
  };
  if (!measure(head, false)) return undefined;
  for (const row of rows) if (!measure(row, true)) return undefined;
  return widths.map((w) => Math.max(1, w + gap));
}

function trimLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

/** One cli-table3 table (at WIDTHS when given), and the column widths it laid it out at. */
function render(
  head: string[],
  rows: readonly string[][],
  color: boolean,
  gap: number,
  widths?: readonly number[],
): { text: string; widths: number[] } {
  const table = new Table({
    head,
    ...(widths !== undefined ? { colWidths: [...widths] } : {}),
    style: {
      head: color ? ['cyan'] : [],
      border: color ? ['grey'] : [],
      compact: true,
      'padding-left': 0,
      'padding-right': gap,
    },
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '',
    },
  });
  for (const row of rows) table.push(row);
  const text = table.toString();
  // cli-table3 stores the widths it computed in its options.
  return { text, widths: table.options.colWidths.map((w) => w ?? 0) };
}
