import type { SnapshotPart } from '../crossplane/validate-input.js';
import { ACCESS_PARTS } from './resource-catalogue.js';

// What each explain mode reads, apart from its runner (explain-role.ts, explain-subject.ts, explain-matrix.ts), so
// --print-required-role names them without loading any explanation.

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
/** What explain --subject --matrix reads: what who-can reads (the rows come from discovery, or the -f input). */
export const EXPLAIN_MATRIX_PARTS: readonly SnapshotPart[] = ACCESS_PARTS;
