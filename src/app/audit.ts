import { parse as parseYaml } from 'yaml';
import { UserError } from '../errors.js';
import type { AcceptedFinding } from '../audit/accept.js';
import type { ByDesign, Finding } from '../audit/audit.js';
import type { Severity } from '../audit/catalogue.js';
import type { Identity } from '../audit/rights.js';
import type { AppDeps } from './deps.js';
import type { Unseen } from './read-snapshot.js';
import type { InputSource } from './read-input.js';
import { AUDIT_PARTS, rolesOf } from './resource-catalogue.js';
import { readQuestionInput, type AfterSyncOptions } from './after-sync.js';

export interface AuditOptions {
  readonly source: InputSource;
  /** --subject: one subject only. */
  readonly subject?: Identity | undefined;
  /** --accept FILE. */
  readonly acceptFile?: string | undefined;
  /** --after-sync: audit the cluster as a plain sync (of these families) would leave it. */
  readonly afterSync?: AfterSyncOptions | undefined;
}

/** The JSON contract of `audit -o json|yaml` (documented in the README). */
export interface AuditReport {
  readonly apiVersion: 'crossplane-rbac/v1';
  readonly kind: 'AuditReport';
  readonly findings: readonly Finding[];
  readonly accepted: readonly AcceptedFinding[];
  readonly byDesign: readonly ByDesign[];
  readonly unseen: readonly Unseen[];
}

/** The report, and where each binding was read with -f (`ClusterRoleBinding/NAME` → `file (document 2)`). */
export interface AuditRun {
  readonly report: AuditReport;
  readonly bindingOrigins: ReadonlyMap<string, string>;
}

/** `audit`: every path by which a subject may obtain more than its roles grant, with its fix. */
export async function runAudit(options: AuditOptions, deps: AppDeps): Promise<AuditRun> {
  const acceptances = await readAcceptances(options);
  const input = await readQuestionInput(options.source, deps, AUDIT_PARTS, options.afterSync, {
    namespace: undefined,
  });
  const [{ audit }, { applyAcceptances }] = await Promise.all([
    import('../audit/audit.js'),
    import('../audit/accept.js'),
  ]);
  // ProviderConfigs are read only from -f (they decide provider-identity; live, the step says "may").
  const providerConfigs = input.snapshot.others.filter((o) => /ProviderConfig$/.test(o.kind));
  const result = audit(
    { ...input.snapshot, roles: rolesOf(input), providerConfigs },
    options.subject !== undefined ? { subject: options.subject } : {},
  );
  const { open, accepted } = applyAcceptances(result.findings, acceptances);
  const bindingOrigins = new Map<string, string>();
  for (const b of [...input.snapshot.clusterRoleBindings, ...input.snapshot.roleBindings]) {
    const origin = input.origins?.get(b);
    if (origin === undefined) continue;
    const ns = b.kind === 'RoleBinding' ? `${b.metadata.namespace ?? ''}/` : '';
    bindingOrigins.set(`${b.kind}/${ns}${b.metadata.name}`, origin);
  }
  const report: AuditReport = {
    apiVersion: 'crossplane-rbac/v1',
    kind: 'AuditReport',
    findings: open,
    accepted,
    byDesign: result.byDesign,
    unseen: input.unseen,
  };
  return { report, bindingOrigins };
}

async function readAcceptances(options: AuditOptions): Promise<import('../audit/accept.js').Acceptance[]> {
  const file = options.acceptFile;
  if (file === undefined) return [];
  const [{ readInputFile }, { parseAcceptances }] = await Promise.all([
    import('../input/files.js'),
    import('../audit/accept.js'),
  ]);
  const max = options.source.maxInputBytes;
  const { text } = readInputFile(file, max, max, '--accept');
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    const why = (err instanceof Error ? err.message.split('\n')[0] : String(err))?.replace(/:$/, '');
    throw new UserError(`${file}: not valid YAML: ${why ?? ''}`, {
      hint: 'the file holds a YAML list of {subject, capability, firstStep, reason}',
    });
  }
  return parseAcceptances(doc, file);
}

const ORDER: readonly Severity[] = ['critical', 'high', 'medium', 'low'];

/** Whether a finding at or above SEVERITY remains (--fail-on). */
export function failsOn(report: AuditReport, severity: Severity): boolean {
  const limit = ORDER.indexOf(severity);
  return report.findings.some((f) => ORDER.indexOf(f.severity) <= limit);
}
