import { membersOfFamily } from './family.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  Deployment,
  ObjectRef,
  PolicyRule,
  ProviderRevision,
  RoleBinding,
} from '../../kube/types.js';
import {
  CAPABILITY_SAFE_START,
  LABEL_AGGREGATE_TO_ADMIN,
  LABEL_AGGREGATE_TO_CROSSPLANE,
  LABEL_AGGREGATE_TO_EDIT,
  LABEL_AGGREGATE_TO_VIEW,
  LABEL_PROVIDER_SYSTEM,
  LABEL_VALUE_TRUE,
  MRD_GROUP,
  MRD_KIND,
  PROVIDER_ROLE_PREFIX,
  PROVIDER_ROLE_SUFFIX_EDIT,
  PROVIDER_ROLE_SUFFIX_VIEW,
  V1_DEFAULT_REGISTRY,
} from '../names.js';
import { buildClusterRole, sharedList } from '../object-builders.js';
import {
  permissionRequestRules,
  rejectedPermissionRequests,
  type GranularRule,
} from './permission-requests.js';
import {
  providerSystemRoleName,
  renderProviderBindings,
  revisionOwner,
  type ProviderBindingScope,
} from './bindings.js';
import { VERBS_ALL, VERBS_VIEW, type CrossplaneVersion } from '../definition/roles.js';
import { CRD_GROUP, CRD_KIND } from '../../kube/api-names.js';
import { compareStrings } from '../../kube/order.js';

/** A Kubernetes API resource: unversioned group and plural. */
export interface ApiResource {
  readonly group: string;
  readonly plural: string;
}

export type { ProviderBindingScope };

/** How the RBAC manager of a Crossplane version renders a revision's ClusterRoles. */
export interface ProviderRolePolicy {
  /** Default v2. */
  readonly crossplaneVersion?: CrossplaneVersion;
  /**
   * v1 only: the ClusterRole the RBAC manager's --provider-clusterrole names. Permission requests must stay within
   * its rules, and family images are parsed with v1's default registry. Undefined: every request is rejected and
   * images are parsed with no default registry, as `crossplane rbac start` without the flag does.
   */
  readonly providerClusterRole?: ClusterRole | undefined;
}

function isV1(policy: ProviderRolePolicy): boolean {
  return policy.crossplaneVersion === 'v1';
}

/** The registry OrgDiffer puts references without one in: v1's default only when v1 has a provider clusterrole. */
function familyDefaultRegistry(policy: ProviderRolePolicy): string {
  // Stryker disable next-line StringLiteral: both images default alike, and no parsed registry can equal another invalid host
  return isV1(policy) && policy.providerClusterRole !== undefined ? V1_DEFAULT_REGISTRY : '';
}

const VERBS_SYSTEM = sharedList(['get', 'list', 'watch', 'update', 'patch', 'create']);

/**
 * The resources a revision's objectRefs define, in ref order and with duplicates kept, as crossplane's
 * provider/roles DefinedResources returns them: CRD refs (apiextensions.k8s.io) and, since v2, MRD refs
 * (apiextensions.crossplane.io), any version; names split at the first dot; names without a dot skipped.
 */
export function definedResources(
  refs: readonly ObjectRef[] | undefined,
  version: CrossplaneVersion = 'v2',
): ApiResource[] {
  if (refs === undefined) return [];
  const cache = definedCache[version];
  const cached = cache.get(refs);
  if (cached !== undefined) return [...cached];
  const out = computeDefinedResources(refs, version);
  cache.set(refs, out);
  return [...out];
}

/** definedResources per objectRefs array: a family's members are read once per member, not once per revision. */
const definedCache: Record<CrossplaneVersion, WeakMap<readonly ObjectRef[], readonly ApiResource[]>> = {
  v1: new WeakMap(),
  v2: new WeakMap(),
};

function computeDefinedResources(refs: readonly ObjectRef[], version: CrossplaneVersion): ApiResource[] {
  const out: ApiResource[] = [];
  for (const ref of refs) {
    // Stryker disable next-line StringLiteral: any text without "/" is the core group, neither CRD nor MRD
    const group = apiGroupOf(ref.apiVersion ?? '');
    const isCrd = group === CRD_GROUP && ref.kind === CRD_KIND;
    const isMrd = version === 'v2' && group === MRD_GROUP && ref.kind === MRD_KIND;
    if (!isCrd && !isMrd) continue;
    // Stryker disable next-line StringLiteral: a name without a dot is skipped, as "" is
    const name = ref.name ?? '';
    const dot = name.indexOf('.');
    if (dot < 0) continue;
    out.push({ group: name.slice(dot + 1), plural: name.slice(0, dot) });
  }
  return out;
}

/** schema.ParseGroupVersion's group: "" for "v1", the part before "/" otherwise; more than one "/" is invalid. */
function apiGroupOf(apiVersion: string): string | undefined {
  const parts = apiVersion.split('/');
  // Stryker disable next-line StringLiteral: the core group is neither the CRD nor the MRD group, nor is the text
  if (parts.length === 1) return '';
  if (parts.length === 2) return parts[0];
  return undefined;
}

/** Fuzzy capability match: strip every character outside [a-zA-Z0-9], then compare lower-cased. */
export function capabilitiesContainFuzzyMatch(
  capabilities: readonly string[] | undefined,
  key: string,
): boolean {
  const fuzz = (s: string): string => s.replace(/[^a-zA-Z0-9]+/g, '').toLowerCase();
  const want = fuzz(key);
  return (capabilities ?? []).some((c) => fuzz(c) === want);
}

/**
 * A revision's resources followed by those of every other revision of its provider family (same family label,
 * same registry and organisation, active or not; see familyMembers). The renderer sorts them.
 */
function resourcesOf(
  rev: ProviderRevision,
  members: readonly ProviderRevision[],
  policy: ProviderRolePolicy,
): ApiResource[] {
  const version = policy.crossplaneVersion ?? 'v2';
  const out = definedResources(rev.status?.objectRefs, version);
  for (const m of members) out.push(...definedResources(m.status?.objectRefs, version));
  return out;
}

/**
 * The other revisions of REV's provider family, in name order (so the result never depends on list order): same
 * family label, same registry and organisation, active or not; none when it has no family label.
 */
export function familyMembers(
  rev: ProviderRevision,
  all: readonly ProviderRevision[],
  policy: ProviderRolePolicy,
): ProviderRevision[] {
  return membersOfFamily(rev, all, familyDefaultRegistry(policy));
}

interface ResourceRules {
  readonly groups: string[];
  readonly rules: PolicyRule[];
}

/**
 * resourceRules of a revision's family resources, computed once per family: every member has the same resources
 * (its own and the others'), in another order that the sort undoes, so all get the same rules. Only when two
 * different resources share a sort key (plural+group) does the order matter; such families are computed for each
 * revision. Cached per list of revisions (one renderSync), by the objectRefs the resources come from.
 */
function familyResourceRules(
  rev: ProviderRevision,
  all: readonly ProviderRevision[],
  policy: ProviderRolePolicy,
): ResourceRules {
  const members = familyMembers(rev, all, policy);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut past the cache; both paths give the same rules
  if (members.length === 0) return resourceRules(resourcesOf(rev, members, policy));
  // Stryker disable next-line MethodExpression,ArithmeticOperator: the order only names the cache entry; another order only misses it
  const ids = [rev, ...members].map((r) => refsId(r.status?.objectRefs)).sort((a, b) => a - b);
  const key = `${policy.crossplaneVersion ?? 'v2'} ${ids.join(',')}`;
  let cache = familyRulesCache.get(all);
  if (cache === undefined) {
    cache = new Map();
    familyRulesCache.set(all, cache);
  }
  const cached = cache.get(key);
  if (cached !== undefined && cached !== null) return cached;
  const resources = resourcesOf(rev, members, policy);
  const computed = resourceRules(resources);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: caching less (or null again) only recomputes the same rules
  if (cached === undefined) cache.set(key, hasSortKeyTies(resources) ? null : computed);
  return computed;
}

/** Per list of revisions: family rules by the objectRefs they come from (null: to be computed per revision). */
const familyRulesCache = new WeakMap<readonly ProviderRevision[], Map<string, ResourceRules | null>>();
const refsIds = new WeakMap<readonly ObjectRef[], number>();
let lastRefsId = 0;

function refsId(refs: readonly ObjectRef[] | undefined): number {
  if (refs === undefined) return 0;
  let id = refsIds.get(refs);
  if (id === undefined) {
    // Stryker disable next-line UpdateOperator: decrementing gives unique ids too (-1, -2, ...; 0 stays the id of no refs)
    id = ++lastRefsId;
    refsIds.set(refs, id);
  }
  return id;
}

/** True when two different resources have the same sort key, so that the sorted order depends on the input order. */
function hasSortKeyTies(resources: readonly ApiResource[]): boolean {
  const seen = new Map<string, ApiResource>();
  for (const r of resources) {
    const other = seen.get(r.plural + r.group);
    if (other === undefined) seen.set(r.plural + r.group, r);
    else if (
      // Stryker disable next-line LogicalOperator,EqualityOperator: with equal plural+group, group differs iff plural does; true only skips the cache
      other.group !== r.group ||
      other.plural !== r.plural
    )
      return true;
  }
  // Stryker disable next-line BooleanLiteral: true only keeps a family out of the cache, which recomputes the same rules
  return false;
}

/** Per-group rules: resources sorted by plural+group (stable), one rule per group in order of first appearance. */
export function resourceRules(resources: readonly ApiResource[]): ResourceRules {
  // The sort key is built once per resource, not once per comparison: families hold tens of thousands.
  const sorted = resources
    .map((r) => ({ key: r.plural + r.group, r }))
    .sort((a, b) => compareStrings(a.key, b.key))
    .map((k) => k.r);
  const groups: string[] = [];
  const byGroup = new Map<string, string[]>();
  for (const r of sorted) {
    let list = byGroup.get(r.group);
    if (list === undefined) {
      list = [];
      byGroup.set(r.group, list);
      groups.push(r.group);
    }
    list.push(r.plural, `${r.plural}/status`);
  }
  // Shared: the roles of every member of a family hold these lists instead of copies (see rule()).
  return {
    groups,
    rules: groups.map((g) => ({
      apiGroups: sharedList([g]),
      // Stryker disable next-line ArrayDeclaration: every group in groups has a list
      resources: sharedList(byGroup.get(g) ?? []),
      verbs: [],
    })),
  };
}

function withVerbs(rules: readonly PolicyRule[], verbs: readonly string[]): PolicyRule[] {
  return rules.map((r) => ({ ...r, verbs }));
}

/**
 * The ClusterRoles Crossplane makes for a revision (edit, view, system), or none when it defines no resources.
 * The system role ends with the safe-start rule in v2, with the revision's permission requests in v1.
 */
function renderProviderClusterRoles(
  rev: ProviderRevision,
  { groups, rules }: ResourceRules,
  policy: ProviderRolePolicy,
): ClusterRole[] {
  if (rules.length === 0) return [];
  const name = rev.metadata.name;
  const owner = revisionOwner(rev);
  const systemRules: PolicyRule[] = [
    ...withVerbs(rules, VERBS_SYSTEM),
    { apiGroups: groups, resources: ['*/finalizers'], verbs: ['update'] },
    {
      apiGroups: ['', 'coordination.k8s.io'],
      resources: ['secrets', 'configmaps', 'events', 'leases'],
      verbs: VERBS_ALL,
    },
  ];
  if (isV1(policy)) {
    systemRules.push(...permissionRequestRules(rev));
  } else if (capabilitiesContainFuzzyMatch(rev.status?.capabilities, CAPABILITY_SAFE_START)) {
    systemRules.push({ apiGroups: [CRD_GROUP], resources: ['customresourcedefinitions'], verbs: VERBS_VIEW });
  }
  return [
    buildClusterRole({
      name: PROVIDER_ROLE_PREFIX + name + PROVIDER_ROLE_SUFFIX_EDIT,
      labels: {
        [LABEL_AGGREGATE_TO_CROSSPLANE]: LABEL_VALUE_TRUE,
        [LABEL_AGGREGATE_TO_ADMIN]: LABEL_VALUE_TRUE,
        [LABEL_AGGREGATE_TO_EDIT]: LABEL_VALUE_TRUE,
      },
      ownerReferences: owner,
      rules: withVerbs(rules, VERBS_ALL),
    }),
    buildClusterRole({
      name: PROVIDER_ROLE_PREFIX + name + PROVIDER_ROLE_SUFFIX_VIEW,
      labels: { [LABEL_AGGREGATE_TO_VIEW]: LABEL_VALUE_TRUE },
      ownerReferences: owner,
      rules: withVerbs(rules, VERBS_VIEW),
    }),
    buildClusterRole({
      name: providerSystemRoleName(name),
      labels: { [LABEL_PROVIDER_SYSTEM]: name },
      ownerReferences: owner,
      rules: systemRules,
    }),
  ];
}

/**
 * A revision's ClusterRoles with its family's resources, as the roles reconciler of the policy's Crossplane version
 * renders them. v1 renders none at all when it rejects a permission request; `rejected` lists what it rejected.
 */
export function renderRevisionClusterRoles(
  rev: ProviderRevision,
  all: readonly ProviderRevision[],
  policy: ProviderRolePolicy = {},
): { roles: ClusterRole[]; rejected: GranularRule[] } {
  if (isV1(policy)) {
    const allowed = policy.providerClusterRole;
    // Stryker disable next-line ArrayDeclaration: expandRules takes nothing from a string element (no verbs, groups or URLs), as from none
    const requests = rev.status?.permissionRequests ?? [];
    const rejected = rejectedPermissionRequests(
      requests,
      // Stryker disable next-line ArrayDeclaration: expandRules takes nothing from a string element (no verbs, groups or URLs), as from none
      allowed === undefined ? undefined : (allowed.rules ?? []),
    );
    if (rejected.length > 0) return { roles: [], rejected };
  }
  return {
    roles: renderProviderClusterRoles(rev, familyResourceRules(rev, all, policy), policy),
    rejected: [],
  };
}

/**
 * Everything sync makes for one revision: edit, view and system ClusterRoles, when it defines resources and v1
 * rejects none of its permission requests, and the system binding (a ClusterRoleBinding, or RoleBindings with
 * `bindingScope: 'namespace'`): crossplane's binding reconciler binds every revision, whatever it defines, unless
 * a Deployment of it names no service account (see renderProviderBindings).
 */
export function renderProviderRoles(
  rev: ProviderRevision,
  all: readonly ProviderRevision[],
  deployments: readonly Deployment[],
  opts: ProviderRolePolicy & { readonly bindingScope?: ProviderBindingScope } = {},
): (ClusterRole | ClusterRoleBinding | RoleBinding)[] {
  const { roles } = renderRevisionClusterRoles(rev, all, opts);
  return [...roles, ...renderProviderBindings(rev, deployments, opts.bindingScope).objects];
}
