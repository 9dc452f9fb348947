import type { Cluster } from '../k8s/cluster.js';
import type { SnapshotPart } from '../k8s/read-snapshot.js';
import type { ClusterSnapshot } from '../rbac/types.js';
import { connectionFlags, type Deps, type GlobalArgs } from './context.js';

export interface Input {
  readonly snapshot: ClusterSnapshot;
  /** The live cluster; undefined when the objects came from -f, where nothing can be written. */
  readonly cluster: Cluster | undefined;
  /** Where the objects came from, for messages. */
  readonly source: string;
}

/** Reads the objects a command works on: from -f PATH (no cluster needed), or one LIST per kind from the cluster. */
export async function readInput(
  args: GlobalArgs & { readonly from?: string | undefined },
  deps: Deps,
  parts: readonly SnapshotPart[],
): Promise<Input> {
  if (args.from !== undefined) {
    const [{ readManifests }, { snapshotFromObjects }] = await Promise.all([
      import('../k8s/read-manifests.js'),
      import('../rbac/snapshot.js'),
    ]);
    const objects = await readManifests(args.from, deps.io.readStdin);
    return {
      snapshot: snapshotFromObjects(objects),
      cluster: undefined,
      source: args.from === '-' ? 'standard input' : args.from,
    };
  }
  const cluster = await deps.connect(connectionFlags(args));
  const { readClusterSnapshot } = await import('../k8s/read-snapshot.js');
  return { snapshot: await readClusterSnapshot(cluster, parts), cluster, source: cluster.describe };
}

/** The -f/--from option every reading command takes. */
export const fromOption = {
  alias: 'f',
  type: 'string',
  describe: 'Read objects from a file, a directory or - (stdin) instead of a cluster',
} as const;
