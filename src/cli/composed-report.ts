/**
 * The composed part's report in words: what sync --only composed prints on stderr (one line per kind Crossplane
 * composes: granted, missing, refused, reported only; what could not be resolved or analysed; who steers the grants),
 * and the pieces `composed`'s table and notes share. The core returns the analysis as data (composed/report.ts).
 */
import { composedRoleName } from '../crossplane/names.js';
import type { ComposedAnalysis, ComposedGrant } from '../composed/analyse.js';
import { viewStatus } from '../composed/report.js';
import type { Evidence } from '../composed/sources.js';

function at(o: { readonly name: string; readonly namespace?: string | undefined }): string {
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
  authors: readonly {
    readonly kind: string;
    readonly name: string;
    readonly namespace?: string | undefined;
  }[],
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
  authors: readonly {
    readonly kind: string;
    readonly name: string;
    readonly namespace?: string | undefined;
  }[],
): string {
  const names = authors.map((a) => `${a.kind}/${at(a)}`);
  return `who may create or change Compositions, CompositionRevisions or Operations (CronOperations, WatchOperations), and so steer what Crossplane is granted: ${names.length > 0 ? names.join(', ') : 'nobody besides system:masters'}`;
}
