/**
 * Crossplane v1.x's handling of a ProviderRevision's `status.permissionRequests` (release-1.20
 * internal/controller/rbac/provider/roles/requests.go): requests are broken into single-verb rules and checked
 * against the ClusterRole named by the RBAC manager's --provider-clusterrole; without that flag every request is
 * rejected. Crossplane v2 ignores permission requests.
 */
import type { ClusterRole, PolicyRule, ProviderRevision } from '../../kube/types.js';

const ANY = '*';

/** One verb on one resource name of one resource of one group, or one verb on one non-resource URL. */
export type GranularRule =
  | {
      readonly apiGroup: string;
      readonly resource: string;
      /** `*` for "any name", as an empty resourceNames list means. */
      readonly resourceName: string;
      readonly verb: string;
    }
  | { readonly nonResourceURL: string; readonly verb: string };

/** Breaks policy rules into granular rules, URLs first within each rule (requests.go Expand). */
export function expandRules(rules: readonly PolicyRule[]): GranularRule[] {
  const out: GranularRule[] = [];
  for (const r of rules) {
    for (const nonResourceURL of r.nonResourceURLs ?? []) {
      for (const verb of r.verbs) out.push({ nonResourceURL, verb });
    }
    const names = r.resourceNames !== undefined && r.resourceNames.length > 0 ? r.resourceNames : [ANY];
    for (const apiGroup of r.apiGroups ?? []) {
      for (const resource of r.resources ?? []) {
        for (const resourceName of names) {
          for (const verb of r.verbs) out.push({ apiGroup, resource, resourceName, verb });
        }
      }
    }
  }
  return out;
}

function segments(r: GranularRule): readonly string[] {
  return 'nonResourceURL' in r
    ? // Stryker disable next-line StringLiteral: URL paths (3 segments) and resource paths (5) never compare equal whatever the prefix
      ['url', r.nonResourceURL, r.verb]
    : // Stryker disable next-line StringLiteral: resource paths (5 segments) and URL paths (3) never compare equal whatever the prefix
      ['resource', r.apiGroup, r.resource, r.resourceName, r.verb];
}

/** True when an allowed rule equals the requested one segment by segment, or holds `*` where they differ. */
function covers(allowed: readonly string[], requested: readonly string[]): boolean {
  return allowed.length === requested.length && allowed.every((a, i) => a === requested[i] || a === ANY);
}

/**
 * The granular requested rules the allowed rules do not cover, in request order. `undefined` allowed rules reject
 * everything, as Crossplane's VerySecureValidator does when the RBAC manager runs without --provider-clusterrole.
 */
export function rejectedPermissionRequests(
  requests: readonly PolicyRule[],
  allowed: readonly PolicyRule[] | undefined,
): GranularRule[] {
  const wanted = expandRules(requests);
  if (allowed === undefined) return wanted;
  const held = expandRules(allowed).map(segments);
  return wanted.filter((w) => !held.some((h) => covers(h, segments(w))));
}

/** The requests as the API server stores them: omitempty lists left out, keys in print order. */
export function permissionRequestRules(rev: ProviderRevision): PolicyRule[] {
  const nonEmpty = (k: keyof PolicyRule, v: readonly string[] | undefined) =>
    v !== undefined && v.length > 0 ? { [k]: [...v] } : {};
  return (rev.status?.permissionRequests ?? []).map((r) => ({
    ...nonEmpty('apiGroups', r.apiGroups),
    ...nonEmpty('nonResourceURLs', r.nonResourceURLs),
    ...nonEmpty('resourceNames', r.resourceNames),
    ...nonEmpty('resources', r.resources),
    verbs: [...r.verbs],
  }));
}

/** `{apiGroup: "", resource: "pods", resourceName: "*", verb: "get"}`, as Crossplane's events print a rule. */
export function formatGranularRule(r: GranularRule): string {
  return 'nonResourceURL' in r
    ? `{nonResourceURL: ${JSON.stringify(r.nonResourceURL)}, verb: ${JSON.stringify(r.verb)}}`
    : `{apiGroup: ${JSON.stringify(r.apiGroup)}, resource: ${JSON.stringify(r.resource)}, ` +
        `resourceName: ${JSON.stringify(r.resourceName)}, verb: ${JSON.stringify(r.verb)}}`;
}

/** The warning sync prints for a revision Crossplane v1 renders no ClusterRoles for. */
export function rejectedRequestsWarning(
  rev: ProviderRevision,
  rejected: readonly GranularRule[],
  providerClusterRole: ClusterRole | undefined,
): string {
  const shown = rejected.slice(0, 3).map(formatGranularRule).join(', ');
  const more = rejected.length > 3 ? ` and ${rejected.length - 3} more` : '';
  const why =
    providerClusterRole === undefined
      ? 'no --provider-clusterrole names the permissions providers may request, so Crossplane v1 rejects every request'
      : `ClusterRole "${providerClusterRole.metadata.name}" does not allow`;
  return (
    `ProviderRevision "${rev.metadata.name}": no ClusterRoles rendered, as Crossplane v1 renders none when a ` +
    `permission request is rejected: ${why}: ${shown}${more}`
  );
}
