/** who-can's printers: the paths as a table (wide: every rule), as data, and as a graph. */
import { formatJson, formatYaml } from '../format-data.js';
import { formatGraph } from '../format-graph.js';
import { whoCanGraph } from '../graph-model.js';
import { formatWhoCanTable, whoCanWarnings } from '../format-who-can.js';
import type { Printed, Printers, ResultOf } from '../printer.js';

/** TEXT, then the answer's warnings on stderr (every format has them). */
function withWarnings(result: ResultOf['who-can'], s: string): Printed {
  return {
    out: [s.endsWith('\n') ? s : `${s}\n`],
    notes: whoCanWarnings(result).map((l) => `warning: ${l}`),
  };
}

export const whoCanPrinters: Printers<'who-can'> = {
  table: (r, ctx) => withWarnings(r, formatWhoCanTable(r, false, ctx.color, ctx.headers)),
  // On a terminal a rule's long resource list folds to its width (piped: complete), each resource once.
  wide: (r, ctx) => withWarnings(r, formatWhoCanTable(r, true, ctx.color, ctx.headers, ctx.width)),
  json: (r) => withWarnings(r, formatJson(r)),
  yaml: (r) => withWarnings(r, formatYaml(r)),
  dot: (r) => withWarnings(r, formatGraph(whoCanGraph(r), 'dot')),
  mermaid: (r) => withWarnings(r, formatGraph(whoCanGraph(r), 'mermaid')),
  html: (r) => withWarnings(r, formatGraph(whoCanGraph(r), 'html')),
};
