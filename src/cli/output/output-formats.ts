/**
 * The -o formats of each kind of result a command returns, the default first: the data of the printer registry
 * (registry.ts), which --help, the flag check and completion read. No printer is loaded from here.
 */
import { VERSION_OUTPUTS } from '../version-text.js';

/** What the help says of the graph formats of who-can and explain --subject. */
export const GRAPH_OUTPUTS_HELP =
  'dot, mermaid: the paths as a graph; html: one self-contained page that pans, zooms and searches; one cluster, not with --contexts';

/** Each kind of result and its formats, the default first; MORE is what -o's help adds after the list. */
export const RESULT_FORMATS = {
  plan: { formats: ['table', 'yaml', 'json', 'name', 'diff'] },
  'who-can': {
    formats: ['table', 'wide', 'json', 'yaml', 'dot', 'mermaid', 'html'],
    more: ` (${GRAPH_OUTPUTS_HELP})`,
  },
  lookup: { formats: ['table', 'wide', 'json', 'yaml'] },
  composed: { formats: ['table', 'wide', 'json', 'yaml'] },
  audit: {
    formats: ['table', 'wide', 'json', 'yaml', 'sarif', 'dot', 'mermaid', 'html'],
    more: ' (sarif: SARIF 2.1.0 for code scanning; dot, mermaid, html: the paths as a graph)',
  },
  'explain-role': { formats: ['tree', 'table', 'wide', 'yaml', 'json', 'dot', 'mermaid'] },
  'explain-subject': { formats: ['text', 'wide', 'yaml', 'json', 'dot', 'mermaid', 'html'] },
  'explain-matrix': { formats: ['table', 'json', 'yaml'] },
  version: { formats: VERSION_OUTPUTS },
} as const satisfies Readonly<
  Record<string, { readonly formats: readonly string[]; readonly more?: string }>
>;

export type ResultKind = keyof typeof RESULT_FORMATS;
export type FormatOf<K extends ResultKind> = (typeof RESULT_FORMATS)[K]['formats'][number];

/** The formats that draw one cluster's graph: never merged across contexts. */
export const GRAPH_FORMATS: readonly string[] = ['dot', 'mermaid', 'html'];

/** The formats of KIND, the default first. */
export function formatsOf<K extends ResultKind>(kind: K): readonly FormatOf<K>[] {
  return RESULT_FORMATS[kind].formats;
}
