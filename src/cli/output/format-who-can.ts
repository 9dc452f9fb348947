import type { GrantPath, Grantee, WhoCanResult } from '../../who-can/who-can.js';
import type { PolicyRule } from '../../kube/types.js';
import { formatTable } from './table.js';

function subjectName(s: Grantee): string {
  return s.namespace !== undefined ? `${s.namespace}/${s.name}` : s.name;
}

function ref(r: { kind: string; name: string; namespace?: string }): string {
  return `${r.kind}/${r.namespace !== undefined ? `${r.namespace}/` : ''}${r.name}`;
}

/** `RoleBinding/team-a/devs → ClusterRole/crossplane-ns-team-a-edit → <aggregated from> ...`. */
export function formatPath(p: GrantPath): string {
  const hops = [ref(p.binding), ref(p.role), ...p.chain.slice(1)];
  return `${hops.join(' → ')}${p.stored ? '' : ' (not stored yet: the aggregation controller lags)'}`;
}

const MASTERS_VIA = 'built in: the API server allows system:masters everything, before RBAC';

function list(values: readonly string[] | undefined): string {
  return (values ?? []).join(',');
}

export function formatRule(rule: PolicyRule): string {
  if ((rule.nonResourceURLs ?? []).length > 0) return `${list(rule.verbs)} ${list(rule.nonResourceURLs)}`;
  const groups = (rule.apiGroups ?? []).map((g) => (g === '' ? 'core' : g));
  const names = (rule.resourceNames ?? []).length > 0 ? ` names=${list(rule.resourceNames)}` : '';
  return `${list(rule.verbs)} ${list(groups)}/${list(rule.resources)}${names}`;
}

/**
 * One line per subject (its first path, and how many more); `wide`: one line per path, with the rule. HEADERS:
 * false for --no-headers.
 */
export function formatWhoCanTable(
  result: WhoCanResult,
  wide: boolean,
  color: boolean,
  headers = true,
): string {
  const rows: string[][] = [];
  for (const s of result.subjects) {
    if (s.paths.length === 0) {
      rows.push(wide ? [subjectName(s), s.kind, MASTERS_VIA, ''] : [subjectName(s), s.kind, MASTERS_VIA]);
      continue;
    }
    if (!wide) {
      const [first] = s.paths;
      const more = s.paths.length > 1 ? ` (+${String(s.paths.length - 1)} more)` : '';
      rows.push([subjectName(s), s.kind, `${first !== undefined ? formatPath(first) : ''}${more}`]);
      continue;
    }
    for (const p of s.paths) rows.push([subjectName(s), s.kind, formatPath(p), formatRule(p.rule)]);
  }
  const head = wide ? ['SUBJECT', 'KIND', 'VIA', 'RULE'] : ['SUBJECT', 'KIND', 'VIA'];
  return formatTable(headers ? head : [], rows, color);
}

/** What the table cannot say: roles whose stored rules lag behind the aggregation controller. */
export function whoCanWarnings(result: WhoCanResult): string[] {
  return result.drift.map(
    (role) =>
      `ClusterRole ${role} does not store all the rules it aggregates yet; subjects whose path says "not stored yet" are denied until the aggregation controller catches up`,
  );
}
