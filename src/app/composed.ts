/**
 * sync's `composed` part: reads what Crossplane composes (Compositions, CompositionRevisions, Operations,
 * CronOperations, WatchOperations; and as evidence only composite resources and claims, and Events), judges it
 * against what Crossplane's account will hold once the rest of sync is applied, and returns the
 * `crossplane:composed:<group>` roles with the report of why each is there.
 */
import type {
  ClusterRole,
  ClusterRoleBinding,
  KubeObject,
  RbacObject,
  RoleBinding,
  Xrd,
} from '../kube/types.js';
import { Kinds, type ResourceKind } from '../port/cluster.js';
import { translateError } from '../port/translate-error.js';
import type { PruneGroup } from '../crossplane/owned-objects.js';
import { composedRoleName } from '../crossplane/names.js';
import type { RbacSnapshot } from '../authz/effective-roles.js';
import type { ComposedAnalysis } from '../composed/analyse.js';
import type { KnownResource } from '../crossplane/resource-names.js';
import type { ResolvedSyncSettings, SyncOptions } from '../sync/settings.js';
import { DEFAULT_SYNC_FAMILIES } from '../sync/choices.js';
import type { Grantee } from '../who-can/who-can.js';
import { holdInvalidOwners, liveCrdsOf, type Input } from './read-input.js';
import { knownResources, rolesOf } from './resource-catalogue.js';

/** What the composed part reads besides sync's own parts. */
/** sync's render options (as app/sync.ts's RenderOptions). */
type RenderOptions = Omit<SyncOptions, 'hold' | 'liveCrds'>;

export const COMPOSED_PARTS = [
  'compositions',
  'compositionRevisions',
  'operations',
  'cronOperations',
  'watchOperations',
  'events',
] as const;

export interface ComposedReport {
  readonly analysis: ComposedAnalysis;
  /**
   * Who may create, update or patch the sources that grant (Compositions, CompositionRevisions, Operations,
   * CronOperations, WatchOperations): what Crossplane is granted, they are too (they are how anyone has Crossplane
   * act), and nobody else steers a grant.
   */
  readonly grantAuthors: readonly Grantee[];
  /** The objects to write: the composed roles, and crossplane:aggregated when nothing else brings them to the account. */
  readonly objects: readonly RbacObject[];
  readonly groups: readonly PruneGroup[];
  readonly warnings: readonly string[];
  /** One line per privileged kind refused (`ClusterRole "name": why`): the run fails after everything else. */
  readonly held: readonly string[];
}

/** The composite (and claim) kinds an XRD defines, at the version Compositions reference. */
export function compositeKinds(xrd: Xrd): ResourceKind[] {
  const versions = xrd.spec.versions ?? [];
  const version = (versions.find((v) => v.referenceable === true) ?? versions.find((v) => v.served !== false))
    ?.name;
  if (version === undefined) return [];
  const v2 = xrd.apiVersion.startsWith('apiextensions.crossplane.io/v2');
  const { group, names, claimNames } = xrd.spec;
  const out: ResourceKind[] = [];
  if (names.plural !== undefined && names.kind !== undefined) {
    const namespaced = v2 && (xrd.spec.scope ?? 'Namespaced') === 'Namespaced';
    out.push({ group, version, plural: names.plural, kind: names.kind, namespaced });
  }
  if (claimNames?.plural !== undefined && claimNames.kind !== undefined)
    out.push({ group, version, plural: claimNames.plural, kind: claimNames.kind, namespaced: true });
  return out;
}

/** The composite resources and claims: listed live (one LIST per kind), picked from the objects of -f. */
async function readComposites(input: Input): Promise<KubeObject[]> {
  const kinds = input.snapshot.xrds.flatMap(compositeKinds);
  const cluster = input.cluster;
  if (cluster === undefined) {
    return input.snapshot.others.filter((o) =>
      kinds.some((k) => o.kind === k.kind && o.apiVersion.startsWith(`${k.group}/`)),
    );
  }
  const lists = await Promise.all(
    kinds.map(async (k) => {
      try {
        return await cluster.list(k, { optional: true });
      } catch (err) {
        throw translateError(err, `listing ${k.plural}.${k.group}`, cluster.describe);
      }
    }),
  );
  return lists.flat();
}

/** What the composed part reads beyond sync's parts: the composite resources and claims, and the resources known. */
export interface ComposedReads {
  readonly composites: readonly KubeObject[];
  readonly known: readonly KnownResource[];
}

/**
 * Reads what the composed part needs beyond INPUT: live, one LIST per composite and claim kind of the XRDs read, and
 * discovery; from files, the objects read. Done before planning: renderComposedPart reads nothing.
 */
export async function readComposedPart(input: Input): Promise<ComposedReads> {
  const [composites, known] = await Promise.all([readComposites(input), knownResources(input)]);
  return { composites, known };
}

function ofApiGroup(group: string, kind: string): (o: KubeObject) => boolean {
  return (o) => o.kind === kind && o.apiVersion.startsWith(`${group}/`);
}

/**
 * Whether sync's own render (RENDER) already is what a plain sync renders: no --providers or --xrds filter, and
 * --only names exactly a plain sync's families besides `composed` (which the renderer does not render).
 */
function rendersAsPlainSync(render: RenderOptions): boolean {
  if (render.providers !== undefined || render.xrds !== undefined || render.only === undefined) return false;
  const families = new Set<string>(render.only.filter((f) => f !== 'composed'));
  return (
    families.size === DEFAULT_SYNC_FAMILIES.length && DEFAULT_SYNC_FAMILIES.every((f) => families.has(f))
  );
}

/**
 * The RBAC Crossplane's account is judged against: the live objects with what the rest of sync renders put in
 * their place (so a managed resource or XR kind its provider or XRD roles grant is never granted twice), without
 * the plugin's own composed roles (so each run finds the need afresh). ALSO_RENDERED is sync's own render: used as
 * it is when it is a plain sync's, rendered again without the filters otherwise.
 */
async function accountView(
  input: Input,
  render: RenderOptions,
  roles: readonly ClusterRole[],
  alsoRendered: readonly RbacObject[],
): Promise<RbacSnapshot> {
  const [{ renderSync }, { isPluginOwned }, { COMPOSED_ROLE_PREFIX }, { objectKey }] = await Promise.all([
    import('../sync/render.js'),
    import('../crossplane/base-roles.js'),
    import('../crossplane/names.js'),
    import('../kube/meta.js'),
  ]);
  const { only: _only, providers: _providers, xrds: _xrds, ...unfiltered } = render;
  const rest = rendersAsPlainSync(render)
    ? alsoRendered
    : renderSync(input.snapshot, { ...unfiltered, hold: holdInvalidOwners(input), ...liveCrdsOf(input) })
        .objects;
  const desired = new Map(rest.map((o) => [objectKey(o), o]));
  const merged = <T extends KubeObject>(live: readonly T[], kind: string): T[] => {
    const out = live.filter((o) => !desired.has(objectKey(o)));
    for (const o of rest) if (o.kind === kind) out.push(o as unknown as T);
    return out;
  };
  const notComposed = (r: ClusterRole): boolean =>
    !(r.metadata.name.startsWith(COMPOSED_ROLE_PREFIX) && isPluginOwned(r));
  return {
    clusterRoles: merged<ClusterRole>(roles, 'ClusterRole').filter(notComposed),
    clusterRoleBindings: merged<ClusterRoleBinding>(input.snapshot.clusterRoleBindings, 'ClusterRoleBinding'),
    roleBindings: merged<RoleBinding>(input.snapshot.roleBindings, 'RoleBinding'),
    roles: rolesOf(input),
  };
}

/** The kinds whose authors steer what the composed part grants. */
const GRANTING_KINDS = [
  Kinds.composition,
  Kinds.compositionRevision,
  Kinds.operation,
  Kinds.cronOperation,
  Kinds.watchOperation,
] as const;

/** Everyone who may create, update or patch a source that grants, by the live RBAC. */
async function grantAuthors(rbac: RbacSnapshot): Promise<Grantee[]> {
  const { whoCan } = await import('../who-can/who-can.js');
  const byKey = new Map<string, Grantee>();
  const asks = GRANTING_KINDS.flatMap((k) =>
    ['create', 'update', 'patch'].map((verb) => ({
      verb,
      resource: {
        group: k.group,
        resource: k.plural,
        namespaced: false,
        kind: k.kind,
        source: 'builtin' as const,
      },
    })),
  );
  for (const { verb, resource } of asks) {
    for (const s of whoCan({ verb, resource, namespace: undefined, converged: true }, rbac).subjects) {
      const key = `${s.kind}/${s.namespace ?? ''}/${s.name}`;
      const had = byKey.get(key);
      byKey.set(key, had === undefined ? s : { ...had, paths: [...had.paths, ...s.paths] });
    }
  }
  return [...byKey.values()];
}

/**
 * Analyses and renders the composed part for INPUT (read with COMPOSED_PARTS as well as sync's) and READS (what
 * readComposedPart read beyond it); it reads nothing itself.
 */
export async function renderComposedPart(
  input: Input,
  reads: ComposedReads,
  render: RenderOptions,
  settings: ResolvedSyncSettings,
  alsoRendered: readonly RbacObject[],
): Promise<ComposedReport> {
  const [{ analyseComposed, accountRules }, { rulesAllow }, { renderCrossplaneAggregated }] =
    await Promise.all([
      import('../composed/analyse.js'),
      import('../authz/authorize.js'),
      import('../crossplane/base-roles.js'),
    ]);
  const { composites, known } = reads;
  const { others, clusterRoles } = input.snapshot;
  const account = { namespace: settings.crossplaneNamespace, name: settings.crossplaneServiceAccount };
  const analysis = analyseComposed({
    compositions: others.filter(
      (o) =>
        ofApiGroup('apiextensions.crossplane.io', 'Composition')(o) ||
        ofApiGroup('apiextensions.crossplane.io', 'CompositionRevision')(o),
    ),
    composites,
    compositeKinds: input.snapshot.xrds.flatMap(compositeKinds),
    events: others.filter(
      (o) => o.kind === 'Event' && (o.apiVersion === 'v1' || o.apiVersion === 'events.k8s.io/v1'),
    ),
    operations: others.filter(
      (o) =>
        ofApiGroup('ops.crossplane.io', 'Operation')(o) ||
        ofApiGroup('ops.crossplane.io', 'CronOperation')(o) ||
        ofApiGroup('ops.crossplane.io', 'WatchOperation')(o),
    ),
    known,
    rbac: await accountView(input, render, clusterRoles, alsoRendered),
    now: { ...input.snapshot, roles: rolesOf(input) },
    account,
    allowPrivileged: render.allowPrivileged === true,
  });
  const live: RbacSnapshot = { ...input.snapshot, roles: rolesOf(input) };
  const objects: RbacObject[] = [...analysis.roles];
  const groups: PruneGroup[] = ['composed-roles'];
  const warnings: string[] = [];
  // The roles reach the account only through a ClusterRole that aggregates their label and is bound to it: the
  // chart's `crossplane` role does; without the RBAC manager's chart roles, crossplane:aggregated must.
  const missing = analysis.grants.filter((g) => g.status === 'missing');
  const reaches = (extra: readonly RbacObject[]): boolean => {
    const withRoles = [
      ...live.clusterRoles,
      ...analysis.roles,
      ...extra.filter((o): o is ClusterRole => o.kind === 'ClusterRole'),
    ];
    const bindings = [
      ...live.clusterRoleBindings,
      ...extra.filter((o): o is ClusterRoleBinding => o.kind === 'ClusterRoleBinding'),
    ];
    const rules = accountRules({ ...live, clusterRoles: withRoles, clusterRoleBindings: bindings }, account);
    return missing.every((g) =>
      g.lacking.every((verb) => rulesAllow(rules, { verb, apiGroup: g.group, resource: g.resource })),
    );
  };
  if (missing.length > 0 && !reaches(alsoRendered)) {
    const aggregated = renderCrossplaneAggregated({
      namespace: account.namespace,
      serviceAccountName: account.name,
    });
    if (reaches([...alsoRendered, ...aggregated])) {
      objects.push(...aggregated);
      groups.push('crossplane-aggregated');
    } else {
      warnings.push(
        `no ClusterRole bound to ${analysis.account} aggregates the composed roles: check that Crossplane runs as that service account (--crossplane-namespace)`,
      );
    }
  }
  const held = analysis.grants.flatMap((g) =>
    g.status === 'refused'
      ? [
          `ClusterRole "${composedRoleName(g.group)}": Compositions or Operations need ${g.resource}${g.group === '' ? '' : `.${g.group}`}, and it ${g.privileged ?? 'is privileged'} (--allow-privileged writes it)`,
        ]
      : [],
  );
  return { analysis, grantAuthors: await grantAuthors(live), objects, groups, warnings, held };
}
