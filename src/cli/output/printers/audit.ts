/** audit's printers: the findings as a table with their summary on stderr, as data, as SARIF, and as a graph. */
import type { AuditRun } from '../../../app/audit.js';
import { auditFixLines, auditSummary, auditTableRows } from '../format-audit.js';
import { formatAuditSarif } from '../format-audit-sarif.js';
import { formatGraph } from '../format-graph.js';
import { auditGraph } from '../graph-model.js';
import { formatTable } from '../table.js';
import { data, text, type Printed, type Printers } from '../printer.js';

function table({ report }: AuditRun, wide: boolean, color: boolean, headers: boolean): Printed {
  const summary = auditSummary(report);
  // As kubectl's "No resources found": on stderr, so that tables merged across contexts stay tables.
  if (report.findings.length === 0) return { out: [], notes: ['No findings.', ...summary] };
  const model = auditTableRows(report, wide);
  // -o wide prints each finding's fix after its table: not one table, so runs across contexts show it in sections.
  if (wide) {
    const lines = [formatTable(headers ? model.head : [], model.rows, color), ...auditFixLines(report)];
    return { out: text(lines.join('\n')).out, notes: summary };
  }
  const out = function* (): Generator<string> {
    yield `${formatTable(headers ? model.head : [], model.rows, color)}\n`;
  };
  return { out: { [Symbol.iterator]: out }, notes: summary, table: model };
}

export const auditPrinters: Printers<'audit'> = {
  table: (r, ctx) => table(r, false, ctx.color, ctx.headers),
  wide: (r, ctx) => table(r, true, ctx.color, ctx.headers),
  json: (r) => data(r.report, 'json'),
  yaml: (r) => data(r.report, 'yaml'),
  sarif: (r, ctx) => text(formatAuditSarif(r.report, r.bindingOrigins, ctx.version)),
  dot: (r) => text(formatGraph(auditGraph(r.report.findings), 'dot')),
  mermaid: (r) => text(formatGraph(auditGraph(r.report.findings), 'mermaid')),
  html: (r) => text(formatGraph(auditGraph(r.report.findings), 'html')),
};
