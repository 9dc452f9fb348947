/**
 * The pure core of `bind` (a RootSync's spec.override.roleRefs, or roleRefs from the command line): roleRefs
 * in, RoleBindings/ClusterRoleBindings out, and the plan that turns the live bindings into the desired ones.
 *
 * Behaviour follows Config Sync's reconciler-manager (kpt-config-sync pkg/reconcilermanager/controllers,
 * manageRBACBindings / createRBACBinding / updateRBACBinding): a roleRef without a namespace becomes a
 * ClusterRoleBinding, with a namespace a RoleBinding there; the bindings are found again by inventory labels; a
 * binding of ours is updated to have exactly the one ServiceAccount subject; bindings no longer declared are
 * deleted. Unlike Config Sync we name bindings deterministically (it uses generateName) and label them
 * `configsync.gke.io/managed-by: kubectl-crossplane-rbac`, so that reconciler-manager never adopts or deletes them.
 */
import { UserError } from '../errors.js';
import { LABEL_MANAGED_BY, MANAGED_BY_VALUE } from '../crossplane/names.js';
import type { ClusterRoleBinding, KubeObject, Labels, RoleBinding, Subject } from '../kube/types.js';
import { RBAC_API_GROUP, RBAC_API_VERSION } from '../kube/api-names.js';
import { compareStrings } from '../kube/order.js';

/** Namespace of every RootSync and of its reconciler ServiceAccount (kpt-config-sync configsync.ControllerNamespace). */
export const CONFIG_MANAGEMENT_NAMESPACE = 'config-management-system';
/** The RootSync whose reconciler is `root-reconciler` without suffix (kpt-config-sync configsync.RootSyncName). */
export const DEFAULT_ROOT_SYNC_NAME = 'root-sync';
/** Prefix of root reconciler names (kpt-config-sync core.RootReconcilerPrefix). */
export const ROOT_RECONCILER_PREFIX = 'root-reconciler';
/** The base ClusterRole Config Sync binds every root reconciler with roleRefs to (build_names.go RootSyncPermissionsName). */
export const ROOT_RECONCILER_BASE_ROLE = 'configsync.gke.io:root-reconciler';

/** Config Sync's inventory label keys (kpt-config-sync pkg/metadata). */
export const LABEL_SYNC_KIND = 'configsync.gke.io/sync-kind';
export const LABEL_SYNC_NAME = 'configsync.gke.io/sync-name';
export const LABEL_SYNC_NAMESPACE = 'configsync.gke.io/sync-namespace';
export const LABEL_CONFIGSYNC_MANAGED_BY = 'configsync.gke.io/managed-by';
/** The value Config Sync's own manager sets; we never set it, so reconciler-manager leaves our bindings alone. */
export const CONFIGSYNC_MANAGER_VALUE = 'reconciler-manager';

/** Our labels naming the ServiceAccount a `bind --service-account` binding belongs to. */
export const LABEL_BIND_SA_NAMESPACE = 'kubectl-crossplane-rbac/service-account-namespace';
export const LABEL_BIND_SA_NAME = 'kubectl-crossplane-rbac/service-account-name';

const CLUSTER_ADMIN = 'cluster-admin';
const MAX_NAME_LENGTH = 253;
const MAX_LABEL_VALUE_LENGTH = 63;

/** Bad `bind` input: a malformed --role-ref, roleRefs file, RootSync roleRefs or service account argument. */
export class BindInputError extends UserError {
  override readonly name = 'BindInputError';
}

export type RoleRefSpec = { kind: 'ClusterRole' | 'Role'; name: string; namespace?: string };

export type ServiceAccountRef = { namespace: string; name: string };

export type BindTarget =
  | { kind: 'RootSync'; name: string; namespace: string; serviceAccount: ServiceAccountRef }
  | { kind: 'ServiceAccount'; serviceAccount: ServiceAccountRef };

export type Binding = ClusterRoleBinding | RoleBinding;

/** Identifies one binding: its kind, name and (for a RoleBinding) namespace. */
export type BindingRef = { kind: Binding['kind']; name: string; namespace?: string };

export interface BindUpdate {
  /** The object to write: the desired binding carrying the live resourceVersion and the live's extra labels. */
  readonly object: Binding;
  readonly live: Binding;
  /** What differs, e.g. `subjects`, `labels`. */
  readonly changes: readonly string[];
}

export interface BindDelete {
  readonly ref: BindingRef;
  /** Precondition for the delete; undefined only when the live object carries no uid. */
  readonly uid: string | undefined;
  readonly live: Binding;
}

export interface BindRefusal {
  readonly ref: BindingRef;
  readonly reason: string;
}

export interface BindPlan {
  readonly creates: readonly Binding[];
  readonly updates: readonly BindUpdate[];
  readonly unchanged: readonly Binding[];
  /** Ours, no longer declared, and `prune` was set. */
  readonly deletes: readonly BindDelete[];
  /** Ours and no longer declared, but `prune` was off: left in place. */
  readonly notPruned: readonly BindingRef[];
  /** A live binding has the desired name but is not ours: never touched. */
  readonly refused: readonly BindRefusal[];
}

const ACCEPTED_FORMS = 'ClusterRole/NAME, ClusterRole/NAME@NAMESPACE or Role/NAME@NAMESPACE';
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function roleKind(kind: string): RoleRefSpec['kind'] | undefined {
  const k = kind.toLowerCase();
  if (k === 'clusterrole') return 'ClusterRole';
  if (k === 'role') return 'Role';
  return undefined;
}

/** Why a role name is unusable, or undefined when it is fine (RBAC names are path segments: no `/`, no `%`). */
function roleNameProblem(name: string): string | undefined {
  if (name === '') return 'the name is empty';
  if (name === '.' || name === '..') return `"${name}" is not a valid name`;
  if (/[/%\s]/.test(name)) return `"${name}" contains "/", "%" or white space`;
  if (name.length > MAX_NAME_LENGTH)
    return `"${name.slice(0, 20)}…" is longer than ${MAX_NAME_LENGTH} characters`;
  return undefined;
}

function namespaceProblem(ns: string): string | undefined {
  if (ns.length > MAX_LABEL_VALUE_LENGTH || !DNS_LABEL.test(ns)) {
    return `"${ns}" is not a valid namespace name (lower-case letters, digits and "-", at most 63 characters)`;
  }
  return undefined;
}

/** Parses one `--role-ref` value: `ClusterRole/NAME`, `ClusterRole/NAME@NS` or `Role/NAME@NS` (kind in any case). */
export function parseRoleRefFlag(s: string): RoleRefSpec {
  const fail = (why: string): never => {
    throw new BindInputError(`invalid --role-ref "${s}": ${why}; accepted forms: ${ACCEPTED_FORMS}`, {
      hint: 'e.g. --role-ref ClusterRole/crossplane-edit --role-ref Role/deployer@team-a',
    });
  };
  const m = /^([^/]*)\/([^@]*)(?:@(.*))?$/.exec(s.trim());
  if (m === null) return fail('expected KIND/NAME[@NAMESPACE]');
  const [, kindPart = '', name = '', ns] = m;
  const kind = roleKind(kindPart);
  if (kind === undefined) return fail(`unknown kind "${kindPart}"`);
  const nameProblem = roleNameProblem(name);
  if (nameProblem !== undefined) return fail(nameProblem);
  if (ns !== undefined) {
    const nsProblem = namespaceProblem(ns);
    if (nsProblem !== undefined) return fail(nsProblem);
    return { kind, name, namespace: ns };
  }
  if (kind === 'Role') return fail('a Role needs a namespace (Role/NAME@NAMESPACE)');
  return { kind, name };
}

/** Parses `--service-account NS/NAME`. */
export function parseServiceAccountFlag(s: string): ServiceAccountRef {
  const m = /^([^/]+)\/([^/]+)$/.exec(s.trim());
  const fail = (why: string): never => {
    throw new BindInputError(`invalid --service-account "${s}": ${why}`, {
      hint: 'give it as NAMESPACE/NAME, e.g. --service-account flux-system/kustomize-controller',
    });
  };
  if (m === null) return fail('expected NAMESPACE/NAME');
  const [, namespace = '', name = ''] = m;
  const nsProblem = namespaceProblem(namespace);
  if (nsProblem !== undefined) return fail(nsProblem);
  if (name.length > MAX_NAME_LENGTH || !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name)) {
    return fail(`"${name}" is not a valid ServiceAccount name`);
  }
  return { namespace, name };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Parses a roleRefs document: a YAML/JSON list of `{kind, name, namespace}` (also accepted: an object with a
 * `roleRefs` list). `source` names the input in error messages.
 */
export function parseRoleRefsDocument(doc: unknown, source: string): RoleRefSpec[] {
  const list = isRecord(doc) && 'roleRefs' in doc ? doc['roleRefs'] : doc;
  if (!Array.isArray(list)) {
    throw new BindInputError(`${source}: expected a list of roleRefs ({kind, name, namespace})`, {
      hint: 'e.g. "- kind: ClusterRole\\n  name: crossplane-edit"',
    });
  }
  return list.map((entry: unknown, i) => parseRoleRefEntry(entry, `${source}: entry ${i}`));
}

function parseRoleRefEntry(entry: unknown, where: string): RoleRefSpec {
  if (!isRecord(entry))
    throw new BindInputError(`${where}: expected a mapping with kind, name and namespace`);
  for (const key of Object.keys(entry)) {
    if (key !== 'kind' && key !== 'name' && key !== 'namespace') {
      throw new BindInputError(`${where}: unknown field "${key}" (allowed: kind, name, namespace)`);
    }
  }
  const { kind: rawKind, name, namespace } = entry;
  const kind = typeof rawKind === 'string' ? roleKind(rawKind) : undefined;
  if (kind === undefined) {
    throw new BindInputError(
      `${where}: kind must be ClusterRole or Role, got ${JSON.stringify(rawKind) ?? 'nothing'}`,
    );
  }
  if (typeof name !== 'string') throw new BindInputError(`${where}: name must be a string`);
  const nameProblem = roleNameProblem(name);
  if (nameProblem !== undefined) throw new BindInputError(`${where}: ${nameProblem}`);
  // Config Sync treats an empty namespace as none (roleRef.Namespace == "").
  if (namespace === undefined || namespace === null || namespace === '') return { kind, name };
  if (typeof namespace !== 'string') throw new BindInputError(`${where}: namespace must be a string`);
  const nsProblem = namespaceProblem(namespace);
  if (nsProblem !== undefined) throw new BindInputError(`${where}: ${nsProblem}`);
  return { kind, name, namespace };
}

/**
 * The roleRefs a RootSync declares: `spec.override.roleRefs` (the served field), else the design doc's spelling
 * `spec.overrides.roleRefs`. An empty list when neither is set.
 */
export function roleRefsOfRootSync(rootSync: KubeObject): RoleRefSpec[] {
  const spec = rootSync['spec'];
  const id = `RootSync ${rootSync.metadata.namespace ?? CONFIG_MANAGEMENT_NAMESPACE}/${rootSync.metadata.name}`;
  if (!isRecord(spec)) return [];
  for (const field of ['override', 'overrides'] as const) {
    const block = spec[field];
    if (block === undefined || block === null) continue;
    if (!isRecord(block)) throw new BindInputError(`${id}: spec.${field} must be a mapping`);
    const refs = block['roleRefs'];
    if (refs === undefined || refs === null) continue;
    if (!Array.isArray(refs)) throw new BindInputError(`${id}: spec.${field}.roleRefs must be a list`);
    return refs.map((entry: unknown, i) => parseRoleRefEntry(entry, `${id}: spec.${field}.roleRefs[${i}]`));
  }
  return [];
}

function refKey(r: RoleRefSpec): string {
  return `${r.namespace ?? ''}\u0000${r.kind}\u0000${r.name}`;
}

/**
 * Validates and de-duplicates roleRefs, in a stable order (cluster-wide first, then by namespace, kind, name).
 * A Role and a ClusterRole of the same name are different refs.
 */
export function normalizeRoleRefs(refs: readonly RoleRefSpec[]): RoleRefSpec[] {
  const byKey = new Map<string, RoleRefSpec>();
  refs.forEach((r, i) => {
    const rawKind: unknown = r.kind;
    const kind = typeof rawKind === 'string' ? roleKind(rawKind) : undefined;
    if (kind === undefined)
      throw new BindInputError(`roleRef ${i}: kind must be ClusterRole or Role, got "${r.kind}"`);
    const nameProblem = roleNameProblem(r.name);
    if (nameProblem !== undefined) throw new BindInputError(`roleRef ${i}: ${nameProblem}`);
    const namespace = r.namespace === '' ? undefined : r.namespace;
    if (kind === 'Role' && namespace === undefined) {
      throw new BindInputError(
        `roleRef ${i} (Role/${r.name}): a Role must specify 'spec.override.roleRefs.namespace' (the namespace it lives in)`,
        { hint: `write it as Role/${r.name}@NAMESPACE, or use ClusterRole/${r.name} if it is a ClusterRole` },
      );
    }
    if (namespace !== undefined) {
      const nsProblem = namespaceProblem(namespace);
      if (nsProblem !== undefined) throw new BindInputError(`roleRef ${i}: ${nsProblem}`);
    }
    const ref: RoleRefSpec =
      namespace === undefined ? { kind, name: r.name } : { kind, name: r.name, namespace };
    byKey.set(refKey(ref), ref);
  });
  return [...byKey.entries()].sort(([a], [b]) => compareStrings(a, b)).map(([, r]) => r);
}

/** The reconciler ServiceAccount Config Sync runs a RootSync as (kpt-config-sync core.RootReconcilerName). */
export function rootSyncServiceAccount(name: string): {
  namespace: 'config-management-system';
  name: string;
} {
  return {
    namespace: CONFIG_MANAGEMENT_NAMESPACE,
    name: name === DEFAULT_ROOT_SYNC_NAME ? ROOT_RECONCILER_PREFIX : `${ROOT_RECONCILER_PREFIX}-${name}`,
  };
}

/** The bind target for RootSync `name` (RootSyncs live in config-management-system). */
export function rootSyncTarget(name: string): BindTarget {
  return {
    kind: 'RootSync',
    name,
    namespace: CONFIG_MANAGEMENT_NAMESPACE,
    serviceAccount: rootSyncServiceAccount(name),
  };
}

/** 32-bit FNV-1a over the UTF-16 code units of `s`, as 8 lower-case hex digits. */
export function fnv1a32(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** `s` when it is a valid label value, else a shortened valid form with a hash of the whole value. */
export function labelValue(s: string): string {
  if (s.length <= MAX_LABEL_VALUE_LENGTH && LABEL_VALUE.test(s)) return s;
  const hash = fnv1a32(s);
  const head = s
    .replace(/[^-A-Za-z0-9_.]+/g, '-')
    .slice(0, MAX_LABEL_VALUE_LENGTH - hash.length - 1)
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/[^A-Za-z0-9]+$/, '');
  return head === '' ? hash : `${head}-${hash}`;
}

/** The labels that mark a binding as ours for this target; also the inventory a re-run finds them by. */
export function inventoryLabels(target: BindTarget): Labels {
  if (target.kind === 'RootSync') {
    return {
      [LABEL_SYNC_KIND]: 'RootSync',
      [LABEL_SYNC_NAME]: labelValue(target.name),
      [LABEL_SYNC_NAMESPACE]: labelValue(target.namespace),
      [LABEL_CONFIGSYNC_MANAGED_BY]: MANAGED_BY_VALUE,
      [LABEL_MANAGED_BY]: MANAGED_BY_VALUE,
    };
  }
  return {
    [LABEL_MANAGED_BY]: MANAGED_BY_VALUE,
    [LABEL_BIND_SA_NAMESPACE]: labelValue(target.serviceAccount.namespace),
    [LABEL_BIND_SA_NAME]: labelValue(target.serviceAccount.name),
  };
}

/** The label selector (`k=v,…`) that lists our bindings for this target. */
export function inventorySelector(target: BindTarget): string {
  return Object.entries(inventoryLabels(target))
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

/** True when the binding carries every inventory label of this target. */
export function isOurBinding(
  binding: {
    readonly metadata: {
      readonly labels?: Labels;
      readonly ownerReferences?: readonly { readonly controller?: boolean }[];
    };
  },
  target: BindTarget,
): boolean {
  // bind never sets a controller: a binding someone else controls (an Argo CD Application, say) is theirs,
  // whatever its labels.
  if ((binding.metadata.ownerReferences ?? []).some((r) => r.controller === true)) return false;
  const labels = binding.metadata.labels ?? {};
  return Object.entries(inventoryLabels(target)).every(([k, v]) => labels[k] === v);
}

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

function refOf(b: Binding): BindingRef {
  return b.kind === 'RoleBinding' && b.metadata.namespace !== undefined
    ? { kind: b.kind, name: b.metadata.name, namespace: b.metadata.namespace }
    : { kind: b.kind, name: b.metadata.name };
}

function bindingKey(b: Binding): string {
  const ns = b.kind === 'RoleBinding' ? (b.metadata.namespace ?? '') : '';
  return `${b.kind}\u0000${ns}\u0000${b.metadata.name}`;
}

function sameSubject(a: Subject, b: Subject): boolean {
  return (
    a.kind === b.kind &&
    a.name === b.name &&
    (a.namespace ?? '') === (b.namespace ?? '') &&
    (a.apiGroup ?? '') === (b.apiGroup ?? '')
  );
}

function sameSubjects(a: readonly Subject[] | undefined, b: readonly Subject[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return (
    x.length === y.length &&
    x.every((s, i) => {
      const t = y[i];
      return t !== undefined && sameSubject(s, t);
    })
  );
}

function byKey(a: Binding, b: Binding): number {
  return compareStrings(bindingKey(a), bindingKey(b));
}

/**
 * Plans the writes that turn the live bindings into `desired` (from `renderBindings` for `opts.target`):
 * creates, updates (labels or subjects differ; a foreign subject added to one of ours is removed), unchanged,
 * deletes of ours no longer declared (only with `prune`), and refusals for live bindings that have a desired
 * name but are not ours (or have another roleRef, which is immutable). Nothing without our labels is touched.
 */
export function planBind(
  desired: readonly Binding[],
  live: {
    readonly clusterRoleBindings: readonly ClusterRoleBinding[];
    readonly roleBindings: readonly RoleBinding[];
  },
  opts: { readonly prune: boolean; readonly target: BindTarget },
): BindPlan {
  const liveByKey = new Map<string, Binding>();
  for (const b of [...live.clusterRoleBindings, ...live.roleBindings]) liveByKey.set(bindingKey(b), b);
  const desiredKeys = new Set(desired.map(bindingKey));

  const creates: Binding[] = [];
  const updates: BindUpdate[] = [];
  const unchanged: Binding[] = [];
  const refused: BindRefusal[] = [];
  for (const want of [...desired].sort(byKey)) {
    const have = liveByKey.get(bindingKey(want));
    if (have === undefined) {
      creates.push(want);
      continue;
    }
    if (!isOurBinding(have, opts.target)) {
      refused.push({
        ref: refOf(want),
        reason: `a ${have.kind} with this name exists but lacks the labels of ${describeTarget(opts.target)} (${inventorySelector(opts.target)}); it is not ours, so it is left alone`,
      });
      continue;
    }
    const rr = have.roleRef;
    if (
      rr.kind !== want.roleRef.kind ||
      rr.name !== want.roleRef.name ||
      rr.apiGroup !== want.roleRef.apiGroup
    ) {
      refused.push({
        ref: refOf(want),
        reason: `it refers to ${rr.kind}/${rr.name}, not ${want.roleRef.kind}/${want.roleRef.name}, and a roleRef cannot be changed; delete it to let bind recreate it`,
      });
      continue;
    }
    const changes: string[] = [];
    const haveLabels = have.metadata.labels ?? {};
    const wantLabels = want.metadata.labels ?? {};
    if (Object.entries(wantLabels).some(([k, v]) => haveLabels[k] !== v)) changes.push('labels');
    if (!sameSubjects(have.subjects, want.subjects)) changes.push('subjects');
    if (changes.length === 0) {
      unchanged.push(have);
      continue;
    }
    const metadata = {
      ...have.metadata,
      labels: { ...haveLabels, ...wantLabels },
    };
    const object: Binding = { ...want, metadata };
    updates.push({ object, live: have, changes });
  }

  const deletes: BindDelete[] = [];
  const notPruned: BindingRef[] = [];
  for (const have of [...liveByKey.values()].sort(byKey)) {
    if (desiredKeys.has(bindingKey(have)) || !isOurBinding(have, opts.target)) continue;
    if (opts.prune) deletes.push({ ref: refOf(have), uid: have.metadata.uid, live: have });
    else notPruned.push(refOf(have));
  }
  return { creates, updates, unchanged, deletes, notPruned, refused };
}

function describeTarget(target: BindTarget): string {
  return target.kind === 'RootSync'
    ? `RootSync ${target.namespace}/${target.name}`
    : `ServiceAccount ${target.serviceAccount.namespace}/${target.serviceAccount.name}`;
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
  switch (subject.kind) {
    case 'ServiceAccount':
      return (
        subject.name === sa.name &&
        (subject.namespace !== undefined && subject.namespace !== ''
          ? subject.namespace
          : bindingNamespace) === sa.namespace
      );
    case 'User':
      return subject.name === `system:serviceaccount:${sa.namespace}:${sa.name}`;
    case 'Group':
      return (
        subject.name === 'system:serviceaccounts' ||
        subject.name === `system:serviceaccounts:${sa.namespace}` ||
        subject.name === 'system:authenticated'
      );
    default:
      return false;
  }
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
