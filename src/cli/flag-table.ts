import yargs, { type Argv, type CommandModule } from 'yargs';
import { commands } from './command-list.js';
import { withGlobalFlags } from './global-flags.js';
import type { Deps } from './context.js';

/** The flags of a command (or the global ones), as they are typed. */
export interface Flags {
  /** Every spelling: --long, -s, --no-long for booleans that default to true, and --v for kubectl's -v. */
  readonly names: readonly string[];
  /** Spellings whose flag takes a value. */
  readonly takesValue: ReadonlySet<string>;
  /** Declared flags whose own name starts with --no- (--no-headers), not the negation of another flag. */
  readonly literalNo: ReadonlySet<string>;
}

/** The commands and their flags: what completion offers and what the argument check accepts. */
export interface FlagTable {
  /** The command names, in --help order. */
  readonly commands: readonly string[];
  readonly global: Flags;
  /** A command's own flags (without the global ones); none for a name that is not a command. */
  readonly flagsOf: (command: string) => Flags;
  /** The global flags a command does not take (their spellings): typed, they are unknown flags. */
  readonly refusedBy: (command: string) => readonly string[];
}

/**
 * Global flags a command does not take, as kubectl's own commands do not define them: `kubectl completion bash -o x`
 * is cobra's `unknown shorthand flag: 'o' in -o` (completion prints a script, in no format).
 */
const REFUSED: Readonly<Record<string, readonly string[]>> = { completion: ['--output', '-o'] };

/** The flag table of the commands DEPS runs: each command's builder run on a scratch parser. */
export function flagTable(deps: Deps): FlagTable {
  const all = commands(deps);
  const nameOf = (c: CommandModule<never, never>): string => String(c.command).split(' ')[0] ?? '';
  return {
    commands: all.map(nameOf),
    global: flagsOf((y) => withGlobalFlags(y)),
    refusedBy: (name) => REFUSED[name] ?? [],
    flagsOf: (name) => {
      const command = all.find((c) => nameOf(c) === name);
      const builder = command?.builder as ((y: Argv) => unknown) | undefined;
      if (typeof builder !== 'function') return { names: [], takesValue: new Set(), literalNo: new Set() };
      // yargs declares a positional (`who-can <verb>`) as an option too; it is no flag.
      const positionals = [...String(command?.command).matchAll(/[<[]([^\]>.]+)/g)].map((m) => m[1] ?? '');
      return flagsOf((y) => builder(y) as Argv, new Set(positionals));
    },
  };
}

/** The option table yargs builds from a command's options (the part of it this file reads). */
interface OptionTable {
  readonly key: Readonly<Record<string, unknown>>;
  readonly alias: Readonly<Record<string, readonly string[]>>;
  readonly boolean: readonly string[];
  readonly default: Readonly<Record<string, unknown>>;
}

// yargs has a public getOptions() (its own completion reads flags with it) and getGroups() (what .group() made, which
// help-layout.ts reads), which its type definitions omit.
declare module 'yargs' {
  // The type parameter and its default must repeat the original declaration's.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
  interface Argv<T = {}> {
    getOptions(): OptionTable;
    getGroups(): Readonly<Record<string, readonly string[]>>;
  }
}

/**
 * The flags BUILD declares. Hidden ones count as any other: the flags every command takes are hidden from each
 * command's --help (`options` lists them, global-flags.ts) and are still checked and completed.
 */
function flagsOf(build: (y: Argv) => Argv, positionals: ReadonlySet<string> = new Set()): Flags {
  const opts = build(yargs([]).version(false)).getOptions();
  const names: string[] = [];
  const takesValue = new Set<string>();
  const literalNo = new Set<string>();
  const aliases = new Set(Object.values(opts.alias).flat());
  for (const key of Object.keys(opts.key)) {
    if (key === '$0' || key === '_' || aliases.has(key) || positionals.has(key)) continue;
    const spellings = [key, ...(opts.alias[key] ?? [])].map((k) => (k.length === 1 ? `-${k}` : `--${k}`));
    // A one-letter flag of its own (kubectl's -v) is also --v, as pflag registers it.
    if (key.length === 1) spellings.push(`--${key}`);
    names.push(...spellings);
    if (key.startsWith('no-')) literalNo.add(`--${key}`);
    if (!opts.boolean.includes(key)) for (const s of spellings) takesValue.add(s);
    else if (opts.default[key] === true) names.push(`--no-${key}`);
  }
  // kubectl takes -h for --help on every command, as cobra registers it.
  for (const help of ['--help', '-h']) if (!names.includes(help)) names.push(help);
  return { names, takesValue, literalNo };
}
