import { accessMatrix, type AccessMatrix } from '../explain/matrix.js';
import type { SubjectRef } from '../explain/subject-types.js';
import type { AppDeps } from './deps.js';
import type { InputSource } from './read-input.js';
import { rolesOf, servedResources } from './resource-catalogue.js';
import { readQuestionInput, type AfterSyncOptions } from './after-sync.js';
import { EXPLAIN_MATRIX_PARTS } from './explain-parts.js';

// explain's matrix mode (`explain --subject --matrix`, `explain matrix`), loaded by the command when it runs the mode.

export interface ExplainMatrixOptions {
  readonly source: InputSource;
  readonly subject: SubjectRef;
  /** --group: further groups of the subject. */
  readonly groups: readonly string[];
  /** -n: namespaced resources judged there (RoleBindings count); else cluster-wide. */
  readonly namespace?: string | undefined;
  /** --diff-with: a second subject, side by side. */
  readonly diffWith?: SubjectRef | undefined;
  /** --all: keep the rows that are all denied (or, with diffWith, alike). */
  readonly all: boolean;
  /** --after-sync: the matrix for the cluster as a plain sync (of these families) would leave it. */
  readonly afterSync?: AfterSyncOptions | undefined;
}

/** `explain --subject --matrix`: the subject's access to every resource served, verb by verb. */
export async function runExplainMatrix(options: ExplainMatrixOptions, deps: AppDeps): Promise<AccessMatrix> {
  const input = await readQuestionInput(
    options.source,
    deps,
    EXPLAIN_MATRIX_PARTS,
    options.afterSync,
    { namespace: options.namespace },
    { discovery: true },
  );
  const resources = await servedResources(input);
  return accessMatrix(options, {
    rbac: { ...input.snapshot, roles: rolesOf(input) },
    resources,
    providerRevisions: input.snapshot.providerRevisions,
  });
}
