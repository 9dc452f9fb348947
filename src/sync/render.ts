import { isDeleting } from '../kube/meta.js';
import type {
  ClusterRole,
  ClusterSnapshot,
  Deployment,
  ObjectMeta,
  ProviderRevision,
  RbacObject,
  Xrd,
} from '../kube/types.js';
import { ANNOTATION_PAUSED, PROVIDER_REVISION_KIND, XRD_KIND } from '../crossplane/names.js';
import { rejectedRequestsWarning } from '../crossplane/provider/permission-requests.js';
import {
  crossplaneAggregatesXrs,
  hasChartUserRoles,
  renderBaseRoles,
  renderCrossplaneAggregated,
} from '../crossplane/base-roles.js';
import { renderProviderBindings } from '../crossplane/provider/bindings.js';
import {
  familyMembers,
  renderRevisionClusterRoles,
  type ProviderRolePolicy,
} from '../crossplane/provider/roles.js';
import { findForeignDefinitions } from '../crossplane/defined-crds.js';
import { renderXrdRoles } from '../crossplane/definition/roles.js';
import { LEVEL_RANK, resolveSyncSettings, type ResolvedSyncSettings, type SyncOptions } from './settings.js';
import { checkNames, providerNameOf, selectRevisions } from './filters.js';
import type { SyncFamily } from './choices.js';
import { compareStrings } from '../kube/order.js';
import type { PruneGroup, PruneScope } from '../crossplane/owned-objects.js';
import { privilegedReason } from '../authz/privileged-rules.js';
import { HeldOwners, holdRevisionFamily, type HeldOwner } from './held.js';
import { renderNamespaceFamily } from './render-namespaces.js';
import { sameObjects } from './memo.js';

export interface SkippedOwner {
  readonly kind: string;
  readonly name: string;
  readonly reason: string;
}

export interface DesiredState {
  /** Everything sync wants to exist, in a stable order. */
  readonly objects: readonly RbacObject[];
  readonly scope: PruneScope;
  readonly skipped: readonly SkippedOwner[];
  /** Owners whose roles this run leaves untouched (invalid, CRD not theirs, privileged rules), with why. */
  readonly held: readonly HeldOwner[];
  /** Things worth telling the user that are not errors (e.g. a namespace enabling an unknown XRD). */
  readonly warnings: readonly string[];
  readonly settings: ResolvedSyncSettings;
}

function isPaused(o: { readonly metadata: ObjectMeta }): boolean {
  return o.metadata.annotations?.[ANNOTATION_PAUSED] === 'true';
}

function byName<T extends { readonly metadata: { readonly name: string } }>(xs: readonly T[]): T[] {
  return [...xs].sort((a, b) => compareStrings(a.metadata.name, b.metadata.name));
}

/** How this run renders provider roles: the Crossplane version's, with v1's --provider-clusterrole looked up. */
function providerRolePolicy(
  settings: ResolvedSyncSettings,
  liveRoles: readonly ClusterRole[],
): ProviderRolePolicy {
  return {
    crossplaneVersion: settings.crossplaneVersion,
    providerClusterRole: liveRoles.find((r) => r.metadata.name === settings.providerClusterRole),
  };
}

/**
 * Computes everything `sync` wants to exist for a snapshot (provider, XRD, base and namespace roles and
 * bindings): pure, deterministic (inputs are sorted, so shuffled input gives identical output). Throws
 * SyncInputError for unknown filter names.
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

  // Filters: unknown names are an error listing all of them, with the closest known ones.
  const xrdFilter =
    opts.xrds !== undefined && opts.xrds.length > 0
      ? checkNames(
          'CompositeResourceDefinitions',
          'xrd',
          opts.xrds,
          xrds.map((x) => x.metadata.name),
          'list them with: kubectl get compositeresourcedefinitions',
        )
      : undefined;
  const revisionFilter =
    opts.providers !== undefined && opts.providers.length > 0
      ? selectRevisions(revisions, opts.providers)
      : undefined;
  const nsFilter =
    opts.namespaces !== undefined && opts.namespaces.length > 0
      ? checkNames(
          'namespaces',
          'namespace',
          opts.namespaces,
          namespaces.map((n) => n.metadata.name),
          'list them with: kubectl get namespaces',
        )
      : undefined;
  const ownersFiltered = xrdFilter !== undefined || revisionFilter !== undefined;

  // Owners in scope (checked against their schema when read); deleting (and, for revisions, paused) owners skipped as Crossplane skips them.
  const liveXrds: Xrd[] = [];
  for (const x of xrds) {
    if (isDeleting(x)) skipped.push({ kind: XRD_KIND, name: x.metadata.name, reason: 'being deleted' });
    else liveXrds.push(x);
  }
  const liveRevisions: ProviderRevision[] = [];
  for (const r of revisions) {
    if (isDeleting(r))
      skipped.push({ kind: PROVIDER_REVISION_KIND, name: r.metadata.name, reason: 'being deleted' });
    else if (isPaused(r))
      skipped.push({ kind: PROVIDER_REVISION_KIND, name: r.metadata.name, reason: 'paused' });
    else liveRevisions.push(r);
  }

  const objects: RbacObject[] = [];
  const groups: PruneGroup[] = [];
  const liveRoles = snapshot.clusterRoles;
  const policy = providerRolePolicy(settings, liveRoles);
  const held = new HeldOwners();
  for (const h of opts.hold ?? []) {
    if (h.object.kind === XRD_KIND) held.holdXrd(h.object.metadata.name, h.reason, h.origin);
    else holdRevisionFamily(held, h, revisions, policy);
  }
  if (opts.liveCrds !== undefined) {
    const kinOf = (r: ProviderRevision): ProviderRevision[] => {
      const provider = providerNameOf(r);
      const sameProvider = revisions.filter((m) => provider !== undefined && providerNameOf(m) === provider);
      return [...sameProvider, ...familyMembers(r, revisions, policy)];
    };
    for (const f of findForeignDefinitions(xrds, revisions, opts.liveCrds, kinOf)) {
      if (f.object.kind === XRD_KIND) held.holdXrd(f.object.metadata.name, f.reason);
      else holdRevisionFamily(held, f, revisions, policy);
    }
  }
  /** Why roles rendered from an XRD or provider must not be written without --allow-privileged, or undefined. */
  const privileged = (roles: readonly ClusterRole[]): string | undefined => {
    if (opts.allowPrivileged === true) return undefined;
    for (const r of roles) {
      const why = privilegedReason(r.rules ?? []);
      if (why !== undefined)
        return `its ClusterRole ${r.metadata.name} would grant ${why.replace(/^grants /, '')} (--allow-privileged writes it)`;
    }
    return undefined;
  };
  const allowPrivileged = opts.allowPrivileged === true;
  /** An XRD's roles and why they are privileged: rendered, or the memo's when rendered from this very XRD. */
  const xrdRoles = (x: Xrd): { roles: ClusterRole[]; privileged: string | undefined } => {
    const version = settings.crossplaneVersion;
    const hit = opts.memo?.xrds.get(x);
    if (hit !== undefined && hit.version === version && hit.allowPrivileged === allowPrivileged) return hit;
    const roles = renderXrdRoles(x, { crossplaneVersion: version });
    const entry = { version, allowPrivileged, roles, privileged: privileged(roles) };
    opts.memo?.xrds.set(x, entry);
    return entry;
  };
  /** A revision's roles: rendered, or the memo's when rendered from the very same family and policy. */
  const revisionRoles = (
    r: ProviderRevision,
  ): { out: ReturnType<typeof renderRevisionClusterRoles>; privileged: string | undefined } => {
    const members = opts.memo !== undefined ? familyMembers(r, revisions, policy) : [];
    const hit = opts.memo?.revisions.get(r);
    if (
      hit !== undefined &&
      hit.version === policy.crossplaneVersion &&
      hit.providerClusterRole === policy.providerClusterRole &&
      hit.allowPrivileged === allowPrivileged &&
      sameObjects(hit.members, members)
    ) {
      return hit;
    }
    const out = renderRevisionClusterRoles(r, revisions, policy);
    const entry = {
      members,
      version: policy.crossplaneVersion,
      providerClusterRole: policy.providerClusterRole,
      allowPrivileged,
      out,
      privileged: privileged(out.roles),
    };
    opts.memo?.revisions.set(r, entry);
    return entry;
  };

  /** The Deployments that name each revision's uid as an owner, indexed once: every revision is asked. */
  const deploymentsByOwner = new Map<string, Deployment[]>();
  for (const d of snapshot.deployments) {
    for (const uid of new Set((d.metadata.ownerReferences ?? []).map((o) => o.uid))) {
      const list = deploymentsByOwner.get(uid);
      if (list === undefined) deploymentsByOwner.set(uid, [d]);
      else list.push(d);
    }
  }
  /** A revision's bindings, from the Deployments it owns (all renderProviderBindings reads of them). */
  const revisionBindings = (r: ProviderRevision): ReturnType<typeof renderProviderBindings> => {
    const scope = settings.providerBindingScope;
    const owned = deploymentsByOwner.get(r.metadata.uid ?? '') ?? [];
    const hit = opts.memo?.bindings.get(r);
    if (hit !== undefined && hit.scope === scope && sameObjects(hit.deployments, owned)) return hit.out;
    const out = renderProviderBindings(r, owned, scope);
    opts.memo?.bindings.set(r, { scope, deployments: owned, out });
    return out;
  };

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
        objects.push(
          ...renderBaseRoles({
            crossplaneVersion: settings.crossplaneVersion,
            skipAggregatedClusterRoles: settings.skipAggregatedClusterRoles,
          }),
        );
      }
    }
  }

  // Composites (§3.1).
  if (has('composites')) {
    for (const x of liveXrds) {
      if (xrdFilter !== undefined && !xrdFilter.includes(x.metadata.name)) continue;
      if (revisionFilter !== undefined && xrdFilter === undefined) continue;
      if (held.hasXrd(x.metadata.name)) continue;
      const { roles, privileged: why } = xrdRoles(x);
      if (why !== undefined) {
        held.holdXrd(x.metadata.name, why);
        continue;
      }
      const [system, ...userRoles] = roles;
      if (system !== undefined) objects.push(system);
      if (userFacing) objects.push(...userRoles);
    }
  }

  // Providers (§3.2).
  if (opts.providerClusterRole !== undefined && settings.crossplaneVersion === 'v2') {
    warnings.push(
      '--provider-clusterrole has no effect: Crossplane v2 grants providers no permission requests',
    );
  }
  if (has('providers')) {
    if (settings.providerBindingScope === 'namespace') groups.push('provider-bindings');
    const inScope = liveRevisions.filter(
      (r) =>
        (revisionFilter === undefined || revisionFilter.includes(r.metadata.name)) &&
        (xrdFilter === undefined || revisionFilter !== undefined),
    );
    // Every revision is rendered before any is written: a privileged rule in one holds its whole family.
    const rendered = new Map<string, ReturnType<typeof renderRevisionClusterRoles>>();
    for (const r of inScope) {
      if (held.hasRevision(r.metadata.name)) continue;
      const { out, privileged: why } = revisionRoles(r);
      if (why !== undefined) holdRevisionFamily(held, { object: r, reason: why }, revisions, policy);
      else rendered.set(r.metadata.name, out);
    }
    for (const r of inScope) {
      const out = rendered.get(r.metadata.name);
      if (out === undefined || held.hasRevision(r.metadata.name)) continue;
      const { roles, rejected } = out;
      if (rejected.length > 0)
        warnings.push(rejectedRequestsWarning(r, rejected, policy.providerClusterRole));
      const [edit, view, system] = roles;
      if (edit !== undefined && view !== undefined && system !== undefined) {
        objects.push(edit);
        if (userFacing) objects.push(view);
        objects.push(system);
      }
      // Crossplane's binding reconciler binds every revision, whether or not it has roles (yet).
      const binding = revisionBindings(r);
      objects.push(...binding.objects);
      if (binding.warning !== undefined) warnings.push(binding.warning);
    }
  }

  // Namespaces (§4), only at --manage all.
  const heldNamespaces: string[] = [];
  const heldXrdsInNamespaces = new Set<string>();
  if (has('namespaces') && level >= LEVEL_RANK.all && revisionFilter === undefined) {
    groups.push('namespace-roles');
    objects.push(
      ...renderNamespaceFamily(
        { namespaces, xrds: liveXrds, liveRoles, xrdFilter, nsFilter, held, privileged },
        heldNamespaces,
        heldXrdsInNamespaces,
        warnings,
      ),
    );
  }

  const scope: PruneScope = {
    groups,
    ...(revisionFilter !== undefined ? { providers: revisionFilter } : {}),
    ...(xrdFilter !== undefined ? { xrds: xrdFilter } : {}),
    ...(nsFilter !== undefined ? { namespaces: nsFilter } : {}),
    ...(held.list().length > 0 || heldNamespaces.length > 0
      ? {
          held: {
            providers: held.revisionNames(),
            xrds: held.xrdNames(),
            namespaces: [...heldNamespaces].sort(compareStrings),
          },
        }
      : {}),
  };
  // Reported (and failing the run): the held owners this run would have rendered, not those its filters leave out.
  const inScope = (h: HeldOwner): boolean =>
    h.kind === XRD_KIND
      ? (has('composites') &&
          revisionFilter === undefined &&
          (xrdFilter === undefined || xrdFilter.includes(h.name))) ||
        heldXrdsInNamespaces.has(h.name)
      : has('providers') &&
        xrdFilter === undefined &&
        (revisionFilter === undefined || revisionFilter.includes(h.name));
  return { objects, scope, skipped, held: held.list().filter(inScope), warnings, settings };
}
