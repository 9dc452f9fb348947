import type { Deps } from './context.js';
import { flagTable } from './flag-table.js';

/** Cobra's shell directives, which kubectl's plugin completion understands: 0 = files too, 4 = no files. */
const DIRECTIVE_DEFAULT = 0;
const DIRECTIVE_NO_FILES = 4;

/**
 * Completes the last word of WORDS (the words after the plugin's name): a command name first, then the flags of
 * that command and the global ones (--long, and -s for short aliases), never a flag's value as a command.
 */
export function completeWords(words: readonly string[], deps: Deps): { words: string[]; directive: number } {
  const current = words[words.length - 1] ?? '';
  const before = words.slice(0, -1);
  const table = flagTable(deps);
  const names = table.commands;
  const global = table.global;
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
  const own = table.flagsOf(commandName ?? '');
  const previous = before[before.length - 1];
  if (previous !== undefined && (own.takesValue.has(previous) || global.takesValue.has(previous))) {
    return { words: [], directive: DIRECTIVE_DEFAULT };
  }
  if (current.startsWith('-')) {
    // A one-letter flag is offered as -v, never as --v (which is still taken, as kubectl takes it).
    const candidates = [...new Set([...own.names, ...global.names])].filter((n) => !/^--\w$/.test(n)).sort();
    return { words: candidates.filter((n) => n.startsWith(current)), directive: DIRECTIVE_NO_FILES };
  }
  if (commandName === undefined) {
    return { words: names.filter((n) => n.startsWith(current)), directive: DIRECTIVE_NO_FILES };
  }
  return { words: [], directive: DIRECTIVE_DEFAULT };
}
