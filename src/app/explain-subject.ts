import { explainSubject, type SubjectExplanation, type SubjectView } from '../explain/explain-subject.js';
import type { SubjectRef } from '../explain/subject-types.js';
import type { AppDeps } from './deps.js';
import type { InputSource } from './read-input.js';
import { resolveInput, rolesOf } from './resource-catalogue.js';
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

/** `explain --subject`: every binding of a subject, the rules it grants, and the answer to a request. */
export async function runExplainSubject(
  options: ExplainSubjectOptions,
  deps: AppDeps,
): Promise<SubjectExplanation> {
  const converged = options.converged === true || options.afterSync !== undefined;
  const partial = { namespace: options.namespace };
  const extras = { discovery: options.request !== undefined };
  // The convergence view needs every ClusterRole (after sync, so does sync's plan); the authorizer's, the bound ones.
  const input = converged
    ? await readQuestionInput(options.source, deps, EXPLAIN_SUBJECT_PARTS, options.afterSync, partial, extras)
    : await readBoundInput(options.source, deps, EXPLAIN_SUBJECT_PARTS, partial, extras);
  const { request } = options;
  const resolved =
    request !== undefined
      ? {
          verb: request.verb,
          resource: await resolveInput(
            request.resource,
            input,
            options.namespace !== undefined,
            request.verb,
            deps.warn,
          ),
        }
      : undefined;
  // With -f, or one LIST of them, every ClusterRole is at hand.
  const boundRead = 'boundRead' in input ? input.boundRead : undefined;
  const view: SubjectView = { converged, everyClusterRole: converged || boundRead !== 'get' };
  const explain = (clusterRoles = input.snapshot.clusterRoles, v = view): SubjectExplanation =>
    explainSubject(
      options.subject,
      options.groups,
      options.namespace,
      { ...input.snapshot, clusterRoles, roles: rolesOf(input) },
      resolved,
      v,
    );
  const explanation = explain();
  if (explanation.access?.allowed !== false || view.everyClusterRole || input.cluster === undefined) {
    return explanation;
  }
  // Denied: which roles would grant it, and whether the bound ones lag, take every ClusterRole. The answer is the
  // same (the roles no binding reaches grant the subject nothing).
  const every = await readEveryClusterRole(input.cluster);
  if ('roles' in every) return explain(every.roles, { converged: false, everyClusterRole: true });
  deps.warn({ kind: 'unseen', what: 'ClusterRoles', verb: 'list', reason: every.refused });
  return explanation;
}
