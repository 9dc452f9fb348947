import { UsageError } from '../errors.js';
import { dnsLabelProblem, dnsSubdomainProblem } from './name-rules.js';

/**
 * An RBAC subject as the command line names it, KIND:NAME: `User:NAME`, `Group:NAME`, `ServiceAccount:NAMESPACE/NAME`.
 * The one parser of explain's --subject and --diff-with, audit's --subject and audit's --accept file.
 */
export interface SubjectRef {
  readonly kind: 'User' | 'Group' | 'ServiceAccount';
  readonly name: string;
  /** A ServiceAccount's namespace. */
  readonly namespace?: string;
}

const KINDS = ['User', 'Group', 'ServiceAccount'] as const;

export const SUBJECT_HINT = 'use User:NAME, Group:NAME or ServiceAccount:NAMESPACE/NAME';

/**
 * Parses KIND:NAME. KIND is matched without regard to case, as kubectl matches a kind in TYPE/NAME
 * (`kubectl get serviceaccount/x` and `kubectl get ServiceAccount/x` name the same object); only the first colon
 * splits, so a group may be `crossplane:masters`. A ServiceAccount is NAMESPACE/NAME with exactly one slash and both
 * parts non-empty, as kubectl's `create rolebinding --serviceaccount NAMESPACE:NAME` requires, and both valid, as
 * the apiserver's serviceaccount.SplitUsername requires of `system:serviceaccount:NS:NAME`
 * (staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go: a DNS-1123 label namespace, a DNS-1123
 * subdomain name): no such account can exist otherwise, so no answer about it can be right.
 *
 * Bad text throws one UsageError: `[where: ]invalid LABEL "TEXT"[: why]`; `label` is the flag (or field) it came
 * from, `where` the place in a file.
 */
export function parseSubject(text: string, label = '--subject', where?: string): SubjectRef {
  const fail = (why?: string): UsageError =>
    new UsageError(
      `${where !== undefined ? `${where}: ` : ''}invalid ${label} "${text}"${why !== undefined ? `: ${why}` : ''}`,
      { hint: SUBJECT_HINT },
    );
  const colon = text.indexOf(':');
  const kind = KINDS.find((k) => colon > 0 && k.toLowerCase() === text.slice(0, colon).toLowerCase());
  const rest = text.slice(colon + 1);
  if (kind === undefined || rest === '') throw fail();
  if (kind !== 'ServiceAccount') return { kind, name: rest };
  const parts = rest.split('/');
  const [namespace, name] = parts;
  if (parts.length !== 2 || namespace === undefined || namespace === '' || name === undefined || name === '')
    throw fail();
  const nsProblem = dnsLabelProblem(namespace);
  if (nsProblem !== undefined) throw fail(`the ServiceAccount's namespace "${namespace}": ${nsProblem}`);
  const nameProblem = dnsSubdomainProblem(name);
  if (nameProblem !== undefined) throw fail(`the ServiceAccount's name "${name}": ${nameProblem}`);
  return { kind, name, namespace };
}
