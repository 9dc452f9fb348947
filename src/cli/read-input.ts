import { UsageError } from '../errors.js';
import type { Cluster } from '../cluster/cluster.js';
import type { SnapshotPart } from '../cluster/read-snapshot.js';
import type { ClusterSnapshot, KubeObject } from '../kube/types.js';
import type { InvalidObject } from '../crossplane/validate-input.js';
import { connectionFlags, type Deps, type GlobalArgs } from './context.js';
import { writeLine } from './output/terminal.js';

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
}

/** An XRD or ProviderRevision the plugin refuses, and where it came from (a file, or the cluster). */
export interface InvalidOwner extends InvalidObject {
  readonly origin: string;
}

/** The -f/--from value after parsing: one or more paths (repeat -f to read several). */
export type FromPaths = readonly string[];

/** The default of --max-input-size, as the flag spells it. */
export const DEFAULT_MAX_INPUT_SIZE_TEXT = '256Mi';

/**
 * Reads the objects a command works on: from -f PATH... (no cluster needed), or one LIST per kind from the
 * cluster. Either way every object of the parts read is checked (validate-input) before a command renders from it:
 * an invalid XRD or ProviderRevision is left out of the snapshot and returned in `invalidOwners` (the command holds
 * it); any other invalid object fails the command before anything is written.
 */
export async function readInput(
  args: GlobalArgs & { readonly from?: FromPaths | undefined },
  deps: Deps,
  parts: readonly SnapshotPart[],
): Promise<Input> {
  const [{ snapshotFromObjects }, { findInvalidObjects, invalidInputError, isOwnerObject }] =
    await Promise.all([import('../crossplane/snapshot.js'), import('../crossplane/validate-input.js')]);
  const maxBytes = maxInputSize(args);
  if (args.from !== undefined) {
    const from = checkFromPaths(args.from);
    const { readManifests } = await import('../input/read-manifests.js');
    const { objects, origins } = await readManifests(from, {
      readStdin: (max) => deps.io.readStdin(max),
      maxBytes,
    });
    const invalid = findInvalidObjects(objects, parts);
    const fatal = invalid.filter((i) => !isOwnerObject(i.object));
    if (fatal.length > 0) throw invalidInputError(fatal, (o) => origins.get(o) ?? 'input');
    return {
      snapshot: snapshotFromObjects(objects),
      cluster: undefined,
      source: from.map((p) => (p === '-' ? 'standard input' : p)).join(', '),
      invalidOwners: invalid
        .filter((i) => isOwnerObject(i.object))
        .map((i) => ({ ...i, origin: origins.get(i.object) ?? 'input' })),
    };
  }
  const cluster = await deps.connect(connectionFlags(args));
  const { readClusterObjects } = await import('../cluster/read-snapshot.js');
  const objects = await readClusterObjects(cluster, parts);
  const invalid = findInvalidObjects(objects, parts);
  const fatal = invalid.filter((i) => !isOwnerObject(i.object));
  if (fatal.length > 0) throw invalidInputError(fatal, (_o: KubeObject) => cluster.describe);
  return {
    snapshot: snapshotFromObjects(objects),
    cluster,
    source: cluster.describe,
    invalidOwners: invalid
      .filter((i) => isOwnerObject(i.object))
      .map((i) => ({ ...i, origin: cluster.describe })),
  };
}

/** The -f values as a list (yargs gives a string, or an array when -f is repeated). */
function fromPathsOf(value: unknown): FromPaths {
  const values: unknown[] = Array.isArray(value) ? value : [value];
  return values.map((v) => (typeof v === 'string' ? v : ''));
}

/** Every -f value must name something: an empty one (`-f ''`) is a usage error. */
export function checkFromPaths(paths: FromPaths): FromPaths {
  return paths.map((v) => {
    if (v === '') {
      throw new UsageError('-f needs a path: a file, a directory, or - for standard input', {
        hint: 'e.g. -f examples/cluster, or kubectl get clusterroles -o yaml | kubectl crossplane-rbac explain admin -f -',
      });
    }
    return v;
  });
}

/** The -f/--from option every reading command takes. */
export const fromOption = {
  alias: 'f',
  type: 'string',
  describe: 'Read objects from a file, a directory or - (stdin) instead of a cluster (repeatable)',
  coerce: fromPathsOf,
} as const;

/** The global --max-input-size flag (app.ts) as yargs hands it over: a string, or several when repeated. */
interface MaxInputSizeArg {
  readonly 'max-input-size'?: string | readonly string[] | undefined;
}

/** --max-input-size in bytes (the last one given wins, as for other flags); the default when absent. */
export function maxInputSize(args: GlobalArgs): number {
  const raw = (args as GlobalArgs & MaxInputSizeArg)['max-input-size'];
  const value = typeof raw === 'string' || raw === undefined ? raw : raw[raw.length - 1];
  return parseSize('max-input-size', value ?? DEFAULT_MAX_INPUT_SIZE_TEXT);
}

const UNITS: Readonly<Record<string, number>> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
};

/** Parses a size as Kubernetes writes quantities (`256Mi`, `1Gi`, `500M`, `1048576`) into bytes. */
export function parseSize(flag: string, value: unknown): number {
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  const m = /^(\d+(?:\.\d+)?)(k|M|G|Ki|Mi|Gi)?$/.exec(text);
  const bytes = m === null ? NaN : Math.floor(Number(m[1]) * (UNITS[m[2] ?? ''] ?? NaN));
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new UsageError(
      `invalid --${flag} ${JSON.stringify(Array.isArray(value) ? value.join(' ') : text)}: expected a size such as 256Mi, 1Gi or 500000 (bytes)`,
      { hint: 'units: Ki, Mi, Gi (powers of 1024) or k, M, G (powers of 1000); no unit means bytes' },
    );
  }
  return bytes;
}

/** For commands that only read: one warning per invalid XRD or ProviderRevision left out of the answer. */
export function warnInvalidOwners(deps: Deps, input: Input): void {
  for (const i of input.invalidOwners) {
    writeLine(
      deps.io.stderr,
      `warning: ignoring ${i.origin}: ${i.object.kind} "${i.object.metadata.name}": ${i.problem}`,
    );
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
