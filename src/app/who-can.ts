import type { WhoCanResult } from '../who-can/who-can.js';
import type { AccessAttributes } from '../authz/authorize.js';
import type { Cluster } from '../port/cluster.js';
import type { AppDeps } from './deps.js';
import type { Unseen } from './read-snapshot.js';
import type { Input, InputSource } from './read-input.js';
import { ACCESS_PARTS, resolveInput, rolesOf } from './resource-catalogue.js';
import { readQuestionInput, type AfterSyncOptions } from './after-sync.js';
import { readBoundInput } from './read-bound-roles.js';
import { reportedResource, resolveLive, type LiveResolution } from './resolve-live.js';

export interface WhoCanOptions {
  readonly source: InputSource;
  readonly verb: string;
  /** RESOURCE as kubectl takes it (plural, kind, short name, group, /subresource). */
  readonly resource: string;
  readonly name?: string | undefined;
  /** -n; undefined: the context's namespace (live), else "default". */
  readonly namespace?: string | undefined;
  /** -A: RoleBindings of every namespace count. */
  readonly allNamespaces: boolean;
  /**
   * --converged: every ClusterRole is read and aggregated ClusterRoles grant the rules the aggregation controller
   * converges to (paths through rules not stored yet marked); else the stored rules of the roles the bindings reach.
   */
  readonly converged?: boolean | undefined;
  /** --after-sync: answer for the cluster as a plain sync (of these families) would leave it (implies --converged). */
  readonly afterSync?: AfterSyncOptions | undefined;
}

/**
 * What a partial answer (namespace-only rights) adds: the parts that could not be listed, and whether the caller
 * may make the request, as the server itself answers (a SelfSubjectAccessReview counts every binding, also those the
 * caller may not list).
 */
export interface Incomplete {
  readonly incomplete?: {
    readonly unseen: readonly Unseen[];
    readonly callerAllowed?: boolean | undefined;
  };
}

/** What who-can reads live by default besides the ClusterRoles: the bindings and Roles (resolveLive reads the rest). */
const BOUND_PARTS = ACCESS_PARTS.filter((p) => p !== 'xrds' && p !== 'providerRevisions');

/** `who-can`: every subject the RBAC allows the request, each with its path (binding, role, chain, rule). */
export async function runWhoCan(options: WhoCanOptions, deps: AppDeps): Promise<WhoCanResult & Incomplete> {
  // With namespace-only rights it answers from what it may read (RoleBindings and Roles in the namespace).
  const asked = options.allNamespaces ? undefined : options.namespace;
  // Without -A only the namespace's RoleBindings and Roles count (a cluster-scoped resource counts none).
  const extras = { discovery: true, ...(options.allNamespaces ? {} : { bindingsIn: { namespace: asked } }) };
  // The convergence view needs every ClusterRole (after sync, so does sync's plan); the authorizer's, the bound ones.
  const converged = options.converged === true || options.afterSync !== undefined;
  const explicitNamespace = options.namespace !== undefined || options.allNamespaces;
  let live: LiveResolution | undefined;
  let input: Input;
  if (converged) {
    input = await readQuestionInput(
      options.source,
      deps,
      ACCESS_PARTS,
      options.afterSync,
      { namespace: asked },
      extras,
    );
  } else {
    const bound = await readBoundInput(
      options.source,
      deps,
      // Live, the XRDs and ProviderRevisions are read only as far as resolving RESOURCE needs them (resolve-live.ts).
      options.source.from === undefined ? BOUND_PARTS : ACCESS_PARTS,
      { namespace: asked },
      extras,
      (first) => resolveLive(options.resource, first, explicitNamespace, options.verb),
      // The one request asked about: a role none of whose rules names its API group (or "*") is not decoded.
      (resolved) => (resolved.resource?.path === undefined ? resolved.resource?.group : undefined),
    );
    ({ also: live, ...input } = bound);
  }
  const { whoCan } = await import('../who-can/who-can.js');
  // The reads' warnings were reported: now why RESOURCE resolves to nothing, or kubectl's warning about the verb.
  const resource =
    live !== undefined
      ? reportedResource(live, deps)
      : await resolveInput(options.resource, input, explicitNamespace, options.verb, deps.warn);
  const snapshot =
    live !== undefined
      ? { ...input.snapshot, xrds: [...live.xrds], providerRevisions: [...live.providerRevisions] }
      : input.snapshot;
  const namespace = options.allNamespaces
    ? undefined
    : (options.namespace ?? input.cluster?.defaultNamespace ?? 'default');
  const result = whoCan(
    {
      verb: options.verb,
      resource,
      ...(options.name !== undefined ? { name: options.name } : {}),
      namespace,
      converged,
    },
    { ...snapshot, roles: rolesOf(input) },
  );
  if (input.unseen.length === 0) return result;
  const callerAllowed = await askForCaller(input.cluster, result.request);
  if (callerAllowed !== undefined) {
    deps.warn({ kind: 'caller-allowed', allowed: callerAllowed });
  }
  return { ...result, incomplete: { unseen: input.unseen, callerAllowed } };
}

/** The server's own answer for the caller (SelfSubjectAccessReview); undefined for a URL or without a cluster. */
async function askForCaller(cluster: Cluster | undefined, r: AccessAttributes): Promise<boolean | undefined> {
  if (cluster === undefined || r.path !== undefined || r.resource === undefined) return undefined;
  return cluster.canI({
    verb: r.verb,
    group: r.apiGroup ?? '',
    resource: r.resource,
    ...(r.subresource !== undefined ? { subresource: r.subresource } : {}),
    ...(r.name !== undefined ? { name: r.name } : {}),
    ...(r.namespace !== undefined ? { namespace: r.namespace } : {}),
  });
}
