import { parse as parseYaml } from 'yaml';
import { UserError } from '../errors.js';
import type { AcceptedFinding } from '../audit/accept.js';
import type { ByDesign, Finding } from '../audit/audit.js';
import type { Severity } from '../audit/catalogue.js';
import type { Identity } from '../audit/rights.js';
import type { CompositionKinds } from '../audit/cluster-context.js';
import { IN_CLUSTER_KINDS } from '../audit/in-cluster.js';
import type { KubeObject } from '../kube/types.js';
import type { AppDeps } from './deps.js';
import type { Unseen } from './read-snapshot.js';
import type { Input, InputSource } from './read-input.js';
import { AUDIT_PARTS, isKind, rolesOf } from './resource-catalogue.js';
import { readQuestionInput, type AfterSyncOptions } from './after-sync.js';
import { rbacUnseen, readAuditInput, unseenDecides } from './audit-read.js';

/** The RBAC parts left unseen, as the findings' "may" names them. */
function unseenRbac(unseen: readonly Unseen[]): string[] {
  return unseen.filter((u) => unseenDecides(u.part) === 'rbac').map((u) => u.what);
}

export interface AuditOptions {
  readonly source: InputSource;
  /** --subject: one subject only. */
  readonly subject?: Identity | undefined;
  /** --accept FILE. */
  readonly acceptFile?: string | undefined;
  /** --after-sync: audit the cluster as a plain sync (of these families) would leave it (implies converged). */
  readonly afterSync?: AfterSyncOptions | undefined;
  /**
   * --converged (live): every ClusterRole is read and aggregated ones grant what the aggregation controller converges
   * to; else each bound role's stored rules, as the API server's authorizer uses them. -f and --after-sync converge.
   */
  readonly converged?: boolean | undefined;
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
  const converged = options.converged === true || options.afterSync !== undefined;
  // Live, what the authorizer uses, as far as the caller may read it (the rest unseen). -f holds everything at hand
  // (a repository's aggregated roles often store no rules: the controller fills them), and --after-sync reads it all.
  const live = options.source.from === undefined && options.afterSync === undefined;
  const input = live
    ? await readAuditInput(options.source, deps, converged)
    : await readQuestionInput(options.source, deps, AUDIT_PARTS, options.afterSync);
  warnAuditUnseen(deps, input.unseen);
  const [{ audit }, { applyAcceptances }] = await Promise.all([
    import('../audit/audit.js'),
    import('../audit/accept.js'),
  ]);
  // ProviderConfigs decide provider-identity: those read (live, the in-cluster providers' kinds; -f, all at hand),
  // and the kinds that could not all be read (unseen as `plural.group`, with the namespaces read in instead).
  const providerConfigs = input.snapshot.others.filter((o) => /ProviderConfig$/.test(o.kind));
  const providerConfigsUnread = input.unseen
    .filter((u) => u.part === 'providerConfigs')
    .map((u) => ({ crd: u.what, ...(u.readIn !== undefined ? { readIn: u.readIn.split(',') } : {}) }));
  // The in-cluster providers' CRDs (live, the four read by name; -f, those at hand): which revision serves each kind.
  const inClusterCrds = input.snapshot.others.filter(
    (o) => o.kind === 'CustomResourceDefinition' && IN_CLUSTER_KINDS.includes(o.metadata.name),
  );
  const compositions = await compositionKinds(input);
  const result = audit(
    {
      ...input.snapshot,
      roles: rolesOf(input),
      providerConfigs,
      providerConfigsUnread,
      inClusterCrds,
      compositions,
    },
    {
      ...(options.subject !== undefined ? { subject: options.subject } : {}),
      storedRules: live && !converged,
      ...(rbacUnseen(input.unseen) ? { rbacUnseen: unseenRbac(input.unseen) } : {}),
    },
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

/**
 * What each Composition and CompositionRevision composes (compose-through-xr), from the composed analysis' reading
 * of their templates: only these are trusted, never an XR's references or Events. A kind resolves among Kubernetes'
 * common resources and the CRDs, XRDs and ProviderRevisions read (no discovery: a kind none of them defines is left
 * out).
 */
async function compositionKinds(input: Input): Promise<CompositionKinds[]> {
  const [{ composedByComposition }, r] = await Promise.all([
    import('../composed/sources.js'),
    import('../crossplane/resolve-resource.js'),
  ]);
  const { others, xrds, providerRevisions } = input.snapshot;
  // A provider's managed resources resolve through its ProviderRevision's CRD names (live, only the in-cluster
  // providers' CRDs are read, audit-read.ts).
  const known = r.catalogue(
    r.builtinResources(),
    others
      .filter(isKind('CustomResourceDefinition', 'apiextensions.k8s.io'))
      .flatMap((c) => r.resourceOfCrd(c) ?? []),
    xrds.flatMap(r.resourcesOfXrd),
    providerRevisions.flatMap(r.resourcesOfProviderRevision),
  );
  const isComposition = (o: KubeObject): boolean =>
    isKind('Composition', XP_EXT)(o) || isKind('CompositionRevision', XP_EXT)(o);
  return others.filter(isComposition).map((c) => {
    const ref = (c as { spec?: { compositeTypeRef?: { apiVersion?: unknown; kind?: unknown } } }).spec
      ?.compositeTypeRef;
    const composes = composedByComposition(c).needs.flatMap((n) => {
      if (n.access !== 'write') return [];
      const group = n.apiVersion.includes('/') ? n.apiVersion.slice(0, n.apiVersion.indexOf('/')) : '';
      const k = r.resourceOfKind(known, group, n.kind);
      return k === undefined ? [] : [{ group, resource: k.plural, kind: k.kind, namespaced: k.namespaced }];
    });
    return {
      name: c.metadata.name,
      revision: c.kind === 'CompositionRevision',
      compositeApiVersion: typeof ref?.apiVersion === 'string' ? ref.apiVersion : '',
      compositeKind: typeof ref?.kind === 'string' ? ref.kind : '',
      composes,
    };
  });
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

/** One warning per read that could not be made: what it is, where it was read instead, and what it decides. */
function warnAuditUnseen(deps: Pick<AppDeps, 'warn'>, unseen: readonly Unseen[]): void {
  for (const u of unseen) {
    deps.warn({
      kind: 'audit-unseen',
      what: u.what,
      verb: u.verb ?? 'list',
      readIn: u.readIn,
      decides: unseenDecides(u.part),
    });
  }
}

const XP_EXT = 'apiextensions.crossplane.io';

const ORDER: readonly Severity[] = ['critical', 'high', 'medium', 'low'];

/** Whether a finding at or above SEVERITY remains (--fail-on). */
export function failsOn(report: AuditReport, severity: Severity): boolean {
  const limit = ORDER.indexOf(severity);
  return report.findings.some((f) => ORDER.indexOf(f.severity) <= limit);
}
