/**
 * Which RBAC rules are privileged: rules that let the holder get more than the rules say, through Kubernetes' own
 * authorization machinery. `bind` needs --allow-privileged to bind a role with one, and `sync` and `enable-xrd`
 * to write one from an XRD's or a provider's roles (their authors are not the administrator who runs the plugin).
 *
 * A rule is privileged when it grants
 *  - `*` verbs on `*` resources in every API group (cluster-admin's shape), or any verb on every non-resource URL
 *    (`*` on `*` in one API group is full control of that group's objects only; where the group holds roles or
 *    identities, the rules below catch it);
 *  - `escalate` or `bind` (write or bind roles beyond one's own rules: pkg/registry/rbac/escalation_check.go),
 *    or `impersonate` (act as another user, group or service account), on anything, also through a `*` verb on
 *    roles/clusterroles or on users/groups/serviceaccounts/uids/userextras;
 *  - `create` on `serviceaccounts/token` (mint a token for a service account: the same as impersonating it), or
 *    `approve` on certificate `signers` (approve a client certificate for any identity, system:masters included).
 * Reading secrets and creating workloads are escalation paths too, but indirect ones that every deploying role has
 * (edit, admin, crossplane-edit): flagging them would make --allow-privileged routine, which protects nothing.
 */
import type { PolicyRule } from '../kube/types.js';
import { RBAC_API_GROUP } from '../kube/api-names.js';

const ALL = '*';
const MAX_LISTED = 3;

interface Target {
  readonly group: string;
  readonly resources: readonly string[];
}

/** Resources a `*` verb makes privileged, and the verb it then includes. */
const STAR_VERB_TARGETS: readonly { readonly includes: string; readonly targets: readonly Target[] }[] = [
  {
    includes: 'escalate and bind',
    targets: [{ group: RBAC_API_GROUP, resources: ['clusterroles', 'roles'] }],
  },
  {
    includes: 'impersonate',
    targets: [
      { group: '', resources: ['users', 'groups', 'serviceaccounts'] },
      { group: 'authentication.k8s.io', resources: ['uids', 'userextras'] },
    ],
  },
];

/** Verbs privileged on particular resources, and what they let the holder do. */
const VERB_TARGETS: readonly { readonly verb: string; readonly target: Target; readonly why: string }[] = [
  {
    verb: 'create',
    target: { group: '', resources: ['serviceaccounts/token'] },
    why: 'mints tokens for service accounts',
  },
  {
    verb: 'approve',
    target: { group: 'certificates.k8s.io', resources: ['signers'] },
    why: 'approves certificates for any identity',
  },
];

const IDENTITY_VERBS = ['escalate', 'bind', 'impersonate'];

function groupMatches(rule: PolicyRule, group: string): boolean {
  // Stryker disable next-line ArrayDeclaration: the groups asked about are fixed names, and Stryker's placeholder is none of them
  return (rule.apiGroups ?? []).some((g) => g === ALL || g === group);
}

/** Whether the rule's resources cover `resource` (a `userextras` target also covers `userextras/<key>`). */
function resourceMatches(rule: PolicyRule, resource: string): boolean {
  const slash = resource.indexOf('/');
  // Made once, not per listed resource: a provider's roles list hundreds.
  const subresources = `${resource}/`;
  const anyParent = slash >= 0 ? `*/${resource.slice(slash + 1)}` : undefined;
  // Stryker disable next-line ArrayDeclaration: the resources asked about are fixed names, and Stryker's placeholder neither is one nor starts with one
  return (rule.resources ?? []).some(
    (r) => r === ALL || r === resource || r.startsWith(subresources) || r === anyParent,
  );
}

function formatResource(resource: string, group: string): string {
  if (group === ALL) return `${resource} (in every API group)`;
  return group === '' ? resource : `${resource}.${group}`;
}

/** The rule's resources as kubectl names them (`clusterroles.rbac.authorization.k8s.io`), a few at most. */
function formatRuleResources(rule: PolicyRule, only?: (resource: string, group: string) => boolean): string {
  const all: string[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      if (only === undefined || only(resource, group)) all.push(formatResource(resource, group));
    }
  }
  const listed = [...new Set(all)];
  const text = listed.slice(0, MAX_LISTED).join(', ') + (listed.length > MAX_LISTED ? ', …' : '');
  const names = rule.resourceNames ?? [];
  return names.length > 0 ? `${text} (names: ${names.join(', ')})` : text;
}

/**
 * Reasons found for rules whose groups and resources lists are frozen, by those lists and the verbs: a provider
 * family's roles repeat the same shared (frozen, so unchangeable) lists thousands of times. Frozen verbs lists are
 * keyed by identity (the renderers share a few), others by their text. A rule with resource names or URLs is not
 * looked up here: the reason depends on nothing but the verbs, groups and resources otherwise.
 */
const known = new WeakMap<readonly string[], WeakMap<readonly string[], Map<unknown, string | undefined>>>();

/** Why one rule is privileged, or undefined. */
export function privilegedRuleReason(rule: PolicyRule): string | undefined {
  const { apiGroups, resources } = rule;
  if (apiGroups === undefined || resources === undefined) return reasonOf(rule);
  if ((rule.resourceNames?.length ?? 0) > 0 || (rule.nonResourceURLs?.length ?? 0) > 0) return reasonOf(rule);
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral: only a list changed after its check could tell, and no code changes one (they are readonly); the freeze makes that certain
  if (!Object.isFrozen(apiGroups) || !Object.isFrozen(resources)) return reasonOf(rule);
  let byResources = known.get(apiGroups);
  if (byResources === undefined) known.set(apiGroups, (byResources = new WeakMap()));
  let byVerbs = byResources.get(resources);
  if (byVerbs === undefined) byResources.set(resources, (byVerbs = new Map<unknown, string | undefined>()));
  const verbs = Object.isFrozen(rule.verbs) ? rule.verbs : JSON.stringify(rule.verbs);
  if (byVerbs.has(verbs)) return byVerbs.get(verbs);
  const reason = reasonOf(rule);
  byVerbs.set(verbs, reason);
  return reason;
}

function reasonOf(rule: PolicyRule): string | undefined {
  const verbs = rule.verbs;
  const starVerb = verbs.includes(ALL);
  // Stryker disable next-line ArrayDeclaration: the list is only searched for `*` and `/*`, which Stryker's placeholder is neither
  const urls = rule.nonResourceURLs ?? [];
  if (urls.includes(ALL) || urls.includes('/*')) {
    return `grants ${verbs.join(', ')} on every non-resource URL (${urls.includes(ALL) ? ALL : '/*'})`;
  }
  // Stryker disable next-line ArrayDeclaration: the lists are only searched for `*`, which Stryker's placeholder is not
  if (starVerb && (rule.resources ?? []).includes(ALL) && (rule.apiGroups ?? []).includes(ALL)) {
    return 'grants * on * in every API group';
  }
  for (const verb of IDENTITY_VERBS) {
    if (!verbs.includes(verb)) continue;
    const on = formatRuleResources(rule);
    return on === '' ? `grants ${verb}` : `grants ${verb} on ${on}`;
  }
  if (starVerb) {
    for (const { includes, targets } of STAR_VERB_TARGETS) {
      if (
        targets.some((t) => groupMatches(rule, t.group) && t.resources.some((r) => resourceMatches(rule, r)))
      ) {
        // Made only here: a named function made at every call costs the bundle a defineProperty (its kept name).
        const hits = (resource: string, group: string): boolean =>
          targets.some(
            (t) =>
              (group === ALL || group === t.group) &&
              t.resources.some((r) => resourceMatches({ verbs, resources: [resource] }, r)),
          );
        return `grants * (which includes ${includes}) on ${formatRuleResources(rule, hits)}`;
      }
    }
  }
  for (const { verb, target, why } of VERB_TARGETS) {
    if (!starVerb && !verbs.includes(verb)) continue;
    if (!groupMatches(rule, target.group)) continue;
    const resource = target.resources.find((r) => resourceMatches(rule, r));
    if (resource !== undefined) {
      return `grants ${starVerb ? '*' : verb} on ${formatResource(resource, target.group)} (${why})`;
    }
  }
  return undefined;
}

/** Why a role with these rules is privileged (its first privileged rule), or undefined. */
export function privilegedReason(rules: readonly PolicyRule[]): string | undefined {
  for (const rule of rules) {
    const reason = privilegedRuleReason(rule);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

const RBAC_OBJECTS = ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'];
const WRITE_VERBS = ['create', 'update', 'patch'];

/**
 * privilegedRuleReason, and also writing RBAC roles or bindings. For a grant made on someone else's behalf (the
 * kinds Compositions compose, granted to Crossplane): whoever may create a Composition may then have Crossplane
 * write any role or binding whose rules Crossplane holds, which is far more than they hold themselves. A role that
 * an administrator binds to a person (admin, crossplane-admin) is judged by privilegedRuleReason alone.
 */
export function privilegedOnBehalfReason(rule: PolicyRule): string | undefined {
  const shared = privilegedRuleReason(rule);
  if (shared !== undefined) return shared;
  const verb = rule.verbs.find((v) => v === ALL || WRITE_VERBS.includes(v));
  if (verb === undefined || !groupMatches(rule, RBAC_API_GROUP)) return undefined;
  const resource = RBAC_OBJECTS.find((r) => resourceMatches(rule, r));
  return resource === undefined
    ? undefined
    : `grants ${verb} on ${formatResource(resource, RBAC_API_GROUP)} (writes RBAC: grants anything its holder holds)`;
}
