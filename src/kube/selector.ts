/**
 * Label selectors as the clusterrole-aggregation controller evaluates them
 * (apimachinery metav1.LabelSelectorAsSelector and labels.Requirement.Matches).
 */
import { UserError } from '../errors.js';
import type { LabelSelector, LabelSelectorRequirement, Labels } from './types.js';
import { compareStrings } from './order.js';

/** A selector the API server would refuse; the controller fails to sync a role that carries one. */
export class InvalidSelectorError extends UserError {
  override readonly name = 'InvalidSelectorError';
}

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;
type Operator = (typeof OPERATORS)[number];

/** One requirement after validation; `values` is a set for In/NotIn. */
export interface CompiledRequirement {
  readonly key: string;
  readonly operator: Operator | 'Equals';
  readonly values: ReadonlySet<string>;
}

const NAME_PART = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function keyProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: without a slash slice(slash + 1) is the whole key too, and a slash at 0 leaves an empty prefix, refused before the name
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  // Stryker disable next-line ConditionalExpression: an empty prefix fails the subdomain pattern too
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) {
    return 'prefix part must be a lowercase DNS-1123 subdomain';
  }
  if (name.length === 0) return 'name part must be non-empty';
  if (name.length > 63) return 'name part must be no more than 63 characters';
  if (!NAME_PART.test(name)) {
    return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  }
  return undefined;
}

function valueProblem(value: string): string | undefined {
  if (value.length > 63) return 'must be no more than 63 characters';
  if (value !== '' && !NAME_PART.test(value)) {
    return "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  }
  return undefined;
}

function requirement(
  key: string,
  operator: Operator | 'Equals',
  values: readonly string[],
): CompiledRequirement {
  const kp = keyProblem(key);
  if (kp !== undefined)
    throw new InvalidSelectorError(`invalid label selector: key ${JSON.stringify(key)}: ${kp}`);
  if ((operator === 'In' || operator === 'NotIn') && values.length === 0) {
    throw new InvalidSelectorError(
      `invalid label selector: key ${JSON.stringify(key)}: for 'In', 'NotIn' operators, values set can't be empty`,
    );
  }
  if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0) {
    throw new InvalidSelectorError(
      `invalid label selector: key ${JSON.stringify(key)}: values set must be empty for 'Exists' and 'DoesNotExist'`,
    );
  }
  for (const v of values) {
    const vp = valueProblem(v);
    if (vp !== undefined)
      throw new InvalidSelectorError(`invalid label selector: value ${JSON.stringify(v)}: ${vp}`);
  }
  return { key, operator, values: new Set(values) };
}

/**
 * Validates a selector and returns its requirements (empty: matches everything).
 * Throws InvalidSelectorError on an unknown operator or values that do not fit it.
 */
export function compileSelector(selector: LabelSelector): CompiledRequirement[] {
  const out: CompiledRequirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {}))
    out.push(requirement(key, 'Equals', [value]));
  for (const expr of selector.matchExpressions ?? []) {
    const op = (OPERATORS as readonly string[]).includes(expr.operator)
      ? (expr.operator as Operator)
      : undefined;
    if (op === undefined) {
      throw new InvalidSelectorError(
        `invalid label selector: ${JSON.stringify(expr.operator)} is not a valid label selector operator`,
      );
    }
    out.push(requirement(expr.key, op, expr.values ?? []));
  }
  return out;
}

export function requirementMatches(req: CompiledRequirement, labels: Labels | undefined): boolean {
  const has = labels !== undefined && Object.hasOwn(labels, req.key);
  return valueMatches(req, has ? labels[req.key] : undefined);
}

/** The same test on labels held in a Map (used when matching many roles). */
export function requirementMatchesMap(
  req: CompiledRequirement,
  labels: ReadonlyMap<string, string>,
): boolean {
  return valueMatches(req, labels.get(req.key));
}

/** The requirement against the value of its key's label (undefined: no such label; values are strings). */
function valueMatches(req: CompiledRequirement, value: string | undefined): boolean {
  switch (req.operator) {
    case 'Equals':
    case 'In':
      // Stryker disable next-line ConditionalExpression: the values are strings, so they never have undefined
      return value !== undefined && req.values.has(value);
    case 'NotIn':
      // Stryker disable next-line ConditionalExpression: the values are strings, so they never have undefined
      return value === undefined || !req.values.has(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
  }
}

export function matchesCompiled(reqs: readonly CompiledRequirement[], labels: Labels | undefined): boolean {
  return reqs.every((r) => requirementMatches(r, labels));
}

/** matchLabels and matchExpressions ANDed; an empty selector matches every object. */
export function matchesSelector(selector: LabelSelector, labels: Labels | undefined): boolean {
  return matchesCompiled(compileSelector(selector), labels);
}

function formatRequirement(req: LabelSelectorRequirement | CompiledRequirement): string {
  const values = [...(req.values ?? [])].sort(compareStrings).join(',');
  switch (req.operator) {
    case 'Equals':
      return `${req.key}=${values}`;
    case 'In':
      return `${req.key} in (${values})`;
    case 'NotIn':
      return `${req.key} notin (${values})`;
    case 'Exists':
      return req.key;
    case 'DoesNotExist':
      return `!${req.key}`;
    default:
      return `${req.key} ${req.operator} (${values})`;
  }
}

/** The selector in kubectl's string form (`a=b,c in (x,y),!d`), requirements sorted by key; '' for an empty one. */
export function formatSelector(selector: LabelSelector): string {
  const reqs: (LabelSelectorRequirement | CompiledRequirement)[] = [
    ...Object.entries(selector.matchLabels ?? {}).map(([key, value]) => ({
      key,
      operator: 'Equals',
      values: [value],
    })),
    ...(selector.matchExpressions ?? []),
  ];
  return reqs
    .map((r, i) => ({ r, i }))
    .sort((a, b) => compareStrings(a.r.key, b.r.key) || a.i - b.i)
    .map(({ r }) => formatRequirement(r))
    .join(',');
}
