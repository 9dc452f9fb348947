import type { AuditReport } from '../../app/audit.js';
import type { Finding, FindingStep, SubjectRef } from '../../audit/audit.js';

function subjectText(s: SubjectRef): string {
  return `${s.kind}/${s.namespace !== undefined ? `${s.namespace}/` : ''}${s.name}`;
}

function triggerText(s: FindingStep): string {
  const t = s.trigger;
  const name = t.name !== undefined ? ` ${t.name}` : '';
  const ns = t.namespace !== undefined ? ` -n ${t.namespace}` : '';
  return `${s.mechanism}: ${t.verb} ${t.resource}${name}${ns}`;
}

function reached(f: Finding): string {
  const last = f.steps[f.steps.length - 1];
  return last !== undefined ? subjectText(last.actsAs) : '';
}

/** What -o wide prints after its table: each finding numbered, its steps' reasons and its fix. */
export function auditFixLines(report: AuditReport): string[] {
  return report.findings.flatMap((f, i) => [
    `\n${String(i + 1)}. ${subjectText(f.subject)} → ${f.capability}`,
    ...f.steps.map((s) => `   - ${s.why}`),
    `   fix: ${f.fix.replace(/\n/g, '\n        ')}`,
  ]);
}

/**
 * The findings' table, as its header and rows: `table`, one row per finding (severity, subject, capability, first
 * step, the identity reached); `wide`, one row per step, with the binding and role that allow its trigger (each
 * finding's fix is printed after the table: auditFixLines).
 */
export function auditTableRows(report: AuditReport, wide: boolean): { head: string[]; rows: string[][] } {
  const rows: string[][] = [];
  for (const f of report.findings) {
    const first = f.steps[0];
    if (!wide) {
      rows.push([
        f.severity,
        subjectText(f.subject),
        f.capability,
        first !== undefined ? triggerText(first) : '',
        reached(f),
      ]);
      continue;
    }
    f.steps.forEach((s, i) => {
      const lead = i === 0 ? [f.severity, subjectText(f.subject), f.capability] : ['', '', ''];
      rows.push([...lead, `${String(i + 1)}. ${triggerText(s)}`, s.via.join(' → '), subjectText(s.actsAs)]);
    });
  }
  const head = wide
    ? ['SEVERITY', 'SUBJECT', 'CAPABILITY', 'STEP', 'VIA', 'ACTS AS']
    : ['SEVERITY', 'SUBJECT', 'CAPABILITY', 'FIRST STEP', 'REACHES'];
  return { head, rows };
}

/** What the table does not show, for stderr: accepted findings, accounts by design, parts not read. */
export function auditSummary(report: AuditReport): string[] {
  const lines: string[] = [];
  if (report.accepted.length > 0)
    lines.push(`${String(report.accepted.length)} finding(s) accepted (--accept)`);
  if (report.byDesign.length > 0) {
    lines.push(
      `by design (not audited): ${report.byDesign.map((b) => `${subjectText(b.subject)} (${b.reason})`).join(', ')}`,
    );
  }
  return lines;
}
