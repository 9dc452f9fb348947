import type { SubjectExplanation } from '../../explain/explain-subject.js';
import type { Ref } from '../../explain/subject-types.js';
import { escapeTerminal } from '../../escape.js';
import { formatRule } from './format-who-can.js';

function ref(r: Ref): string {
  return `${r.kind}/${r.namespace !== undefined ? `${r.namespace}/` : ''}${r.name}`;
}

/**
 * The subject's bindings and their rules, then the answer to --for/--verb with its reasons. Each line holds names
 * from the cluster and from the flags, so each is escaped for the terminal: a name cannot start a line of its own.
 */
export function formatSubjectText(e: SubjectExplanation, wide: boolean): string {
  const s = e.subject;
  const lines: string[] = [];
  lines.push(
    `${s.kind} ${s.namespace !== undefined ? `${s.namespace}/` : ''}${s.name}` +
      (e.user.groups.length > 0 ? ` (groups: ${e.user.groups.join(', ')})` : ''),
  );
  lines.push(
    e.namespace !== undefined
      ? `bindings in namespace ${e.namespace} and cluster-wide: ${String(e.bindings.length)}`
      : `cluster-wide bindings: ${String(e.bindings.length)} (give -n NS for a namespace's RoleBindings)`,
  );
  for (const b of e.bindings) {
    const via = b.via.map((v) => `${v.kind} ${v.name}`).join(', ');
    const notes = [
      b.role.found ? '' : 'role not found: grants nothing',
      b.role.drift ? 'aggregation not converged' : '',
    ].filter((n) => n !== '');
    lines.push(
      `  ${ref(b.binding)} → ${ref(b.role)}  (${String(b.rules.length)} ${b.rules.length === 1 ? 'rule' : 'rules'}; via ${via})${notes.length > 0 ? ` [${notes.join('; ')}]` : ''}`,
    );
    if (wide) {
      for (const r of b.rules) {
        const from = r.chain.length > 1 ? `  ← ${r.chain.slice(1).join(' ← ')}` : '';
        lines.push(`      ${formatRule(r.rule)}${from}${r.stored ? '' : '  (not stored yet)'}`);
      }
    }
  }
  const a = e.access;
  if (a !== null) {
    const req = a.request;
    const what =
      req.path ??
      `${req.apiGroup === '' || req.apiGroup === undefined ? '' : `${req.apiGroup}/`}${req.resource ?? ''}${req.subresource !== undefined ? `/${req.subresource}` : ''}${req.name !== undefined ? ` ${req.name}` : ''}`;
    const where = req.namespace !== undefined ? ` in namespace ${req.namespace}` : '';
    lines.push('');
    lines.push(`${req.verb} ${what}${where}: ${a.allowed ? 'allowed' : 'denied'}`);
    if (a.privileged) lines.push('  system:masters: allowed by the API server before RBAC is asked');
    for (const g of a.grants) {
      const from = g.chain.length > 1 ? ` ← ${g.chain.slice(1).join(' ← ')}` : '';
      lines.push(`  granted by ${formatRule(g.rule)}  in ${ref(g.role)}${from}, bound by ${ref(g.binding)}`);
    }
    for (const r of a.whyNot) {
      lines.push(`  why: ${r.message}`);
      if (r.fix !== undefined) lines.push(`    fix: ${r.fix}`);
    }
  }
  return lines.map(escapeTerminal).join('\n');
}
