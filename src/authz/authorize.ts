/**
 * The matching rules of Kubernetes' RBAC authorizer and of its escalation check, on our plain types.
 * Mirrors plugin/pkg/auth/authorizer/rbac/rbac.go (RuleAllows), pkg/apis/rbac/v1/evaluation_helpers.go
 * (VerbMatches, APIGroupMatches, ResourceMatches, ResourceNameMatches, NonResourceURLMatches),
 * pkg/registry/rbac/validation/policy_comparator.go (Covers, BreakdownRule, ruleCovers),
 * pkg/registry/rbac/validation/compact.go (CompactRules) and pkg/apis/rbac/v1/helpers.go (CompactString).
 */
import type { PolicyRule } from '../kube/types.js';

/** One request as the authorizer sees it; `path` set means a non-resource request. */
export interface AccessAttributes {
  verb: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  namespace?: string;
  path?: string;
}

/**
 * The attributes of VERB on a resource (or, when it has a path, a non-resource URL), as the authorizer is asked:
 * with the object's name and namespace when given.
 */
export function requestAttributes(
  target: {
    readonly group: string;
    readonly resource: string;
    readonly subresource?: string;
    readonly path?: string;
  },
  verb: string,
  name?: string,
  namespace?: string,
): AccessAttributes {
  if (target.path !== undefined) return { verb, path: target.path };
  return {
    verb,
    apiGroup: target.group,
    resource: target.resource,
    ...(target.subresource !== undefined ? { subresource: target.subresource } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(namespace !== undefined && namespace !== '' ? { namespace } : {}),
  };
}

const ALL = '*';

function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === ALL || v === verb);
}

function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  // Stryker disable next-line ArrayDeclaration: Stryker's placeholder (with spaces) is no API group a request can name (DNS subdomains)
  return (rule.apiGroups ?? []).some((g) => g === ALL || g === group);
}

function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  // Stryker disable next-line ArrayDeclaration: Stryker's placeholder (with spaces) is no resource a request can name, nor * or */sub
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true;
    if (subresource === '') continue;
    // `*/scale` matches the scale subresource of any resource.
    if (r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

function nonResourceUrlCovers(ruleUrl: string, path: string): boolean {
  if (ruleUrl === ALL || ruleUrl === path) return true;
  return ruleUrl.endsWith('*') && path.startsWith(trimRightStars(ruleUrl));
}

function trimRightStars(s: string): string {
  let end = s.length;
  while (end > 0 && s[end - 1] === '*') end--;
  return s.slice(0, end);
}

/** Whether one rule grants the request, exactly as the RBAC authorizer decides it. */
export function ruleAllows(rule: PolicyRule, attrs: AccessAttributes): boolean {
  if (attrs.path !== undefined) {
    return (
      verbMatches(rule, attrs.verb) &&
      // Stryker disable next-line StringLiteral,ArrayDeclaration: attrs.path is set on this branch; Stryker's placeholder is no path (paths start with /) and does not end in *
      (rule.nonResourceURLs ?? []).some((u) => nonResourceUrlCovers(u, attrs.path ?? ''))
    );
  }
  const resource = attrs.resource ?? '';
  const subresource = attrs.subresource ?? '';
  const combined = subresource === '' ? resource : `${resource}/${subresource}`;
  return (
    verbMatches(rule, attrs.verb) &&
    apiGroupMatches(rule, attrs.apiGroup ?? '') &&
    resourceMatches(rule, combined, subresource) &&
    resourceNameMatches(rule, attrs.name ?? '')
  );
}

export function rulesAllow(rules: readonly PolicyRule[], attrs: AccessAttributes): boolean {
  return rules.some((r) => ruleAllows(r, attrs));
}

/** Splits a rule into rules of one group, resource, verb and resource name (or one URL and verb). */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (names.length > 0) {
          for (const name of names) {
            out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
          }
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function hasAll(set: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((w) => set.includes(w));
}

function resourcesCoverAll(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes(ALL) || hasAll(owner, wanted)) return true;
  for (const path of wanted) {
    if (owner.includes(path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!owner.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function urlsCoverAll(owner: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((w) =>
    owner.some((o) => o === w || (o.endsWith('*') && w.startsWith(trimRightStars(o)))),
  );
}

/** Whether the owner rule grants everything the (atomic) requested rule does; a wildcard only covers by itself. */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const ownerNames = owner.resourceNames ?? [];
  // Stryker disable next-line ArrayDeclaration: a request without names is covered exactly by an owner without names either way; an object name never holds the placeholder's spaces
  const subNames = sub.resourceNames ?? [];
  const verbs = owner.verbs.includes(ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = (owner.apiGroups ?? []).includes(ALL) || hasAll(owner.apiGroups ?? [], sub.apiGroups ?? []);
  const resources = resourcesCoverAll(owner.resources ?? [], sub.resources ?? []);
  const urls = urlsCoverAll(owner.nonResourceURLs ?? [], sub.nonResourceURLs ?? []);
  const names =
    subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && names && urls;
}

/**
 * The escalation check: whether the owner's rules cover every requested rule.
 * `missing` lists the uncovered atomic rules, compacted as the API server does for its 403 message
 * (rules of one group and resource that differ only by verb are merged), in the 403's sorted order.
 */
export function coversRules(
  owner: readonly PolicyRule[],
  requested: readonly PolicyRule[],
): { covered: boolean; missing: PolicyRule[] } {
  const uncovered: PolicyRule[] = [];
  for (const rule of requested) {
    for (const sub of breakdownRule(rule)) {
      if (!owner.some((o) => ruleCovers(o, sub))) uncovered.push(sub);
    }
  }
  const missing = compactRules(uncovered);
  const seen = new Set<string>();
  const unique: { text: string; rule: PolicyRule }[] = [];
  for (const rule of missing) {
    const text = formatRuleForStatus(rule);
    if (seen.has(text)) continue;
    seen.add(text);
    unique.push({ text, rule });
  }
  unique.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return { covered: uncovered.length === 0, missing: unique.map((u) => u.rule) };
}

/** Merges rules with one group, one resource and at most one resource name that differ only by verb. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<
    string,
    { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] }
  >();
  for (const rule of rules) {
    const groups = rule.apiGroups ?? [];
    const resources = rule.resources ?? [];
    const names = rule.resourceNames ?? [];
    const isSimple =
      names.length <= 1 &&
      (rule.nonResourceURLs ?? []).length === 0 &&
      groups.length === 1 &&
      resources.length === 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    // Stryker disable next-line StringLiteral: the '' stands only for no names, which the flag before it already tells apart
    const key = JSON.stringify([groups[0], resources[0], names.length > 0, names[0] ?? '']);
    const existing = simple.get(key);
    if (existing !== undefined) {
      existing.verbs.push(...rule.verbs);
    } else {
      simple.set(key, {
        apiGroups: [...groups],
        resources: [...resources],
        verbs: [...rule.verbs],
        ...(rule.resourceNames !== undefined ? { resourceNames: [...rule.resourceNames] } : {}),
      });
    }
  }
  return [...compacted, ...simple.values()];
}

/** Go's %q of one string (strconv.Quote). */
function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}

/** The API server's compact text of a rule, as listed in the escalation 403 (rbacv1helpers.CompactString). */
export function formatRuleForStatus(rule: PolicyRule): string {
  const parts: string[] = [];
  if ((rule.apiGroups ?? []).length > 0) parts.push(`APIGroups:${goQuoteList(rule.apiGroups ?? [])}`);
  if ((rule.resources ?? []).length > 0) parts.push(`Resources:${goQuoteList(rule.resources ?? [])}`);
  if ((rule.nonResourceURLs ?? []).length > 0)
    // Stryker disable next-line ArrayDeclaration: reached only when the list is set (checked on the line before)
    parts.push(`NonResourceURLs:${goQuoteList(rule.nonResourceURLs ?? [])}`);
  if ((rule.resourceNames ?? []).length > 0)
    // Stryker disable next-line ArrayDeclaration: reached only when the list is set (checked on the line before)
    parts.push(`ResourceNames:${goQuoteList(rule.resourceNames ?? [])}`);
  if (rule.verbs.length > 0) parts.push(`Verbs:${goQuoteList(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}
