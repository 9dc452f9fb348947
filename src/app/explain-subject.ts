import { explainSubject, type SubjectExplanation } from '../explain/explain-subject.js';
import type { SubjectRef } from '../explain/subject-types.js';
import type { AppDeps } from './deps.js';
import type { InputSource } from './read-input.js';
import { resolveInput, rolesOf } from './resource-catalogue.js';
import { readQuestionInput, type AfterSyncOptions } from './after-sync.js';
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
  /** --after-sync: answer for the cluster as a plain sync (of these families) would leave it. */
  readonly afterSync?: AfterSyncOptions | undefined;
}

/** `explain --subject`: every binding of a subject, the rules it grants, and the answer to a request. */
export async function runExplainSubject(
  options: ExplainSubjectOptions,
  deps: AppDeps,
): Promise<SubjectExplanation> {
  const input = await readQuestionInput(
    options.source,
    deps,
    EXPLAIN_SUBJECT_PARTS,
    options.afterSync,
    { namespace: options.namespace },
    { discovery: options.request !== undefined },
  );
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
  return explainSubject(
    options.subject,
    options.groups,
    options.namespace,
    { ...input.snapshot, roles: rolesOf(input) },
    resolved,
  );
}
