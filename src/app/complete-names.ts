/**
 * The names shell completion offers for a command's arguments, read as the command itself would read them: live
 * (one LIST, or discovery for resources) or from -f. Nothing is written, nothing is asked.
 */
import type { AppDeps } from './deps.js';
import { readInput, type InputSource } from './read-input.js';
import { knownResources } from './resource-catalogue.js';

/** What can be completed from the cluster. */
export type NameKind = 'namespaces' | 'clusterroles' | 'xrds' | 'resources';

const PARTS = {
  namespaces: ['namespaces'],
  clusterroles: ['clusterRoles'],
  xrds: ['xrds'],
  resources: ['xrds', 'providerRevisions'],
} as const;

/** The names of KIND, sorted, each once: resources as kubectl takes them (`plural` or `plural.group`). */
export async function completeNames(
  kind: NameKind,
  source: InputSource,
  deps: Pick<AppDeps, 'readStdin' | 'connect'>,
): Promise<string[]> {
  const input = await readInput(source, deps, PARTS[kind]);
  const { snapshot } = input;
  const names =
    kind === 'namespaces'
      ? snapshot.namespaces.map((n) => n.metadata.name)
      : kind === 'clusterroles'
        ? snapshot.clusterRoles.map((r) => r.metadata.name)
        : kind === 'xrds'
          ? snapshot.xrds.map((x) => x.metadata.name)
          : (await knownResources(input)).map((r) => (r.group === '' ? r.plural : `${r.plural}.${r.group}`));
  return [...new Set(names)].sort();
}
