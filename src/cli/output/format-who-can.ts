import type { GrantPath, Grantee, WhoCanResult } from '../../who-can/who-can.js';
import type { PolicyRule } from '../../kube/types.js';
import { foldList, sharedSuffix, uniqueItems, width } from './fold.js';

function subjectName(s: Grantee): string {
  return s.namespace !== undefined ? `${s.namespace}/${s.name}` : s.name;
}

function ref(r: { kind: string; name: string; namespace?: string }): string {
  return `${r.kind}/${r.namespace !== undefined ? `${r.namespace}/` : ''}${r.name}`;
}

/**
 * `RoleBinding/team-a/devs → ClusterRole/crossplane-ns-team-a-edit → <aggregated from> ...`, with how many more
 * roles carry the rule (` +25 more (FAMILY)`, as explain's table counts them).
 */
export function formatPath(p: GrantPath): string {
  const hops = [ref(p.binding), ref(p.role), ...p.chain.slice(1)];
  return `${hops.join(' → ')}${sharedSuffix(p)}${p.stored ? '' : ' (not stored yet: the aggregation controller lags)'}`;
}

/** -o wide's CARRIED BY: every role that holds the rule as its own when more than the chain's last do, else ''. */
function carriers(p: GrantPath): string {
  if (p.sharedWith === undefined) return '';
  return [p.chain[p.chain.length - 1] ?? '', ...p.sharedWith].join(',');
}

const MASTERS_VIA = 'built in: the API server allows system:masters everything, before RBAC';

function list(values: readonly string[] | undefined): string {
  return (values ?? []).join(',');
}

/**
 * `VERBS GROUPS/RESOURCES [names=...]`, each resource once (a provider family's roles list theirs twice). With
 * BUDGET (a terminal's columns left for it), the resources are folded to fit, those FIRST picks first.
 */
export function formatRule(
  rule: PolicyRule,
  budget?: number,
  first: (resource: string) => boolean = () => false,
): string {
  if ((rule.nonResourceURLs ?? []).length > 0) return `${list(rule.verbs)} ${list(rule.nonResourceURLs)}`;
  const groups = (rule.apiGroups ?? []).map((g) => (g === '' ? 'core' : g));
  const names = (rule.resourceNames ?? []).length > 0 ? ` names=${list(rule.resourceNames)}` : '';
  const prefix = `${list(rule.verbs)} ${list(groups)}/`;
  const resources = uniqueItems(rule.resources ?? []);
  const folded =
    budget === undefined
      ? resources.join(',')
      : foldList(resources, Math.max(16, budget - width(prefix) - width(names)), first);
  return `${prefix}${folded}${names}`;
}

/**
 * The table's header and rows: one line per subject (its first path, and how many more); `wide`: one line per path,
 * with the rule (folded to COLUMNS, laid out with HEADERS or not) and, when several roles carry it (a provider
 * family's), all of them. printers/who-can.ts lays them out.
 */
export function whoCanTableRows(
  result: WhoCanResult,
  wide: boolean,
  headers = true,
  columns?: number,
): { head: string[]; rows: string[][] } {
  const rows: string[][] = [];
  // -o wide's CARRIED BY, only when some rule is carried by more than one role.
  const shared = result.subjects.some((s) => s.paths.some((p) => p.sharedWith !== undefined))
    ? ['CARRIED BY']
    : [];
  const budget = wide && columns !== undefined ? ruleBudget(result, columns, headers) : undefined;
  const r = result.request;
  const asked = (resource: string): boolean =>
    resource === r.resource ||
    (r.subresource !== undefined && resource === `${r.resource ?? ''}/${r.subresource}`);
  for (const s of result.subjects) {
    if (s.paths.length === 0) {
      rows.push(
        wide
          ? [subjectName(s), s.kind, MASTERS_VIA, '', ...shared.map(() => '')]
          : [subjectName(s), s.kind, MASTERS_VIA],
      );
      continue;
    }
    if (!wide) {
      const [first] = s.paths;
      const more = s.paths.length > 1 ? ` (+${String(s.paths.length - 1)} more)` : '';
      rows.push([subjectName(s), s.kind, `${first !== undefined ? formatPath(first) : ''}${more}`]);
      continue;
    }
    for (const p of s.paths)
      rows.push([
        subjectName(s),
        s.kind,
        formatPath(p),
        formatRule(p.rule, budget, asked),
        ...shared.map(() => carriers(p)),
      ]);
  }
  const head = wide ? ['SUBJECT', 'KIND', 'VIA', 'RULE', ...shared] : ['SUBJECT', 'KIND', 'VIA'];
  return { head, rows };
}

/** The columns left for -o wide's RULE on a terminal COLUMNS wide, after the other columns and their gaps. */
function ruleBudget(result: WhoCanResult, columns: number, headers: boolean): number {
  const widest = (cells: string[]): number => Math.max(0, ...cells.map(width));
  const subjects = result.subjects;
  const paths = subjects.flatMap((s) => (s.paths.length > 0 ? s.paths.map(formatPath) : [MASTERS_VIA]));
  const used = [
    widest([...(headers ? ['SUBJECT'] : []), ...subjects.map(subjectName)]),
    widest([...(headers ? ['KIND'] : []), ...subjects.map((s) => s.kind)]),
    widest([...(headers ? ['VIA'] : []), ...paths]),
  ].reduce((a, b) => a + b + 2, 0);
  const carried = subjects.flatMap((s) => s.paths.map(carriers));
  if (carried.some((c) => c !== ''))
    return columns - used - 2 - widest([...(headers ? ['CARRIED BY'] : []), ...carried]);
  return columns - used;
}

/** What the table cannot say: roles whose stored rules lag behind the aggregation controller. */
export function whoCanWarnings(result: WhoCanResult): string[] {
  return result.drift.map(
    (role) =>
      `ClusterRole ${role} does not store all the rules it aggregates yet; subjects whose path says "not stored yet" are denied until the aggregation controller catches up`,
  );
}
