/** explain --subject --matrix's printers: the matrix as a table, and as data. */
import { formatJson, formatYaml } from '../format-data.js';
import { formatMatrix } from '../format-matrix.js';
import { text, type Printers } from '../printer.js';

export const explainMatrixPrinters: Printers<'explain-matrix'> = {
  table: (m, ctx) => text(formatMatrix(m, ctx.color, ctx.headers)),
  yaml: (m) => text(formatYaml(m)),
  json: (m) => text(formatJson(m)),
};
