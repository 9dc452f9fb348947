/**
 * The graph that `who-can -o dot|mermaid|html` and `explain --subject -o dot|mermaid|html` draw: subject → binding →
 * role → the roles it aggregates, hop by hop → the rule. Pure: nodes and edges from a result, each node with a
 * stable id made of its kind and name (no counter that shifts when another node comes or goes), in the order the
 * result lists them. Names are kept exactly; each renderer escapes them for its own syntax.
 */
import type { AccessAttributes } from '../../authz/authorize.js';
import type { SubjectExplanation } from '../../explain/explain-subject.js';
import type { EffectiveRule, Ref } from '../../explain/subject-types.js';
import type { PolicyRule } from '../../kube/types.js';
import type { WhoCanResult } from '../../who-can/who-can.js';
import { formatRule } from './format-who-can.js';
import { plural } from './plural.js';

/** Which column a node stands in: the subject, its binding, the bound role, a role it aggregates, a rule. */
export type GraphColumn = 'subject' | 'binding' | 'role' | 'source' | 'rule';

export interface GraphNode {
  /**
   * Stable: KIND/NAME, KIND/NAMESPACE/NAME, or for a rule the holding role's id and `/rule-N` (N: the rule's place
   * among that role's rules drawn). A role's name never holds `/`, so no id is another's.
   */
  readonly id: string;
  readonly column: GraphColumn;
  /** Left to right: 0 subject, 1 binding, 2 bound role, 2 + hop for an aggregated source role, then the rules. */
  readonly layer: number;
  /** The first line: the object's kind, or `rule`. */
  readonly kind: string;
  /** The second line: the name as the cluster has it (NAMESPACE/NAME when namespaced), or the rule. */
  readonly name: string;
  /** A third line, when there is something to say (aggregated, not found, allowed before RBAC ...). */
  readonly note?: string;
}

export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly label?: string;
  /**
   * Drawn dashed: the bound role does not store the rule it aggregates through this hop yet (the aggregation
   * controller lags), so the API server does not grant it yet.
   */
  readonly dashed?: boolean;
}

export interface Graph {
  /** What the graph answers, in one line (e.g. `who-can delete s3.aws.upbound.io/buckets in namespace team-a`). */
  readonly title: string;
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  /** Column headings other than COLUMN_TITLES' (audit's: identities and capabilities). */
  readonly columnTitles?: Readonly<Partial<Record<GraphColumn, string>>>;
}

/** The column headings, by column. */
export const COLUMN_TITLES: Readonly<Record<GraphColumn, string>> = {
  subject: 'subject',
  binding: 'binding',
  role: 'role',
  source: 'aggregated from',
  rule: 'rule',
};

/** At most this many characters of a name or rule on a node; the rest is cut with `…` (DOT's tooltip has it all). */
export const LABEL_MAX = 80;

/** TEXT cut to LABEL_MAX code points, ending with `…` when cut. */
export function shorten(text: string): string {
  const chars = Array.from(text);
  return chars.length <= LABEL_MAX ? text : `${chars.slice(0, LABEL_MAX - 1).join('')}…`;
}

/** The lines a node shows: its kind, its name (shortened) and its note. */
export function nodeLines(n: GraphNode): string[] {
  return [n.kind, shorten(n.name), ...(n.note !== undefined ? [n.note] : [])];
}

/** Fill and border of each column, shared by the three renderers. */
export const COLUMN_COLOURS: Readonly<Record<GraphColumn, { fill: string; stroke: string }>> = {
  subject: { fill: '#dbeafe', stroke: '#1d4ed8' },
  binding: { fill: '#e5e7eb', stroke: '#4b5563' },
  role: { fill: '#dcfce7', stroke: '#15803d' },
  source: { fill: '#f0fdf4', stroke: '#65a30d' },
  rule: { fill: '#fef9c3', stroke: '#a16207' },
};

function qualified(r: { readonly name: string; readonly namespace?: string | undefined }): string {
  return r.namespace !== undefined ? `${r.namespace}/${r.name}` : r.name;
}

function refId(r: Ref): string {
  return `${r.kind}/${qualified(r)}`;
}

/** `get core/pods/log NAME in namespace NS`, or `get /healthz`: the request as the authorizer sees it. */
export function describeRequest(r: AccessAttributes): string {
  if (r.path !== undefined) return `${r.verb} ${r.path}`;
  const group = r.apiGroup === undefined || r.apiGroup === '' ? 'core' : r.apiGroup;
  const res = r.subresource !== undefined ? `${r.resource ?? ''}/${r.subresource}` : (r.resource ?? '');
  const name = r.name !== undefined ? ` ${r.name}` : '';
  const where = r.namespace !== undefined ? ` in namespace ${r.namespace}` : '';
  return `${r.verb} ${group}/${res}${name}${where}`;
}

/** Collects nodes and edges once each, in the order they are first met, and lays out the layers at the end. */
class GraphBuilder {
  private readonly nodes = new Map<string, Omit<GraphNode, 'layer'> & { layer: number }>();
  private readonly edges = new Map<string, GraphEdge>();
  /** Per holding role, its rules' keys in the order first met: a rule's id is its place there. */
  private readonly ruleIds = new Map<string, Map<string, string>>();

  node(id: string, column: GraphColumn, layer: number, kind: string, name: string, note?: string): string {
    const seen = this.nodes.get(id);
    if (seen === undefined) {
      this.nodes.set(id, { id, column, layer, kind, name, ...(note !== undefined ? { note } : {}) });
    } else if (layer > seen.layer) {
      // A role both bound and aggregated, or met at several hops: it stands at its deepest.
      seen.layer = layer;
    }
    return id;
  }

  edge(from: string, to: string, extra: { label?: string; dashed?: boolean } = {}): void {
    const key = JSON.stringify([from, to, extra.label ?? '', extra.dashed === true]);
    if (!this.edges.has(key)) this.edges.set(key, { from, to, ...extra });
  }

  /**
   * The path from a binding through its role and the aggregation chain to one rule: CHAIN starts at the bound role
   * and ends at the role holding the rule as its own.
   */
  path(bindingId: string, role: Ref, chain: readonly string[], rule: PolicyRule, stored: boolean): void {
    const roleId = this.role(role, 2);
    this.edge(bindingId, roleId);
    // Not stored yet: the bound role has not taken the rule from the role it aggregates, so that hop is dashed.
    const lag = stored ? {} : { label: 'not stored yet', dashed: true };
    let holder = roleId;
    chain.slice(1).forEach((name, i) => {
      const next = this.node(`ClusterRole/${name}`, 'source', 3 + i, 'ClusterRole', name);
      this.edge(holder, next, i === 0 ? lag : {});
      holder = next;
    });
    this.edge(holder, this.rule(holder, rule), chain.length > 1 ? {} : lag);
  }

  role(role: Ref & { readonly found?: boolean; readonly aggregated?: boolean }, layer: number): string {
    const notes = [
      role.found === false ? 'not found: grants nothing' : '',
      role.aggregated ? 'aggregated' : '',
    ];
    const note = notes.filter((n) => n !== '').join(', ');
    return this.node(refId(role), 'role', layer, role.kind, qualified(role), note !== '' ? note : undefined);
  }

  private rule(holder: string, rule: PolicyRule): string {
    let ids = this.ruleIds.get(holder);
    if (ids === undefined) this.ruleIds.set(holder, (ids = new Map<string, string>()));
    const key = JSON.stringify(rule);
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = `${holder}/rule-${String(ids.size + 1)}`));
    return this.node(id, 'rule', 0, 'rule', formatRule(rule));
  }

  build(title: string): Graph {
    const nodes = [...this.nodes.values()];
    // The rules stand in one column after the deepest role.
    const ruleLayer = Math.max(2, ...nodes.filter((n) => n.column !== 'rule').map((n) => n.layer)) + 1;
    return {
      title,
      nodes: nodes.map((n) => (n.column === 'rule' ? { ...n, layer: ruleLayer } : { ...n })),
      edges: [...this.edges.values()],
    };
  }
}

const MASTERS_NOTE = 'allowed before RBAC is asked';

/** who-can's answer as a graph: every subject listed, each path to the rule that allows the request. */
export function whoCanGraph(result: WhoCanResult): Graph {
  const g = new GraphBuilder();
  for (const s of result.subjects) {
    const subjectId = g.node(
      `${s.kind}/${qualified(s)}`,
      'subject',
      0,
      s.kind,
      qualified(s),
      s.always ? MASTERS_NOTE : undefined,
    );
    for (const p of s.paths) {
      const bindingId = g.node(refId(p.binding), 'binding', 1, p.binding.kind, qualified(p.binding));
      g.edge(subjectId, bindingId);
      g.path(bindingId, p.role, p.chain, p.rule, p.stored);
    }
  }
  const scope = result.allNamespaces ? ' in every namespace' : '';
  return g.build(`who-can ${describeRequest(result.request)}${scope}`);
}

/** How a binding reaches the subject, when not by naming it: `via Group system:authenticated`. */
function viaLabel(e: SubjectExplanation, via: readonly { kind: string; name: string }[]): string | undefined {
  const s = e.subject;
  const direct = via.some((v) => v.kind === s.kind && v.name === s.name);
  if (direct || via.length === 0) return undefined;
  return `via ${via.map((v) => `${v.kind} ${v.name}`).join(', ')}`;
}

/**
 * explain --subject's answer as a graph: the subject, every binding that reaches it, each bound role and the
 * roles it aggregates down to the rules. With --for/--verb only the rules that grant the request are drawn (the
 * bindings and roles all are), and the title gives the answer.
 */
export function subjectGraph(e: SubjectExplanation): Graph {
  const g = new GraphBuilder();
  const s = e.subject;
  const a = e.access;
  const subjectId = g.node(
    `${s.kind}/${qualified(s)}`,
    'subject',
    0,
    s.kind,
    qualified(s),
    a?.privileged === true ? MASTERS_NOTE : undefined,
  );
  for (const b of e.bindings) {
    const bindingId = g.node(refId(b.binding), 'binding', 1, b.binding.kind, qualified(b.binding));
    const label = viaLabel(e, b.via);
    g.edge(subjectId, bindingId, label !== undefined ? { label } : {});
    g.edge(bindingId, g.role(b.role, 2));
    const rules: readonly EffectiveRule[] =
      a === null ? b.rules : a.grants.filter((r) => refId(r.binding) === refId(b.binding));
    for (const r of rules) g.path(bindingId, b.role, r.chain, r.rule, r.stored);
  }
  const scope =
    e.namespace !== undefined ? ` (namespace ${e.namespace} and cluster-wide)` : ' (cluster-wide)';
  const who = `${s.kind}:${qualified(s)}`;
  const answer = a !== null ? `: ${describeRequest(a.request)}: ${a.allowed ? 'allowed' : 'denied'}` : '';
  return g.build(`explain --subject ${who}${scope}${answer}`);
}

/** What auditGraph draws of a finding (the AuditReport's, src/audit/audit.ts). */
interface AuditPath {
  readonly capability: string;
  readonly severity: string;
  readonly subject: Ref;
  readonly steps: readonly {
    readonly mechanism: string;
    readonly trigger: {
      readonly verb: string;
      readonly resource: string;
      readonly namespace?: string;
      readonly name?: string;
    };
    readonly via: readonly string[];
    readonly actsAs: Ref;
  }[];
}

/** One entry of a step's `via` (`ClusterRoleBinding/NAME`, `RoleBinding/NS/NAME`, `ClusterRole/NAME`, a chain's NAME). */
function viaNode(g: GraphBuilder, text: string, index: number, layer: number): string {
  const slash = text.indexOf('/');
  const kind = slash < 0 ? 'ClusterRole' : text.slice(0, slash);
  const name = slash < 0 ? text : text.slice(slash + 1);
  if (kind.endsWith('Binding')) return g.node(`${kind}/${name}`, 'binding', layer, kind, name);
  const column: GraphColumn = index <= 1 && slash >= 0 ? 'role' : 'source';
  return g.node(`${kind}/${name}`, column, layer, kind, name);
}

/**
 * audit's findings as a graph: each subject, each step's binding → role → aggregation chain that allows its trigger,
 * the edge labelled with the mechanism and the trigger to the identity the step acts as, and the capability that
 * identity holds. An identity that is the rights of a ClusterRole stands apart from the role node of that name.
 */
export function auditGraph(findings: readonly AuditPath[]): Graph {
  const g = new GraphBuilder();
  const identity = (r: Ref, layer: number): string =>
    r.kind === 'ClusterRole'
      ? g.node(`acts-as/${refId(r)}`, 'subject', layer, 'rights of ClusterRole', qualified(r))
      : g.node(refId(r), 'subject', layer, r.kind, qualified(r));
  for (const f of findings) {
    let layer = 0;
    let from = identity(f.subject, layer);
    for (const s of f.steps) {
      let at = from;
      s.via.forEach((v, i) => {
        const next = viaNode(g, v, i, ++layer);
        g.edge(at, next);
        at = next;
      });
      const t = s.trigger;
      const name = t.name !== undefined ? ` ${t.name}` : '';
      const where = t.namespace !== undefined ? ` -n ${t.namespace}` : '';
      from = identity(s.actsAs, ++layer);
      g.edge(at, from, { label: `${s.mechanism}: ${t.verb} ${t.resource}${name}${where}` });
    }
    const cap = g.node(`capability/${f.capability}`, 'rule', 0, 'capability', f.capability, f.severity);
    g.edge(from, cap, { label: 'holds' });
  }
  const n = findings.length;
  return {
    ...g.build(`audit: ${plural(n, 'finding')}`),
    columnTitles: { subject: 'subject or identity', rule: 'capability' },
  };
}
