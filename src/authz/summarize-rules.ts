/**
 * A short text for a long list of rules (the rules a caller lacks can number tens of thousands for a provider
 * family): one entry per set of verbs, with how many resources it covers and a few of them by name.
 */
import { thousands } from '../kube/thousands.js';
import { breakdownRule } from './authorize.js';
import type { ClusterRole, PolicyRule } from '../kube/types.js';
import { RBAC_API_VERSION } from '../kube/api-names.js';

const EXAMPLES = 3;
const MAX_ENTRIES = 4;

function target(rule: PolicyRule): string {
  const url = rule.nonResourceURLs?.[0];
  if (url !== undefined) return url;
  // Stryker disable next-line OptionalChaining,StringLiteral: breakdownRule's resource atoms always hold one group
  const group = rule.apiGroups?.[0] ?? '';
  // Stryker disable next-line OptionalChaining,StringLiteral: breakdownRule's resource atoms always hold one resource
  const resource = rule.resources?.[0] ?? '';
  const names = rule.resourceNames ?? [];
  const res = group === '' ? resource : `${resource}.${group}`;
  return names.length > 0 ? `${res}/${names.join(',')}` : res;
}

/** The distinct (verb, resource) pairs of the rules, counted; and per verb set, the resources it applies to. */
export function summarizeRules(rules: readonly PolicyRule[]): { count: number; text: string } {
  const byVerb = new Map<string, Set<string>>();
  let count = 0;
  for (const rule of rules) {
    for (const atom of breakdownRule(rule)) {
      // Stryker disable next-line StringLiteral: breakdownRule's atoms always hold one verb
      const verb = atom.verbs[0] ?? '';
      let set = byVerb.get(verb);
      if (set === undefined) {
        set = new Set();
        byVerb.set(verb, set);
      }
      const t = target(atom);
      if (!set.has(t)) {
        set.add(t);
        count++;
      }
    }
  }
  // Verbs that apply to exactly the same resources are listed together.
  const groups = new Map<string, { verbs: string[]; resources: string[] }>();
  for (const [verb, set] of byVerb) {
    const resources = [...set].sort();
    const key = resources.join('\u0000');
    const g = groups.get(key);
    if (g !== undefined) g.verbs.push(verb);
    else groups.set(key, { verbs: [verb], resources });
  }
  const entries = [...groups.values()].sort(
    (a, b) => b.resources.length - a.resources.length || (a.verbs.join() < b.verbs.join() ? -1 : 1),
  );
  const text = entries
    .slice(0, MAX_ENTRIES)
    .map(({ verbs, resources }) => {
      const n = resources.length;
      const on =
        n === 1
          ? (resources[0] ?? '')
          : `${thousands(n)} resources (${resources.slice(0, EXAMPLES).join(', ')}${n > EXAMPLES ? ', …' : ''})`;
      return `${verbs.sort().join(', ')} on ${on}`;
    })
    .join('; ');
  const more = entries.length - MAX_ENTRIES;
  return { count, text: more > 0 ? `${text}; and ${more} more verb sets` : text };
}

/** A ClusterRole holding exactly the given rules: the full list of what a caller lacks, ready to grant. */
export function renderMissingRulesRole(rules: readonly PolicyRule[]): ClusterRole {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRole',
    metadata: { name: 'crossplane-rbac-missing-permissions' },
    rules: rules.map((r) => ({ ...r, verbs: [...new Set(r.verbs)] })),
  };
}
