/** composed's printers: each kind's status as a table (wide: its sources), and the view as data. */
import type { ComposedView } from '../../../composed/report.js';
import { authorsLine, REPORTED_ONLY } from '../../composed-report.js';
import { composedTableRows } from '../format-composed.js';
import { formatTable } from '../table.js';
import { data, type Printed, type Printers } from '../printer.js';

function table(view: ComposedView, wide: boolean, color: boolean, headers: boolean): Printed {
  if (view.resources.length + view.unresolved.length + view.notAnalysed.length === 0)
    return { out: [], notes: ['no composition, operation, composite resource or event names a kind'] };
  const notes: string[] = [];
  if (view.resources.some((r) => r.status === 'missing' || r.status === 'refused'))
    notes.push(authorsLine(view.grantAuthors));
  if (view.resources.some((r) => r.status === 'reported-only')) notes.push(REPORTED_ONLY);
  const model = composedTableRows(view, wide);
  const out = function* (): Generator<string> {
    yield `${formatTable(headers ? model.head : [], model.rows, color)}\n`;
  };
  return { out: { [Symbol.iterator]: out }, notes, table: model };
}

export const composedPrinters: Printers<'composed'> = {
  table: (v, ctx) => table(v, false, ctx.color, ctx.headers),
  wide: (v, ctx) => table(v, true, ctx.color, ctx.headers),
  json: (v) => data(v, 'json'),
  yaml: (v) => data(v, 'yaml'),
};
