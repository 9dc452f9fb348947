/**
 * The settings `sync` runs with: the opt-outs of the `crossplane-rbac` ConfigMap, flags over them, and what is
 * detected from the cluster (the Crossplane Deployment, the chart's allowed-provider-permissions role).
 */
import type { ClusterRole, ClusterSnapshot, ConfigMap, Deployment } from '../kube/types.js';
import {
  DEFAULT_CROSSPLANE_NAMESPACE,
  DEFAULT_CROSSPLANE_SERVICE_ACCOUNT,
  SYNC_CONFIG_MAP,
} from '../crossplane/names.js';
import { findAllowedProviderPermissionsRole } from '../crossplane/base-roles.js';
import type { ProviderBindingScope } from '../crossplane/provider/roles.js';
import type { CrossplaneVersion } from '../crossplane/definition/roles.js';
import { SyncInputError } from '../crossplane/input-error.js';
import { compareStrings } from '../kube/order.js';
import { closeMatches } from '../kube/did-you-mean.js';

import {
  MANAGE_LEVELS,
  DEFAULT_SYNC_FAMILIES,
  SYNC_FAMILIES,
  type ManageLevel,
  type SyncFamily,
} from './choices.js';
import type { HoldRequest } from './held.js';
import type { KubeObject } from '../kube/types.js';
import type { SyncMemo } from './memo.js';

/** The opt-outs a cluster admin sets once in the `crossplane-rbac` ConfigMap in the Crossplane namespace. */
export interface SyncConfig {
  readonly manage?: ManageLevel;
  readonly disableAggregateRoles?: boolean;
  readonly disableBaseRoles?: boolean;
  /** The chart's rbacManager.skipAggregatedClusterRoles: base roles without the four crossplane:aggregate-to-*. */
  readonly skipAggregatedClusterRoles?: boolean;
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
  /**
   * v1 only, as the RBAC manager's flag of that name: the ClusterRole listing the permissions providers may
   * request. Undefined: the chart's allowed-provider-permissions role when there is one.
   */
  readonly providerClusterRole?: string;
  /** Owners to hold (invalid, or their CRD is not theirs): their roles are neither rendered nor pruned. */
  readonly hold?: readonly HoldRequest[];
  /**
   * The live cluster's CustomResourceDefinitions (metadata is enough): an XRD or revision whose CRDs are not its own
   * is held. Undefined for -f input, where nothing is checked against a cluster.
   */
  readonly liveCrds?: readonly KubeObject[];
  /** Write roles with privileged rules (escalate, bind, impersonate, …) from XRDs and providers; else hold them. */
  readonly allowPrivileged?: boolean;
  /** What a run that plans again and again (sync --watch) keeps from one plan to the next; see memo.ts. */
  readonly memo?: SyncMemo;
}

/** The settings sync ran with, after flags, ConfigMap and detection. */
export interface ResolvedSyncSettings {
  readonly manage: ManageLevel;
  readonly only: readonly SyncFamily[];
  readonly disableAggregateRoles: boolean;
  readonly disableBaseRoles: boolean;
  readonly skipAggregatedClusterRoles: boolean;
  readonly providerBindingScope: ProviderBindingScope;
  readonly crossplaneVersion: CrossplaneVersion;
  readonly crossplaneNamespace: string;
  readonly crossplaneServiceAccount: string;
  /** v1 only: the ClusterRole permission requests are checked against; undefined rejects them all. */
  readonly providerClusterRole: string | undefined;
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
  const skip = parseBool('skipAggregatedClusterRoles', data.skipAggregatedClusterRoles);
  if (skip !== undefined) out.skipAggregatedClusterRoles = skip;
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

/**
 * An error listing every unknown name given to a filter; the hint names the known names closest to each (as
 * kube/did-you-mean.ts finds them), else LISTHINT, else says there are none.
 */
export function unknownNamesError(
  what: string,
  flag: string,
  unknown: readonly string[],
  known: readonly string[],
  listHint: string,
): SyncInputError {
  const list = unknown.map((n) => `"${n}"`).join(', ');
  const quoted = (names: readonly string[]): string => names.map((n) => `"${n}"`).join(', ');
  const close = unknown
    .map((n) => ({ name: n, close: closeMatches(n, known) }))
    .filter((c) => c.close.length > 0);
  const hint =
    known.length === 0
      ? 'there are none'
      : close.length === 0
        ? listHint
        : unknown.length === 1
          ? `did you mean ${quoted(close[0]?.close ?? [])}?`
          : close.map((c) => `for "${c.name}", did you mean ${quoted(c.close)}?`).join(' ');
  return new SyncInputError(`unknown ${what}: ${list}`, { field: flag, hint });
}

export const LEVEL_RANK: Record<ManageLevel, number> = { serviceaccounts: 0, basic: 1, all: 2 };

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
  const crossplaneVersion = opts.crossplaneVersion ?? detected?.version ?? 'v2';
  const only = opts.only !== undefined && opts.only.length > 0 ? opts.only : DEFAULT_SYNC_FAMILIES;
  const badFamily = only.filter((f) => !SYNC_FAMILIES.includes(f));
  if (badFamily.length > 0) {
    throw unknownNamesError(
      'object families',
      'only',
      badFamily,
      SYNC_FAMILIES,
      `--only takes: ${SYNC_FAMILIES.join(', ')}`,
    );
  }
  return {
    manage: opts.manage ?? config.manage ?? 'all',
    only: SYNC_FAMILIES.filter((f) => only.includes(f)),
    disableAggregateRoles: opts.disableAggregateRoles ?? config.disableAggregateRoles ?? false,
    disableBaseRoles: opts.disableBaseRoles ?? config.disableBaseRoles ?? false,
    skipAggregatedClusterRoles: opts.skipAggregatedClusterRoles ?? config.skipAggregatedClusterRoles ?? false,
    providerBindingScope: opts.providerBindingScope ?? config.providerBindingScope ?? 'cluster',
    crossplaneVersion,
    crossplaneNamespace,
    crossplaneServiceAccount:
      opts.crossplaneServiceAccount ??
      (detected !== undefined && detected.namespace === crossplaneNamespace
        ? detected.serviceAccountName
        : undefined) ??
      DEFAULT_CROSSPLANE_SERVICE_ACCOUNT,
    providerClusterRole:
      crossplaneVersion === 'v1'
        ? resolveProviderClusterRole(snapshot.clusterRoles, opts.providerClusterRole)?.metadata.name
        : undefined,
  };
}

/**
 * The ClusterRole Crossplane v1's RBAC manager checks permission requests against: the one named (an error when it
 * does not exist, as Crossplane then renders no roles at all), else the chart's allowed-provider-permissions role,
 * which the chart names in --provider-clusterrole, else none.
 */
export function resolveProviderClusterRole(
  clusterRoles: readonly ClusterRole[],
  name: string | undefined,
): ClusterRole | undefined {
  if (name === undefined) return findAllowedProviderPermissionsRole(clusterRoles);
  const role = clusterRoles.find((r) => r.metadata.name === name);
  if (role === undefined) {
    throw new SyncInputError(`ClusterRole "${name}" named by --provider-clusterrole does not exist`, {
      field: 'provider-clusterrole',
      hint: 'name the ClusterRole that lists the permissions providers may request',
    });
  }
  return role;
}
