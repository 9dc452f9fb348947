import type { LookupGrant, LookupResult, LookupSubject } from '../../lookup/lookup.js';

/** The AGGREGATES column names this many roles at most; beyond, the first and a count of the rest. */
const SHOWN_SOURCES = 2;

/** A subject as kubectl names objects: `User/NAME`, `Group/NAME`, `ServiceAccount/NS/NAME`. */
function subjectName(s: LookupSubject): string {
  return `${s.kind}/${s.namespace !== undefined ? `${s.namespace}/` : ''}${s.name}`;
}

function roleName(g: LookupGrant): string {
  return `${g.role.kind}/${g.role.name}${g.roleFound ? '' : ' (not found)'}`;
}

/** What AGGREGATES says of an aggregated role whose sources were not read (the default reads the bound roles only). */
const NOT_READ = '(not read: --converged reads them)';

function sources(g: LookupGrant): string {
  if (!g.aggregated) return '';
  if (g.sourcesRead === false) return NOT_READ;
  if (g.aggregatedFrom.length === 0) return '(none)';
  if (g.aggregatedFrom.length <= SHOWN_SOURCES) return g.aggregatedFrom.join(', ');
  return `${g.aggregatedFrom[0] ?? ''} (+${String(g.aggregatedFrom.length - 1)} more)`;
}

function sourcesOrNone(g: LookupGrant): string {
  return g.sourcesRead === false ? NOT_READ : '(none)';
}

/**
 * lookup's table as rows: rbac-lookup's columns (SUBJECT, SCOPE, ROLE; its wide SOURCE is our BINDING) and, for an
 * aggregated ClusterRole, the roles it draws from. `wide`: one line per aggregation chain, with the role's rule count.
 * A lookup may list any number of rows: its printer lays them out in pieces (tableChunks).
 */
export function lookupTableRows(result: LookupResult, wide: boolean): { head: string[]; rows: string[][] } {
  const rows: string[][] = [];
  for (const s of result.subjects) {
    for (const g of s.grants) {
      const head = [subjectName(s), g.scope, roleName(g), `${g.binding.kind}/${g.binding.name}`];
      if (!wide) {
        rows.push([...head, sources(g)]);
        continue;
      }
      const rules = String(g.ruleCount);
      if (g.chains.length === 0) rows.push([...head, rules, g.aggregated ? sourcesOrNone(g) : '']);
      for (const chain of g.chains) rows.push([...head, rules, chain.join(' → ')]);
    }
  }
  const head = ['SUBJECT', 'SCOPE', 'ROLE', 'BINDING'];
  return { head: wide ? [...head, 'RULES', 'AGGREGATION CHAIN'] : [...head, 'AGGREGATES'], rows };
}

/** What a table with no rows says instead (on stderr, as kubectl's "No resources found"). */
export function noSubjectsMessage(result: LookupResult): string {
  const kind = result.kind !== undefined ? ` ${result.kind}` : ' subject';
  const what = result.pattern !== undefined ? `${kind} matching "${result.pattern}"` : kind;
  const where = result.namespace !== undefined ? ` (cluster-wide or in namespace ${result.namespace})` : '';
  return `no binding names a${what}${where}`;
}
