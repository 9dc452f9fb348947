/**
 * The printer registry, as kubectl's PrintFlags.ToPrinter: for each kind of result a command returns, the `-o`
 * formats it prints (the default first) and, loaded only when a run reaches it, the printer of each format. Every
 * command's `-o` choices, the help of its `-o` and shell completion come from here; a command parses -o with
 * parseFormat and prints its result with toPrinter. Importing this file loads no printer (help and completion stay
 * cheap): the printers of a kind are one module of printers/, imported when toPrinter asks for it.
 */
import { UsageError } from '../../errors.js';
import { formatsOf, RESULT_FORMATS, type FormatOf, type ResultKind } from './output-formats.js';
import { useYamlFormat, type Printer, type Printers, type PrintedKind, type ResultOf } from './printer.js';

/** The help of -o for KIND: its formats, the default first, and what MORE the command adds. */
export function outputHelpOf(kind: ResultKind, more?: string): string {
  const entry: { readonly formats: readonly string[]; readonly more?: string } = RESULT_FORMATS[kind];
  return `Output format: ${entry.formats.join('|')}${more ?? entry.more ?? ''}`;
}

/**
 * -o checked against KIND's formats (as kubectl's PrintFlags checks -o): the default (the first) when absent; anything
 * else one `unknown output format "F" for COMMAND` error with the formats as its hint. COMMAND is the command (or
 * explain's mode) as typed.
 */
export function parseFormat<K extends ResultKind>(
  kind: K,
  value: string | undefined,
  command: string,
): FormatOf<K> {
  return checkFormat(formatsOf(kind), value, command);
}

/**
 * VALUE (-o) checked against FORMATS, the first when absent: the one check of -o, so every command (and
 * --print-required-role, sync --watch) words the error alike, `unknown output format "F" for COMMAND`, with the
 * formats (or HINT) as its hint.
 */
export function checkFormat<F extends string>(
  formats: readonly F[],
  value: string | undefined,
  command: string,
  hint = formats.join(', '),
): F {
  const out = value ?? formats[0];
  if (out === undefined) throw new Error(`no formats for ${command}`);
  if (!(formats as readonly string[]).includes(out)) {
    throw new UsageError(`unknown output format "${out}" for ${command}`, { hint: `use one of: ${hint}` });
  }
  return out as F;
}

const LOADERS: { readonly [K in PrintedKind]: (format: FormatOf<K>) => Promise<Printers<K>> } = {
  plan: async () => (await import('./printers/plan.js')).planPrinters,
  // who-can's table (cli-table3) is loaded only for its table formats: -o json starts without it.
  'who-can': async (format) => {
    const { whoCanPrinters } = await import('./printers/who-can.js');
    return whoCanPrinters(format === 'table' || format === 'wide' ? await import('./table.js') : undefined);
  },
  lookup: async () => (await import('./printers/lookup.js')).lookupPrinters,
  composed: async () => (await import('./printers/composed.js')).composedPrinters,
  audit: async () => (await import('./printers/audit.js')).auditPrinters,
  'explain-role': async () => (await import('./printers/explain-role.js')).explainRolePrinters,
  'explain-subject': async () => (await import('./printers/explain-subject.js')).explainSubjectPrinters,
  'explain-matrix': async () => (await import('./printers/explain-matrix.js')).explainMatrixPrinters,
};

/** The printer of KIND in FORMAT, its module loaded on first use. */
export async function toPrinter<K extends PrintedKind>(
  kind: K,
  format: FormatOf<K>,
): Promise<Printer<ResultOf[K]>> {
  const printers: Printers<K> = await LOADERS[kind](format);
  if (format === 'yaml') useYamlFormat((await import('./format-data.js')).formatYaml);
  return printers[format];
}

/** The kinds of result each command prints (explain: one per mode). */
export const COMMAND_RESULTS: Readonly<Record<string, readonly ResultKind[]>> = {
  sync: ['plan'],
  'enable-xrd': ['plan'],
  explain: ['explain-role', 'explain-subject', 'explain-matrix'],
  'who-can': ['who-can'],
  lookup: ['lookup'],
  composed: ['composed'],
  audit: ['audit'],
  bind: ['plan'],
  version: ['version'],
};

/**
 * explain's mode on a command line being typed (WORDS, before the word completed): --matrix, else --subject, else a
 * role, as the command decides it.
 */
function explainMode(words: readonly string[]): ResultKind {
  if (words.some((w) => w === '--matrix' || w === '--matrix=true')) return 'explain-matrix';
  if (words.some((w) => w === '--subject' || w.startsWith('--subject='))) return 'explain-subject';
  return 'explain-role';
}

/**
 * The -o formats COMMAND takes on the command line WORDS, each once (for completion): explain's mode's only, every
 * other command's kinds'.
 */
export function commandFormats(command: string, words: readonly string[] = []): readonly string[] {
  const kinds = command === 'explain' ? [explainMode(words)] : (COMMAND_RESULTS[command] ?? []);
  return [...new Set(kinds.flatMap((k) => formatsOf(k)))];
}

export { formatsOf, GRAPH_FORMATS, GRAPH_OUTPUTS_HELP, type FormatOf } from './output-formats.js';
