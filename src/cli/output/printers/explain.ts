/** explain's printers, one table per mode: a role, a subject, a subject's access matrix. */
import {
  formatExplainDot,
  formatExplainMermaid,
  formatExplainTable,
  formatExplainTree,
} from '../format-explain.js';
import { formatSubjectText } from '../format-explain-subject.js';
import { formatGraph } from '../format-graph.js';
import { formatMatrix } from '../format-matrix.js';
import { subjectGraph } from '../graph-model.js';
import { palette } from '../terminal.js';
import { data, text, type Printers } from '../printer.js';

// On a terminal, long lists fold to its width (-o wide, json and yaml stay complete).
export const explainRolePrinters: Printers<'explain-role'> = {
  tree: (e, ctx) => text(formatExplainTree(e, palette(ctx.color), ctx.width)),
  table: (e, ctx) => text(formatExplainTable(e, false, ctx.headers, ctx.width)),
  wide: (e, ctx) => text(formatExplainTable(e, true, ctx.headers)),
  yaml: (e) => data(e, 'yaml'),
  json: (e) => data(e, 'json'),
  dot: (e) => text(formatExplainDot(e)),
  mermaid: (e) => text(formatExplainMermaid(e)),
};

export const explainSubjectPrinters: Printers<'explain-subject'> = {
  text: (e) => text(formatSubjectText(e, false)),
  wide: (e) => text(formatSubjectText(e, true)),
  yaml: (e) => data(e, 'yaml'),
  json: (e) => data(e, 'json'),
  dot: (e) => text(formatGraph(subjectGraph(e), 'dot')),
  mermaid: (e) => text(formatGraph(subjectGraph(e), 'mermaid')),
  html: (e) => text(formatGraph(subjectGraph(e), 'html')),
};

export const explainMatrixPrinters: Printers<'explain-matrix'> = {
  table: (m, ctx) => text(formatMatrix(m, ctx.color, ctx.headers)),
  yaml: (m) => data(m, 'yaml'),
  json: (m) => data(m, 'json'),
};
