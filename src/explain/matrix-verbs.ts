// The matrix's columns in a module of their own: shell completion offers them as who-can's verbs without loading
// the matrix (test/unit/cli/complete-imports.test.ts).

/** The columns, in rakkess' order of reading before writing. */
export const MATRIX_VERBS = [
  'get',
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
] as const;
export type MatrixVerb = (typeof MATRIX_VERBS)[number];
