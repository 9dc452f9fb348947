import { explainRole, type Explanation } from '../explain/explain-role.js';
import { requestAttributes } from '../authz/authorize.js';
import { familiesOf } from '../crossplane/provider/family.js';
import type { AppDeps } from './deps.js';
import type { InputSource } from './read-input.js';
import { resolveInput } from './resource-catalogue.js';
import { readQuestionInput, type AfterSyncOptions } from './after-sync.js';
import { EXPLAIN_ROLE_FOR_PARTS, EXPLAIN_ROLE_PARTS } from './explain-parts.js';

// explain's role mode. The command loads this module (and with it the role's explanation) when it runs the mode,
// so this file imports what it needs directly.

export interface ExplainRoleOptions {
  readonly source: InputSource;
  readonly role: string;
  /**
   * --for RESOURCE (as kubectl takes it, or GROUP/RESOURCE) --verb VERB: keep only the rules granting it, and answer
   * whether the role does.
   */
  readonly request?: { readonly verb: string; readonly resource: string } | undefined;
  /** --after-sync: answer for the cluster as a plain sync (of these families) would leave it. */
  readonly afterSync?: AfterSyncOptions | undefined;
}

/** `explain ROLE`: the role's effective rules as the aggregation controller computes them, with provenance. */
export async function runExplainRole(options: ExplainRoleOptions, deps: AppDeps): Promise<Explanation> {
  const { request } = options;
  const input = await readQuestionInput(
    options.source,
    deps,
    // RESOURCE resolves through discovery, XRDs and ProviderRevisions (with -f: CRDs), as who-can's does.
    request !== undefined ? EXPLAIN_ROLE_FOR_PARTS : EXPLAIN_ROLE_PARTS,
    options.afterSync,
    // The role's rules are the answer; the bindings that reach it (`bound by`) may be read in part.
    { namespace: undefined, required: ['clusterRoles'] },
    { discovery: request !== undefined },
  );
  // A ClusterRole's rules hold in every namespace: the request is asked without one.
  const access =
    request !== undefined
      ? requestAttributes(
          await resolveInput(request.resource, input, false, request.verb, deps.warn),
          request.verb,
        )
      : undefined;
  return explainRole(
    options.role,
    input.snapshot,
    access !== undefined ? { for: access, families: familiesOf(input.snapshot) } : undefined,
  );
}
