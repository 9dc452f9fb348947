/**
 * The escalation check's rule arithmetic, as Kubernetes does it: whether owner rules cover requested rules
 * (component-helpers auth/rbac/validation/policy_comparator.go Covers), the compaction of the uncovered rules
 * (pkg/registry/rbac/validation/policy_compact.go CompactRules) and their text in the 403 message
 * (pkg/apis/rbac/v1/evaluation_helpers.go CompactString).
 */
import type { PolicyRule } from './rbac-rules.js';
import { listOf, nonResourceUrlCovers } from './rbac-rules.js';

const WILDCARD = '*';

/** A rule with exactly one group, resource, verb and at most one name; or one URL and one verb. */
interface AtomicRule {
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly verbs: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** Splits a rule into one rule per group × resource × verb (× name), then one per URL × verb. */
export function breakdownRule(rule: PolicyRule): AtomicRule[] {
  const out: AtomicRule[] = [];
  const names = listOf(rule.resourceNames);
  for (const apiGroup of listOf(rule.apiGroups)) {
    for (const resource of listOf(rule.resources)) {
      for (const verb of listOf(rule.verbs)) {
        const base = { apiGroups: [apiGroup], resources: [resource], verbs: [verb] };
        if (names.length === 0) out.push(base);
        else for (const name of names) out.push({ ...base, resourceNames: [name] });
      }
    }
  }
  for (const url of listOf(rule.nonResourceURLs)) {
    for (const verb of listOf(rule.verbs)) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function containsAll(have: readonly string[], want: readonly string[]): boolean {
  const set = new Set(have);
  return want.every((w) => set.has(w));
}

/** Resources are covered by "*", by themselves, or (for "res/sub") by "*\/sub". */
function resourcesCovered(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes(WILDCARD)) return true;
  return wanted.every((r) => {
    if (owner.includes(r)) return true;
    const slash = r.indexOf('/');
    return slash >= 0 && owner.includes(`*/${r.slice(slash + 1)}`);
  });
}

/**
 * Whether one owner rule grants everything one atomic rule does. A wildcard in the requested rule is only
 * covered by the same wildcard; an owner rule limited to names never covers an unlimited requested rule.
 */
function ruleCovers(owner: PolicyRule, sub: AtomicRule): boolean {
  const ownerVerbs = listOf(owner.verbs);
  const ownerGroups = listOf(owner.apiGroups);
  const ownerNames = listOf(owner.resourceNames);
  const subNames = sub.resourceNames ?? [];
  const verbs = ownerVerbs.includes(WILDCARD) || containsAll(ownerVerbs, sub.verbs);
  const groups = ownerGroups.includes(WILDCARD) || containsAll(ownerGroups, sub.apiGroups ?? []);
  const resources = resourcesCovered(listOf(owner.resources), sub.resources ?? []);
  const urls = (sub.nonResourceURLs ?? []).every((u) =>
    listOf(owner.nonResourceURLs).some((o) => nonResourceUrlCovers(o, u)),
  );
  const names = ownerNames.length === 0 || (subNames.length > 0 && containsAll(ownerNames, subNames));
  return verbs && groups && resources && names && urls;
}

/** Covers: whether the owner rules grant all the requested rules, and the atomic rules they do not. */
export function covers(
  owner: readonly PolicyRule[],
  requested: readonly PolicyRule[],
): { covered: boolean; uncovered: AtomicRule[] } {
  const uncovered = requested
    .flatMap(breakdownRule)
    .filter((sub) => !owner.some((rule) => ruleCovers(rule, sub)));
  return { covered: uncovered.length === 0, uncovered };
}

/**
 * CompactRules: rules with one group, one resource, at most one name and no URLs that differ only in their verbs
 * become one rule (verbs in order of appearance); every other rule is kept as it is. The merged rules come after
 * the others (Go appends them from a map, in no set order; the 403 message sorts its lines anyway).
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const kept: PolicyRule[] = [];
  const merged = new Map<string, { rule: PolicyRule; verbs: string[] }>();
  for (const rule of rules) {
    const groups = listOf(rule.apiGroups);
    const resources = listOf(rule.resources);
    const names = listOf(rule.resourceNames);
    const simple =
      groups.length === 1 &&
      resources.length === 1 &&
      names.length <= 1 &&
      listOf(rule.nonResourceURLs).length === 0;
    if (!simple) {
      kept.push(rule);
      continue;
    }
    const key = JSON.stringify([groups[0], resources[0], names.length === 1 ? names[0] : null]);
    const existing = merged.get(key);
    if (existing === undefined) merged.set(key, { rule, verbs: [...listOf(rule.verbs)] });
    else existing.verbs.push(...listOf(rule.verbs));
  }
  for (const { rule, verbs } of merged.values()) kept.push(verbs.length === 0 ? rule : { ...rule, verbs });
  return kept;
}

/** Go's strconv.Quote of a string: printable characters as they are, the rest escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\x07') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Go's %q of a []string: `["a" "b"]`. */
export function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}

/** CompactString: `{APIGroups:["g"], Resources:["r"], Verbs:["get"]}`, fields that are empty left out. */
export function compactString(rule: PolicyRule): string {
  const fields: [string, readonly string[]][] = [
    ['APIGroups', listOf(rule.apiGroups)],
    ['Resources', listOf(rule.resources)],
    ['NonResourceURLs', listOf(rule.nonResourceURLs)],
    ['ResourceNames', listOf(rule.resourceNames)],
    ['Verbs', listOf(rule.verbs)],
  ];
  return `{${fields
    .filter(([, v]) => v.length > 0)
    .map(([k, v]) => `${k}:${goQuoteList(v)}`)
    .join(', ')}}`;
}
