/**
 * lookup's query, as its flags give it: checked before anything is read, and kept apart from lookup.ts so the CLI
 * checks flags without loading the aggregation code.
 */
import { UsageError } from '../errors.js';

/** The subject kinds RBAC knows (rbac/v1 Subject.kind), in the order a listing sorts them. */
export const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'] as const;
export type SubjectKind = (typeof SUBJECT_KINDS)[number];

export interface LookupQuery {
  /**
   * A regular expression found anywhere in the subject's name (or a ServiceAccount's `namespace:name`); undefined
   * or empty: every subject.
   */
  readonly pattern: string | undefined;
  readonly kind: SubjectKind | undefined;
  /** -n: RoleBindings of this namespace only (ClusterRoleBindings always count); undefined: every namespace. */
  readonly namespace: string | undefined;
}

/** PATTERN as rbac-lookup's users give it: a regular expression found anywhere in the name. Bad input: UsageError. */
export function parsePattern(text: string | undefined): RegExp | undefined {
  if (text === undefined || text === '') return undefined;
  try {
    return new RegExp(text);
  } catch (err) {
    const why =
      err instanceof Error ? err.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '') : '';
    throw new UsageError(`invalid PATTERN "${text}": ${why}`, {
      hint: 'PATTERN is a regular expression matched anywhere in the name: escape ( [ { * + ? with \\, or use ^name$ for an exact name',
    });
  }
}

/** --kind, as rbac-lookup takes it (user, group, serviceaccount, any case); undefined: every kind. */
export function parseSubjectKind(text: string | undefined): SubjectKind | undefined {
  if (text === undefined) return undefined;
  const kind = SUBJECT_KINDS.find((k) => k.toLowerCase() === text.toLowerCase());
  if (kind === undefined) {
    throw new UsageError(`invalid --kind "${text}"`, { hint: `use one of: ${SUBJECT_KINDS.join(', ')}` });
  }
  return kind;
}
