/** explain ROLE's printers: the aggregation tree, the rule tables, the data and the graphs. */
import {
  formatExplainDot,
  formatExplainMermaid,
  formatExplainTable,
  formatExplainTree,
} from '../format-explain.js';
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
