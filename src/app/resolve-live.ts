/**
 * RESOURCE resolved against a live cluster by what the server serves, as kubectl resolves it (discovery), reading
 * Crossplane's objects only as far as the answer needs them: the XRDs of the resource's group, to say which XRD
 * defines it (an XRD is named `<plural>.<group>` after its composite resource, validate-input.ts, so those of a group
 * end in `.<group>`: their names are listed metadata-only, then each is read, or all of them with one LIST when the
 * group holds many); every XRD and ProviderRevision only when
 * discovery does not know the name (a claim or composite resource not served yet, a provider's resource). who-can's
 * and explain --subject's default views read this way; the views that read every object anyway resolve with
 * resolveInput.
 */
import type { AppDeps } from './deps.js';
import { UsageError } from '../errors.js';
import { isKubernetesGroup } from '../kube/api-names.js';
import type { KubeObject, ProviderRevision, Xrd } from '../kube/types.js';
import type { ResolvedResource } from '../crossplane/resolve-resource.js';
import type { KnownResource } from '../crossplane/resource-names.js';
import { Kinds, type Cluster, type ListOptions, type ResourceKind } from '../port/cluster.js';
import { ApiError, translateError } from '../port/translate-error.js';
import type { Input, InvalidOwner } from './read-input.js';
import type { Unseen } from './read-snapshot.js';
import { resolveInput } from './resource-catalogue.js';
import type { Warn, Warning } from './warning.js';

/** What resolving read besides discovery, and the answer (or why there is none). */
export interface LiveResolution {
  /** The resource; undefined when FAILURE says why there is none (thrown by the caller once the reads are reported). */
  readonly resource?: ResolvedResource | undefined;
  readonly failure?: unknown;
  /** The valid XRDs and ProviderRevisions read (none when discovery resolved a resource no XRD defines). */
  readonly xrds: readonly Xrd[];
  readonly providerRevisions: readonly ProviderRevision[];
  /** What could not be read (403, with namespace-only rights), as readClusterObjects names it. */
  readonly unseen: readonly Unseen[];
  readonly invalidOwners: readonly InvalidOwner[];
  /** Warnings (kubectl's warning for a verb it does not know), reported after the reads' own warnings. */
  readonly warnings: readonly Warning[];
}

/**
 * The resource LIVE resolved, once the reads' own warnings were reported: throws why it resolves to nothing, else
 * reports LIVE's warnings (kubectl's about the verb) and returns it.
 */
export function reportedResource(live: LiveResolution, deps: Pick<AppDeps, 'warn'>): ResolvedResource {
  if (live.resource === undefined) throw live.failure;
  live.warnings.forEach((warning) => {
    deps.warn(warning);
  });
  return live.resource;
}

/** Up to this many XRDs of the group are read one GET each (all in flight at once); more, with one LIST of all. */
const XRD_GETS_AT_MOST = 8;

const XRDS = { kind: Kinds.xrd, what: 'CompositeResourceDefinitions', part: 'xrds' } as const;
const REVISIONS = {
  kind: Kinds.providerRevision,
  what: 'ProviderRevisions',
  part: 'providerRevisions',
} as const;

/**
 * Resolves TEXT (resolveInput's arguments) on INPUT's cluster, whose snapshot holds no XRD or ProviderRevision yet. A
 * 403 on what it reads leaves that part unseen (the caller has namespace-only rights), as readInput's PARTIAL does.
 */
export async function resolveLive(
  text: string,
  input: Input & { readonly cluster: Cluster },
  explicitNamespace: boolean,
  verb: string,
): Promise<LiveResolution> {
  const warnings: Warning[] = [];
  const warn: Warn = (warning) => {
    warnings.push(warning);
  };
  const read = new OwnerReads(input.cluster);
  const resolveWith = async (
    xrds: readonly Xrd[],
    providerRevisions: readonly ProviderRevision[],
    onWarning?: Warn,
  ): Promise<LiveResolution> => {
    const snapshot = { ...input.snapshot, xrds: [...xrds], providerRevisions: [...providerRevisions] };
    // In the order readClusterObjects names the parts, whichever refusal came first.
    const unseen = [...read.unseen].sort((a, b) => (a.part === 'xrds' ? 0 : 1) - (b.part === 'xrds' ? 0 : 1));
    const done = { xrds, providerRevisions, unseen, invalidOwners: read.invalid, warnings };
    try {
      return {
        ...done,
        resource: await resolveInput(text, { ...input, snapshot }, explicitNamespace, verb, onWarning),
      };
    } catch (failure) {
      return { ...done, failure };
    }
  };
  let served: ResolvedResource;
  try {
    served = await resolveInput(text, input, explicitNamespace, verb, warn);
  } catch (err) {
    if (!(err instanceof UsageError)) return resolveWith([], [], warn);
    // Discovery does not know the name (or finds it ambiguous): the XRDs and ProviderRevisions may define it.
    const [xrdObjects, revisionObjects] = await Promise.all([read.list(XRDS, {}), read.list(REVISIONS, {})]);
    // Checked in this order whichever answer came first, as readInput checks its parts.
    const xrds = await read.valid(xrdObjects, 'xrds');
    return resolveWith(xrds, await read.valid(revisionObjects, 'providerRevisions'), warn);
  }
  // Kubernetes' own groups (and the core group) hold no XRD's resources: such an XRD is invalid (validate-input.ts).
  if (served.path !== undefined || served.group === '' || isKubernetesGroup(served.group)) {
    return { resource: served, xrds: [], providerRevisions: [], unseen: [], invalidOwners: [], warnings };
  }
  const names = (await read.list(XRDS, { metadataOnly: true }))
    .map((o) => o.metadata.name)
    // The plural has no dot: what follows the first one is the group.
    .filter((n) => n.slice(n.indexOf('.') + 1) === served.group);
  if (names.length === 0) {
    return {
      resource: served,
      xrds: [],
      providerRevisions: [],
      unseen: read.unseen,
      invalidOwners: [],
      warnings,
    };
  }
  // A few GETs, or one LIST of every XRD when the group holds more than XRD_GETS_AT_MOST.
  const objects =
    names.length <= XRD_GETS_AT_MOST ? await read.getAll(XRDS, names) : await read.list(XRDS, {});
  const [xrds, { resourcesOfXrd }] = await Promise.all([
    read.valid(objects, 'xrds'),
    import('../crossplane/resolve-resource.js'),
  ]);
  return {
    resource: definedBy(served, xrds.flatMap(resourcesOfXrd)),
    xrds,
    providerRevisions: [],
    unseen: read.unseen,
    invalidOwners: read.invalid,
    warnings,
  };
}

/**
 * Every ProviderRevision (one LIST), for a resource discovery resolved that no XRD defines: the revision whose CRDs
 * serve it names the provider (explain's reasons for a denial say its roles were never made). RESOURCE resolved again
 * with them and XRDS; a refusal leaves them unseen.
 */
export async function withProviderRevisions(
  text: string,
  input: Input & { readonly cluster: Cluster },
  xrds: readonly Xrd[],
  explicitNamespace: boolean,
  verb: string,
): Promise<LiveResolution> {
  const read = new OwnerReads(input.cluster);
  const providerRevisions = await read.valid(await read.list(REVISIONS, {}), 'providerRevisions');
  const snapshot = { ...input.snapshot, xrds: [...xrds], providerRevisions };
  const done = { xrds, providerRevisions, unseen: read.unseen, invalidOwners: read.invalid, warnings: [] };
  try {
    return { ...done, resource: await resolveInput(text, { ...input, snapshot }, explicitNamespace, verb) };
  } catch (failure) {
    return { ...done, failure };
  }
}

/**
 * SERVED (discovery's answer) with the XRD that defines it, found among what the XRDs read define by group and
 * plural: the first, as the catalogue credits a served claim or composite resource to its XRD (catalogue in
 * resolve-resource.ts). The name is not resolved again: discovery already named the resource.
 */
function definedBy(served: ResolvedResource, defined: readonly KnownResource[]): ResolvedResource {
  const own = defined.find(
    (r) => r.xrd !== undefined && r.group === served.group && r.plural === served.resource,
  );
  return own?.xrd === undefined ? served : { ...served, xrd: own.xrd, source: own.source };
}

/** The reads resolveLive makes, each 403 noted as unseen, each invalid XRD or ProviderRevision as an invalid owner. */
class OwnerReads {
  readonly unseen: Unseen[] = [];
  readonly invalid: InvalidOwner[] = [];

  constructor(private readonly cluster: Cluster) {}

  async list(
    what: { kind: ResourceKind; what: string; part: Unseen['part'] },
    opts: ListOptions,
  ): Promise<KubeObject[]> {
    try {
      // A cluster without Crossplane's kinds lists none.
      return await this.cluster.list(what.kind, { ...opts, optional: true });
    } catch (err) {
      this.refused(err, what, `listing ${what.what}`);
      return [];
    }
  }

  /** One GET per name, all in flight at once (at most XRD_GETS_AT_MOST), in NAMES' order; a missing one is left out. */
  async getAll(
    what: { kind: ResourceKind; what: string; part: Unseen['part'] },
    names: readonly string[],
  ): Promise<KubeObject[]> {
    const got = await Promise.all(
      names.map(async (name) => {
        try {
          return await this.cluster.get(what.kind, name);
        } catch (err) {
          this.refused(err, what, `reading ${what.kind.kind} ${name}`, 'get');
          return undefined;
        }
      }),
    );
    return got.filter((o): o is KubeObject => o !== undefined);
  }

  private refused(
    err: unknown,
    what: { what: string; part: Unseen['part'] },
    doing: string,
    verb?: 'get',
  ): void {
    if (!(err instanceof ApiError && err.code === 403))
      throw translateError(err, doing, this.cluster.describe);
    if (this.unseen.some((u) => u.part === what.part)) return;
    const reason = err.status?.message ?? 'forbidden';
    this.unseen.push({ part: what.part, what: what.what, reason, ...(verb !== undefined ? { verb } : {}) });
  }

  /** The valid objects of PART (checked as readInput checks them); the invalid ones become invalid owners. */
  async valid<P extends 'xrds' | 'providerRevisions'>(
    objects: readonly KubeObject[],
    part: P,
  ): Promise<P extends 'xrds' ? Xrd[] : ProviderRevision[]> {
    const [{ snapshotFromObjects }, { checkedOnce, findInvalidObjects }] = await Promise.all([
      import('../crossplane/snapshot.js'),
      import('../crossplane/validate-input.js'),
    ]);
    // Each object checked once, for the invalid owners and the snapshot alike.
    const check = checkedOnce();
    for (const i of findInvalidObjects(objects, [part], check))
      this.invalid.push({ ...i, origin: this.cluster.describe });
    return snapshotFromObjects(objects, check)[part] as P extends 'xrds' ? Xrd[] : ProviderRevision[];
  }
}
