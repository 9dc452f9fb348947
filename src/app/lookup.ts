import type { LookupResult } from '../lookup/lookup.js';
import type { LookupQuery } from '../lookup/query.js';
import type { SnapshotPart } from '../crossplane/validate-input.js';
import type { AppDeps } from './deps.js';
import { readInput, warnUnseen, type Input, type InputSource } from './read-input.js';
import { readBoundInput } from './read-bound-roles.js';
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
  /**
   * --converged: every ClusterRole is read, aggregation resolved and rules counted as the aggregation controller
   * converges them; else the bindings, then only the ClusterRoles they bind, their stored rules counted.
   */
  readonly converged?: boolean | undefined;
}

/** `lookup`: the subjects the bindings name that match, each with its bindings and roles. */
export async function runLookup(options: LookupOptions, deps: AppDeps): Promise<LookupResult> {
  const partial = { namespace: options.query.namespace };
  const converged = options.converged === true;
  let everyClusterRole = true;
  let input: Input;
  if (converged) {
    input = await readInput(options.source, deps, LOOKUP_PARTS, partial);
    warnUnseen(deps, input);
  } else {
    const bound = await readBoundInput(options.source, deps, LOOKUP_PARTS, partial);
    // With -f, or one LIST of them, every ClusterRole is at hand.
    everyClusterRole = bound.boundRead !== 'get';
    input = bound;
  }
  const { lookup } = await import('../lookup/lookup.js');
  return lookup(options.query, { ...input.snapshot, roles: rolesOf(input) }, { converged, everyClusterRole });
}
