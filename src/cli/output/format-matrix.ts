import type { UserInfo } from '../../authz/subjects.js';
import type { SubjectRef } from '../../explain/subject-types.js';
import type { AccessMatrix, MatrixGroup, MatrixRow } from '../../explain/matrix.js';
import type { MatrixVerb } from '../../explain/matrix-verbs.js';
import { escapeTerminal } from '../../escape.js';
import { palette } from './terminal.js';

const HEADINGS: Readonly<Record<MatrixGroup['kind'], string>> = {
  kubernetes: 'Kubernetes',
  crossplane: 'Crossplane',
  'provider-family': 'provider family',
  provider: 'provider',
  xrd: 'XRD',
  other: 'API group',
};

function who(s: SubjectRef, user: UserInfo): string {
  const name = `${s.kind} ${s.namespace !== undefined ? `${s.namespace}/` : ''}${s.name}`;
  return user.groups.length > 0 ? `${name} (groups: ${user.groups.join(', ')})` : name;
}

function rowName(r: MatrixRow): string {
  return r.group === '' ? r.resource : `${r.resource}.${r.group}`;
}

const graphemes = new Intl.Segmenter();

/** The columns a cell takes: one per grapheme (names are escaped first, so no control character is counted). */
function width(s: string): number {
  let n = 0;
  for (const _ of graphemes.segment(s)) n++;
  return n;
}

/** The mark of a cell only rules the aggregation controller has not stored yet allow (`*` is a rule's every verb). */
const PENDING = '~';

function plural(n: number, one: string, many: string): string {
  return `${String(n)} ${n === 1 ? one : many}`;
}

/**
 * The matrix as rakkess prints it, one column per verb, with a heading row per group: on a terminal ✓ and ✗ in
 * colour, else `yes` and `no`; with --diff-with each cell is SUBJECT/OTHER. A verb only rules not stored yet allow
 * is marked `~` (not `*`, which rules print for every verb). Every name is escaped for the terminal. HEADERS: false for --no-headers (no RESOURCE GET ... row,
 * the columns as wide as their cells).
 */
export function formatMatrix(m: AccessMatrix, color: boolean, headers = true): string {
  const p = palette(color);
  const [yes, no] = color ? ['✓', '✗'] : ['yes', 'no'];
  const mark = (allowed: boolean, pending: readonly MatrixVerb[] | undefined, verb: MatrixVerb): string =>
    `${allowed ? yes : no}${pending?.includes(verb) === true ? PENDING : ''}`;
  const paint = (cell: string): string =>
    color ? cell.replaceAll(yes, p.green(yes)).replaceAll(no, p.red(no)) : cell;
  const lines: string[] = [escapeTerminal(who(m.subject, m.user))];
  if (m.diffWith !== undefined) {
    lines.push(
      escapeTerminal(`compared with ${who(m.diffWith.subject, m.diffWith.user)}: each cell is SUBJECT/OTHER`),
    );
  }
  lines.push(
    m.namespace !== undefined
      ? escapeTerminal(
          `namespaced resources in namespace ${m.namespace} (ClusterRoleBindings and its RoleBindings); cluster-scoped ones cluster-wide`,
        )
      : "cluster-wide: ClusterRoleBindings only, namespaced resources in every namespace at once (give -n NS for a namespace's RoleBindings)",
  );
  if (
    m.user.groups.includes('system:masters') ||
    m.diffWith?.user.groups.includes('system:masters') === true
  ) {
    lines.push('system:masters: allowed everything by the API server before RBAC is asked');
  }
  lines.push('');

  const head = ['RESOURCE', ...m.verbs.map((v) => v.toUpperCase())];
  const body: { heading?: string; cells: string[] }[] = [];
  let pending = 0;
  for (const g of m.groups) {
    body.push({ heading: escapeTerminal(`${HEADINGS[g.kind]} ${g.name}`), cells: [] });
    for (const r of g.resources) {
      pending += (r.notStoredYet?.length ?? 0) + (r.otherNotStoredYet?.length ?? 0);
      const verbCells = m.verbs.map((v) => {
        const mine = mark(r.allowed[v], r.notStoredYet, v);
        return r.otherAllowed !== undefined
          ? `${mine}/${mark(r.otherAllowed[v], r.otherNotStoredYet, v)}`
          : mine;
      });
      body.push({ cells: [`  ${escapeTerminal(rowName(r))}`, ...verbCells] });
    }
  }
  const widths = head.map((h, i) =>
    Math.max(headers ? h.length : 0, ...body.map((b) => width(b.cells[i] ?? ''))),
  );
  const pad = (s: string, i: number): string => s + ' '.repeat((widths[i] ?? 0) - width(s));
  const render = (cells: readonly string[], painted: (s: string, i: number) => string): string =>
    cells
      .map((c, i) => painted(pad(c, i), i))
      .join('  ')
      .trimEnd();
  if (headers) lines.push(render(head, (s) => (color ? p.cyan(s) : s)));
  for (const b of body) {
    lines.push(
      b.heading !== undefined ? p.bold(b.heading) : render(b.cells, (s, i) => (i === 0 ? s : paint(s))),
    );
  }
  if (body.length === 0) lines.push('(no rows)');

  const notes: string[] = [];
  if (m.hidden > 0) {
    notes.push(
      `${plural(m.hidden, 'resource', 'resources')} hidden: ${
        m.diffWith !== undefined ? 'both subjects alike' : 'everything denied'
      } (--all shows them)`,
    );
  }
  if (pending > 0) {
    notes.push(
      `${PENDING}: allowed only by rules the aggregation controller has not stored yet (${plural(pending, 'cell', 'cells')}): the API server denies them until it catches up`,
    );
  }
  if (notes.length > 0) lines.push('', ...notes);
  return lines.join('\n');
}
