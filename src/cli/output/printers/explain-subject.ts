/** explain --subject's printers: the bindings and rules in words, the data and the graphs. */
import { formatSubjectText } from '../format-explain-subject.js';
import { formatGraph } from '../format-graph.js';
import { subjectGraph } from '../graph-model.js';
import { data, text, type Printers } from '../printer.js';

export const explainSubjectPrinters: Printers<'explain-subject'> = {
  text: (e) => text(formatSubjectText(e, false)),
  wide: (e) => text(formatSubjectText(e, true)),
  yaml: (e) => data(e, 'yaml'),
  json: (e) => data(e, 'json'),
  dot: (e) => text(formatGraph(subjectGraph(e), 'dot')),
  mermaid: (e) => text(formatGraph(subjectGraph(e), 'mermaid')),
  html: (e) => text(formatGraph(subjectGraph(e), 'html')),
};
