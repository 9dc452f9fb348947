import yargs, { type Argv } from 'yargs';
import { commands } from './command-list.js';
import { withGlobalFlags } from './global-flags.js';
import type { Deps } from './context.js';

/** Cobra's shell directives, which kubectl's plugin completion understands: 0 = files too, 4 = no files. */
const DIRECTIVE_DEFAULT = 0;
const DIRECTIVE_NO_FILES = 4;

interface Flags {
  /** Every spelling: --long and -s. */
  readonly names: readonly string[];
  /** Spellings whose flag takes a value. */
  readonly takesValue: ReadonlySet<string>;
}

/**
 * Completes the last word of WORDS (the words after the plugin's name): a command name first, then the flags of
 * that command and the global ones (--long, and -s for short aliases), never a flag's value as a command.
 */
export function completeWords(words: readonly string[], deps: Deps): { words: string[]; directive: number } {
  const current = words[words.length - 1] ?? '';
  const before = words.slice(0, -1);
  const all = commands(deps);
  const names = all.map((c) => String(c.command).split(' ')[0] ?? '');
  const global = flagsOf((y) => withGlobalFlags(y));
  let commandName: string | undefined;
  for (let i = 0; i < before.length; i++) {
    const w = before[i] ?? '';
    if (w.startsWith('-')) {
      if (!w.includes('=') && global.takesValue.has(w)) i++;
      continue;
    }
    if (names.includes(w)) {
      commandName = w;
      break;
    }
  }
  const command = all.find((c) => String(c.command).split(' ')[0] === commandName);
  const own =
    command === undefined
      ? { names: [], takesValue: new Set<string>() }
      : flagsOf((y) => {
          const builder = command.builder as ((y: Argv) => unknown) | undefined;
          return typeof builder === 'function' ? (builder(y) as Argv) : y;
        });
  const previous = before[before.length - 1];
  if (previous !== undefined && (own.takesValue.has(previous) || global.takesValue.has(previous))) {
    return { words: [], directive: DIRECTIVE_DEFAULT };
  }
  if (current.startsWith('-')) {
    const candidates = [...new Set([...own.names, ...global.names])].sort();
    return { words: candidates.filter((n) => n.startsWith(current)), directive: DIRECTIVE_NO_FILES };
  }
  if (command === undefined) {
    return { words: names.filter((n) => n.startsWith(current)), directive: DIRECTIVE_NO_FILES };
  }
  return { words: [], directive: DIRECTIVE_DEFAULT };
}

/** The option table yargs builds from a command's options (the part of it this file reads). */
interface OptionTable {
  readonly key: Readonly<Record<string, unknown>>;
  readonly alias: Readonly<Record<string, readonly string[]>>;
  readonly boolean: readonly string[];
  readonly default: Readonly<Record<string, unknown>>;
  readonly hiddenOptions: readonly string[];
}

// yargs has a public getOptions() (its own completion reads flags with it), which its type definitions omit.
declare module 'yargs' {
  // The type parameter and its default must repeat the original declaration's.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
  interface Argv<T = {}> {
    getOptions(): OptionTable;
  }
}

function flagsOf(build: (y: Argv) => Argv): Flags {
  const opts = build(yargs([]).version(false)).getOptions();
  const names: string[] = [];
  const takesValue = new Set<string>();
  const hidden = new Set(opts.hiddenOptions);
  for (const key of Object.keys(opts.key)) {
    if (key === '$0' || key === '_' || hidden.has(key)) continue;
    const spellings = [key, ...(opts.alias[key] ?? [])].map((k) => (k.length === 1 ? `-${k}` : `--${k}`));
    names.push(...spellings);
    if (!opts.boolean.includes(key)) for (const s of spellings) takesValue.add(s);
    else if (opts.default[key] === true) names.push(`--no-${key}`);
  }
  if (!names.includes('--help')) names.push('--help', '-h');
  return { names, takesValue };
}
