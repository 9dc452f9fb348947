import type { Explanation } from '../explain/explain-role.js';
import type { SubjectExplanation, SubjectRef } from '../explain/explain-subject.js';
import type { AccessMatrix } from '../explain/matrix.js';
import type { SnapshotPart } from '../crossplane/validate-input.js';
import { familiesOf } from '../crossplane/provider/family.js';
import type { AppDeps } from './deps.js';
import type { InputSource } from './read-input.js';
import { ACCESS_PARTS, resolveInput, rolesOf, servedResources } from './resource-catalogue.js';
import { readQuestionInput, type AfterSyncOptions } from './after-sync.js';

/** What explain ROLE reads: the ClusterRoles, and the bindings that reach the role. */
export const EXPLAIN_ROLE_PARTS: readonly SnapshotPart[] = [
  'clusterRoles',
  'clusterRoleBindings',
  'roleBindings',
];
/** What explain ROLE --for reads: also the XRDs and ProviderRevisions RESOURCE may name. */
export const EXPLAIN_ROLE_FOR_PARTS: readonly SnapshotPart[] = [
  ...EXPLAIN_ROLE_PARTS,
  'xrds',
  'providerRevisions',
];
/** What explain --subject reads: what who-can reads, and the Namespaces (why-not reads which XRDs each enables). */
export const EXPLAIN_SUBJECT_PARTS: readonly SnapshotPart[] = [...ACCESS_PARTS, 'namespaces'];

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
  const [{ explainRole }, { requestAttributes }] = await Promise.all([
    import('../explain/explain-role.js'),
    import('../authz/authorize.js'),
  ]);
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
  const { explainSubject } = await import('../explain/explain-subject.js');
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
    ACCESS_PARTS,
    options.afterSync,
    { namespace: options.namespace },
    { discovery: true },
  );
  const [{ accessMatrix }, resources] = await Promise.all([
    import('../explain/matrix.js'),
    servedResources(input),
  ]);
  return accessMatrix(options, {
    rbac: { ...input.snapshot, roles: rolesOf(input) },
    resources,
    providerRevisions: input.snapshot.providerRevisions,
  });
}
