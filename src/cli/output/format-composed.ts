/** `composed`'s table: one row per resource Crossplane composes, then what could not be resolved or analysed. */
import { evidenceList } from '../composed-report.js';
import type { ComposedView } from '../../composed/report.js';

/** kubectl's word for a cell with nothing in it. */
const NONE = '<none>';
const UNKNOWN = '<unknown>';

/**
 * `composed`'s table as rows: STATUS, RESOURCE, ACCESS, LACKS (verbs Crossplane's account lacks) and NEEDED BY (the
 * first three pieces of evidence); `wide` adds ROLE (what sync --only composed writes) and lists every piece of
 * evidence.
 */
export function composedTableRows(view: ComposedView, wide: boolean): { head: string[]; rows: string[][] } {
  const needed = (list: Parameters<typeof evidenceList>[0]): string =>
    evidenceList(list, wide ? Number.POSITIVE_INFINITY : undefined);
  const rows: string[][] = [];
  for (const r of view.resources) {
    const row = [r.status, r.resource, r.access, r.lacking.length > 0 ? r.lacking.join(',') : NONE];
    rows.push(wide ? [...row, r.role ?? NONE, needed(r.neededBy)] : [...row, needed(r.neededBy)]);
  }
  for (const u of view.unresolved) {
    const row = ['unknown', u.name, UNKNOWN, UNKNOWN];
    rows.push(wide ? [...row, NONE, `${u.reason}; ${needed(u.neededBy)}`] : [...row, needed(u.neededBy)]);
  }
  for (const n of view.notAnalysed) {
    const fn = n.function === '' ? 'unnamed' : n.function;
    const row = ['not-analysed', UNKNOWN, UNKNOWN, UNKNOWN];
    const by = `${n.kind ?? 'Composition'}/${n.composition} (step ${n.step}, function ${fn})`;
    rows.push(wide ? [...row, NONE, by] : [...row, by]);
  }
  const head = ['STATUS', 'RESOURCE', 'ACCESS', 'LACKS'];
  return { head: wide ? [...head, 'ROLE', 'NEEDED BY'] : [...head, 'NEEDED BY'], rows };
}
