// Answers that need no command line parser. Loading the parser and the commands' definitions is most of the
// start-up time of `version` and `--help`; these two print text that is known before anything else runs. Anything
// this does not recognise exactly returns undefined and takes the whole path (runCli), which checks and answers it.
import { VERSION_OUTPUTS, versionText, type VersionOutput } from './version-text.js';

/** What the plugin can answer before loading its parser. */
export interface EarlyAnswers {
  /** The plugin's version, as `version` prints it. */
  readonly version: string;
  /**
   * The top-level help as runCli prints it off a terminal (rendered at build time, scripts/build.ts), or undefined:
   * on a terminal the help is wrapped to its width, so only the parser can print it. Asked only for the help.
   */
  readonly help?: () => string | undefined;
}

/** The text to print for ARGV, or undefined when the parser must decide. */
export function answerEarly(argv: readonly string[], answers: EarlyAnswers): string | undefined {
  if (argv.length === 0 || (argv.length === 1 && (argv[0] === '--help' || argv[0] === 'help')))
    return answers.help?.();
  if (argv[0] !== 'version') return undefined;
  const output = versionOutput(argv.slice(1));
  return output === undefined ? undefined : versionText(output, answers.version);
}

/** -o of `version`, from the forms `-o F`, `-o=F`, `--output F`, `--output=F` or none; undefined for anything else. */
function versionOutput(rest: readonly string[]): VersionOutput | undefined {
  let value: string | undefined;
  if (rest.length === 0) return 'text';
  const [flag = '', given] = rest;
  if (rest.length === 2 && (flag === '-o' || flag === '--output')) value = given;
  else if (rest.length === 1) value = /^(?:-o|--output)=(.*)$/.exec(flag)?.[1];
  return (VERSION_OUTPUTS as readonly (string | undefined)[]).includes(value)
    ? (value as VersionOutput)
    : undefined;
}
