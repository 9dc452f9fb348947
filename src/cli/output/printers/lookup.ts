/** lookup's printers: the subjects as a table (wide: each binding's role sources and chains), and as data. */
import type { LookupResult } from '../../../lookup/lookup.js';
import { lookupTableRows, noSubjectsMessage } from '../format-lookup.js';
import { tableChunks } from '../table.js';
import { data, type Printed, type Printers } from '../printer.js';

/** The table piece by piece (a table of any length is never held as one string), ending in a line break. */
function* pieces(chunks: Iterable<string>): Generator<string> {
  let last: string | undefined;
  for (const piece of chunks) {
    yield last === undefined ? piece : `\n${piece}`;
    last = piece;
  }
  if (last === undefined || !last.endsWith('\n')) yield '\n';
}

function table(result: LookupResult, wide: boolean, color: boolean, headers: boolean): Printed {
  // As kubectl's "No resources found": on stderr.
  if (result.subjects.length === 0) return { out: [], notes: [noSubjectsMessage(result)] };
  const model = lookupTableRows(result, wide);
  const out = (): Generator<string> => pieces(tableChunks(headers ? model.head : [], model.rows, color));
  return { out: { [Symbol.iterator]: out }, notes: [], table: model };
}

export const lookupPrinters: Printers<'lookup'> = {
  table: (r, ctx) => table(r, false, ctx.color, ctx.headers),
  wide: (r, ctx) => table(r, true, ctx.color, ctx.headers),
  json: (r) => data(r, 'json'),
  yaml: (r) => data(r, 'yaml'),
};
