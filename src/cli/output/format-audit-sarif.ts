/**
 * `audit -o sarif`: the findings as SARIF 2.1.0 (OASIS, sarif-2.1/schema/sarif-schema-2.1.0.json), one result per
 * finding, so code scanning (GitHub's among others) shows them. A rule per capability and first step, with GitHub's
 * `security-severity` property; with -f, each result is located at the file of the binding that opens its first step
 * (the document within the file in the message), else at the binding as a logical location.
 */
import type { AuditReport } from '../../app/audit.js';
import type { Finding } from '../../audit/audit.js';

const SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** SARIF's levels, and GitHub's numeric security-severity (critical from 9.0, high from 7.0, medium from 4.0). */
const LEVEL: Readonly<Record<Finding['severity'], { level: string; score: string }>> = {
  critical: { level: 'error', score: '9.5' },
  high: { level: 'error', score: '8.0' },
  medium: { level: 'warning', score: '5.5' },
  low: { level: 'note', score: '2.0' },
};

function subjectText(s: Finding['subject']): string {
  return `${s.kind}/${s.namespace !== undefined ? `${s.namespace}/` : ''}${s.name}`;
}

/** `file (document 2)` or `file: items[3]` → the file, and the part within it. */
function splitOrigin(origin: string): { file: string; part?: string } {
  const doc = / \(document \d+\)$/.exec(origin) ?? /: items\[\d+\]$/.exec(origin);
  if (doc === null) return { file: origin };
  return { file: origin.slice(0, doc.index), part: doc[0].replace(/^[ :]+/, '').replace(/[()]/g, '') };
}

function uri(file: string): string {
  return encodeURI(file.split('\\').join('/'));
}

export function formatAuditSarif(
  report: AuditReport,
  bindingOrigins: ReadonlyMap<string, string>,
  version: string,
): string {
  const ruleIds: string[] = [];
  const rules: object[] = [];
  const results = report.findings.map((f) => {
    const first = f.steps[0];
    const mechanism = first?.mechanism ?? '';
    const id = `${f.capability}/${mechanism}`;
    let ruleIndex = ruleIds.indexOf(id);
    if (ruleIndex < 0) {
      ruleIndex = ruleIds.push(id) - 1;
      rules.push({
        id,
        name: `${f.capability} through ${mechanism}`,
        shortDescription: { text: `A subject may obtain ${f.capability}, starting with ${mechanism}` },
        ...(first?.source !== undefined ? { fullDescription: { text: first.source } } : {}),
        defaultConfiguration: { level: LEVEL[f.severity].level },
        properties: {
          tags: ['security', 'rbac', 'crossplane'],
          'security-severity': LEVEL[f.severity].score,
        },
      });
    }
    const binding = first?.via[0] ?? '';
    const origin = bindingOrigins.get(binding);
    const where = origin !== undefined ? splitOrigin(origin) : undefined;
    const steps = f.steps.map((s, i) => `${String(i + 1)}. ${s.why}`).join(' ');
    const at = where?.part !== undefined ? ` (${binding}, ${where.part})` : ` (${binding})`;
    return {
      ruleId: id,
      ruleIndex,
      level: LEVEL[f.severity].level,
      message: { text: `${subjectText(f.subject)} may obtain ${f.capability}${at}: ${steps} Fix: ${f.fix}` },
      locations: [
        {
          ...(where !== undefined
            ? { physicalLocation: { artifactLocation: { uri: uri(where.file) } } }
            : {}),
          logicalLocations: [{ name: binding, kind: 'resource' }],
        },
      ],
      partialFingerprints: { 'crossplaneRbacFinding/v1': `${subjectText(f.subject)}|${id}` },
      properties: { capability: f.capability, severity: f.severity, subject: f.subject },
    };
  });
  const sarif = {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'kubectl-crossplane-rbac', version, rules } }, results }],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
