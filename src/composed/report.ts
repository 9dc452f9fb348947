/**
 * The composed part's report as text lines (pure): what is granted, missing, refused, reported only, unknown, not
 * analysed, and who steers what is granted.
 */
import { composedRoleName, type ComposedAnalysis, type ComposedGrant } from './analyse.js';
import type { Evidence } from './sources.js';

function at(o: { readonly name: string; readonly namespace?: string }): string {
  return o.namespace !== undefined ? `${o.namespace}/${o.name}` : o.name;
}

/** One piece of evidence, as a reader finds the object: `Composition/app-web (resource ingress)`. */
export function describeEvidence(e: Evidence): string {
  switch (e.source) {
    case 'Composite':
      return `${e.kind}/${at(e)} (composed ${e.composed})`;
    case 'Denial':
      return `${e.via === 'Event' ? 'an Event about' : 'a condition of'} ${e.kind}/${at(e)} (${e.verb} was forbidden)`;
    default: {
      const resource = 'resource' in e ? e.resource : undefined;
      const where = [
        ...(e.step !== undefined ? [`step ${e.step}`] : []),
        ...(resource !== undefined ? [`resource ${resource}`] : []),
        ...(e.requirement !== undefined ? [`requires ${e.requirement}`] : []),
      ];
      if (e.source === 'WatchOperation' && where.length === 0) return `WatchOperation/${e.name} (watches it)`;
      return `${e.source}/${e.name}${where.length > 0 ? ` (${where.join(', ')})` : ''}`;
    }
  }
}

function resourceName(g: Pick<ComposedGrant, 'group' | 'resource'>): string {
  return g.group === '' ? g.resource : `${g.resource}.${g.group}`;
}

const MAX_EVIDENCE = 3;

/** Evidence as one line: the first MAX pieces, then how many more. */
export function evidenceList(list: readonly Evidence[], max = MAX_EVIDENCE): string {
  const shown = list.slice(0, max).map(describeEvidence);
  const more = list.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/** The report, one line per resource, then what could not be resolved or analysed, then who authors compositions. */
export function formatComposedReport(
  analysis: ComposedAnalysis,
  authors: readonly { readonly kind: string; readonly name: string; readonly namespace?: string }[],
): string[] {
  const lines = [`composed resources of Crossplane (${analysis.account}):`];
  if (analysis.grants.length === 0 && analysis.unresolved.length === 0)
    lines.push('  none found in compositions, operations, composite resources or events');
  for (const g of analysis.grants) {
    const status = viewStatus(g);
    const what = `${status} ${resourceName(g)}${g.access === 'read' ? ' (watch only)' : ''}`;
    const lacking =
      status === 'missing' || status === 'refused' || status === 'reported-only'
        ? ` [lacks ${g.lackingNow.join(', ')}]`
        : status === 'after-sync'
          ? ' (the provider or XRD roles a plain sync writes grant it)'
          : g.status === 'missing'
            ? ` (${composedRoleName(g.group)})`
            : '';
    lines.push(`  ${what}${lacking}: ${evidenceList(g.evidence)}`);
    if (status === 'refused' && g.privileged !== undefined)
      lines.push(`    refused: it ${g.privileged}; --allow-privileged grants it`);
  }
  for (const u of analysis.unresolved)
    lines.push(`  unknown ${u.name}: ${u.reason}; ${evidenceList(u.evidence)}`);
  for (const n of analysis.notAnalysed) {
    lines.push(
      `  not analysed: ${n.kind ?? 'Composition'}/${n.composition} step ${n.step} (function ${n.function === '' ? 'unnamed' : n.function}): what it composes cannot be read statically`,
    );
  }
  if (analysis.grants.some((g) => viewStatus(g) === 'reported-only')) lines.push(`  ${REPORTED_ONLY}`);
  if (analysis.grants.some((g) => g.status === 'missing' || g.status === 'refused'))
    lines.push(`  ${authorsLine(authors)}`);
  return lines;
}

/** Why a reported-only kind is not granted, and what would grant it. */
export const REPORTED_ONLY =
  "reported only: named by composite resources' resourceRefs or conditions or by Events, which whoever may create them can forge: never granted; a Composition, CompositionRevision or Operation that needs the kind grants it";

/**
 * Who steers what sync grants Crossplane, as one line: whoever may create or change a Composition,
 * CompositionRevision, Operation, CronOperation or WatchOperation (what Crossplane is granted, they can have it do).
 */
export function authorsLine(
  authors: readonly { readonly kind: string; readonly name: string; readonly namespace?: string }[],
): string {
  const names = authors.map((a) => `${a.kind}/${at(a)}`);
  return `who may create or change Compositions, CompositionRevisions or Operations (CronOperations, WatchOperations), and so steer what Crossplane is granted: ${names.length > 0 ? names.join(', ') : 'nobody besides system:masters'}`;
}

/**
 * What stands between Crossplane and a kind: nothing (granted), a plain sync (after-sync: the provider or XRD roles
 * it renders grant it), sync --only composed (missing), or --allow-privileged (refused); reported-only: only evidence
 * (XRs' references and conditions, Events) names it, so sync never grants it.
 */
export type ComposedStatus = 'granted' | 'after-sync' | 'missing' | 'refused' | 'reported-only';

function viewStatus(g: ComposedGrant): ComposedStatus {
  // The analysis judges without the plugin's own composed roles (each run finds the need afresh); the account has
  // the kind now when nothing is lacking with them.
  if (g.lackingNow.length === 0) return 'granted';
  if (g.status === 'reported') return 'reported-only';
  return g.status === 'granted' ? 'after-sync' : g.status;
}

/** One resource Crossplane composes, as `composed -o json|yaml` gives it. */
export interface ComposedResourceView {
  /** `cronjobs.batch`, `namespaces` (core group): as kubectl names a resource. */
  readonly resource: string;
  readonly group: string;
  readonly kind: string;
  /** write: Crossplane applies, reads and deletes it; read: it only watches it (a WatchOperation). */
  readonly access: ComposedGrant['access'];
  readonly status: ComposedStatus;
  /** The verbs Crossplane's account lacks on it now (empty when granted). */
  readonly lacking: readonly string[];
  /** The ClusterRole `sync --only composed` writes for it (missing or refused; never reported-only). */
  readonly role?: string;
  /** Why it is privileged, when it is (refused without --allow-privileged). */
  readonly privileged?: string;
  /** What names it: the Compositions, CompositionRevisions and Operations that need it, and the evidence. */
  readonly neededBy: readonly Evidence[];
}

/** What `composed` answers: the report sync --only composed prints, as data. */
export interface ComposedView {
  /** Crossplane's account, as the API server names it. */
  readonly account: string;
  readonly resources: readonly ComposedResourceView[];
  /** Kinds named by compositions or composites that the cluster does not serve (no CRD yet). */
  readonly unresolved: readonly {
    readonly name: string;
    readonly reason: string;
    readonly neededBy: readonly Evidence[];
  }[];
  /** Composition steps whose function's input cannot be read statically. */
  readonly notAnalysed: readonly ComposedAnalysis['notAnalysed'][number][];
  /**
   * Who may create or change Compositions, CompositionRevisions, Operations, CronOperations or WatchOperations:
   * whatever Crossplane is granted, they can have it do. Nobody else steers a grant.
   */
  readonly grantAuthors: readonly {
    readonly kind: string;
    readonly name: string;
    readonly namespace?: string;
  }[];
}

/** The analysis as data, with the authors of Compositions. */
export function composedView(
  analysis: ComposedAnalysis,
  authors: readonly { readonly kind: string; readonly name: string; readonly namespace?: string }[],
): ComposedView {
  return {
    account: analysis.account,
    resources: analysis.grants.map((g) => ({
      resource: resourceName(g),
      group: g.group,
      kind: g.kind,
      access: g.access,
      status: viewStatus(g),
      lacking: g.lackingNow,
      ...(g.status === 'missing' || g.status === 'refused' ? { role: composedRoleName(g.group) } : {}),
      ...(g.privileged !== undefined ? { privileged: g.privileged } : {}),
      neededBy: g.evidence,
    })),
    unresolved: analysis.unresolved.map((u) => ({ name: u.name, reason: u.reason, neededBy: u.evidence })),
    notAnalysed: analysis.notAnalysed,
    grantAuthors: authors.map((a) => ({
      kind: a.kind,
      name: a.name,
      ...(a.namespace !== undefined ? { namespace: a.namespace } : {}),
    })),
  };
}
