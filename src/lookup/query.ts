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
  } catch {
    // Our own words, not the engine's: V8 and JavaScriptCore (the standalone executable) word the same mistake
    // differently, and a user gets one message whichever binary they run.
    throw new UsageError(`invalid PATTERN "${text}": ${patternMistake(text)}`, {
      hint: 'PATTERN is a regular expression matched anywhere in the name: escape ( [ { * + ? with \\, or use ^name$ for an exact name',
    });
  }
}

/** The first mistake a reader would point at in a pattern the engine refused. */
function patternMistake(text: string): string {
  let depth = 0;
  let inClass = false;
  let canRepeat = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      if (i === text.length - 1) return '\\ at the end of the pattern';
      i++;
      canRepeat = true;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      canRepeat = true;
    } else if (c === '(') {
      if (text[i + 1] === '?' && !':=!<'.includes(text[i + 2] ?? ''))
        return `invalid group ${text.slice(i, i + 3)}`;
      depth++;
      canRepeat = false;
    } else if (c === ')') {
      if (depth === 0) return 'unmatched )';
      depth--;
      canRepeat = true;
    } else if (c === '|') {
      canRepeat = false;
    } else if (c === '*' || c === '+' || c === '?') {
      // (?: and a lazy *? +? ?? are fine; anything else with nothing before it is not.
      const lazyOrGroup = c === '?' && (text[i - 1] === '(' || '*+?'.includes(text[i - 1] ?? ''));
      if (!canRepeat && !lazyOrGroup) return `nothing to repeat before ${c}`;
      canRepeat = false;
    } else {
      canRepeat = true;
    }
  }
  if (inClass) return 'unterminated character class [';
  if (depth > 0) return 'unterminated group (';
  return 'not a valid regular expression';
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
