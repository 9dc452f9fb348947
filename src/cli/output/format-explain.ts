/**
 * Pure text renderings of an Explanation: tree (default), table/wide, Graphviz dot and Mermaid. Names, selectors and
 * rules come from the cluster: each is escaped for the terminal (`escapeTerminal`) before colour is added.
 */
import type { AggregationTreeNode, Explanation, RuleProvenance } from '../../explain/explain-role.js';
import type { PolicyRule } from '../../kube/types.js';
import { escapeTerminal } from '../../escape.js';
import {
  fitRows,
  foldList,
  foldMiddle,
  sharedLine,
  sharedSuffix,
  uniqueItems,
  width as textWidth,
} from './fold.js';
import { formatTable } from './table.js';
import { plural } from './plural.js';
import type { Palette } from './terminal.js';

const plain: Palette = { bold: id, dim: id, red: id, green: id, yellow: id, cyan: id };
function id(s: string): string {
  return s;
}

/**
 * A rule in one line: `apps: deployments,deployments/scale [get list]`, names and URLs when present, each resource
 * once. With WIDTH (a terminal's), the resource list is folded so the line fits (`… and 412 more`), the resources
 * FIRST picks shown first.
 */
export function formatRuleShort(
  rule: PolicyRule,
  width?: number,
  first?: (resource: string) => boolean,
): string {
  const verbs = `[${rule.verbs.join(' ')}]`;
  const urls = rule.nonResourceURLs ?? [];
  const resources = uniqueItems(rule.resources ?? []);
  const groups = (rule.apiGroups ?? []).map((g) => (g === '' ? 'core' : g)).join(',');
  const rest: string[] = [];
  if ((rule.resourceNames ?? []).length > 0) rest.push(`names=${(rule.resourceNames ?? []).join(',')}`);
  if (urls.length > 0) rest.push(`urls=${urls.join(',')}`);
  rest.push(verbs);
  const hasResources = resources.length > 0 || (rule.apiGroups ?? []).length > 0;
  if (!hasResources) return escapeTerminal(rest.join(' '));
  const fixed = textWidth(`${groups}: `) + textWidth(` ${rest.join(' ')}`);
  const list =
    width === undefined ? resources.join(',') : foldList(resources, Math.max(0, width - fixed), first);
  return escapeTerminal([`${groups}: ${list}`, ...rest].join(' '));
}

/** `source →[0] mid →[1] explained`: each arrow carries the selector index that matched. */
export function formatChain(p: RuleProvenance, target: string): string {
  if (p.chain.length === 0) return p.source === null ? '(unknown)' : escapeTerminal(`${target} (own rule)`);
  const parts = [p.source === null ? `↻ ${p.chain[0]?.role ?? ''}` : (p.chain[0]?.role ?? '')];
  p.chain.forEach((hop, i) => {
    const next = p.chain[i + 1]?.role ?? target;
    parts.push(`→[${hop.selector}] ${next}`);
  });
  return escapeTerminal(parts.join(' '));
}

function nodeLabel(node: AggregationTreeNode, pal: Palette): string {
  const sel = node.selector === null ? '' : pal.dim(`[${node.selector}] `);
  const kind = node.aggregated ? 'aggregated, ' : '';
  const role = escapeTerminal(node.role);
  let text = `${sel}${node.selector === null ? pal.bold(role) : role} ${pal.dim(`(${kind}${plural(node.ruleCount, 'rule')})`)}`;
  if (node.cycle) text += ` ${pal.yellow('↻ cycle')}`;
  if (node.repeated) text += ` ${pal.dim('(expanded above)')}`;
  if (node.truncated) text += ` ${pal.dim('(deeper levels not shown)')}`;
  if (!node.cycle && !node.repeated && node.unmatchedSelectors.length > 0) {
    text += ` ${pal.yellow(`selector ${node.unmatchedSelectors.map((i) => `[${i}]`).join(', ')} matches nothing`)}`;
  }
  return text;
}

function treeLines(
  node: AggregationTreeNode,
  prefix: string,
  last: boolean,
  root: boolean,
  pal: Palette,
  out: string[],
): void {
  out.push(root ? nodeLabel(node, pal) : `${prefix}${last ? '└─ ' : '├─ '}${nodeLabel(node, pal)}`);
  const childPrefix = root ? '' : `${prefix}${last ? '   ' : '│  '}`;
  node.children.forEach((child, i) => {
    treeLines(child, childPrefix, i === node.children.length - 1, false, pal, out);
  });
}

const DRIFT_LINES = 10;

/**
 * The default `-o tree`: with --for/--verb the answer and the rules that grant it first; then the aggregation tree
 * with rule counts, selectors, cycles, drift, feeds and bindings. WIDTH: the terminal's, to fold long resource lists.
 */
export function formatExplainTree(expl: Explanation, pal: Palette = plain, width?: number): string {
  const out: string[] = [];
  if (expl.access !== null) out.push(...accessLines(expl, pal, width), '');
  treeLines(expl.tree, '', true, true, pal, out);
  if (expl.role.aggregated) {
    out.push('', 'selectors:');
    for (const s of expl.selectors) {
      const what = s.selector === '' ? '{} (every ClusterRole)' : escapeTerminal(s.selector);
      const matched =
        s.matched.length === 0 ? pal.yellow('matches nothing') : plural(s.matched.length, 'role');
      out.push(`  [${s.index}] ${what} → ${matched}`);
    }
  } else {
    out.push('', pal.dim('not aggregated: these are its own rules'));
  }
  if (expl.cycles.length > 0) {
    out.push('', pal.yellow('cycles (legal; rules that enter a cycle can stay after their source is gone):'));
    for (const c of expl.cycles) out.push(escapeTerminal(`  ${c.join(' ⇄ ')}`));
    if (!expl.converged)
      out.push(`  ${pal.red('a cycle does not settle: the stored rules depend on sync order')}`);
  }
  const d = expl.drift;
  if (d !== null) {
    const what = d.reordered
      ? 'same rules in another order'
      : `${plural(d.missing.length, 'rule')} missing, ${plural(d.extra.length, 'extra rule')}`;
    out.push(
      '',
      pal.red(`drift: stored ${plural(d.stored, 'rule')}, computed ${d.computed}: ${what}`),
      pal.dim('  (the aggregation controller is absent or has not caught up)'),
    );
    const diff = [
      ...d.missing.map((r) => `  ${pal.green('+')} ${formatRuleShort(r)}`),
      ...d.extra.map((r) => `  ${pal.red('-')} ${formatRuleShort(r)}`),
    ];
    out.push(...diff.slice(0, DRIFT_LINES));
    if (diff.length > DRIFT_LINES)
      out.push(pal.dim(`  … and ${diff.length - DRIFT_LINES} more (-o yaml lists them all)`));
  } else if (expl.role.aggregated) {
    out.push('', pal.green('no drift: the stored rules are what the controller computes'));
  }
  if (expl.feedsInto.length > 0) {
    out.push('', 'feeds into:');
    for (const f of expl.feedsInto) {
      const via =
        f.path.length > 2 ? pal.dim(escapeTerminal(` (via ${f.path.slice(1, -1).join(' → ')})`)) : '';
      out.push(`  ${escapeTerminal(f.role)}${via}`);
    }
  }
  if (expl.boundBy.length > 0) {
    out.push('', 'bound by:');
    for (const b of expl.boundBy) {
      const where = b.namespace !== undefined ? `${b.namespace}/` : '';
      const subjects = b.subjects.map(
        (s) => `${s.kind}:${s.namespace !== undefined ? `${s.namespace}/` : ''}${s.name}`,
      );
      out.push(
        escapeTerminal(
          `  ${b.kind} ${where}${b.name}${subjects.length > 0 ? ` → ${subjects.join(', ')}` : ''}`,
        ),
      );
    }
  }
  return `${out.join('\n')}\n`;
}

/** The request asked about (flags' values), escaped for the terminal. */
function describeRequest(expl: Explanation): string {
  const r = expl.access?.request;
  if (r === undefined) return '';
  if (r.path !== undefined) return escapeTerminal(`${r.verb} ${r.path}`);
  const group = r.apiGroup === undefined || r.apiGroup === '' ? 'core' : r.apiGroup;
  const res = r.subresource !== undefined ? `${r.resource ?? ''}/${r.subresource}` : (r.resource ?? '');
  return escapeTerminal(`${r.verb} ${group}/${res}${r.name !== undefined ? ` ${r.name}` : ''}`);
}

/** The answer, then each granting rule with where it came from on the line below. */
function accessLines(expl: Explanation, pal: Palette, width: number | undefined): string[] {
  const a = expl.access;
  if (a === null) return [];
  const head = a.allowed
    ? pal.green(`${describeRequest(expl)}: allowed by ${plural(a.matchingRules.length, 'rule')}`)
    : pal.red(`${describeRequest(expl)}: not allowed by ${escapeTerminal(expl.role.name)}`);
  const asked = askedResources(expl);
  return [
    head,
    ...a.provenance.flatMap((p) => [
      `  ${formatRuleShort(p.rule, width === undefined ? undefined : width - 2, asked)}`,
      ...chainLines(p, expl.role.name, width).map((l) => pal.dim(l)),
      ...(p.sharedWith !== undefined ? [pal.dim(`    ${sharedLine(p)}`)] : []),
    ]),
  ];
}

/**
 * `    from SOURCE →[0] MID →[0] ROLE` on one line; on a terminal too narrow for it, broken before its arrows (names
 * are never cut).
 */
function chainLines(p: RuleProvenance, target: string, width: number | undefined): string[] {
  const line = `    from ${formatChain(p, target)}`;
  if (width === undefined || textWidth(line) <= width) return [line];
  const [first = '', ...hops] = formatChain(p, target).split(' →');
  const out = [`    from ${first}`];
  for (const hop of hops) {
    const last = out.length - 1;
    const joined = `${out[last] ?? ''} →${hop}`;
    if (textWidth(joined) <= width) out[last] = joined;
    else out.push(`      →${hop}`);
  }
  return out;
}

/** The resource (and resource/subresource) asked about, to keep it in sight when a list is folded. */
function askedResources(expl: Explanation): (resource: string) => boolean {
  const r = expl.access?.request;
  if (r?.resource === undefined) return () => false;
  const names = new Set([
    r.resource,
    r.subresource !== undefined ? `${r.resource}/${r.subresource}` : r.resource,
  ]);
  return (resource) => names.has(resource);
}

/**
 * `table`/`wide`: one row per effective rule (only the granting ones with --for) and where it came from (with the
 * count of further roles that carry the same rule), each resource once. HEADERS: false for --no-headers. `table`
 * puts the resources last, so that a long list pads no column after it when piped; WIDTH (a terminal's, `table`
 * only): the source's name, then verbs, then resources are folded until the table fits; `wide` is always complete.
 */
export function formatExplainTable(expl: Explanation, wide: boolean, headers = true, width?: number): string {
  const head = wide
    ? ['#', 'API GROUPS', 'RESOURCES', 'RESOURCE NAMES', 'NON-RESOURCE URLS', 'VERBS', 'SOURCE', 'CHAIN']
    : ['#', 'API GROUPS', 'VERBS', 'SOURCE', 'RESOURCES'];
  const rows = expl.access !== null ? expl.access.provenance : expl.provenance;
  const cells = rows.map((p) => {
    const groups = (p.rule.apiGroups ?? []).map((g) => (g === '' ? '""' : g)).join(',');
    const resources = uniqueItems(p.rule.resources ?? []).join(',');
    const verbs = p.rule.verbs.join(',');
    const source = `${p.source ?? '(cycle)'}${sharedSuffix(p)}`;
    const row = wide
      ? [
          String(p.index),
          groups,
          resources,
          (p.rule.resourceNames ?? []).join(','),
          (p.rule.nonResourceURLs ?? []).join(','),
          verbs,
          source,
          formatChain(p, expl.role.name),
        ]
      : [String(p.index), groups, verbs, source, resources];
    return row;
  });
  const asked = askedResources(expl);
  const fitted =
    wide || width === undefined
      ? cells
      : fitRows(headers ? head : [], cells, width, TABLE_GAP, [
          { column: 3, min: 24, shrink: foldMiddle },
          { column: 2, min: 12, shrink: (cell, w) => foldList(cell.split(','), w, () => false, 'verbs') },
          { column: 4, min: 16, shrink: (cell, w) => foldList(cell.split(','), w, asked, 'resources') },
        ]);
  const lines = formatTable(headers ? head : [], fitted, false, TABLE_GAP)
    .split('\n')
    .filter((l) => l !== '');
  if (rows.length === 0) {
    const name = escapeTerminal(expl.role.name);
    lines.push(
      expl.access !== null ? `no rule of ${name} grants ${describeRequest(expl)}` : `${name} has no rules`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const TABLE_GAP = 3;

interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly selector: number;
  readonly cycle: boolean;
}

function graphOf(expl: Explanation): { nodes: Map<string, AggregationTreeNode>; edges: GraphEdge[] } {
  const nodes = new Map<string, AggregationTreeNode>();
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  const walk = (node: AggregationTreeNode): void => {
    if (!nodes.has(node.role) || (!node.cycle && !node.repeated)) nodes.set(node.role, node);
    for (const child of node.children) {
      const key = `${child.role}\u0000${node.role}\u0000${child.selector ?? -1}`;
      if (!seen.has(key)) {
        seen.add(key);
        edges.push({ from: child.role, to: node.role, selector: child.selector ?? 0, cycle: child.cycle });
      }
      walk(child);
    }
  };
  walk(expl.tree);
  return { nodes, edges };
}

const dotQuote = (s: string): string =>
  `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
/** A role's name in a graph: escaped for the terminal the graph may be printed on (graphviz then shows `\x1b`). */
const graphName = escapeTerminal;

/** A Graphviz digraph: edges point from a selected role to the role that aggregates it. */
export function formatExplainDot(expl: Explanation): string {
  const { nodes, edges } = graphOf(expl);
  const lines = ['digraph aggregation {', '  rankdir=BT;', '  node [shape=box];'];
  for (const [name, node] of nodes) {
    const attrs = [`label=${dotQuote(`${graphName(name)}\n${plural(node.ruleCount, 'rule')}`)}`];
    if (node.aggregated) attrs.push('style=rounded');
    if (name === expl.role.name) attrs.push('penwidth=2');
    lines.push(`  ${dotQuote(graphName(name))} [${attrs.join(', ')}];`);
  }
  for (const e of edges) {
    const attrs = [`label=${dotQuote(`[${e.selector}]`)}`];
    if (e.cycle) attrs.push('style=dashed', 'color=orange');
    lines.push(`  ${dotQuote(graphName(e.from))} -> ${dotQuote(graphName(e.to))} [${attrs.join(', ')}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

const mermaidText = (s: string): string => s.replace(/"/g, '#quot;');

/** A Mermaid flowchart of the same graph. */
export function formatExplainMermaid(expl: Explanation): string {
  const { nodes, edges } = graphOf(expl);
  const ids = new Map<string, string>();
  [...nodes.keys()].forEach((name, i) => ids.set(name, `n${i}`));
  const lines = ['flowchart BT'];
  for (const [name, node] of nodes) {
    const label = mermaidText(`${graphName(name)}<br/>${plural(node.ruleCount, 'rule')}`);
    const nodeId = ids.get(name) ?? '';
    lines.push(node.aggregated ? `  ${nodeId}("${label}")` : `  ${nodeId}["${label}"]`);
  }
  for (const e of edges) {
    const arrow = e.cycle ? '-.->' : '-->';
    lines.push(`  ${ids.get(e.from) ?? ''} ${arrow}|"[${e.selector}]"| ${ids.get(e.to) ?? ''}`);
  }
  return `${lines.join('\n')}\n`;
}
