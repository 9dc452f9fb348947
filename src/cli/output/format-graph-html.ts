/**
 * A Graph (graph-model.ts) as one self-contained HTML page: no network (a Content-Security-Policy of its own
 * forbids every load), the graph laid out here in layers left to right (subject, binding, role, the roles it
 * aggregates hop by hop, rule), drawn in the browser as SVG by graph-page.ts, which pans, zooms and searches.
 *
 * No name reaches the page as markup: the graph is embedded as JSON in a <script type="application/json"> with every
 * character outside printable ASCII, and `<`, `>` and `&`, written as \uXXXX (so `</script>` or a line separator in
 * a name cannot end the block or the script), and the page script puts text in with textContent only. The names are
 * shown as the terminal output shows them (src/escape.ts), so a bidi control cannot reorder a line in the browser
 * either. Only the page's <title> is text in the markup, and it is HTML-escaped.
 */
import { escapeTerminal } from '../../escape.js';
import { COLUMN_COLOURS, COLUMN_TITLES, nodeLines, type Graph, type GraphColumn } from './graph-model.js';
import { PAGE_SCRIPT, PAGE_STYLE } from './graph-page.js';

/** The node text's font: monospace 12px, whose advance is 0.6 em (DejaVu Sans Mono's 1233/2048), so widths are known here. */
const CHAR_WIDTH = 7.3;
const LINE_HEIGHT = 15;
const PAD_X = 10;
const PAD_Y = 7;
const GAP_X = 90;
const GAP_Y = 14;
const TOP = 44;

export interface PlacedNode {
  readonly id: string;
  readonly column: GraphColumn;
  /** The layer the node stands in; the page takes each layer's width from the text it measures. */
  readonly layer: number;
  readonly lines: readonly string[];
  /** The whole name (a rule in full), for the tooltip and the search. */
  readonly full: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export interface Layout {
  readonly title: string;
  readonly columns: readonly { readonly layer: number; readonly x: number; readonly title: string }[];
  readonly nodes: readonly PlacedNode[];
  readonly edges: Graph['edges'];
  readonly colours: typeof COLUMN_COLOURS;
  readonly width: number;
  readonly height: number;
}

function textWidth(lines: readonly string[]): number {
  return Math.max(...lines.map((l) => Array.from(l).length)) * CHAR_WIDTH + 2 * PAD_X;
}

/**
 * Layers left to right; in each, the nodes in the order of the mean height of the nodes pointing at them (so a
 * node sits beside what leads to it), placed top down, each as near that height as the one above lets it.
 */
export function layoutGraph(graph: Graph): Layout {
  const layers: (typeof graph.nodes)[number][][] = [];
  for (const n of graph.nodes) (layers[n.layer] ??= []).push(n);
  const into = new Map<string, string[]>();
  for (const e of graph.edges) {
    const list = into.get(e.to) ?? [];
    list.push(e.from);
    into.set(e.to, list);
  }
  const centre = new Map<string, number>();
  const placed: PlacedNode[] = [];
  const columns: { layer: number; x: number; title: string }[] = [];
  let x = 20;
  let height = TOP;
  for (const [index, layer] of layers.entries()) {
    if (layer === undefined || layer.length === 0) continue;
    const wanted = (id: string): number => {
      const ys = (into.get(id) ?? []).map((f) => centre.get(f)).filter((y) => y !== undefined);
      return ys.length > 0 ? ys.reduce((a, b) => a + b, 0) / ys.length : Number.POSITIVE_INFINITY;
    };
    const ordered = layer
      .map((n, i) => ({ n, i, want: wanted(n.id) }))
      .sort((a, b) => (a.want === b.want ? a.i - b.i : a.want < b.want ? -1 : 1));
    const lines = ordered.map(({ n }) => nodeLines(n).map(escapeTerminal));
    const w = Math.ceil(Math.max(...lines.map(textWidth)));
    let y = TOP;
    ordered.forEach(({ n, want }, i) => {
      const nodeLinesHere = lines[i] ?? [];
      const h = nodeLinesHere.length * LINE_HEIGHT + 2 * PAD_Y;
      const top = Number.isFinite(want) ? Math.max(y, Math.round(want - h / 2)) : y;
      placed.push({
        id: n.id,
        column: n.column,
        layer: index,
        lines: nodeLinesHere,
        full: escapeTerminal(n.name),
        x,
        y: top,
        w,
        h,
      });
      centre.set(n.id, top + h / 2);
      y = top + h + GAP_Y;
    });
    const column = layer[0]?.column ?? 'rule';
    columns.push({ layer: index, x, title: graph.columnTitles?.[column] ?? COLUMN_TITLES[column] });
    height = Math.max(height, y);
    x += w + GAP_X;
  }
  return {
    title: escapeTerminal(graph.title),
    columns,
    nodes: placed,
    edges: graph.edges.map((e) => (e.label !== undefined ? { ...e, label: escapeTerminal(e.label) } : e)),
    colours: COLUMN_COLOURS,
    width: x - GAP_X + 20,
    height: height + 20,
  };
}

/** JSON safe inside a <script> block: nothing but printable ASCII, and no `<`, `>` or `&`. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[^\x20-\x7e]|[<>&]/g,
    (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${String(c.codePointAt(0) ?? 0)};`);
}

/** The page: one file, opened from disk. */
export function formatGraphHtml(graph: Graph): string {
  const layout = layoutGraph(graph);
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(layout.title)}</title>`,
    `<style>${PAGE_STYLE}</style>`,
    '</head>',
    '<body>',
    '<header><h1 id="title"></h1>',
    '<input id="search" type="search" placeholder="Search names and rules (/)" aria-label="Search names and rules">',
    '<span id="count"></span>',
    '<button id="zoom-out" title="Zoom out (-)">−</button><button id="zoom-in" title="Zoom in (+)">+</button>',
    '<button id="fit" title="Fit to the window (0)">fit</button></header>',
    '<svg id="graph" xmlns="http://www.w3.org/2000/svg"><g id="viewport"></g></svg>',
    `<script type="application/json" id="graph-data">${scriptJson(layout)}</script>`,
    `<script>${PAGE_SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
