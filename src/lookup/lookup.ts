/**
 * `lookup`: every subject a ClusterRoleBinding or RoleBinding names whose name matches a pattern, with each binding
 * that names it and the role that binding grants, as FairwindsOps/rbac-lookup lists them (lookup/lister.go: a
 * subject as the binding names it, its scope `cluster-wide` or the RoleBinding's namespace), with Crossplane's
 * aggregation resolved: an aggregated ClusterRole comes with the roles it draws its rules from and the chains
 * through which it does, as the clusterrole-aggregation controller follows the selectors (authz/aggregate.ts).
 *
 * A subject is what a binding names, not everyone it reaches: a ServiceAccount is not listed under the groups its
 * tokens carry (system:serviceaccounts ...), nor a user under its groups (explain --subject answers that).
 */
import { EffectiveRoles } from '../authz/effective-roles.js';
import type { RbacSnapshot } from '../authz/effective-roles.js';
import { normaliseSubject } from '../authz/subjects.js';
import type { AggregationGraph } from '../authz/aggregate.js';
import { compareNames, sortNames } from '../kube/order.js';
import type { ClusterRoleBinding, RoleBinding } from '../kube/types.js';
import { parsePattern, SUBJECT_KINDS, type LookupQuery, type SubjectKind } from './query.js';

export interface ObjectRef {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/** One binding that names the subject, and what it grants. */
export interface LookupGrant {
  readonly binding: ObjectRef;
  readonly role: ObjectRef;
  /** `cluster-wide` for a ClusterRoleBinding, else the RoleBinding's namespace (rbac-lookup's SCOPE). */
  readonly scope: string;
  /** False when the bound role does not exist: the binding grants nothing. */
  readonly roleFound: boolean;
  /** The role is a ClusterRole with an aggregationRule. */
  readonly aggregated: boolean;
  /**
   * How many rules the role grants: those it stores, as the authorizer reads them, or (converged view) those the
   * aggregation controller stores once it has caught up.
   */
  readonly ruleCount: number;
  /** Every ClusterRole an aggregated role draws from, directly or through another aggregated role, in name order. */
  readonly aggregatedFrom: readonly string[];
  /**
   * The aggregation chains, from the bound role to each role it draws from that aggregates nothing further (or
   * that was already followed on an earlier chain, or closes a cycle); [] for a role that does not aggregate.
   */
  readonly chains: readonly (readonly string[])[];
  /**
   * False for an aggregated role whose sources were not read (only the bound ClusterRoles were: the authorizer's
   * reads); `aggregatedFrom` and `chains` are then empty. Absent when they were read.
   */
  readonly sourcesRead?: false;
}

/** Which rules a role's count is of, and whether every ClusterRole is at hand. */
export interface LookupView {
  /** True: the rules the aggregation controller converges to; false: the rules each role stores. */
  readonly converged: boolean;
  /** Whether the snapshot holds every ClusterRole (else only the bound ones: an aggregated role's sources unknown). */
  readonly everyClusterRole: boolean;
}

export interface LookupSubject {
  readonly kind: SubjectKind;
  readonly name: string;
  /** A ServiceAccount's namespace (the binding's when its subject gives none). */
  readonly namespace?: string;
  readonly grants: readonly LookupGrant[];
}

export interface LookupResult {
  readonly pattern?: string;
  readonly kind?: SubjectKind;
  /** The namespace asked about; absent for every namespace. */
  readonly namespace?: string;
  readonly subjects: readonly LookupSubject[];
}

const CLUSTER_WIDE = 'cluster-wide';

function matches(
  query: LookupQuery,
  p: RegExp | undefined,
  kind: string,
  name: string,
  namespace: string | undefined,
): boolean {
  if (query.kind !== undefined && kind !== query.kind) return false;
  if (p === undefined) return true;
  // A global or sticky RegExp would carry lastIndex from one test to the next: parsePattern makes neither.
  return p.test(name) || (namespace !== undefined && p.test(`${namespace}:${name}`));
}

/**
 * The chains of an aggregated role, depth first in the controller's order (selector by selector, matched roles in
 * name order). Each role is followed once: a chain that meets a role already followed (on an earlier chain, or
 * earlier on this one: a cycle) ends there.
 */
function chainsOf(graph: AggregationGraph, root: string): string[][] {
  const out: string[][] = [];
  const followed = new Set<string>();
  const stack: string[][] = [[root]];
  for (let path = stack.pop(); path !== undefined; path = stack.pop()) {
    const holder = path[path.length - 1] ?? root;
    if (followed.has(holder)) {
      out.push(path);
      continue;
    }
    followed.add(holder);
    // A role two selectors match is drawn from once, where the first selector meets it.
    const next = [...new Set((graph.matches.get(holder) ?? []).flat())];
    if (next.length === 0) {
      if (path.length > 1) out.push(path);
      continue;
    }
    for (let i = next.length - 1; i >= 0; i--) stack.push([...path, next[i] as string]);
  }
  return out;
}

function subjectKey(kind: string, namespace: string | undefined, name: string): string {
  return JSON.stringify([kind, namespace ?? '', name]);
}

export function lookup(
  query: LookupQuery,
  snapshot: RbacSnapshot,
  view: LookupView = { converged: true, everyClusterRole: true },
): LookupResult {
  const pattern = parsePattern(query.pattern);
  // Without the roles they aggregate, aggregated roles are taken as they stand (their aggregationRule still said).
  const unread = view.everyClusterRole
    ? undefined
    : new Set(
        snapshot.clusterRoles.filter((r) => r.aggregationRule !== undefined).map((r) => r.metadata.name),
      );
  const clusterRoles =
    unread !== undefined
      ? snapshot.clusterRoles.map(({ aggregationRule: _ignored, ...role }) => role)
      : snapshot.clusterRoles;
  const roles = new EffectiveRoles(clusterRoles, snapshot.roles);
  const { graph } = roles.convergence;
  const grantCache = new Map<string, Omit<LookupGrant, 'binding' | 'scope'>>();
  const found = new Map<
    string,
    { kind: SubjectKind; name: string; namespace?: string; grants: LookupGrant[] }
  >();

  const grantOf = (binding: ClusterRoleBinding | RoleBinding, ns: string): LookupGrant => {
    const ref = binding.roleRef;
    const key = JSON.stringify([ref.kind, ref.kind === 'Role' ? ns : '', ref.name]);
    let role = grantCache.get(key);
    if (role === undefined) {
      const resolved = roles.resolve(ref, ns);
      const aggregatedFrom = resolved.aggregated ? sortNames(closure(graph, resolved.name)) : [];
      role = {
        role:
          resolved.kind === 'Role'
            ? { kind: 'Role', name: resolved.name, namespace: ns }
            : { kind: 'ClusterRole', name: resolved.name },
        roleFound: resolved.found,
        aggregated: resolved.aggregated || (unread?.has(resolved.name) ?? false),
        ruleCount: (view.converged ? resolved.effective : resolved.stored).length,
        aggregatedFrom,
        chains: resolved.aggregated ? chainsOf(graph, resolved.name) : [],
        ...(unread?.has(resolved.name) === true ? { sourcesRead: false as const } : {}),
      };
      grantCache.set(key, role);
    }
    const bindingRef: ObjectRef =
      ns === ''
        ? { kind: 'ClusterRoleBinding', name: binding.metadata.name }
        : { kind: 'RoleBinding', name: binding.metadata.name, namespace: ns };
    return { binding: bindingRef, scope: ns === '' ? CLUSTER_WIDE : ns, ...role };
  };

  const consider = (binding: ClusterRoleBinding | RoleBinding, ns: string): void => {
    let grant: LookupGrant | undefined;
    const seen = new Set<string>();
    for (const s of binding.subjects ?? []) {
      const subject = normaliseSubject(s, ns);
      const kind = SUBJECT_KINDS.find((k) => k === subject.kind);
      if (kind === undefined) continue;
      // A ServiceAccount subject of a ClusterRoleBinding without a namespace names nobody (the API refuses it).
      if (kind === 'ServiceAccount' && (subject.namespace ?? '') === '') continue;
      if (!matches(query, pattern, kind, subject.name, subject.namespace)) continue;
      const key = subjectKey(kind, subject.namespace, subject.name);
      // A binding that names one subject twice grants it once.
      if (seen.has(key)) continue;
      seen.add(key);
      let entry = found.get(key);
      if (entry === undefined) {
        entry = {
          kind,
          name: subject.name,
          ...(subject.namespace !== undefined ? { namespace: subject.namespace } : {}),
          grants: [],
        };
        found.set(key, entry);
      }
      entry.grants.push((grant ??= grantOf(binding, ns)));
    }
  };

  for (const b of snapshot.clusterRoleBindings) consider(b, '');
  for (const b of snapshot.roleBindings) {
    const ns = b.metadata.namespace ?? '';
    if (ns === '' || (query.namespace !== undefined && ns !== query.namespace)) continue;
    consider(b, ns);
  }

  const subjects = [...found.values()]
    .map((s) => ({ ...s, grants: s.grants.sort(compareGrants) }))
    .sort(
      (a, b) =>
        compareNames(a.kind, b.kind) ||
        compareNames(a.namespace ?? '', b.namespace ?? '') ||
        compareNames(a.name, b.name),
    );
  return {
    ...(pattern !== undefined && query.pattern !== undefined ? { pattern: query.pattern } : {}),
    ...(query.kind !== undefined ? { kind: query.kind } : {}),
    ...(query.namespace !== undefined ? { namespace: query.namespace } : {}),
    subjects,
  };
}

/** Cluster-wide first, then by namespace; then by binding name. */
function compareGrants(a: LookupGrant, b: LookupGrant): number {
  return (
    compareNames(a.binding.namespace ?? '', b.binding.namespace ?? '') ||
    compareNames(a.binding.name, b.binding.name)
  );
}

/** Every role NAME draws from, directly or not (itself only in a cycle). */
function closure(graph: AggregationGraph, name: string): string[] {
  const seen = new Set<string>();
  const todo = [name];
  for (let n = todo.pop(); n !== undefined; n = todo.pop()) {
    for (const m of (graph.matches.get(n) ?? []).flat()) {
      if (seen.has(m)) continue;
      seen.add(m);
      todo.push(m);
    }
  }
  return [...seen];
}
