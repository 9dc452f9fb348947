import type {
  ClusterRole,
  ClusterRoleBinding,
  Deployment,
  ObjectRef,
  OwnerReference,
  PolicyRule,
  ProviderRevision,
  RoleBinding,
  Subject,
} from './types.js';
import {
  CAPABILITY_SAFE_START,
  CRD_GROUP,
  CRD_KIND,
  LABEL_AGGREGATE_TO_ADMIN,
  LABEL_AGGREGATE_TO_CROSSPLANE,
  LABEL_AGGREGATE_TO_EDIT,
  LABEL_AGGREGATE_TO_VIEW,
  LABEL_MANAGED_BY,
  LABEL_PROVIDER_FAMILY,
  LABEL_PROVIDER_SYSTEM,
  LABEL_VALUE_TRUE,
  MANAGED_BY_VALUE,
  MRD_GROUP,
  MRD_KIND,
  PROVIDER_REVISION_API_VERSION,
  PROVIDER_REVISION_KIND,
  PROVIDER_ROLE_PREFIX,
  PROVIDER_ROLE_SUFFIX_EDIT,
  PROVIDER_ROLE_SUFFIX_SYSTEM,
  PROVIDER_ROLE_SUFFIX_VIEW,
} from './names.js';
import {
  buildClusterRole,
  buildClusterRoleBinding,
  buildRoleBinding,
  compareStrings,
  controllerRef,
} from './object-builders.js';
import { VERBS_ALL, VERBS_VIEW } from './render-xrd-roles.js';

/** A Kubernetes API resource: unversioned group and plural. */
export interface ApiResource {
  readonly group: string;
  readonly plural: string;
}

export type ProviderBindingScope = 'cluster' | 'namespace';

const VERBS_SYSTEM: readonly string[] = ['get', 'list', 'watch', 'update', 'patch', 'create'];

/** The name of a revision's system ClusterRole (and of its binding). */
export function providerSystemRoleName(revisionName: string): string {
  return PROVIDER_ROLE_PREFIX + revisionName + PROVIDER_ROLE_SUFFIX_SYSTEM;
}

/**
 * The resources a revision's objectRefs define: CRD refs (apiextensions.k8s.io) and MRD refs
 * (apiextensions.crossplane.io), any version; names split at the first dot; names without a dot skipped;
 * duplicates within one revision dropped (as crossplane's roles.DefinedResources does).
 */
export function definedResources(refs: readonly ObjectRef[] | undefined): ApiResource[] {
  if (refs === undefined) return [];
  const cached = definedCache.get(refs);
  if (cached !== undefined) return [...cached];
  const out = computeDefinedResources(refs);
  definedCache.set(refs, out);
  return [...out];
}

/** definedResources per objectRefs array: a family's members are read once per member, not once per revision. */
const definedCache = new WeakMap<readonly ObjectRef[], readonly ApiResource[]>();

function computeDefinedResources(refs: readonly ObjectRef[]): ApiResource[] {
  const out: ApiResource[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    const group = apiGroupOf(ref.apiVersion ?? '');
    const isCrd = group === CRD_GROUP && ref.kind === CRD_KIND;
    const isMrd = group === MRD_GROUP && ref.kind === MRD_KIND;
    if (!isCrd && !isMrd) continue;
    const name = ref.name ?? '';
    const dot = name.indexOf('.');
    if (dot < 0) continue;
    const plural = name.slice(0, dot);
    const g = name.slice(dot + 1);
    const key = `${plural}.${g}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ group: g, plural });
  }
  return out;
}

/** schema.ParseGroupVersion's group: "" for "v1", the part before "/" otherwise; more than one "/" is invalid. */
function apiGroupOf(apiVersion: string): string | undefined {
  const parts = apiVersion.split('/');
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

interface ImageContext {
  readonly registry: string;
  readonly repository: string;
}

const REPO_CHARS = /^[a-z0-9_./-]{2,255}$/;
const TAG_CHARS = /^[A-Za-z0-9_.-]{1,128}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
const REGISTRY = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]*)?$/;
const DEFAULT_REGISTRY = 'index.docker.io';

/**
 * Parses an OCI reference the way go-containerregistry's name.ParseReference does with an empty default registry:
 * the first path segment is the registry only if it contains "." or ":" or is "localhost"; "docker.io" means
 * "index.docker.io"; a one-segment repository on Docker Hub is "library/<name>". Undefined when unparsable.
 */
export function parseImageContext(ref: string): ImageContext | undefined {
  let base = ref;
  const at = base.indexOf('@');
  if (at >= 0) {
    if (base.indexOf('@', at + 1) >= 0 || !DIGEST.test(base.slice(at + 1))) return undefined;
    base = base.slice(0, at);
  }
  const colon = base.lastIndexOf(':');
  if (colon >= 0 && !base.slice(colon + 1).includes('/')) {
    const tag = base.slice(colon + 1);
    if (!TAG_CHARS.test(tag)) return undefined;
    base = base.slice(0, colon);
  }
  if (base === '') return undefined;
  let registry = '';
  let repository = base;
  const slash = base.indexOf('/');
  if (slash >= 0) {
    const first = base.slice(0, slash);
    if (first.includes('.') || first.includes(':') || first === 'localhost') {
      registry = first;
      repository = base.slice(slash + 1);
    }
  }
  if (!REPO_CHARS.test(repository)) return undefined;
  if (registry !== '' && !REGISTRY.test(registry)) return undefined;
  if (registry === 'docker.io') registry = DEFAULT_REGISTRY;
  if (registry === DEFAULT_REGISTRY && !repository.includes('/')) repository = `library/${repository}`;
  return { registry, repository };
}

/** True when two package images are in the same registry and organisation (crossplane's OrgDiffer, negated). */
export function sameRegistryAndOrg(a: string | undefined, b: string | undefined): boolean {
  const ca = parseImageContext(a ?? '');
  const cb = parseImageContext(b ?? '');
  if (ca === undefined || cb === undefined) return false;
  if (ca.registry !== cb.registry) return false;
  return ca.repository.split('/')[0] === cb.repository.split('/')[0];
}

/**
 * A revision's resources followed by those of every other revision of its provider family (same family label,
 * same registry and organisation, active or not). Members are taken in name order so the result never depends on
 * list order; the renderer sorts anyway.
 */
export function familyResources(rev: ProviderRevision, all: readonly ProviderRevision[]): ApiResource[] {
  const out = definedResources(rev.status?.objectRefs);
  const family = rev.metadata.labels?.[LABEL_PROVIDER_FAMILY];
  if (family === undefined || family === '') return out;
  const members = all
    .filter((m) => m.metadata.labels?.[LABEL_PROVIDER_FAMILY] === family)
    .filter((m) => !isSameRevision(m, rev))
    .filter((m) => sameRegistryAndOrg(rev.spec?.image, m.spec?.image))
    .sort((x, y) => compareStrings(x.metadata.name, y.metadata.name));
  for (const m of members) out.push(...definedResources(m.status?.objectRefs));
  return out;
}

function isSameRevision(a: ProviderRevision, b: ProviderRevision): boolean {
  if (a.metadata.uid !== undefined && b.metadata.uid !== undefined) return a.metadata.uid === b.metadata.uid;
  return a.metadata.name === b.metadata.name;
}

/** Per-group rules: resources sorted by plural+group (stable), one rule per group in order of first appearance. */
export function resourceRules(resources: readonly ApiResource[]): { groups: string[]; rules: PolicyRule[] } {
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
  return {
    groups,
    rules: groups.map((g) => ({ apiGroups: [g], resources: byGroup.get(g) ?? [], verbs: [] })),
  };
}

function withVerbs(rules: readonly PolicyRule[], verbs: readonly string[]): PolicyRule[] {
  return rules.map((r) => ({ ...r, verbs }));
}

function revisionOwner(rev: ProviderRevision): OwnerReference[] {
  return [
    controllerRef(PROVIDER_REVISION_API_VERSION, PROVIDER_REVISION_KIND, rev.metadata.name, rev.metadata.uid),
  ];
}

/**
 * The ClusterRoles Crossplane makes for a revision (edit, view, system), or none when it defines no resources.
 */
export function renderProviderClusterRoles(
  rev: ProviderRevision,
  resources: readonly ApiResource[],
): ClusterRole[] {
  if (resources.length === 0) return [];
  const { groups, rules } = resourceRules(resources);
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
  if (capabilitiesContainFuzzyMatch(rev.status?.capabilities, CAPABILITY_SAFE_START)) {
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

/** Deployments controlled or owned by the revision (an owner reference with its UID), in namespace/name order. */
function ownedDeployments(rev: ProviderRevision, deployments: readonly Deployment[]): Deployment[] {
  const uid = rev.metadata.uid;
  if (uid === undefined || uid === '') return [];
  return [...deployments]
    .sort(
      (a, b) =>
        compareStrings(a.metadata.namespace ?? '', b.metadata.namespace ?? '') ||
        compareStrings(a.metadata.name, b.metadata.name),
    )
    .filter((d) => (d.metadata.ownerReferences ?? []).some((r) => r.uid === uid));
}

/** One ServiceAccount subject per owner reference with the revision's UID, as crossplane's binding reconciler. */
export function providerSubjects(rev: ProviderRevision, deployments: readonly Deployment[]): Subject[] {
  const out: Subject[] = [];
  for (const d of ownedDeployments(rev, deployments)) {
    for (const r of d.metadata.ownerReferences ?? []) {
      if (r.uid !== rev.metadata.uid) continue;
      const sa = d.spec?.template?.spec?.serviceAccountName;
      out.push({
        kind: 'ServiceAccount',
        name: sa !== undefined && sa !== '' ? sa : 'default',
        namespace: d.metadata.namespace ?? 'default',
      });
    }
  }
  return out;
}

/** The ClusterRoleBinding of the system role (made for inactive revisions too, then without subjects). */
export function renderProviderClusterRoleBinding(
  rev: ProviderRevision,
  deployments: readonly Deployment[],
): ClusterRoleBinding {
  const name = providerSystemRoleName(rev.metadata.name);
  return buildClusterRoleBinding({
    name,
    ownerReferences: revisionOwner(rev),
    roleName: name,
    subjects: providerSubjects(rev, deployments),
  });
}

/**
 * `providerBindingScope: namespace`: one RoleBinding per namespace that runs the revision's Deployments, binding
 * the system ClusterRole there only. Plugin-owned (labelled), owned by the revision.
 */
export function renderProviderRoleBindings(
  rev: ProviderRevision,
  deployments: readonly Deployment[],
): RoleBinding[] {
  const name = providerSystemRoleName(rev.metadata.name);
  const byNs = new Map<string, Subject[]>();
  for (const s of providerSubjects(rev, deployments)) {
    const ns = s.namespace ?? 'default';
    const list = byNs.get(ns) ?? [];
    list.push(s);
    byNs.set(ns, list);
  }
  return [...byNs.keys()].sort(compareStrings).map((ns) =>
    buildRoleBinding({
      name,
      namespace: ns,
      labels: { [LABEL_MANAGED_BY]: MANAGED_BY_VALUE },
      ownerReferences: revisionOwner(rev),
      roleName: name,
      subjects: byNs.get(ns) ?? [],
    }),
  );
}

/**
 * Everything sync makes for one revision: edit, view and system ClusterRoles and the system binding
 * (a ClusterRoleBinding, or RoleBindings with `bindingScope: 'namespace'`). Nothing when no resources are defined.
 */
export function renderProviderRoles(
  rev: ProviderRevision,
  all: readonly ProviderRevision[],
  deployments: readonly Deployment[],
  opts: { readonly bindingScope?: ProviderBindingScope } = {},
): (ClusterRole | ClusterRoleBinding | RoleBinding)[] {
  const roles = renderProviderClusterRoles(rev, familyResources(rev, all));
  if (roles.length === 0) return [];
  if (opts.bindingScope === 'namespace') return [...roles, ...renderProviderRoleBindings(rev, deployments)];
  return [...roles, renderProviderClusterRoleBinding(rev, deployments)];
}
