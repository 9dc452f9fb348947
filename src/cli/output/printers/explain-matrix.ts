/** explain --subject --matrix's printers: the matrix as a table, and as data. */
import { formatMatrix } from '../format-matrix.js';
import { data, text, type Printers } from '../printer.js';

export const explainMatrixPrinters: Printers<'explain-matrix'> = {
  table: (m, ctx) => text(formatMatrix(m, ctx.color, ctx.headers)),
  yaml: (m) => data(m, 'yaml'),
  json: (m) => data(m, 'json'),
};
