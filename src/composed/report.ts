/** The composed part's report as text lines (pure): what is granted, missing, refused, unknown, not analysed. */
import type { ComposedAnalysis, ComposedGrant } from './analyse.js';
import type { Evidence } from './sources.js';

function at(o: { readonly name: string; readonly namespace?: string }): string {
  return o.namespace !== undefined ? `${o.namespace}/${o.name}` : o.name;
}

/** One piece of evidence, as a reader finds the object: `Composition/app-web (resource ingress)`. */
export function describeEvidence(e: Evidence): string {
  switch (e.source) {
    case 'Composition': {
      const where = [
        ...(e.step !== undefined ? [`step ${e.step}`] : []),
        ...(e.resource !== undefined ? [`resource ${e.resource}`] : []),
      ];
      return `Composition/${e.name}${where.length > 0 ? ` (${where.join(', ')})` : ''}`;
    }
    case 'Composite':
      return `${e.kind}/${at(e)} (composed ${e.composed})`;
    case 'Denial':
      return `${e.via === 'Event' ? 'an Event about' : 'a condition of'} ${e.kind}/${at(e)} (${e.verb} was forbidden)`;
    case 'WatchOperation':
      return `WatchOperation/${e.name} (watches it)`;
  }
}

function resourceName(g: Pick<ComposedGrant, 'group' | 'resource'>): string {
  return g.group === '' ? g.resource : `${g.resource}.${g.group}`;
}

const MAX_EVIDENCE = 3;

function evidenceList(list: readonly Evidence[]): string {
  const shown = list.slice(0, MAX_EVIDENCE).map(describeEvidence);
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
    lines.push('  none found in compositions, composite resources, events or WatchOperations');
  for (const g of analysis.grants) {
    const what = `${g.status} ${resourceName(g)}${g.access === 'read' ? ' (watch only)' : ''}`;
    const lacking = g.status === 'granted' ? '' : ` [lacks ${g.lacking.join(', ')}]`;
    lines.push(`  ${what}${lacking}: ${evidenceList(g.evidence)}`);
    if (g.status === 'refused' && g.privileged !== undefined)
      lines.push(`    refused: it ${g.privileged}; --allow-privileged grants it`);
  }
  for (const u of analysis.unresolved)
    lines.push(`  unknown ${u.name}: ${u.reason}; ${evidenceList(u.evidence)}`);
  for (const n of analysis.notAnalysed) {
    lines.push(
      `  not analysed: Composition/${n.composition} step ${n.step} (function ${n.function === '' ? 'unnamed' : n.function}): what it composes cannot be read statically`,
    );
  }
  if (analysis.grants.some((g) => g.status !== 'granted')) {
    const names = authors.map((a) => `${a.kind}/${at(a)}`);
    lines.push(
      `  who may create or change Compositions (what Crossplane is granted, they can use): ${names.length > 0 ? names.join(', ') : 'nobody besides system:masters'}`,
    );
  }
  return lines;
}
