/**
 * The pure core of `bind`: roleRefs in, RoleBindings/ClusterRoleBindings out (a roleRef without a namespace
 * becomes a ClusterRoleBinding, with a namespace a RoleBinding there), and the live bindings that still grant the
 * ServiceAccount cluster-admin. The bindings are planned by the one planner (`planChanges` in src/plan) with
 * bind's ownership rule (`bindOwnership`).
 */
import type { ClusterRoleBinding, RoleBinding, Subject } from '../kube/types.js';
import { RBAC_API_GROUP, RBAC_API_VERSION } from '../kube/api-names.js';
import { serviceAccountUser, subjectAppliesTo } from '../authz/subjects.js';
import { compareStrings } from '../kube/order.js';
import { isSharedBaseBinding, renderSharedBaseBinding, sharedBaseOwnership } from './base-binding.js';
import { fnv1a32, inventoryLabels, isConfigSyncBinding } from './inventory.js';
import { MAX_NAME_LENGTH, normalizeRoleRefs, type RoleRefSpec } from './role-refs.js';
import type { Binding, BindingRef, BindTarget, ServiceAccountRef } from './target.js';

const CLUSTER_ADMIN = 'cluster-admin';

/**
 * The deterministic name of the binding of `ref` to the target's ServiceAccount: a readable prefix
 * (`<sa>-<clusterrole|role>-<role name>`, lower-cased, other characters turned into "-") and an FNV-1a hash of the
 * full identity (ServiceAccount namespace and name, ref kind, namespace and name). The hash keeps names apart
 * when the prefix is ambiguous (the same ServiceAccount name in two namespaces, role names differing only in
 * case or punctuation) or truncated. Always a valid DNS subdomain of at most 253 characters.
 */
export function bindingName(target: BindTarget, ref: RoleRefSpec): string {
  const sa = target.serviceAccount;
  const identity = [sa.namespace, sa.name, ref.kind, ref.namespace ?? '', ref.name].join('\u0000');
  const hash = fnv1a32(identity);
  const prefix = `${sa.name}-${ref.kind.toLowerCase()}-${ref.name}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_NAME_LENGTH - hash.length - 1)
    .replace(/^-+/, '')
    .replace(/-+$/, '');
  return prefix === '' ? hash : `${prefix}-${hash}`;
}

function serviceAccountSubject(sa: ServiceAccountRef): Subject {
  return { kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace };
}

/**
 * Renders one binding per roleRef (after normalizing them) plus, with `baseRole`, a ClusterRoleBinding to that
 * ClusterRole. Output is sorted like `normalizeRoleRefs`.
 */
export function renderBindings(
  target: BindTarget,
  refs: readonly RoleRefSpec[],
  opts?: { baseRole?: string },
): Binding[] {
  const all: RoleRefSpec[] = [...refs];
  if (opts?.baseRole !== undefined) all.push({ kind: 'ClusterRole', name: opts.baseRole });
  const labels = inventoryLabels(target);
  const subjects = [serviceAccountSubject(target.serviceAccount)];
  return normalizeRoleRefs(all).map((ref): Binding => {
    const roleRef = { apiGroup: RBAC_API_GROUP, kind: ref.kind, name: ref.name };
    const name = bindingName(target, ref);
    if (ref.namespace === undefined) {
      return {
        apiVersion: RBAC_API_VERSION,
        kind: 'ClusterRoleBinding',
        metadata: { name, labels: { ...labels } },
        roleRef,
        subjects,
      };
    }
    return {
      apiVersion: RBAC_API_VERSION,
      kind: 'RoleBinding',
      metadata: { name, namespace: ref.namespace, labels: { ...labels } },
      roleRef,
      subjects,
    };
  });
}

/** The live bindings bind reads. */
export interface LiveBindings {
  readonly clusterRoleBindings: readonly ClusterRoleBinding[];
  readonly roleBindings: readonly RoleBinding[];
}

/**
 * The bindings a run wants, given the live ones. For a ServiceAccount: `renderBindings`. For a RootSync, as a
 * Config Sync that supports roleRefs would have them, so that neither side duplicates the other's:
 * - a roleRef that a binding reconciler-manager made for this RootSync already binds (same kind, namespace and
 *   roleRef) is that binding, with its name and labels and the one subject (updateRBACBinding), not a second one;
 * - `baseRole` adds the reconciler to the shared base binding; without it, `cleanup` takes it off again (a binding
 *   left with no subject is not wanted: pruning deletes it).
 */
export function desiredBindings(
  target: BindTarget,
  refs: readonly RoleRefSpec[],
  live: LiveBindings,
  opts: { readonly baseRole?: string; readonly cleanup: boolean },
): Binding[] {
  if (target.kind !== 'RootSync') {
    return renderBindings(target, refs, opts.baseRole !== undefined ? { baseRole: opts.baseRole } : {});
  }
  const theirs = [...live.clusterRoleBindings, ...live.roleBindings]
    .filter((b) => isConfigSyncBinding(b, target))
    .sort(byKey);
  const out = renderBindings(target, refs).map((b): Binding => {
    const same = theirs.find(
      (t) =>
        t.kind === b.kind &&
        (t.metadata.namespace ?? '') === (b.metadata.namespace ?? '') &&
        t.roleRef.kind === b.roleRef.kind &&
        t.roleRef.name === b.roleRef.name,
    );
    if (same === undefined) return b;
    const labels = { ...(same.metadata.labels ?? {}) };
    return b.kind === 'RoleBinding'
      ? { ...b, metadata: { ...b.metadata, name: same.metadata.name, labels } }
      : { ...b, metadata: { ...b.metadata, name: same.metadata.name, labels } };
  });
  const shared = live.clusterRoleBindings.find(isSharedBaseBinding);
  // Cleaning up touches the shared binding only where adding to it would: never one that is not Config Sync's.
  const include = opts.baseRole !== undefined;
  if (include || (opts.cleanup && shared !== undefined && sharedBaseOwnership(shared, false).ours)) {
    const base = renderSharedBaseBinding(target.serviceAccount, shared, include);
    if (base !== undefined) out.push(base);
  }
  return out;
}

function refOf(b: Binding): BindingRef {
  return b.kind === 'RoleBinding' && b.metadata.namespace !== undefined
    ? { kind: b.kind, name: b.metadata.name, namespace: b.metadata.namespace }
    : { kind: b.kind, name: b.metadata.name };
}

function bindingKey(b: Binding): string {
  const ns = b.kind === 'RoleBinding' ? (b.metadata.namespace ?? '') : '';
  return `${b.kind}\u0000${ns}\u0000${b.metadata.name}`;
}
function byKey(a: Binding, b: Binding): number {
  return compareStrings(bindingKey(a), bindingKey(b));
}

/**
 * True when `subject` (in a binding in `bindingNamespace`, if any) covers the ServiceAccount, as the Kubernetes
 * RBAC authorizer matches subjects: the ServiceAccount itself (a RoleBinding's subject without namespace means the
 * binding's namespace), its user name, or one of its groups.
 */
function subjectCoversServiceAccount(
  subject: Subject,
  sa: ServiceAccountRef,
  bindingNamespace: string | undefined,
): boolean {
  return subjectAppliesTo(subject, serviceAccountUser(sa.namespace, sa.name), bindingNamespace ?? '');
}

/** Bindings that grant the ClusterRole cluster-admin to the ServiceAccount, directly or through its groups. */
export function findClusterAdminBindings(
  sa: ServiceAccountRef,
  live: {
    readonly clusterRoleBindings: readonly ClusterRoleBinding[];
    readonly roleBindings: readonly RoleBinding[];
  },
): BindingRef[] {
  const found: Binding[] = [];
  for (const b of [...live.clusterRoleBindings, ...live.roleBindings]) {
    if (b.roleRef.kind !== 'ClusterRole' || b.roleRef.name !== CLUSTER_ADMIN) continue;
    const ns = b.kind === 'RoleBinding' ? b.metadata.namespace : undefined;
    if ((b.subjects ?? []).some((s) => subjectCoversServiceAccount(s, sa, ns))) found.push(b);
  }
  return found.sort(byKey).map(refOf);
}
