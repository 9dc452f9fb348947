/**
 * The writing commands' printers (sync, enable-xrd, bind): a plan as kubectl prints a write (the objects written,
 * then a summary table per kind), as names, as a diff, and as the objects to write, streamed object by object. A
 * plan the pre-flight denied prints, as yaml or json, the ClusterRole with the rules that are missing (nothing
 * otherwise: its error line says what is missing).
 */
import { renderMissingRulesRole } from '../../../authz/summarize-rules.js';
import { asList } from '../format-data.js';
import {
  formatPlanDiff,
  formatPlanNames,
  NOTHING_TO_DO,
  objectsToWrite,
  planSummaryRows,
  planWrittenLines,
} from '../format-plan.js';
import { formatListChunks } from '../stream-list.js';
import { formatTable } from '../table.js';
import { data, type PlanView, type Printed, type Printers, type TableModel } from '../printer.js';

const NOTHING: Printed = { out: [], notes: [] };

function verbatim(s: string): Printed {
  return { out: [s], notes: [] };
}

/** The lines naming each object written (after a write), then the summary table. */
function table(view: PlanView, color: boolean, headers: boolean): Printed {
  const { outcome, failed } = view;
  if (outcome.status === 'denied') return NOTHING;
  const lead = view.written ? planWrittenLines(outcome.shown, failed, view.serverDryRun) : [];
  const { head, rows } = planSummaryRows(outcome.shown, failed, view.dryRun);
  const model: TableModel | undefined = rows.length > 0 ? { head, rows, lead } : undefined;
  const out = function* (): Generator<string> {
    for (const line of lead) yield `${line}\n`;
    yield rows.length === 0 ? `${NOTHING_TO_DO}\n` : `${formatTable(headers ? head : [], rows, color)}\n`;
  };
  return { out: { [Symbol.iterator]: out }, notes: [], ...(model !== undefined ? { table: model } : {}) };
}

/**
 * -o yaml|json: the objects the plan writes as a `kind: List`, after the pre-writes' objects, one piece per object (a
 * plan of any size is never one string); denied: the ClusterRole that grants what is missing.
 */
function objects(view: PlanView, format: 'yaml' | 'json'): Printed {
  const { outcome } = view;
  if (outcome.status === 'denied') return data(renderMissingRulesRole(outcome.missing?.rules ?? []), format);
  const items = [...outcome.leading, ...objectsToWrite(outcome.plan.entries)];
  return {
    out: { [Symbol.iterator]: () => formatListChunks(items, format) },
    notes: [],
    data: asList(items),
  };
}

export const planPrinters: Printers<'plan'> = {
  table: (v, ctx) => table(v, ctx.color, ctx.headers),
  yaml: (v) => objects(v, 'yaml'),
  json: (v) => objects(v, 'json'),
  // Names and diffs as they are: an empty plan prints nothing, not an empty line.
  name: (v) => (v.outcome.status === 'denied' ? NOTHING : verbatim(formatPlanNames(v.outcome.shown))),
  diff: (v, ctx) =>
    v.outcome.status === 'denied' ? NOTHING : verbatim(formatPlanDiff(v.outcome.shown, ctx.context)),
};
