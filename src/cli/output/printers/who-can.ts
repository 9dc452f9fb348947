/** who-can's printers: the paths as a table (wide: every rule), as data, and as a graph. */
import { formatGraph } from '../format-graph.js';
import { whoCanGraph } from '../graph-model.js';
import { whoCanTableRows, whoCanWarnings } from '../format-who-can.js';
import type { formatTable } from '../table.js';
import { data, text, type Printed, type Printers, type ResultOf } from '../printer.js';

/** PRINTED, then the answer's warnings on stderr (every format has them). */
function withWarnings(result: ResultOf['who-can'], printed: Printed): Printed {
  return { ...printed, notes: whoCanWarnings(result).map((l) => `warning: ${l}`) };
}

/** The table, its rows kept as data; on a terminal (COLUMNS) wide's long resource lists fold to its width. */
function table(
  tables: { formatTable: typeof formatTable } | undefined,
  r: ResultOf['who-can'],
  wide: boolean,
  color: boolean,
  headers: boolean,
  columns?: number,
): Printed {
  if (tables === undefined) throw new Error("who-can's table printed without the table module loaded");
  const model = whoCanTableRows(r, wide, headers, columns);
  const out = function* (): Generator<string> {
    yield `${tables.formatTable(headers ? model.head : [], model.rows, color)}\n`;
  };
  return withWarnings(r, { out: { [Symbol.iterator]: out }, notes: [], table: model });
}

/** who-can's printers; TABLES: table.ts, loaded by the registry only for -o table and wide. */
export const whoCanPrinters = (tables?: { formatTable: typeof formatTable }): Printers<'who-can'> => ({
  table: (r, ctx) => table(tables, r, false, ctx.color, ctx.headers),
  // On a terminal a rule's long resource list folds to its width (piped: complete), each resource once.
  wide: (r, ctx) => table(tables, r, true, ctx.color, ctx.headers, ctx.width),
  json: (r) => withWarnings(r, data(r, 'json')),
  yaml: (r) => withWarnings(r, data(r, 'yaml')),
  dot: (r) => withWarnings(r, text(formatGraph(whoCanGraph(r), 'dot'))),
  mermaid: (r) => withWarnings(r, text(formatGraph(whoCanGraph(r), 'mermaid'))),
  html: (r) => withWarnings(r, text(formatGraph(whoCanGraph(r), 'html'))),
});
