import type { Cluster } from '../port/cluster.js';
import { parseRequestTimeout, pathNamespace, type ConnectionFlags } from '../port/connection-flags.js';
import type { ClusterSnapshot, DiscoveredResource, KubeObject } from '../kube/types.js';
import type { FieldCheck, InvalidObject, SnapshotPart } from '../crossplane/validate-input.js';
import type { AppDeps } from './deps.js';
import type { Unseen } from './read-snapshot.js';

/** Where a command reads its objects: -f paths, else the cluster the connection flags name. */
export interface InputSource {
  /** -f PATH... ('-' is standard input); undefined: read the cluster. */
  readonly from?: readonly string[] | undefined;
  /** The most bytes -f may read in all (--max-input-size). */
  readonly maxInputBytes: number;
  readonly connection: ConnectionFlags;
}

export interface Input {
  readonly snapshot: ClusterSnapshot;
  /** The live cluster; undefined when the objects came from -f, where nothing can be written. */
  readonly cluster: Cluster | undefined;
  /** Where the objects came from, for messages. */
  readonly source: string;
  /**
   * XRDs and ProviderRevisions the plugin refuses to render from (not in the snapshot): each is held alone, as
   * Crossplane reconciles each owner alone, so one author's mistake never stops the rest.
   */
  readonly invalidOwners: readonly InvalidOwner[];
  /** What a read-only command could not list (forbidden), and where it read it instead; empty when all was read. */
  readonly unseen: readonly Unseen[];
  /** With -f: where each object was read (`file`, `file (document 2)`, `file: items[3]`), for answers that locate it. */
  readonly origins?: ReadonlyMap<KubeObject, string> | undefined;
  /** Live discovery, asked for with the reads when the command said it needs it (ReadExtras.discovery). */
  readonly discovery?: Promise<DiscoveredResource[]> | undefined;
}

/**
 * What a read-only command's answer needs besides its parts, said up front so that the reads ask no more than that
 * and the requests overlap: the answer's wall time is then the slowest read, not the sum.
 */
export interface ReadExtras {
  /** Discovery, started with the LISTs (the answer resolves a resource name as kubectl does). */
  readonly discovery?: boolean | undefined;
  /**
   * The answer counts RoleBindings and Roles in one namespace only (who-can without -A, as the authorizer counts
   * them): they are listed there (undefined: the context's namespace) instead of in every namespace.
   */
  readonly bindingsIn?: { readonly namespace: string | undefined } | undefined;
}

/**
 * A read-only command's leave to answer from less than all (namespace-only rights): the namespace it asks about
 * (undefined: the context's) and the parts without which it has no answer.
 */
export interface PartialLeave {
  readonly namespace: string | undefined;
  readonly required?: readonly SnapshotPart[] | undefined;
}

/** An XRD or ProviderRevision the plugin refuses, and where it came from (a file, or the cluster). */
export interface InvalidOwner extends InvalidObject {
  readonly origin: string;
}

/**
 * Reads the objects a command works on: from -f PATH... (no cluster needed), or one LIST per kind from the
 * cluster. Either way every object of the parts read is checked (validate-input) before a command renders from it:
 * an invalid XRD or ProviderRevision is left out of the snapshot and returned in `invalidOwners` (the command holds
 * it); any other invalid object fails the command before anything is written.
 */
export async function readInput(
  source: InputSource,
  deps: Pick<AppDeps, 'readStdin' | 'connect'> & Partial<Pick<AppDeps, 'startProgress'>>,
  parts: readonly SnapshotPart[],
  partial?: PartialLeave,
  extras?: ReadExtras,
): Promise<Input> {
  const [{ snapshotFromObjects }, { checkedOnce, findInvalidObjects, invalidInputError, isOwnerObject }] =
    await Promise.all([import('../crossplane/snapshot.js'), import('../crossplane/validate-input.js')]);
  if (source.from !== undefined) {
    const from = source.from;
    const { readManifests } = await import('../input/read-manifests.js');
    const { objects, origins } = await readManifests(from, {
      readStdin: (max) => deps.readStdin(max),
      maxBytes: source.maxInputBytes,
    });
    // Checked once for the invalid objects and the snapshot alike.
    const check = checkedOnce();
    const invalid = findInvalidObjects(objects, parts, check);
    const fatal = invalid.filter((i) => !isOwnerObject(i.object));
    if (fatal.length > 0) throw invalidInputError(fatal, (o) => origins.get(o) ?? 'input');
    return {
      snapshot: snapshotFromObjects(objects, check),
      cluster: undefined,
      source: from.map((p) => (p === '-' ? 'standard input' : p)).join(', '),
      invalidOwners: invalid
        .filter((i) => isOwnerObject(i.object))
        .map((i) => ({ ...i, origin: origins.get(i.object) ?? 'input' })),
      unseen: [],
      origins,
    };
  }
  const cluster = await deps.connect(source.connection);
  // Namespaces that become request paths, checked before any request.
  const partialRead =
    partial !== undefined
      ? {
          namespace: pathNamespace(partial.namespace ?? cluster.defaultNamespace),
          required: partial.required,
        }
      : undefined;
  const bindingsIn =
    extras?.bindingsIn !== undefined
      ? pathNamespace(extras.bindingsIn.namespace ?? cluster.defaultNamespace)
      : undefined;
  const discovery = extras?.discovery === true ? cluster.discoverResources() : undefined;
  // Awaited (and its failure reported) by whoever resolves a resource; not an unhandled rejection if the reads fail.
  discovery?.catch(() => undefined);
  const { readClusterObjects } = await import('./read-snapshot.js');
  // A spinner on a terminal only (startProgress decides), from the first request to the last page.
  const progress = await deps.startProgress?.(`reading ${cluster.describe}`);
  let objects: KubeObject[];
  let unseen: Unseen[];
  try {
    ({ objects, unseen } = await readClusterObjects(
      cluster,
      parts,
      progress !== undefined
        ? (text) => {
            progress.update(text);
          }
        : undefined,
      partialRead,
      bindingsIn,
    ));
  } finally {
    progress?.stop();
  }
  return { ...(await clusterInput(cluster, objects, parts)), unseen, discovery };
}

/**
 * The Input of OBJECTS (of PARTS) read from CLUSTER, checked as every read is: an invalid XRD or ProviderRevision
 * is held, any other invalid object fails (an InvalidInputError). CHECK: findInvalidField, or a memo of it (sync
 * --watch checks each object once, for the invalid objects and the snapshot alike). Shared by readInput and `sync --watch`, which
 * plans each reconcile against the objects its watches hold.
 */
export async function clusterInput(
  cluster: Cluster,
  objects: readonly KubeObject[],
  parts: readonly SnapshotPart[],
  check?: FieldCheck,
): Promise<Input> {
  const [{ snapshotFromObjects }, { checkedOnce, findInvalidObjects, invalidInputError, isOwnerObject }] =
    await Promise.all([import('../crossplane/snapshot.js'), import('../crossplane/validate-input.js')]);
  // Without the caller's memo, one for this read: the invalid objects and the snapshot check the same objects.
  check ??= checkedOnce();
  const invalid = findInvalidObjects(objects, parts, check);
  const fatal = invalid.filter((i) => !isOwnerObject(i.object));
  if (fatal.length > 0) throw invalidInputError(fatal, (_o: KubeObject) => cluster.describe);
  return {
    snapshot: snapshotFromObjects(objects, check),
    cluster,
    source: cluster.describe,
    invalidOwners: invalid
      .filter((i) => isOwnerObject(i.object))
      .map((i) => ({ ...i, origin: cluster.describe })),
    unseen: [],
  };
}

/**
 * One warning per part a read-only command could not list, saying what the answer leaves out (kubectl's own
 * `Warning:` lines are for the server's; these are the plugin's).
 */
export function warnUnseen(deps: Pick<AppDeps, 'warn'>, input: Input): void {
  for (const u of input.unseen) {
    deps.warn({ kind: 'unseen', what: u.what, verb: u.verb ?? 'list', readIn: u.readIn, reason: u.reason });
  }
  if (input.unseen.some((u) => u.part === 'clusterRoles')) {
    const { clusterRoleBindings, roleBindings } = input.snapshot;
    for (const b of [...clusterRoleBindings, ...roleBindings]) {
      if (b.roleRef.kind !== 'ClusterRole') continue;
      deps.warn({
        kind: 'unread-role',
        object: { kind: b.kind, name: b.metadata.name, namespace: b.metadata.namespace },
        role: b.roleRef.name,
        subjects: (b.subjects ?? []).map((x) => ({ kind: x.kind, name: x.name })),
      });
    }
  }
  if (input.unseen.length > 0) deps.warn({ kind: 'partial', parts: input.unseen.length });
}

/** For commands that only read: one warning per invalid XRD or ProviderRevision left out of the answer. */
export function warnInvalidOwners(deps: Pick<AppDeps, 'warn'>, input: Input): void {
  for (const i of input.invalidOwners) {
    deps.warn({
      kind: 'invalid-owner',
      object: { kind: i.object.kind, name: i.object.metadata.name },
      origin: i.origin,
      reason: i.problem,
    });
  }
}

/** The hold requests for sync's renderer: every invalid owner, with where it came from. */
export function holdInvalidOwners(input: Input): { object: KubeObject; reason: string; origin: string }[] {
  return input.invalidOwners.map((i) => ({ object: i.object, reason: i.problem, origin: i.origin }));
}

/** The live CRDs (read with the `crdOwners` part) for sync's CRD ownership check; nothing for -f input. */
export function liveCrdsOf(input: Input): { liveCrds?: readonly KubeObject[] } {
  if (input.cluster === undefined) return {};
  return { liveCrds: input.snapshot.others.filter((o) => o.kind === 'CustomResourceDefinition') };
}

/**
 * Checks what of the connection flags can be checked without a kubeconfig (--request-timeout), before any command
 * runs, also one that reads -f and never connects, as kubectl does.
 */
export function checkConnectionFlags(flags: ConnectionFlags): void {
  parseRequestTimeout(flags.requestTimeout);
}
