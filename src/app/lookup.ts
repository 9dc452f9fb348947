import type { LookupResult } from '../lookup/lookup.js';
import type { LookupQuery } from '../lookup/query.js';
import type { SnapshotPart } from '../crossplane/validate-input.js';
import type { AppDeps } from './deps.js';
import { readInput, warnUnseen, type InputSource } from './read-input.js';
import { rolesOf } from './resource-catalogue.js';

/** What lookup reads: the roles and the bindings, one LIST each. */
export const LOOKUP_PARTS: readonly SnapshotPart[] = [
  'clusterRoles',
  'clusterRoleBindings',
  'roleBindings',
  'roles',
];

export interface LookupOptions {
  readonly source: InputSource;
  readonly query: LookupQuery;
}

/** `lookup`: the subjects the bindings name that match, each with its bindings and roles (aggregation resolved). */
export async function runLookup(options: LookupOptions, deps: AppDeps): Promise<LookupResult> {
  const input = await readInput(options.source, deps, LOOKUP_PARTS, {
    namespace: options.query.namespace,
  });
  warnUnseen(deps, input);
  const { lookup } = await import('../lookup/lookup.js');
  return lookup(options.query, { ...input.snapshot, roles: rolesOf(input) });
}
