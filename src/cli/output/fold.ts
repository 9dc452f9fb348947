/**
 * Folding long lists and names to a terminal's width: what a person reads on a terminal. Machine output (-o json,
 * yaml) and -o wide never fold. Widths are counted in UTF-16 code units of the text as it will be printed (escaped):
 * the folded texts are names and lists of names.
 */
import { escapeTerminal } from '../../escape.js';
import { plural } from './plural.js';

/** Each item once, in the order first seen (Crossplane's provider roles list a family's resources twice). */
export function uniqueItems(items: readonly string[]): string[] {
  return [...new Set(items)];
}

const more = (n: number): string => ` … and ${n} more`;

/**
 * ITEMS joined with commas when that fits in BUDGET columns; else as many leading items as fit followed by
 * `… and N more`. Items FIRST picks come first when folding, so the one the question was about stays in sight. When
 * not even one item and the count fit, and a NOUN is given, only the count is left (`48 resources`); without one,
 * at least one item is shown.
 */
export function foldList(
  items: readonly string[],
  budget: number,
  first: (item: string) => boolean = () => false,
  noun?: string,
): string {
  const all = items.join(',');
  if (width(all) <= budget) return all;
  const ordered = [...items.filter(first), ...items.filter((i) => !first(i))];
  const shown: string[] = [];
  let used = 0;
  for (const item of ordered) {
    const next = used + (shown.length > 0 ? 1 : 0) + width(item);
    const restAfter = ordered.length - shown.length - 1;
    if (shown.length > 0 && next + (restAfter > 0 ? width(more(restAfter)) : 0) > budget) break;
    shown.push(item);
    used = next;
  }
  const rest = ordered.length - shown.length;
  const count = `${ordered.length} ${noun ?? ''}`;
  if (noun !== undefined && rest > 0 && used + width(more(rest)) > budget && width(count) <= budget)
    return count;
  return rest === 0 ? shown.join(',') : `${shown.join(',')}${more(rest)}`;
}

/** NAME cut in its middle to BUDGET columns (`crossplane:provider:up…:aggregate-to-edit`): both ends stay readable. */
export function foldMiddle(name: string, budget: number): string {
  if (width(name) <= budget) return name;
  const keep = Math.max(2, budget - 1);
  const head = Math.ceil(keep / 2);
  return `${name.slice(0, head)}…${name.slice(name.length - (keep - head))}`;
}

/** Columns TEXT takes once printed: escaped, one per UTF-16 code unit. */
export function width(text: string): number {
  return escapeTerminal(text).length;
}

/** How a table column may be narrowed: at most down to MIN columns, by SHRINK. */
export interface ColumnFold {
  readonly column: number;
  readonly min: number;
  readonly shrink: (cell: string, width: number) => string;
}

/**
 * Narrows ROWS so that, printed GAP spaces apart under HEAD, they fit in COLUMNS: each fold in turn (the first is
 * narrowed first) takes away what is still too much, never below its minimum nor below its header. A table that
 * cannot fit even then is returned as narrow as the folds allow.
 */
export function fitRows(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  columns: number,
  gap: number,
  folds: readonly ColumnFold[],
): string[][] {
  let out = rows.map((r) => [...r]);
  const total = (): number => {
    const widths = widthsOf(head, out);
    return widths.reduce((a, b) => a + b, 0) + gap * Math.max(0, widths.length - 1);
  };
  const shrinkTo = (column: number, w: number, fold: ColumnFold): void => {
    out = out.map((r, n) =>
      r.map((cell, i) => {
        if (i !== column) return cell;
        const original = rows[n]?.[i] ?? cell;
        return width(original) > w ? fold.shrink(original, w) : original;
      }),
    );
  };
  for (const fold of folds) {
    const over = total() - columns;
    if (over <= 0) break;
    const current = widthsOf(head, out)[fold.column] ?? 0;
    const target = Math.max(fold.min, width(head[fold.column] ?? ''), current - over);
    if (target >= current) continue;
    shrinkTo(fold.column, target, fold);
    // A cell that could not get as narrow (one long item) sets the column's width: the others may use it too.
    const reached = widthsOf(head, out)[fold.column] ?? target;
    if (reached > target) shrinkTo(fold.column, reached, fold);
  }
  // Later folds may have freed more than was needed: give what is left back, first fold first.
  for (const fold of folds) {
    const slack = columns - total();
    if (slack <= 0) break;
    const current = widthsOf(head, out)[fold.column] ?? 0;
    const full = widthsOf(head, rows)[fold.column] ?? 0;
    if (current < full) shrinkTo(fold.column, Math.min(full, current + slack), fold);
  }
  return out;
}

function widthsOf(head: readonly string[], rows: readonly (readonly string[])[]): number[] {
  const n = Math.max(head.length, ...rows.map((r) => r.length));
  return Array.from({ length: n }, (_, i) =>
    Math.max(width(head[i] ?? ''), ...rows.map((r) => width(r[i] ?? ''))),
  );
}

/** A rule credited to one role, with the other roles that carry it (explain's provenance, who-can's paths). */
export interface SharedRule {
  readonly sharedWith?: readonly string[] | undefined;
  /** The provider family the credited role and all of `sharedWith` belong to, when they do. */
  readonly family?: string | undefined;
}

/** ` +N more (FAMILY)` after the credited role in a table's cell; '' when no other role carries the rule. */
export function sharedSuffix(p: SharedRule): string {
  if (p.sharedWith === undefined) return '';
  return ` +${String(p.sharedWith.length)} more${p.family !== undefined ? ` (${p.family})` : ''}`;
}

/** The further roles that carry the same rule, folded: a family's members by count, up to three others by name. */
export function sharedLine(p: SharedRule): string {
  const others = p.sharedWith ?? [];
  const n = others.length;
  if (p.family !== undefined) {
    return escapeTerminal(
      `and ${plural(n, 'more role')} of the ${p.family} family: provider families share their rules`,
    );
  }
  if (n <= 3) return escapeTerminal(`and ${others.join(', ')}, which carry the same rule`);
  return escapeTerminal(
    `and ${others.slice(0, 2).join(', ')} and ${String(n - 2)} more roles, which carry the same rule`,
  );
}
