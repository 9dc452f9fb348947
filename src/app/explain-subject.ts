import { explainSubject, type SubjectExplanation, type SubjectView } from '../explain/explain-subject.js';
import type { SubjectRef } from '../explain/subject-types.js';
import type { AppDeps } from './deps.js';
import type { ResolvedResource } from '../crossplane/resolve-resource.js';
import { isKubernetesGroup } from '../kube/api-names.js';
import type { Cluster } from '../port/cluster.js';
import { warnInvalidOwners, warnUnseen, type Input, type InputSource } from './read-input.js';
import { resolveInput, rolesOf } from './resource-catalogue.js';
import { reportedResource, resolveLive, withProviderRevisions, type LiveResolution } from './resolve-live.js';
import { readQuestionInput, type AfterSyncOptions } from './after-sync.js';
import { readBoundInput, readEveryClusterRole } from './read-bound-roles.js';
import { EXPLAIN_SUBJECT_PARTS } from './explain-parts.js';

// explain's subject mode (`explain --subject`, `explain subject`), loaded by the command when it runs the mode.

export interface ExplainSubjectOptions {
  readonly source: InputSource;
  readonly subject: SubjectRef;
  /** --group: further groups of the subject. */
  readonly groups: readonly string[];
  /** -n: also the subject's RoleBindings there. */
  readonly namespace?: string | undefined;
  /** --for RESOURCE (as kubectl takes it) --verb VERB: answered allowed or denied, with why. */
  readonly request?: { readonly verb: string; readonly resource: string } | undefined;
  /**
   * --converged: every ClusterRole is read and aggregated ClusterRoles grant the rules the aggregation controller
   * converges to (rules not stored yet marked); else the stored rules of the roles the bindings reach.
   */
  readonly converged?: boolean | undefined;
  /** --after-sync: answer for the cluster as a plain sync (of these families) would leave it (implies --converged). */
  readonly afterSync?: AfterSyncOptions | undefined;
}

/** What explain --subject reads live by default besides the ClusterRoles (resolveLive reads the Crossplane kinds). */
const BOUND_PARTS = EXPLAIN_SUBJECT_PARTS.filter((p) => p !== 'xrds' && p !== 'providerRevisions');

/** `explain --subject`: every binding of a subject, the rules it grants, and the answer to a request. */
export async function runExplainSubject(
  options: ExplainSubjectOptions,
  deps: AppDeps,
): Promise<SubjectExplanation> {
  const converged = options.converged === true || options.afterSync !== undefined;
  const partial = { namespace: options.namespace };
  const { request } = options;
  const extras = { discovery: request !== undefined };
  const explicitNamespace = options.namespace !== undefined;
  // The convergence view needs every ClusterRole (after sync, so does sync's plan); the authorizer's, the bound ones,
  // and live the XRDs and ProviderRevisions only as far as resolving --for needs them (resolve-live.ts).
  const read = converged
    ? await readQuestionInput(options.source, deps, EXPLAIN_SUBJECT_PARTS, options.afterSync, partial, extras)
    : await readBoundInput(
        options.source,
        deps,
        options.source.from === undefined ? BOUND_PARTS : EXPLAIN_SUBJECT_PARTS,
        partial,
        extras,
        request === undefined
          ? undefined
          : (first) => resolveLive(request.resource, first, explicitNamespace, request.verb),
      );
  const { also: live, ...input }: Input & { readonly also?: LiveResolution; readonly boundRead?: unknown } =
    read;
  const resolved =
    request !== undefined
      ? {
          verb: request.verb,
          resource:
            live !== undefined
              ? reportedResource(live, deps)
              : await resolveInput(request.resource, input, explicitNamespace, request.verb, deps.warn),
        }
      : undefined;
  // With -f, or one LIST of them, every ClusterRole is at hand.
  const boundRead = 'boundRead' in input ? input.boundRead : undefined;
  const view: SubjectView = { converged, everyClusterRole: converged || boundRead !== 'get' };
  // The ProviderRevisions read (with -f, or live as resolving --for read them): a denial names the active one.
  let providerRevisions =
    live !== undefined && live.providerRevisions.length > 0
      ? live.providerRevisions
      : input.snapshot.providerRevisions;
  const explain = (
    clusterRoles = input.snapshot.clusterRoles,
    v = view,
    req = resolved,
  ): SubjectExplanation =>
    explainSubject(
      options.subject,
      options.groups,
      options.namespace,
      { ...input.snapshot, clusterRoles, roles: rolesOf(input), providerRevisions },
      req,
      v,
    );
  const explanation = explain();
  if (explanation.access?.allowed !== false || input.cluster === undefined) return explanation;
  // Denied: the reasons name the provider whose CRDs serve the resource (every ProviderRevision, when discovery
  // resolved it and no XRD defines it), and which roles would grant it, and whether the bound ones lag, take every
  // ClusterRole. The answer is the same (the roles no binding reaches grant the subject nothing).
  const provider =
    live !== undefined && request !== undefined
      ? await providerOf(live, { ...input, cluster: input.cluster }, request, explicitNamespace, deps)
      : undefined;
  if (provider !== undefined) providerRevisions = provider.providerRevisions;
  const req =
    provider !== undefined && resolved !== undefined
      ? { ...resolved, resource: provider.resource }
      : resolved;
  if (view.everyClusterRole) return req === resolved ? explanation : explain(undefined, view, req);
  const every = await readEveryClusterRole(input.cluster);
  if ('roles' in every) return explain(every.roles, { converged: false, everyClusterRole: true }, req);
  deps.warn({ kind: 'unseen', what: 'ClusterRoles', verb: 'list', reason: every.refused });
  return req === resolved ? explanation : explain(undefined, view, req);
}

/**
 * The resource LIVE resolved, with the ProviderRevision whose CRDs serve it, when it may be a provider's (discovery
 * resolved it in a group of neither Kubernetes nor an XRD read, and the revisions were not read yet); and the
 * revisions read.
 */
async function providerOf(
  live: LiveResolution,
  input: Input & { readonly cluster: Cluster },
  request: { readonly verb: string; readonly resource: string },
  explicitNamespace: boolean,
  deps: AppDeps,
): Promise<
  { resource: ResolvedResource; providerRevisions: LiveResolution['providerRevisions'] } | undefined
> {
  const res = live.resource;
  if (res === undefined || res.path !== undefined || res.xrd !== undefined || res.provider !== undefined) {
    return undefined;
  }
  if (res.group === '' || isKubernetesGroup(res.group) || live.providerRevisions.length > 0) return undefined;
  const again = await withProviderRevisions(
    request.resource,
    input,
    live.xrds,
    explicitNamespace,
    request.verb,
  );
  const read = { ...input, unseen: again.unseen, invalidOwners: again.invalidOwners };
  warnInvalidOwners(deps, read);
  warnUnseen(deps, read);
  return again.resource?.provider !== undefined
    ? { resource: again.resource, providerRevisions: again.providerRevisions }
    : undefined;
}
