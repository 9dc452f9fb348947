/** audit's printers: the findings as a table with their summary on stderr, as data, as SARIF, and as a graph. */
import type { AuditRun } from '../../../app/audit.js';
import { formatJson, formatYaml } from '../format-data.js';
import { auditSummary, formatAuditTable } from '../format-audit.js';
import { formatAuditSarif } from '../format-audit-sarif.js';
import { formatGraph } from '../format-graph.js';
import { auditGraph } from '../graph-model.js';
import { text, type Printed, type Printers } from '../printer.js';

function table({ report }: AuditRun, wide: boolean, color: boolean, headers: boolean): Printed {
  const summary = auditSummary(report);
  // As kubectl's "No resources found": on stderr, so that tables merged across contexts stay tables.
  if (report.findings.length === 0) return { out: [], notes: ['No findings.', ...summary] };
  return { out: text(formatAuditTable(report, wide, color, headers)).out, notes: summary };
}

export const auditPrinters: Printers<'audit'> = {
  table: (r, ctx) => table(r, false, ctx.color, ctx.headers),
  wide: (r, ctx) => table(r, true, ctx.color, ctx.headers),
  json: (r) => text(formatJson(r.report)),
  yaml: (r) => text(formatYaml(r.report)),
  sarif: (r, ctx) => text(formatAuditSarif(r.report, r.bindingOrigins, ctx.version)),
  dot: (r) => text(formatGraph(auditGraph(r.report.findings), 'dot')),
  mermaid: (r) => text(formatGraph(auditGraph(r.report.findings), 'mermaid')),
  html: (r) => text(formatGraph(auditGraph(r.report.findings), 'html')),
};
