import type {
  ClusterRole,
  ClusterSnapshot,
  ConfigMap,
  Deployment,
  Namespace,
  ObjectMeta,
  ProviderRevision,
  RbacObject,
  Xrd,
} from './types.js';
import {
  AGGREGATED_ROLE,
  ANNOTATION_PAUSED,
  CHART_BASE_ROLE_ADMIN,
  CHART_BASE_ROLE_BROWSE,
  CHART_BASE_ROLE_EDIT,
  CHART_BASE_ROLE_VIEW,
  CHART_ROLE_ADMIN,
  CHART_ROLE_BROWSE,
  CHART_ROLE_EDIT,
  CHART_ROLE_VIEW,
  DEFAULT_CROSSPLANE_NAMESPACE,
  DEFAULT_CROSSPLANE_SERVICE_ACCOUNT,
  LABEL_NAMESPACE_PREFIX,
  LABEL_PARENT_PACKAGE,
  NS_BASE_ROLE_EDIT,
  NS_BASE_ROLE_VIEW,
  NS_ROLE_PREFIX,
  PROVIDER_REVISION_KIND,
  PROVIDER_ROLE_PREFIX,
  PROVIDER_ROLE_SUFFIX_SYSTEM,
  SYNC_CONFIG_MAP,
  XRD_KIND,
  XRD_ROLE_PREFIX,
  XRD_ROLE_SUFFIX_NS_EDIT,
  XRD_ROLE_SUFFIX_NS_VIEW,
} from './names.js';
import { compareStrings } from './object-builders.js';
import {
  crossplaneAggregatesXrs,
  hasChartUserRoles,
  isPluginOwned,
  renderBaseRoles,
  renderCrossplaneAggregated,
} from './render-base-roles.js';
import {
  enabledXrdsOf,
  isXrdNamespaceable,
  renderNamespaceBaseRoles,
  renderNamespaceRoles,
  renderXrdNamespaceRoles,
} from './render-namespace-roles.js';
import {
  familyResources,
  renderProviderClusterRoleBinding,
  renderProviderClusterRoles,
  renderProviderRoleBindings,
  type ProviderBindingScope,
} from './render-provider-roles.js';
import { renderXrdRoles, validateXrd, type CrossplaneVersion } from './render-xrd-roles.js';
import { SyncInputError } from './sync-input-error.js';

export type ManageLevel = 'all' | 'basic' | 'serviceaccounts';
export const MANAGE_LEVELS: readonly ManageLevel[] = ['all', 'basic', 'serviceaccounts'];
export type SyncFamily = 'providers' | 'composites' | 'namespaces' | 'base';
export const SYNC_FAMILIES: readonly SyncFamily[] = ['providers', 'composites', 'namespaces', 'base'];

/** The opt-outs a cluster admin sets once in the `crossplane-rbac` ConfigMap in the Crossplane namespace. */
export interface SyncConfig {
  readonly manage?: ManageLevel;
  readonly disableAggregateRoles?: boolean;
  readonly disableBaseRoles?: boolean;
  readonly providerBindingScope?: ProviderBindingScope;
}

export interface SyncOptions extends SyncConfig {
  /** Narrow to some object families; undefined means all. */
  readonly only?: readonly SyncFamily[];
  /** ProviderRevision or Provider names; unknown names are an error. */
  readonly providers?: readonly string[];
  /** XRD names; unknown names are an error. */
  readonly xrds?: readonly string[];
  /** Only these namespaces' namespace roles (enable-xrd); unknown names are an error. */
  readonly namespaces?: readonly string[];
  /** Undefined: detect from the Crossplane Deployment's image tag, default v2. */
  readonly crossplaneVersion?: CrossplaneVersion;
  readonly crossplaneNamespace?: string;
  readonly crossplaneServiceAccount?: string;
}

/** The settings sync ran with, after flags, ConfigMap and detection. */
export interface ResolvedSyncSettings {
  readonly manage: ManageLevel;
  readonly only: readonly SyncFamily[];
  readonly disableAggregateRoles: boolean;
  readonly disableBaseRoles: boolean;
  readonly providerBindingScope: ProviderBindingScope;
  readonly crossplaneVersion: CrossplaneVersion;
  readonly crossplaneNamespace: string;
  readonly crossplaneServiceAccount: string;
}

/** Groups of plugin-owned objects, for deciding which live ones a run may prune. */
export type PruneGroup = 'provider-bindings' | 'crossplane-aggregated' | 'base-roles' | 'namespace-roles';

/** Which plugin-owned live objects this run considered: only those may be pruned. */
export interface PruneScope {
  readonly groups: readonly PruneGroup[];
  /** When set, provider RoleBindings only of these revisions. */
  readonly providers?: readonly string[];
  /** When set, per-XRD namespace roles only of these XRDs (and no namespace base roles). */
  readonly xrds?: readonly string[];
  /** When set, `crossplane-ns-<ns>-*` roles only of these namespaces. */
  readonly namespaces?: readonly string[];
}

export interface SkippedOwner {
  readonly kind: string;
  readonly name: string;
  readonly reason: string;
}

export interface DesiredState {
  /** Everything sync wants to exist, in a stable order. */
  readonly objects: readonly RbacObject[];
  /** objectKey() of the desired objects the plugin owns outright (labelled, prunable). */
  readonly prunable: readonly string[];
  readonly scope: PruneScope;
  readonly skipped: readonly SkippedOwner[];
  /** Things worth telling the user that are not errors (e.g. a namespace enabling an unknown XRD). */
  readonly warnings: readonly string[];
  readonly settings: ResolvedSyncSettings;
}

/** A stable identity for an object: `Kind/name` or `Kind/namespace/name`. */
export function objectKey(o: {
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string };
}): string {
  const ns = o.metadata.namespace;
  return ns !== undefined && ns !== ''
    ? `${o.kind}/${ns}/${o.metadata.name}`
    : `${o.kind}/${o.metadata.name}`;
}

function configError(key: string, value: string, allowed: string): SyncInputError {
  return new SyncInputError(
    `ConfigMap "${SYNC_CONFIG_MAP}": data.${key} is "${value}", want one of ${allowed}`,
    { object: { kind: 'ConfigMap', name: SYNC_CONFIG_MAP }, field: `data.${key}` },
  );
}

function parseBool(key: string, v: string | undefined): boolean | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const t = v.trim().toLowerCase();
  if (t === 'true') return true;
  if (t === 'false') return false;
  throw configError(key, v, 'true, false');
}

/** Parses the opt-outs of the `crossplane-rbac` ConfigMap; absent keys stay undefined. */
export function readSyncConfig(configMap: ConfigMap | undefined): SyncConfig {
  const data = configMap?.data ?? {};
  const out: { -readonly [K in keyof SyncConfig]: SyncConfig[K] } = {};
  const manage = data.manage?.trim();
  if (manage !== undefined && manage !== '') {
    if (!(MANAGE_LEVELS as readonly string[]).includes(manage))
      throw configError('manage', manage, MANAGE_LEVELS.join(', '));
    out.manage = manage as ManageLevel;
  }
  const dar = parseBool('disableAggregateRoles', data.disableAggregateRoles);
  if (dar !== undefined) out.disableAggregateRoles = dar;
  const dbr = parseBool('disableBaseRoles', data.disableBaseRoles);
  if (dbr !== undefined) out.disableBaseRoles = dbr;
  const scope = data.providerBindingScope?.trim();
  if (scope !== undefined && scope !== '') {
    if (scope !== 'cluster' && scope !== 'namespace')
      throw configError('providerBindingScope', scope, 'cluster, namespace');
    out.providerBindingScope = scope;
  }
  return out;
}

export interface CrossplaneInstall {
  readonly deploymentName: string;
  readonly namespace: string;
  readonly serviceAccountName: string;
  readonly image: string;
  /** From the image tag's major version; undefined when the tag does not say. */
  readonly version: CrossplaneVersion | undefined;
}

function imageRepoAndTag(image: string): { lastSegment: string; tag: string | undefined } {
  const noDigest = image.split('@')[0] ?? '';
  const colon = noDigest.lastIndexOf(':');
  const hasTag = colon >= 0 && !noDigest.slice(colon + 1).includes('/');
  const repo = hasTag ? noDigest.slice(0, colon) : noDigest;
  const segments = repo.split('/');
  return {
    lastSegment: segments[segments.length - 1] ?? '',
    tag: hasTag ? noDigest.slice(colon + 1) : undefined,
  };
}

function versionOfTag(tag: string | undefined): CrossplaneVersion | undefined {
  const m = /^v?(\d+)\./.exec(tag ?? '');
  if (m === null) return undefined;
  const major = Number(m[1]);
  if (major === 1) return 'v1';
  if (major >= 2) return 'v2';
  return undefined;
}

/**
 * Finds the Crossplane core Deployment: a container whose image repository ends in `/crossplane` (or is
 * `crossplane`), preferring a Deployment named `crossplane`, then namespace/name order.
 */
export function detectCrossplane(deployments: readonly Deployment[]): CrossplaneInstall | undefined {
  const candidates: CrossplaneInstall[] = [];
  for (const d of deployments) {
    const containers = d.spec?.template?.spec?.containers ?? [];
    const c = containers.find((x) => imageRepoAndTag(x.image ?? '').lastSegment === 'crossplane');
    if (c === undefined) continue;
    const image = c.image ?? '';
    const sa = d.spec?.template?.spec?.serviceAccountName;
    candidates.push({
      deploymentName: d.metadata.name,
      namespace: d.metadata.namespace ?? 'default',
      serviceAccountName: sa !== undefined && sa !== '' ? sa : 'default',
      image,
      version: versionOfTag(imageRepoAndTag(image).tag),
    });
  }
  candidates.sort(
    (a, b) =>
      Number(b.deploymentName === 'crossplane') - Number(a.deploymentName === 'crossplane') ||
      compareStrings(a.namespace, b.namespace) ||
      compareStrings(a.deploymentName, b.deploymentName),
  );
  return candidates[0];
}

function isDeleting(o: { readonly metadata: ObjectMeta }): boolean {
  return o.metadata.deletionTimestamp !== undefined && o.metadata.deletionTimestamp !== null;
}

function isPaused(o: { readonly metadata: ObjectMeta }): boolean {
  return o.metadata.annotations?.[ANNOTATION_PAUSED] === 'true';
}

/** Checks the shape of a revision's objectRefs; throws SyncInputError naming the first bad field. */
export function validateProviderRevision(rev: ProviderRevision): void {
  const name = rev.metadata?.name;
  const obj = {
    kind: PROVIDER_REVISION_KIND,
    name: typeof name === 'string' && name !== '' ? name : '<unnamed>',
  };
  if (typeof name !== 'string' || name === '') {
    throw new SyncInputError(`ProviderRevision: metadata.name is required`, {
      object: obj,
      field: 'metadata.name',
    });
  }
  const refs: unknown = rev.status?.objectRefs;
  if (refs === undefined || refs === null) return;
  if (!Array.isArray(refs)) {
    throw new SyncInputError(`ProviderRevision "${name}": status.objectRefs must be a list`, {
      object: obj,
      field: 'status.objectRefs',
    });
  }
  refs.forEach((ref: unknown, i) => {
    const at = `status.objectRefs[${i}]`;
    if (typeof ref !== 'object' || ref === null || Array.isArray(ref)) {
      throw new SyncInputError(`ProviderRevision "${name}": ${at} must be an object`, {
        object: obj,
        field: at,
      });
    }
    for (const f of ['apiVersion', 'kind', 'name'] as const) {
      const v = (ref as Record<string, unknown>)[f];
      if (typeof v !== 'string' || v === '') {
        throw new SyncInputError(`ProviderRevision "${name}": ${at}.${f} must be a non-empty string`, {
          object: obj,
          field: `${at}.${f}`,
        });
      }
    }
  });
}

function byName<T extends { readonly metadata: { readonly name: string } }>(xs: readonly T[]): T[] {
  return [...xs].sort((a, b) => compareStrings(a.metadata.name, b.metadata.name));
}

function providerNameOf(rev: ProviderRevision): string | undefined {
  return (
    rev.metadata.labels?.[LABEL_PARENT_PACKAGE] ??
    rev.metadata.ownerReferences?.find((r) => r.kind === 'Provider' && r.controller === true)?.name
  );
}

function unknownNamesError(
  what: string,
  flag: string,
  unknown: readonly string[],
  known: readonly string[],
): SyncInputError {
  const list = unknown.map((n) => `"${n}"`).join(', ');
  const hint =
    known.length > 0
      ? `known: ${known.slice(0, 10).join(', ')}${known.length > 10 ? ', …' : ''}`
      : `there are none`;
  return new SyncInputError(`unknown ${what}: ${list}`, { field: flag, hint });
}

const LEVEL_RANK: Record<ManageLevel, number> = { serviceaccounts: 0, basic: 1, all: 2 };

/** Resolves flags over the ConfigMap over detection and defaults. */
export function resolveSyncSettings(snapshot: ClusterSnapshot, opts: SyncOptions): ResolvedSyncSettings {
  const detected = detectCrossplane(snapshot.deployments);
  const crossplaneNamespace = opts.crossplaneNamespace ?? detected?.namespace ?? DEFAULT_CROSSPLANE_NAMESPACE;
  const cm = snapshot.configMaps.find(
    (c) =>
      c.metadata.name === SYNC_CONFIG_MAP &&
      (c.metadata.namespace ?? crossplaneNamespace) === crossplaneNamespace,
  );
  const config = readSyncConfig(cm);
  const only = opts.only !== undefined && opts.only.length > 0 ? opts.only : SYNC_FAMILIES;
  const badFamily = only.filter((f) => !SYNC_FAMILIES.includes(f));
  if (badFamily.length > 0) throw unknownNamesError('object families', 'only', badFamily, SYNC_FAMILIES);
  return {
    manage: opts.manage ?? config.manage ?? 'all',
    only: SYNC_FAMILIES.filter((f) => only.includes(f)),
    disableAggregateRoles: opts.disableAggregateRoles ?? config.disableAggregateRoles ?? false,
    disableBaseRoles: opts.disableBaseRoles ?? config.disableBaseRoles ?? false,
    providerBindingScope: opts.providerBindingScope ?? config.providerBindingScope ?? 'cluster',
    crossplaneVersion: opts.crossplaneVersion ?? detected?.version ?? 'v2',
    crossplaneNamespace,
    crossplaneServiceAccount:
      opts.crossplaneServiceAccount ??
      (detected !== undefined && detected.namespace === crossplaneNamespace
        ? detected.serviceAccountName
        : undefined) ??
      DEFAULT_CROSSPLANE_SERVICE_ACCOUNT,
  };
}

/**
 * Computes everything `sync` wants to exist for a snapshot (provider, XRD, base and namespace roles and
 * bindings): pure, deterministic (inputs are sorted, so shuffled input gives identical output). Throws
 * SyncInputError for unknown filter names and invalid objects.
 */
export function renderSync(snapshot: ClusterSnapshot, opts: SyncOptions = {}): DesiredState {
  const settings = resolveSyncSettings(snapshot, opts);
  const level = LEVEL_RANK[settings.manage];
  const has = (f: SyncFamily): boolean => settings.only.includes(f);
  const userFacing = level >= LEVEL_RANK.basic && !settings.disableAggregateRoles;
  const skipped: SkippedOwner[] = [];
  const warnings: string[] = [];

  const xrds = byName(snapshot.xrds);
  const revisions = byName(snapshot.providerRevisions);
  const namespaces = byName(snapshot.namespaces);

  // Filters: unknown names are an error listing all of them.
  const xrdNames = xrds.map((x) => x.metadata.name);
  const xrdFilter =
    opts.xrds !== undefined && opts.xrds.length > 0
      ? [...new Set(opts.xrds)].sort(compareStrings)
      : undefined;
  if (xrdFilter !== undefined) {
    const unknown = xrdFilter.filter((n) => !xrdNames.includes(n));
    if (unknown.length > 0) throw unknownNamesError('CompositeResourceDefinitions', 'xrd', unknown, xrdNames);
  }
  let revisionFilter: string[] | undefined;
  if (opts.providers !== undefined && opts.providers.length > 0) {
    const wanted = [...new Set(opts.providers)].sort(compareStrings);
    const unknown = wanted.filter(
      (n) => !revisions.some((r) => r.metadata.name === n || providerNameOf(r) === n),
    );
    if (unknown.length > 0) {
      const known = [
        ...new Set(
          revisions.flatMap((r) => [providerNameOf(r) ?? '', r.metadata.name]).filter((n) => n !== ''),
        ),
      ];
      throw unknownNamesError('providers', 'provider', unknown, known.sort(compareStrings));
    }
    revisionFilter = revisions
      .filter((r) => wanted.includes(r.metadata.name) || wanted.includes(providerNameOf(r) ?? ''))
      .map((r) => r.metadata.name);
  }
  const nsNames = namespaces.map((n) => n.metadata.name);
  const nsFilter =
    opts.namespaces !== undefined && opts.namespaces.length > 0
      ? [...new Set(opts.namespaces)].sort(compareStrings)
      : undefined;
  if (nsFilter !== undefined) {
    const unknown = nsFilter.filter((n) => !nsNames.includes(n));
    if (unknown.length > 0) throw unknownNamesError('namespaces', 'namespace', unknown, nsNames);
  }
  const ownersFiltered = xrdFilter !== undefined || revisionFilter !== undefined;

  // Owners in scope, validated; deleting (and, for revisions, paused) owners skipped as Crossplane skips them.
  const liveXrds: Xrd[] = [];
  for (const x of xrds) {
    validateXrd(x);
    if (isDeleting(x)) skipped.push({ kind: XRD_KIND, name: x.metadata.name, reason: 'being deleted' });
    else liveXrds.push(x);
  }
  const liveRevisions: ProviderRevision[] = [];
  for (const r of revisions) {
    validateProviderRevision(r);
    if (isDeleting(r))
      skipped.push({ kind: PROVIDER_REVISION_KIND, name: r.metadata.name, reason: 'being deleted' });
    else if (isPaused(r))
      skipped.push({ kind: PROVIDER_REVISION_KIND, name: r.metadata.name, reason: 'paused' });
    else liveRevisions.push(r);
  }

  const objects: RbacObject[] = [];
  const groups: PruneGroup[] = [];
  const liveRoles = snapshot.clusterRoles;

  // Base (§3.3): crossplane:aggregated at every level, the user-facing roles at basic and all.
  if (has('base') && !ownersFiltered) {
    groups.push('crossplane-aggregated');
    if (!crossplaneAggregatesXrs(liveRoles)) {
      objects.push(
        ...renderCrossplaneAggregated({
          namespace: settings.crossplaneNamespace,
          serviceAccountName: settings.crossplaneServiceAccount,
        }),
      );
    }
    if (level >= LEVEL_RANK.basic) {
      groups.push('base-roles');
      if (!settings.disableBaseRoles && !hasChartUserRoles(liveRoles)) {
        objects.push(...renderBaseRoles({ crossplaneVersion: settings.crossplaneVersion }));
      }
    }
  }

  // Composites (§3.1).
  if (has('composites')) {
    for (const x of liveXrds) {
      if (xrdFilter !== undefined && !xrdFilter.includes(x.metadata.name)) continue;
      if (revisionFilter !== undefined && xrdFilter === undefined) continue;
      const [system, ...userRoles] = renderXrdRoles(x, { crossplaneVersion: settings.crossplaneVersion });
      if (system !== undefined) objects.push(system);
      if (userFacing) objects.push(...userRoles);
    }
  }

  // Providers (§3.2).
  if (has('providers')) {
    if (settings.providerBindingScope === 'namespace') groups.push('provider-bindings');
    for (const r of liveRevisions) {
      if (revisionFilter !== undefined && !revisionFilter.includes(r.metadata.name)) continue;
      if (xrdFilter !== undefined && revisionFilter === undefined) continue;
      const roles = renderProviderClusterRoles(r, familyResources(r, revisions));
      const [edit, view, system] = roles;
      if (edit === undefined || view === undefined || system === undefined) continue;
      objects.push(edit);
      if (userFacing) objects.push(view);
      objects.push(system);
      if (settings.providerBindingScope === 'namespace')
        objects.push(...renderProviderRoleBindings(r, snapshot.deployments));
      else objects.push(renderProviderClusterRoleBinding(r, snapshot.deployments));
    }
  }

  // Namespaces (§4), only at --manage all.
  if (has('namespaces') && level >= LEVEL_RANK.all && revisionFilter === undefined) {
    groups.push('namespace-roles');
    objects.push(...renderNamespaceFamily(namespaces, liveXrds, liveRoles, xrdFilter, nsFilter, warnings));
  }

  const prunable = objects.filter((o) => isPluginOwned(o)).map(objectKey);
  const scope: PruneScope = {
    groups,
    ...(revisionFilter !== undefined ? { providers: revisionFilter } : {}),
    ...(xrdFilter !== undefined ? { xrds: xrdFilter } : {}),
    ...(nsFilter !== undefined ? { namespaces: nsFilter } : {}),
  };
  return { objects, prunable, scope, skipped, warnings, settings };
}

function renderNamespaceFamily(
  namespaces: readonly Namespace[],
  xrds: readonly Xrd[],
  liveRoles: readonly ClusterRole[],
  xrdFilter: readonly string[] | undefined,
  nsFilter: readonly string[] | undefined,
  warnings: string[],
): RbacObject[] {
  const byName = new Map(xrds.map((x) => [x.metadata.name, x]));
  const enabledAnywhere = new Set<string>();
  const perNamespace: { ns: Namespace; xrds: string[] }[] = [];
  for (const ns of namespaces) {
    if (isDeleting(ns)) continue;
    const usable: string[] = [];
    for (const name of enabledXrdsOf(ns)) {
      const xrd = byName.get(name);
      if (xrd === undefined) {
        warnings.push(
          `namespace "${ns.metadata.name}" enables unknown CompositeResourceDefinition "${name}"`,
        );
        continue;
      }
      const n = isXrdNamespaceable(xrd);
      if (!n.ok) {
        warnings.push(`namespace "${ns.metadata.name}" enables ${n.reason}`);
        continue;
      }
      usable.push(name);
      enabledAnywhere.add(name);
    }
    if (usable.length > 0) perNamespace.push({ ns, xrds: usable });
  }

  const out: RbacObject[] = [];
  if (enabledAnywhere.size > 0 && xrdFilter === undefined) {
    for (const role of renderNamespaceBaseRoles()) {
      const live = liveRoles.find((r) => r.metadata.name === role.metadata.name);
      if (live === undefined || isPluginOwned(live)) out.push(role);
    }
  }
  for (const name of [...enabledAnywhere].sort(compareStrings)) {
    if (xrdFilter !== undefined && !xrdFilter.includes(name)) continue;
    const xrd = byName.get(name);
    if (xrd !== undefined) out.push(...renderXrdNamespaceRoles(xrd));
  }
  if (xrdFilter === undefined) {
    for (const { ns, xrds: enabled } of perNamespace) {
      if (nsFilter !== undefined && !nsFilter.includes(ns.metadata.name)) continue;
      out.push(...renderNamespaceRoles(ns, enabled));
    }
  }
  return out;
}

/** What a plugin-owned object is, by its name and labels; undefined for anything the plugin does not know. */
export function classifyOwnedObject(o: { readonly kind: string; readonly metadata: ObjectMeta }):
  | {
      readonly group: PruneGroup;
      readonly provider?: string;
      readonly xrd?: string;
      readonly namespace?: string;
      readonly base?: boolean;
    }
  | undefined {
  const name = o.metadata.name;
  if (o.kind === 'RoleBinding') {
    if (name.startsWith(PROVIDER_ROLE_PREFIX) && name.endsWith(PROVIDER_ROLE_SUFFIX_SYSTEM)) {
      return {
        group: 'provider-bindings',
        provider: name.slice(PROVIDER_ROLE_PREFIX.length, name.length - PROVIDER_ROLE_SUFFIX_SYSTEM.length),
      };
    }
    return undefined;
  }
  if (o.kind !== 'ClusterRole' && o.kind !== 'ClusterRoleBinding') return undefined;
  if (name === AGGREGATED_ROLE) return { group: 'crossplane-aggregated' };
  if (o.kind === 'ClusterRoleBinding') return name === CHART_ROLE_ADMIN ? { group: 'base-roles' } : undefined;
  const baseRoles = [
    CHART_ROLE_ADMIN,
    CHART_ROLE_EDIT,
    CHART_ROLE_VIEW,
    CHART_ROLE_BROWSE,
    CHART_BASE_ROLE_ADMIN,
    CHART_BASE_ROLE_EDIT,
    CHART_BASE_ROLE_VIEW,
    CHART_BASE_ROLE_BROWSE,
  ];
  if (baseRoles.includes(name)) return { group: 'base-roles' };
  if (name === NS_BASE_ROLE_EDIT || name === NS_BASE_ROLE_VIEW)
    return { group: 'namespace-roles', base: true };
  for (const suffix of [XRD_ROLE_SUFFIX_NS_EDIT, XRD_ROLE_SUFFIX_NS_VIEW]) {
    if (name.startsWith(XRD_ROLE_PREFIX) && name.endsWith(suffix)) {
      return {
        group: 'namespace-roles',
        xrd: name.slice(XRD_ROLE_PREFIX.length, name.length - suffix.length),
      };
    }
  }
  if (name.startsWith(NS_ROLE_PREFIX) && (name.endsWith('-edit') || name.endsWith('-view'))) {
    const fromLabel = Object.keys(o.metadata.labels ?? {})
      .find((k) => k.startsWith(LABEL_NAMESPACE_PREFIX))
      ?.slice(LABEL_NAMESPACE_PREFIX.length);
    return {
      group: 'namespace-roles',
      namespace: fromLabel ?? name.slice(NS_ROLE_PREFIX.length, -'-edit'.length),
    };
  }
  return undefined;
}

/** True when a plugin-owned live object is one this run considered, so that pruning it is in scope. */
export function isInPruneScope(
  o: { readonly kind: string; readonly metadata: ObjectMeta },
  scope: PruneScope,
): boolean {
  const c = classifyOwnedObject(o);
  if (c === undefined || !scope.groups.includes(c.group)) return false;
  if (c.provider !== undefined && scope.providers !== undefined) return scope.providers.includes(c.provider);
  if (c.xrd !== undefined && scope.xrds !== undefined) return scope.xrds.includes(c.xrd);
  if (c.base === true && scope.xrds !== undefined) return false;
  if (c.namespace !== undefined) {
    if (scope.xrds !== undefined) return false;
    if (scope.namespaces !== undefined) return scope.namespaces.includes(c.namespace);
  }
  return true;
}
