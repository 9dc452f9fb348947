/** Which compared fields of a desired object differ from the live one, each compared as Kubernetes stores it. */
import type {
  ClusterRole,
  ClusterRoleBinding,
  Labels,
  OwnerReference,
  PolicyRule,
  RbacObject,
  RoleBinding,
  Subject,
} from '../kube/types.js';
import { RBAC_API_GROUP } from '../kube/api-names.js';
import { compareStrings } from '../kube/order.js';
import { isOwned } from './ownership.js';

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function normLabels(l: Labels | undefined): [string, string][] {
  return Object.entries(l ?? {}).sort(([a], [b]) => compareStrings(a, b));
}

/**
 * Labels compared as the map Kubernetes stores: the same keys with the same values, in any order (as their sorted
 * entries would compare, without sorting or serialising them for each of a synced cluster's thousands of roles).
 */
function sameLabels(a: Labels | undefined, b: Labels | undefined): boolean {
  const x = a ?? {};
  const y = b ?? {};
  let count = 0;
  for (const key in x) {
    if (!Object.hasOwn(y, key)) return false;
    const v = x[key];
    const w = y[key];
    if (v !== w && !sameJson(v, w)) return false;
    count++;
  }
  for (const key in y) if (Object.hasOwn(y, key)) count--;
  return count === 0;
}

/**
 * Rule lists compared field by field (verbs, apiGroups, resources, resourceNames, nonResourceURLs; a missing list
 * equals an empty one, except verbs), in one pass without building anything: provider roles hold whole families.
 */
function sameRules(a: readonly PolicyRule[] | undefined, b: readonly PolicyRule[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    const p = x[i];
    const q = y[i];
    // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral: the lengths are equal, so p and q are entries; the check narrows the type (noUncheckedIndexedAccess)
    if (p === undefined || q === undefined) return false;
    if (
      !sameStrings(p.verbs, q.verbs) ||
      !sameStrings(p.apiGroups ?? [], q.apiGroups ?? []) ||
      !sameStrings(p.resources ?? [], q.resources ?? []) ||
      !sameStrings(p.resourceNames ?? [], q.resourceNames ?? []) ||
      !sameStrings(p.nonResourceURLs ?? [], q.nonResourceURLs ?? [])
    )
      return false;
  }
  return true;
}

function sameStrings(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  // Live objects are JSON: verbs may be missing or null there, whatever the type says.
  const missingA = a === undefined || (a as unknown) === null;
  const missingB = b === undefined || (b as unknown) === null;
  if (missingA || missingB) return missingA === missingB;
  if (a.length !== b.length) return false;
  // Stryker disable next-line EqualityOperator: the lengths are equal, so one step more compares undefined with undefined
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function normAggregation(role: ClusterRole): unknown {
  if (role.aggregationRule === undefined) return null;
  return (role.aggregationRule.clusterRoleSelectors ?? []).map((s) => [
    normLabels(s.matchLabels),
    (s.matchExpressions ?? []).map((e) => [e.key, e.operator, e.values ?? []]),
  ]);
}

function normSubjects(subjects: readonly Subject[] | undefined): unknown {
  // The API server defaults apiGroup: "" for ServiceAccount, rbac.authorization.k8s.io for User and Group.
  return (subjects ?? []).map((s) => [
    s.kind,
    s.apiGroup ?? (s.kind === 'ServiceAccount' ? '' : RBAC_API_GROUP),
    s.name,
    s.namespace ?? '',
  ]);
}

function normOwners(refs: readonly OwnerReference[] | undefined): unknown {
  return (refs ?? []).map((r) => [
    r.apiVersion,
    r.kind,
    r.name,
    r.uid,
    r.controller ?? false,
    r.blockOwnerDeletion ?? false,
  ]);
}

/**
 * The fields that differ, compared as Crossplane's differs compare them: ClusterRoles by labels and rules
 * (aggregating roles by labels and aggregationRule, since the controller fills their rules); bindings by subjects,
 * roleRef and owner references (and labels, for plugin-owned bindings).
 */
export function changedFields(desired: RbacObject, live: RbacObject): string[] {
  const changed: string[] = [];
  if (desired.kind === 'ClusterRole' || desired.kind === 'Role') {
    if (!sameLabels(desired.metadata.labels, live.metadata.labels)) changed.push('labels');
    const d = desired as ClusterRole;
    const l = live as ClusterRole;
    if (!sameJson(normAggregation(d), normAggregation(l))) changed.push('aggregationRule');
    if (d.aggregationRule === undefined && !sameRules(d.rules, l.rules)) changed.push('rules');
    return changed;
  }
  const d = desired;
  const l = live as ClusterRoleBinding | RoleBinding;
  if (isOwned(desired) && !sameLabels(d.metadata.labels, l.metadata.labels)) changed.push('labels');
  if (!sameJson(normSubjects(d.subjects), normSubjects(l.subjects))) changed.push('subjects');
  if (
    !sameJson(
      [d.roleRef.apiGroup, d.roleRef.kind, d.roleRef.name],
      [l.roleRef.apiGroup, l.roleRef.kind, l.roleRef.name],
    )
  ) {
    changed.push('roleRef');
  }
  if (!sameJson(normOwners(d.metadata.ownerReferences), normOwners(l.metadata.ownerReferences))) {
    changed.push('ownerReferences');
  }
  return changed;
}
