// The layout of --help, as kubectl lays out its own: what the command does, its usage, examples (a `# ` comment line
// above each command line, never wrapped), the command's own flags, and at the end where the flags every command
// takes are listed (`options`). yargs renders the flags; the examples are put in after it has wrapped the rest.
import type { Argv, CommandModule } from 'yargs';
import { COMMAND_HELP, type HelpExample } from './command-help.js';
import { FLEET_FLAGS } from './fleet.js';
import { GLOBAL_FLAGS } from './global-flags.js';

/** Where the examples go in the text yargs renders: a line yargs neither wraps nor changes. */
const EXAMPLES_MARK = '{{examples}}';

/**
 * The last line of every help, in kubectl's words (kubectl's templates.go, SectionTipsGlobalOptions, at
 * kubernetes/kubernetes@16913111deb1a4c4ff76f4ba7ffd9ebef397a303 staging/src/k8s.io/kubectl/pkg/util/templates).
 */
export function optionsTip(program: string): string {
  return `Use "${program} options" for a list of global command-line options (applies to all commands).`;
}

/** The line of the top-level help that names a command's help (kubectl's SectionTipsHelp). */
function commandTip(program: string): string {
  return `Use "${program} <command> --help" for more information about a given command.`;
}

/** COMMAND with its help laid out: its description, usage and examples, and its own flags before any other. */
export function withHelp<T, U>(command: CommandModule<T, U>, program: string): CommandModule<T, U> {
  const name = String(command.command).split(' ')[0] ?? '';
  const help = COMMAND_HELP[name];
  const builder = command.builder;
  if (help === undefined || typeof builder !== 'function') return command;
  return {
    ...command,
    builder: (y: Argv<T>) => {
      const built = builder(y) as Argv<U>;
      return ownFlagsFirst(built).usage(
        `${help.long}\n\nUsage: ${program} ${help.usage}\n\n${EXAMPLES_MARK}`,
      );
    },
  };
}

/**
 * Groups a command's flags so that its own come first ("Options:", with -o and -h last), then the fleet flags; the
 * flags every command takes are hidden (global-flags.ts) and listed by `options`.
 */
function ownFlagsFirst<U>(y: Argv<U>): Argv<U> {
  const options = y.getOptions();
  const grouped = new Set(Object.values(y.getGroups()).flat());
  const aliases = new Set(Object.values(options.alias).flat());
  const global = new Set<string>([...GLOBAL_FLAGS.map((f) => f.name), 'output', 'help', '$0', '_']);
  const fleet: readonly string[] = FLEET_FLAGS.keys.filter((k) => k in options.key);
  const own = Object.keys(options.key).filter(
    (k) => !global.has(k) && !grouped.has(k) && !aliases.has(k) && !fleet.includes(k),
  );
  const laidOut = y.group([...own, 'output', 'help'], 'Options:');
  return fleet.length > 0 ? laidOut.group([...fleet], FLEET_FLAGS.group) : laidOut;
}

/**
 * The help yargs rendered for COMMAND (undefined: the top-level help), with the examples and the closing tips. On a
 * terminal of COLUMNS the tips are wrapped to its width as yargs wraps the rest; the examples never are (a command
 * line is copied whole).
 */
export function finishHelp(
  text: string,
  command: string | undefined,
  program: string,
  columns?: number,
): string {
  const help = command === undefined ? undefined : COMMAND_HELP[command];
  const body = help === undefined ? text : text.replace(EXAMPLES_MARK, formatExamples(help.examples));
  const tips = help === undefined ? [commandTip(program), optionsTip(program)] : [optionsTip(program)];
  const shown = columns === undefined ? tips : tips.map((t) => wrapWords(t, Math.min(120, columns)));
  return `${body.trimEnd()}\n\n${shown.join('\n')}`;
}

/** TEXT broken into lines of at most WIDTH at spaces (a word longer than WIDTH stays whole). */
function wrapWords(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line].join('\n');
}

function formatExamples(examples: readonly HelpExample[]): string {
  return `Examples:\n${examples.map((e) => `  # ${e.what}\n  ${e.run}`).join('\n\n')}`;
}

/**
 * `help` and `help COMMAND` as kubectl takes them: the top-level help, or COMMAND's (words after it are ignored, as
 * kubectl ignores them). Any other command line is returned as it is.
 */
export function helpArgv(argv: readonly string[]): readonly string[] {
  if (argv[0] !== 'help') return argv;
  const topic = argv.slice(1).find((w) => !w.startsWith('-'));
  return topic === undefined ? ['--help'] : [topic, '--help'];
}
