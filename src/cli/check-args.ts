import { UsageError } from '../errors.js';
import { closeMatches } from '../kube/did-you-mean.js';
import type { Flags, FlagTable } from './flag-table.js';

/** The arguments as the parser is to read them: the command first, every flag known, short flag groups split. */
export interface CheckedArgs {
  readonly argv: readonly string[];
  /** The command named, if any. */
  readonly command: string | undefined;
}

/** A negative number is a value, not a flag (yargs-parser's rule too). */
const NEGATIVE = /^-(\d+(\.\d+)?|\.\d+)$/;

const isFlag = (w: string): boolean => w.startsWith('-') && w !== '-' && !NEGATIVE.test(w);

/**
 * Checks ARGV as kubectl (cobra and pflag) would before anything runs: the first word that is neither a flag nor
 * the value of a global flag names the command (cobra's Command.Find), else `unknown command "X" for "PROGRAM"`;
 * then every flag must be one of the command's or a global one, else `unknown flag: --X` or `unknown shorthand flag:
 * 'X' in -XYZ` (pflag's words), each with the closest flags as a hint. Nothing after `--` is looked at.
 *
 * The arguments come back as yargs is to parse them: the command first (so a flag before it is read with the
 * command's flags), a group of short flags split as pflag reads it (`-ojson` is `-o=json`, `-yf x` is `-y -f x`),
 * and a flag whose own name starts with --no- given its value (yargs would read it as the negation of another).
 */
export function checkArgs(argv: readonly string[], table: FlagTable, program: string): CheckedArgs {
  const end = argv.indexOf('--');
  const head = end < 0 ? argv : argv.slice(0, end);
  const tail = end < 0 ? [] : argv.slice(end);
  const at = commandIndex(head, table.global);
  const command = at < 0 ? undefined : head[at];
  if (command !== undefined && !table.commands.includes(command)) {
    throw new UsageError(`unknown command ${JSON.stringify(command)} for ${JSON.stringify(program)}`, {
      hint: didYouMean(closeMatches(command, table.commands)) ?? `see: ${program} --help`,
    });
  }
  const flags = merge(
    table.global,
    command === undefined ? undefined : table.flagsOf(command),
    command === undefined ? [] : table.refusedBy(command),
  );
  const usage = `see: ${program}${command !== undefined ? ` ${command}` : ''} --help`;
  const out: string[] = command !== undefined ? [command] : [];
  head.forEach((word, i) => {
    if (i === at) return;
    if (!isFlag(word)) out.push(word);
    else if (word.startsWith('--')) out.push(checkLong(word, flags, usage));
    else out.push(...splitShort(word, flags, usage));
  });
  return { argv: [...out, ...tail], command };
}

/** Where the command is: the first word that is no flag and no value of a global flag; -1 when there is none. */
function commandIndex(words: readonly string[], global: Flags): number {
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    if (!isFlag(w)) return i;
    const next = words[i + 1];
    if (!w.includes('=') && global.takesValue.has(w) && next !== undefined && !isFlag(next)) i++;
  }
  return -1;
}

interface KnownFlags {
  readonly names: ReadonlySet<string>;
  readonly takesValue: ReadonlySet<string>;
  readonly literalNo: ReadonlySet<string>;
  /** The long names, without their dashes: the candidates of "did you mean". */
  readonly long: readonly string[];
}

/** The command's flags and the global ones, but for the global ones it refuses. */
function merge(global: Flags, own: Flags | undefined, refused: readonly string[]): KnownFlags {
  const names = [...global.names.filter((n) => !refused.includes(n)), ...(own?.names ?? [])];
  return {
    names: new Set(names),
    takesValue: new Set([...global.takesValue, ...(own?.takesValue ?? [])]),
    literalNo: new Set([...global.literalNo, ...(own?.literalNo ?? [])]),
    long: [...new Set(names.filter((n) => n.startsWith('--')).map((n) => n.slice(2)))],
  };
}

/**
 * The values a boolean flag takes after `=`, as pflag reads them with Go's strconv.ParseBool
 * (go/src/strconv/atob.go): anything else is refused, as `kubectl get ns --warnings-as-errors=maybe` is.
 */
const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/**
 * `--name` or `--name=value`, known; a --no- flag of its own is given its value; a boolean flag's value must be one
 * ParseBool reads, and goes on as `true` or `false` (yargs reads only those two).
 */
function checkLong(word: string, flags: KnownFlags, usage: string): string {
  const eq = word.indexOf('=');
  const name = eq < 0 ? word : word.slice(0, eq);
  if (!flags.names.has(name)) {
    throw new UsageError(`unknown flag: ${name}`, {
      hint: didYouMean(closeFlags(name.slice(2), flags)) ?? usage,
    });
  }
  if (eq < 0) return flags.literalNo.has(name) ? `${name}=true` : word;
  if (flags.takesValue.has(name)) return word;
  const value = word.slice(eq + 1);
  if (TRUE.has(value)) return `${name}=true`;
  if (FALSE.has(value)) return `${name}=false`;
  throw new UsageError(
    `invalid argument ${JSON.stringify(value)} for "${name}" flag: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`,
    { hint: usage },
  );
}

/**
 * `-abc` as pflag reads it: each letter a flag, until one that takes a value, which takes the rest of the word
 * (`-ojson`, `-n=team-a`, `-v6`); `=` after any letter gives it the rest.
 */
function splitShort(word: string, flags: KnownFlags, usage: string): string[] {
  const out: string[] = [];
  for (let j = 1; j < word.length; j++) {
    const letter = word[j] ?? '';
    const flag = `-${letter}`;
    if (!flags.names.has(flag)) {
      // `-dry-run`: a long flag typed with one dash (a word, not a group of a few letters such as -yZ).
      const asLong = word.split('=')[0]?.slice(1) ?? '';
      const close = asLong.length >= 4 ? closeFlags(asLong, flags) : [];
      throw new UsageError(`unknown shorthand flag: '${letter}' in ${word}`, {
        hint: didYouMean(close) ?? usage,
      });
    }
    const rest = word.slice(j + 1);
    if (rest.startsWith('=')) return [...out, `${flag}${rest}`];
    if (flags.takesValue.has(flag)) return [...out, rest === '' ? flag : `${flag}=${rest}`];
    out.push(flag);
  }
  return out;
}

/**
 * The long flags closest to NAME. A short one (--v, --as) only for a short NAME: `--verb` does not mean `--v` for
 * merely containing it.
 */
function closeFlags(name: string, flags: KnownFlags): string[] {
  return closeMatches(name, flags.long)
    .filter((n) => n.length >= 3 || name.length <= 3)
    .map((n) => `--${n}`);
}

/** `did you mean X?`, `did you mean X or Y?`; undefined for no candidates. */
function didYouMean(candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const last = candidates[candidates.length - 1] ?? '';
  const list = candidates.length === 1 ? last : `${candidates.slice(0, -1).join(', ')} or ${last}`;
  return `did you mean ${list}?`;
}
