/**
 * The ClusterRoles a set of bindings reaches, read as the RBAC authorizer reads them: the bound roles only, never the
 * roles an aggregated ClusterRole aggregates (the authorizer uses the rules the aggregated role stores). A GET per
 * role, a bounded number in flight, or one LIST of every ClusterRole when the bindings reach most of them.
 */
import type { ClusterRole, ClusterRoleBinding, KubeObject, RoleBinding } from '../kube/types.js';
import { Kinds, type Cluster } from '../port/cluster.js';
import { ApiError, translateError } from '../port/translate-error.js';
import type { SnapshotPart } from '../crossplane/validate-input.js';
import type { AppDeps } from './deps.js';
import type { Unseen } from './read-snapshot.js';
import {
  readInput,
  warnInvalidOwners,
  warnUnseen,
  type Input,
  type InputSource,
  type InvalidOwner,
  type PartialLeave,
  type ReadExtras,
} from './read-input.js';

/** What a read made beside the bound roles' adds to the input: the parts it could not read, the owners it refused. */
export interface AlsoRead {
  readonly unseen: readonly Unseen[];
  readonly invalidOwners: readonly InvalidOwner[];
}

/** GETs in flight at once (the transport's default --concurrency; its pool holds more connections). */
export const READ_CONCURRENCY = 16;

/** Up to this many roles (eight rounds of GETs) they are fetched one by one without counting the ClusterRoles first. */
export const GET_AT_MOST = 8 * READ_CONCURRENCY;

/** How the roles were read, for -v and the tests: one GET each, or one LIST. */
export type BoundRead = 'get' | 'list';

/** The names of the ClusterRoles BINDINGS reach (roleRef kind ClusterRole), in first-seen order. */
export function boundClusterRoleNames(bindings: readonly (ClusterRoleBinding | RoleBinding)[]): string[] {
  const names = new Set<string>();
  for (const b of bindings) if (b.roleRef.kind === 'ClusterRole') names.add(b.roleRef.name);
  return [...names];
}

/**
 * GETs for up to GET_AT_MOST roles; above, one LIST when they are most of the ClusterRoles (counted with a one-item
 * page), else still GETs: a few more rounds of small answers cost less than every role's rules.
 */
async function howToRead(cluster: Cluster, wanted: number): Promise<BoundRead> {
  if (wanted <= GET_AT_MOST) return 'get';
  const total = await cluster.count?.(Kinds.clusterRole);
  return total === undefined || wanted * 2 > total ? 'list' : 'get';
}

/**
 * Reads the ClusterRoles NAMES name (a missing one is left out: its bindings grant nothing), as howToRead decides. A 403 (namespace-only
 * rights) is no failure: the roles are then unseen, as a forbidden LIST is for the other read-only reads.
 *
 * ONLY_GROUP, when the roles are read to answer one resource request: its API group (undefined for a URL), resolved
 * while they are read. The GETs' answers are then decoded only for the roles whose rules may allow a request of that
 * group (Cluster.getUndecoded); the others are left out, as a role that grants nothing asked about: their rules are
 * neither decoded nor checked.
 */
export async function readBoundClusterRoles(
  cluster: Cluster,
  names: readonly string[],
  onlyGroup?: Promise<string | undefined>,
): Promise<{ roles: KubeObject[]; unseen: Unseen[]; read: BoundRead }> {
  // A refused count (a LIST with limit 1) is a refused LIST.
  let read: BoundRead = 'list';
  try {
    read = await howToRead(cluster, names.length);
    if (read === 'list') return { roles: await cluster.list(Kinds.clusterRole), unseen: [], read };
    const undecoded = onlyGroup !== undefined ? cluster.getUndecoded?.bind(cluster) : undefined;
    if (undecoded !== undefined && onlyGroup !== undefined) {
      const got = await getEach(cluster, names, (name) => undecoded(Kinds.clusterRole, name));
      const group = await onlyGroup;
      // Decoded in the bindings' order: only the roles that may allow the request (all of them for a URL).
      const roles = got.filter((r) => group === undefined || r.mayAllowGroup(group)).map((r) => r.decode());
      return { roles, unseen: [], read };
    }
    return {
      roles: await getEach(cluster, names, (name) => cluster.get(Kinds.clusterRole, name)),
      unseen: [],
      read,
    };
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 403)) {
      throw err instanceof ApiError ? translateError(err, 'listing ClusterRoles', cluster.describe) : err;
    }
    const reason = err.status?.message ?? 'forbidden';
    const unseen: Unseen = {
      part: 'clusterRoles',
      what: 'ClusterRoles',
      reason,
      ...(read === 'get' ? { verb: read } : {}),
    };
    return { roles: [], unseen: [unseen], read };
  }
}

/**
 * GET (as GET sends it) each of the ClusterRoles NAMES, READ_CONCURRENCY in flight, in NAMES' order whichever answer
 * came first; a missing one is left out. A 403 throws, the refusal of the first role in NAMES' order.
 */
async function getEach<T>(
  cluster: Cluster,
  names: readonly string[],
  get: (name: string) => Promise<T | undefined>,
): Promise<T[]> {
  const roles: (T | undefined)[] = [];
  const refused: ApiError[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    // The first refusal stops the GETs not sent yet: the caller may get no ClusterRole (namespace-only rights).
    while (next < names.length && refused.length === 0) {
      const i = next++;
      const name = names[i] as string;
      try {
        roles[i] = await get(name);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 403)) {
          throw translateError(err, `reading ClusterRole ${name}`, cluster.describe);
        }
        refused[i] = err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, names.length) }, worker));
  // The refusal of the first role in the bindings' order, whichever came back first.
  const first = refused.find((e) => e !== undefined);
  if (first !== undefined) throw first;
  return roles.filter((r): r is T => r !== undefined);
}

/** ROLES read from CLUSTER, refused as a whole when one is invalid (one error naming each), as ClusterRoles. */
async function checkedClusterRoles(
  roles: readonly KubeObject[],
  cluster: Cluster,
): Promise<readonly ClusterRole[]> {
  const [{ snapshotFromObjects }, { checkedOnce, findInvalidObjects, invalidInputError }] = await Promise.all(
    [import('../crossplane/snapshot.js'), import('../crossplane/validate-input.js')],
  );
  // Each role checked once, for the refusal and the snapshot alike (a provider's role holds hundreds of rules).
  const check = checkedOnce();
  const invalid = findInvalidObjects(roles, ['clusterRoles'], check);
  const describe = cluster.describe;
  if (invalid.length > 0) throw invalidInputError(invalid, (_o: KubeObject) => describe);
  return snapshotFromObjects(roles, check).clusterRoles;
}

/**
 * Every ClusterRole of CLUSTER (one LIST), for what only the whole set answers (which roles would grant a denied
 * request); with namespace-only rights (a 403), the refusal instead: the answer then goes without.
 */
export async function readEveryClusterRole(
  cluster: Cluster,
): Promise<{ readonly roles: readonly ClusterRole[] } | { readonly refused: string }> {
  try {
    return { roles: await checkedClusterRoles(await cluster.list(Kinds.clusterRole), cluster) };
  } catch (err) {
    if (err instanceof ApiError && err.code === 403) return { refused: err.status?.message ?? 'forbidden' };
    throw err instanceof ApiError ? translateError(err, 'listing ClusterRoles', cluster.describe) : err;
  }
}

/**
 * A question's input as the authorizer would read it from a live cluster: PARTS but ClusterRoles (one LIST each, with
 * PARTIAL and EXTRAS as readInput takes them), then only the ClusterRoles the bindings read reach. Warnings as
 * readQuestionInput writes them. ALSO (live only) reads what else the answer needs while the ClusterRoles are read:
 * its result is `also`, its unseen parts and invalid owners are warned about with the rest. NARROW, given ALSO's
 * result, names the API group of the one resource request the answer is about (undefined: a URL, or no answer): the
 * roles are then read as readBoundClusterRoles reads them for ONLY_GROUP. With -f (every object is at hand anyway) it
 * is readInput's answer.
 */
export async function readBoundInput<T extends AlsoRead>(
  source: InputSource,
  deps: Pick<AppDeps, 'readStdin' | 'connect' | 'warn'>,
  parts: readonly SnapshotPart[],
  partial?: PartialLeave,
  extras?: ReadExtras,
  also?: (first: Input & { readonly cluster: Cluster }) => Promise<T>,
  narrow?: (also: T) => string | undefined,
): Promise<Input & { readonly boundRead?: BoundRead; readonly also?: T }> {
  const live = source.from === undefined;
  const first = await readInput(
    source,
    deps,
    live ? parts.filter((p) => p !== 'clusterRoles') : parts,
    partial,
    extras,
  );
  let input: Input & { readonly boundRead?: BoundRead; readonly also?: T } = first;
  const cluster = first.cluster;
  if (live && cluster !== undefined && parts.includes('clusterRoles')) {
    const { clusterRoleBindings, roleBindings } = first.snapshot;
    const names = boundClusterRoleNames([...clusterRoleBindings, ...roleBindings]);
    // ALSO's reads overlap the GETs; what they could not read, or refused, is reported with the rest below.
    const alsoRead = also?.({ ...first, cluster });
    const group = narrow !== undefined ? alsoRead?.then(narrow) : undefined;
    // Awaited by the GETs once they are answered, unless a refusal ends them first (ALSO's failure is Promise.all's).
    group?.catch(() => undefined);
    const [bound, more] = await Promise.all([readBoundClusterRoles(cluster, names, group), alsoRead]);
    input = {
      ...first,
      snapshot: { ...first.snapshot, clusterRoles: await checkedClusterRoles(bound.roles, cluster) },
      // ClusterRoles first, as readClusterObjects orders the parts; ALSO's (the Crossplane kinds) last.
      unseen: [...bound.unseen, ...first.unseen, ...(more?.unseen ?? [])],
      invalidOwners: [...first.invalidOwners, ...(more?.invalidOwners ?? [])],
      boundRead: bound.read,
      ...(more !== undefined ? { also: more } : {}),
    };
  }
  warnInvalidOwners(deps, input);
  warnUnseen(deps, input);
  return input;
}
