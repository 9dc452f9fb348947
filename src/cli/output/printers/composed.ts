/** composed's printers: each kind's status as a table (wide: its sources), and the view as data. */
import type { ComposedView } from '../../../composed/report.js';
import { authorsLine, REPORTED_ONLY } from '../../composed-report.js';
import { formatJson, formatYaml } from '../format-data.js';
import { formatComposedTable } from '../format-composed.js';
import { text, type Printed, type Printers } from '../printer.js';

function table(view: ComposedView, wide: boolean, color: boolean, headers: boolean): Printed {
  if (view.resources.length + view.unresolved.length + view.notAnalysed.length === 0)
    return { out: [], notes: ['no composition, operation, composite resource or event names a kind'] };
  const notes: string[] = [];
  if (view.resources.some((r) => r.status === 'missing' || r.status === 'refused'))
    notes.push(authorsLine(view.grantAuthors));
  if (view.resources.some((r) => r.status === 'reported-only')) notes.push(REPORTED_ONLY);
  return { out: text(formatComposedTable(view, wide, color, headers)).out, notes };
}

export const composedPrinters: Printers<'composed'> = {
  table: (v, ctx) => table(v, false, ctx.color, ctx.headers),
  wide: (v, ctx) => table(v, true, ctx.color, ctx.headers),
  json: (v) => text(formatJson(v)),
  yaml: (v) => text(formatYaml(v)),
};
