/**
 * A Graph (graph-model.ts) as Graphviz DOT and as a Mermaid flowchart, left to right. Both are printed to stdout,
 * maybe on a terminal, so every name is first escaped for the terminal (src/escape.ts), then for the syntax:
 *
 * - DOT: every id and label is a quoted string, with `"` and `\` escaped. Graphviz's lexer turns `\"` into `"` and
 *   leaves other backslashes for the label's escString, where `\\` is one backslash (graphviz lib/cgraph/scan.l,
 *   lib/common/labels.c strdup_and_subst_obj0); a name can therefore neither close the string nor become `\N`,
 *   `\G` or `\l`. Ids keep the node's stable id (its backslashes doubled before the terminal escapes, so two names
 *   never share an id).
 * - Mermaid: ids are `n0`, `n1`, ... in the graph's order (Mermaid's own limit on a diagram's text, 50,000
 *   characters, would be reached sooner with ids spelled from long names); labels are quoted strings in which every
 *   character Mermaid or the HTML it renders to could read as syntax (`#`, `"`, `&`, `<`, `>`, backtick, and `%`,
 *   which could start a `%%{...}%%` directive anywhere in the text) is an entity code `#NN;`, which Mermaid turns
 *   into `&#NN;` (mermaid-js/mermaid packages/mermaid/src/utils.ts@df032c942c32f805a7f4cd1cf30a565e610bc4f1
 *   encodeEntities/decodeEntities), so a name is shown as text and never read as markup. Each statement ends with
 *   `;`: encodeEntities drops the last `;` of a line that holds `style` or `classDef`, `:` and `#`, and that is then
 *   this separator, never an entity's.
 */
import { escapeTerminal } from '../../escape.js';
import { COLUMN_COLOURS, nodeLines, type Graph } from './graph-model.js';
import { formatGraphHtml } from './format-graph-html.js';

function dotQuote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A label's lines, each escaped for the terminal, joined by DOT's `\n` (added after quoting, so never doubled). */
function dotLabel(lines: readonly string[]): string {
  return lines.map((l) => dotQuote(escapeTerminal(l)).slice(1, -1)).join('\\n');
}

function dotId(id: string): string {
  return dotQuote(escapeTerminal(id.replace(/\\/g, '\\\\')));
}

export function formatGraphDot(graph: Graph): string {
  const lines = [
    'digraph rbac {',
    '  rankdir=LR;',
    `  label="${dotLabel([graph.title])}";`,
    '  labelloc=t;',
    '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=11];',
    '  edge [color="#6b7280", fontname="Helvetica", fontsize=9];',
  ];
  for (const n of graph.nodes) {
    const { fill, stroke } = COLUMN_COLOURS[n.column];
    const attrs = [`label="${dotLabel(nodeLines(n))}"`, `fillcolor="${fill}"`, `color="${stroke}"`];
    if (n.column === 'rule')
      attrs.push('shape=note', 'style=filled', `tooltip=${dotQuote(escapeTerminal(n.name))}`);
    lines.push(`  ${dotId(n.id)} [${attrs.join(', ')}];`);
  }
  for (const e of graph.edges) {
    const attrs = [
      ...(e.label !== undefined ? [`label="${dotLabel([e.label])}"`] : []),
      ...(e.dashed === true ? ['style=dashed'] : []),
    ];
    lines.push(`  ${dotId(e.from)} -> ${dotId(e.to)}${attrs.length > 0 ? ` [${attrs.join(', ')}]` : ''};`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

const MERMAID_ENTITIES: Readonly<Record<string, string>> = {
  '#': '#35;',
  '"': '#34;',
  '&': '#38;',
  '<': '#60;',
  '>': '#62;',
  '`': '#96;',
  '%': '#37;',
};

function mermaidText(s: string): string {
  return escapeTerminal(s).replace(/[#"&<>`%]/g, (c) => MERMAID_ENTITIES[c] ?? c);
}

export function formatGraphMermaid(graph: Graph): string {
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `n${String(i)}`]));
  const lines = ['flowchart LR', `  %% ${mermaidText(graph.title)}`];
  for (const n of graph.nodes) {
    const label = nodeLines(n).map(mermaidText).join('<br/>');
    lines.push(`  ${ids.get(n.id) ?? ''}["${label}"]:::${n.column};`);
  }
  for (const e of graph.edges) {
    const arrow = e.dashed === true ? '-.->' : '-->';
    const label = e.label !== undefined ? `|"${mermaidText(e.label)}"|` : '';
    lines.push(`  ${ids.get(e.from) ?? ''} ${arrow}${label} ${ids.get(e.to) ?? ''};`);
  }
  for (const [column, { fill, stroke }] of Object.entries(COLUMN_COLOURS)) {
    lines.push(`  classDef ${column} fill:${fill},stroke:${stroke};`);
  }
  return `${lines.join('\n')}\n`;
}

/** The graph outputs: -o dot, mermaid or html. */
export type GraphFormat = 'dot' | 'mermaid' | 'html';

export function formatGraph(graph: Graph, format: GraphFormat): string {
  if (format === 'dot') return formatGraphDot(graph);
  if (format === 'mermaid') return formatGraphMermaid(graph);
  return formatGraphHtml(graph);
}
