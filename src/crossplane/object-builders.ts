/**
 * Builders for the RBAC objects the renderers emit. Every object and nested map is built with its keys in the
 * order `kubectl get -o yaml|json` prints them (alphabetical: the client re-encodes through an unordered map), and
 * label maps are sorted by key (Go's JSON encoder sorts map keys). Printing a rendered object therefore gives the
 * same bytes as printing the live object Crossplane made.
 */
import type {
  AggregationRule,
  ClusterRole,
  ClusterRoleBinding,
  LabelSelector,
  Labels,
  ObjectMeta,
  OwnerReference,
  PolicyRule,
  RoleBinding,
  RoleRef,
  Subject,
} from '../kube/types.js';
import { RBAC_API_GROUP, RBAC_API_VERSION } from '../kube/api-names.js';
import { compareStrings } from '../kube/order.js';

interface MetaInput {
  readonly name: string;
  readonly namespace?: string | undefined;
  readonly labels?: Labels | undefined;
  readonly ownerReferences?: readonly OwnerReference[] | undefined;
}

/** Returns a copy of the map with its keys in byte order. */
export function sortedMap(m: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(m).sort(compareStrings)) out[k] = m[k] ?? '';
  return out;
}

function buildMeta(m: MetaInput): ObjectMeta {
  const labels = m.labels !== undefined && Object.keys(m.labels).length > 0 ? sortedMap(m.labels) : undefined;
  return {
    ...(labels !== undefined ? { labels } : {}),
    name: m.name,
    ...(m.namespace !== undefined ? { namespace: m.namespace } : {}),
    ...(m.ownerReferences !== undefined && m.ownerReferences.length > 0
      ? { ownerReferences: m.ownerReferences.map(ownerRef) }
      : {}),
  };
}

function ownerRef(r: OwnerReference): OwnerReference {
  return {
    apiVersion: r.apiVersion,
    ...(r.blockOwnerDeletion !== undefined ? { blockOwnerDeletion: r.blockOwnerDeletion } : {}),
    ...(r.controller !== undefined ? { controller: r.controller } : {}),
    kind: r.kind,
    name: r.name,
    uid: r.uid,
  };
}

/** A controller owner reference as crossplane-runtime's meta.AsController(meta.TypedReferenceTo(...)) makes it. */
export function controllerRef(
  apiVersion: string,
  kind: string,
  name: string,
  uid: string | undefined,
): OwnerReference {
  return { apiVersion, blockOwnerDeletion: true, controller: true, kind, name, uid: uid ?? '' };
}

/**
 * A policy rule with keys in print order; empty optional lists are left out, as omitempty does. Lists are copied,
 * except shared ones (see sharedList), which nobody can change: a provider family's roles all hold the same long
 * resource lists.
 */
export function rule(r: PolicyRule): PolicyRule {
  // Assigned key by key, in print order: a provider family's roles hold tens of thousands of rules, and building
  // each from spread fragments cost a fifth of a second of a large sync.
  const out: { -readonly [K in keyof PolicyRule]?: PolicyRule[K] } = {};
  if (r.apiGroups !== undefined) out.apiGroups = list(r.apiGroups);
  if (r.nonResourceURLs !== undefined && r.nonResourceURLs.length > 0)
    out.nonResourceURLs = list(r.nonResourceURLs);
  if (r.resourceNames !== undefined && r.resourceNames.length > 0) out.resourceNames = list(r.resourceNames);
  if (r.resources !== undefined) out.resources = list(r.resources);
  out.verbs = list(r.verbs);
  return out as PolicyRule;
}

/** Lists made read-only by sharedList: rule() shares them instead of copying them. */
const sharedLists = new WeakSet<readonly string[]>();

/** Freezes XS and lets the objects built from it share it (a WeakSet: Object.isFrozen is slow on long lists). */
export function sharedList(xs: string[]): readonly string[] {
  Object.freeze(xs);
  sharedLists.add(xs);
  return xs;
}

function list(xs: readonly string[]): readonly string[] {
  return sharedLists.has(xs) ? xs : [...xs];
}

function selector(s: LabelSelector): LabelSelector {
  return {
    ...(s.matchExpressions !== undefined && s.matchExpressions.length > 0
      ? {
          matchExpressions: s.matchExpressions.map((e) => ({
            key: e.key,
            operator: e.operator,
            ...(e.values !== undefined ? { values: [...e.values] } : {}),
          })),
        }
      : {}),
    ...(s.matchLabels !== undefined ? { matchLabels: sortedMap(s.matchLabels) } : {}),
  };
}

export function buildClusterRole(
  m: MetaInput & { readonly rules?: readonly PolicyRule[]; readonly aggregationRule?: AggregationRule },
): ClusterRole {
  return {
    ...(m.aggregationRule !== undefined
      ? {
          aggregationRule: {
            clusterRoleSelectors: (m.aggregationRule.clusterRoleSelectors ?? []).map(selector),
          },
        }
      : {}),
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRole',
    metadata: buildMeta(m),
    ...(m.rules !== undefined ? { rules: m.rules.map(rule) } : {}),
  };
}

function subject(s: Subject): Subject {
  return {
    ...(s.apiGroup !== undefined ? { apiGroup: s.apiGroup } : {}),
    kind: s.kind,
    name: s.name,
    ...(s.namespace !== undefined ? { namespace: s.namespace } : {}),
  };
}

function clusterRoleRef(name: string): RoleRef {
  return { apiGroup: RBAC_API_GROUP, kind: 'ClusterRole', name };
}

export function buildClusterRoleBinding(
  m: MetaInput & { readonly roleName: string; readonly subjects: readonly Subject[] },
): ClusterRoleBinding {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: buildMeta(m),
    roleRef: clusterRoleRef(m.roleName),
    // Subjects is omitempty in k8s.io/api/rbac/v1: an empty list is not printed.
    ...(m.subjects.length > 0 ? { subjects: m.subjects.map(subject) } : {}),
  };
}

export function buildRoleBinding(
  m: MetaInput & {
    readonly namespace: string;
    readonly roleName: string;
    readonly subjects: readonly Subject[];
  },
): RoleBinding {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'RoleBinding',
    metadata: buildMeta(m),
    roleRef: clusterRoleRef(m.roleName),
    ...(m.subjects.length > 0 ? { subjects: m.subjects.map(subject) } : {}),
  };
}
