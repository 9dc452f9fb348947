import Table from 'cli-table3';
import { escapeTerminal } from '../../app/escape.js';

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
  const table = new Table({
    head: head.map(escapeTerminal),
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
  for (const row of rows) table.push(row.map(escapeTerminal));
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}
