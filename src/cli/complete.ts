import yargs, { type Argv } from 'yargs';
import type { NameKind } from '../app/complete-names.js';
import { MATRIX_VERBS } from '../explain/matrix-verbs.js';
import { escapeTerminal } from '../escape.js';
import { commands } from './command-list.js';
import { commandFormats } from './output/registry.js';
import { appDeps, type Deps, type GlobalArgs } from './context.js';
import { flagTable } from './flag-table.js';
import { withGlobalFlags } from './global-flags.js';
import { inputSource, type FromPaths } from './input-flags.js';

/**
 * Cobra's shell directives, which kubectl's plugin completion understands: 0 = files too, 1 = error (offer
 * nothing), 4 = no files.
 */
const DIRECTIVE_DEFAULT = 0;
const DIRECTIVE_ERROR = 1;
const DIRECTIVE_NO_FILES = 4;

/** The verbs RBAC rules name (who-can's VERB): the matrix's resource verbs, then the special ones. */
const VERBS = [...MATRIX_VERBS, 'bind', 'escalate', 'impersonate', 'approve', 'sign', 'use', '*'];

/** A completion request as long as a cluster could take to answer, when --request-timeout says nothing. */
const COMPLETION_TIMEOUT = '5s';

/** What the arguments after a command complete to, by position. */
const POSITIONALS: Readonly<Record<string, readonly (NameKind | readonly string[])[]>> = {
  explain: ['clusterroles'],
  'enable-xrd': ['xrds'],
  'who-can': [VERBS, 'resources'],
  completion: [['bash', 'zsh', 'fish', 'kubectl']],
};

type Completion = { words: string[]; directive: number };

/**
 * Completes the last word of WORDS (the words after the plugin's name), as kubectl completes: a command name, a
 * flag, a flag's value (--context: the kubeconfig's contexts; -n: namespaces; -o: the command's formats) or an
 * argument (explain: ClusterRoles; enable-xrd: XRDs; who-can: verbs, then resources), names read from the cluster
 * the other flags select, or from -f.
 */
export async function completeWords(words: readonly string[], deps: Deps): Promise<Completion> {
  const current = words[words.length - 1] ?? '';
  const before = words.slice(0, -1);
  const table = flagTable(deps);
  const global = table.global;
  let commandName: string | undefined;
  const positionals: string[] = [];
  for (let i = 0; i < before.length; i++) {
    const w = before[i] ?? '';
    const takesValue =
      (table.flagsOf(commandName ?? '').takesValue.has(w) || global.takesValue.has(w)) && !w.includes('=');
    if (w.startsWith('-')) {
      if (takesValue) i++;
      continue;
    }
    if (commandName === undefined && table.commands.includes(w)) commandName = w;
    else if (commandName !== undefined) positionals.push(w);
  }
  const own = table.flagsOf(commandName ?? '');
  const previous = before[before.length - 1];
  if (previous !== undefined && (own.takesValue.has(previous) || global.takesValue.has(previous))) {
    return flagValue(previous, current, commandName, before, deps);
  }
  if (current.startsWith('-')) {
    // A one-letter flag is offered as -v, never as --v (which is still taken, as kubectl takes it).
    const candidates = [...new Set([...own.names, ...global.names])].filter((n) => !/^--\w$/.test(n)).sort();
    return { words: candidates.filter((n) => n.startsWith(current)), directive: DIRECTIVE_NO_FILES };
  }
  if (commandName === undefined) {
    return { words: table.commands.filter((n) => n.startsWith(current)), directive: DIRECTIVE_NO_FILES };
  }
  const at = POSITIONALS[commandName]?.[commandName === 'enable-xrd' ? 0 : positionals.length];
  if (at === undefined || (commandName === 'explain' && before.some((w) => w.startsWith('--subject')))) {
    return { words: [], directive: DIRECTIVE_NO_FILES };
  }
  if (typeof at !== 'string') return offer(at, current);
  return names(at, current, commandName, before, deps);
}

/** The value of FLAG being typed. */
async function flagValue(
  flag: string,
  current: string,
  command: string | undefined,
  before: readonly string[],
  deps: Deps,
): Promise<Completion> {
  if (flag === '-o' || flag === '--output') return offer(commandFormats(command ?? '', before), current);
  if (flag === '-n' || flag === '--namespace') return names('namespaces', current, command, before, deps);
  if (flag === '--context' || flag === '--contexts') {
    const args = parseWords(command, before, deps);
    if (args === undefined || deps.contextNames === undefined)
      return { words: [], directive: DIRECTIVE_ERROR };
    try {
      return offer(await deps.contextNames(inputSource(args).connection), current);
    } catch {
      return { words: [], directive: DIRECTIVE_ERROR };
    }
  }
  return { words: [], directive: DIRECTIVE_DEFAULT };
}

/** The names of KIND, read as COMMAND would read them with the flags typed so far; nothing if they cannot be. */
async function names(
  kind: NameKind,
  current: string,
  command: string | undefined,
  before: readonly string[],
  deps: Deps,
): Promise<Completion> {
  const args = parseWords(command, before, deps);
  if (args === undefined) return { words: [], directive: DIRECTIVE_ERROR };
  try {
    const { completeNames } = await import('../app/complete-names.js');
    const withTimeout = { ...args, 'request-timeout': args['request-timeout'] ?? COMPLETION_TIMEOUT };
    // Nothing a read says (warnings, progress) may reach the shell: completion prints only the words.
    const quiet: Deps = { ...deps, io: { ...deps.io, stderr: { write: () => true }, stderrIsTTY: false } };
    return offer(await completeNames(kind, inputSource(withTimeout), appDeps(quiet, false)), current);
  } catch {
    return { words: [], directive: DIRECTIVE_ERROR };
  }
}

/**
 * The choices that start with CURRENT, one a line. A name the terminal could not show as it is (a control character,
 * a line break, a bidi control: anything escape.ts escapes) is left out: it would reach the shell's menu raw, or read
 * as a word or directive line of its own, and it cannot be typed as a word anyway.
 */
function offer(choices: readonly string[], current: string): Completion {
  const words = choices.filter((c) => c.startsWith(current) && escapeTerminal(c) === c);
  return { words, directive: DIRECTIVE_NO_FILES };
}

/** The flags typed so far, parsed as the command parses them; undefined when they do not parse. */
function parseWords(
  command: string | undefined,
  before: readonly string[],
  deps: Deps,
): (GlobalArgs & { filename?: FromPaths }) | undefined {
  const module = commands(deps).find((c) => String(c.command).split(' ')[0] === command);
  const builder = module?.builder as ((y: Argv) => Argv) | undefined;
  try {
    const y = withGlobalFlags(
      yargs([...before])
        .help(false)
        .version(false)
        .exitProcess(false),
    );
    const parsed: unknown = (typeof builder === 'function' ? builder(y) : y).parseSync();
    return parsed as GlobalArgs & { filename?: FromPaths };
  } catch {
    return undefined;
  }
}
