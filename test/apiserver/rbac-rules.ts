/**
 * RBAC policy rules and how one rule decides one request, as Kubernetes' RBAC authorizer does it
 * (plugin/pkg/auth/authorizer/rbac/rbac.go RuleAllows over pkg/apis/rbac/v1/evaluation_helpers.go).
 * Written for the test API server from Kubernetes' behaviour; it shares nothing with the plugin's src/.
 */

/** A PolicyRule as stored: any list may be absent, null or empty, and all three mean "none". */
export interface PolicyRule {
  readonly verbs?: readonly string[] | null;
  readonly apiGroups?: readonly string[] | null;
  readonly resources?: readonly string[] | null;
  readonly resourceNames?: readonly string[] | null;
  readonly nonResourceURLs?: readonly string[] | null;
}

/** authorizer.Attributes: what a request asks for. A resource request names a resource, any other a path. */
export interface RequestAttributes {
  readonly resourceRequest: boolean;
  readonly verb: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly namespace: string;
  readonly path: string;
}

/** Attributes of a resource request; the fields left out are empty. */
export function resourceAttributes(
  a: Partial<Omit<RequestAttributes, 'resourceRequest' | 'path'>> & { verb: string },
): RequestAttributes {
  return {
    resourceRequest: true,
    verb: a.verb,
    apiGroup: a.apiGroup ?? '',
    resource: a.resource ?? '',
    subresource: a.subresource ?? '',
    name: a.name ?? '',
    namespace: a.namespace ?? '',
    path: '',
  };
}

/** Attributes of a request for a path that is not a resource (/api, /healthz, ...). */
export function pathAttributes(verb: string, path: string): RequestAttributes {
  return {
    resourceRequest: false,
    verb,
    apiGroup: '',
    resource: '',
    subresource: '',
    name: '',
    namespace: '',
    path,
  };
}

/** The list under a rule field; absent and null are empty. */
export function listOf(values: readonly string[] | null | undefined): readonly string[] {
  return values ?? [];
}

const WILDCARD = '*';

function verbMatches(rule: PolicyRule, verb: string): boolean {
  return listOf(rule.verbs).some((v) => v === WILDCARD || v === verb);
}

function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return listOf(rule.apiGroups).some((g) => g === WILDCARD || g === group);
}

/**
 * `resource` is "pods" or "pods/status"; a rule entry matches when it is "*", exactly the requested resource, or
 * "*\/<subresource>" for a request of that subresource of any resource.
 */
function resourceMatches(rule: PolicyRule, resource: string, subresource: string): boolean {
  for (const entry of listOf(rule.resources)) {
    if (entry === WILDCARD || entry === resource) return true;
    if (subresource !== '' && entry === `*/${subresource}`) return true;
  }
  return false;
}

/** No resourceNames: every name (also the empty name of a list or create). Otherwise only those names. */
function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = listOf(rule.resourceNames);
  return names.length === 0 || names.includes(name);
}

/** A rule URL matches itself; "*" matches every path; a URL ending in "*" matches every path it prefixes. */
export function nonResourceUrlCovers(ruleUrl: string, path: string): boolean {
  if (ruleUrl === WILDCARD || ruleUrl === path) return true;
  if (!ruleUrl.endsWith(WILDCARD)) return false;
  let prefix = ruleUrl;
  while (prefix.endsWith(WILDCARD)) prefix = prefix.slice(0, -1);
  return path.startsWith(prefix);
}

/** Whether this one rule allows the request. */
export function ruleAllows(rule: PolicyRule, req: RequestAttributes): boolean {
  if (!verbMatches(rule, req.verb)) return false;
  if (!req.resourceRequest)
    return listOf(rule.nonResourceURLs).some((u) => nonResourceUrlCovers(u, req.path));
  const resource = req.subresource === '' ? req.resource : `${req.resource}/${req.subresource}`;
  return (
    apiGroupMatches(rule, req.apiGroup) &&
    resourceMatches(rule, resource, req.subresource) &&
    resourceNameMatches(rule, req.name)
  );
}

/** Go's semantic DeepEqual of two rules: field by field, list order counting, nil equal to empty. */
export function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  return (
    sameList(a.verbs, b.verbs) &&
    sameList(a.apiGroups, b.apiGroups) &&
    sameList(a.resources, b.resources) &&
    sameList(a.resourceNames, b.resourceNames) &&
    sameList(a.nonResourceURLs, b.nonResourceURLs)
  );
}

function sameList(a: readonly string[] | null | undefined, b: readonly string[] | null | undefined): boolean {
  const x = listOf(a);
  const y = listOf(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** Go's string order: byte-wise over UTF-8. */
export function compareGoStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
