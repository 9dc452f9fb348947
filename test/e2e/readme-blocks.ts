/**
 * A documentation page's command blocks (README.md, docs/*.md), as the README test runs them: every ```sh block's commands, in order, and the output
 * shown for them. Pure (no I/O besides the caller's text), so the rules below are the whole contract:
 *
 * - In a ```sh block, a line is a command unless it is blank or a comment (`# ...`). A line ending in `\` goes on
 *   with the next one (joined with one space, as the reader's shell joins them); a here-document (`<<'EOF'`) takes
 *   the lines up to its terminator.
 * - A plain ``` block right after a ```sh block (nothing but blank lines between) is the output of that block's last
 *   command: what a terminal shows, standard error and output as they interleave.
 * - A plain ``` block whose first line starts with `$ ` is a transcript: each `$ ` line is a command, and the lines
 *   up to the next one are its output.
 * - A ```text block whose first line starts with `$ kubectl crossplane-rbac ` is a terminal transcript: output as a
 *   terminal shows it (`On a terminal N columns wide:` on the line before sets the width), which the docs test
 *   cannot show through a pipe. terminalTranscripts reads them; test/unit/docs-transcripts.test.ts runs them.
 */

export interface ReadmeCommand {
  /** The README line the command starts on (1-based). */
  readonly line: number;
  /** The command as the shell reads it; the key of the test's lists of exceptions. */
  readonly text: string;
  /** The output the README shows for it, if any. */
  readonly expected?: { readonly line: number; readonly text: string };
}

export interface ReadmeBlock {
  /** The line of the opening fence (1-based). */
  readonly line: number;
  /** The heading the block is under. */
  readonly heading: string;
  readonly commands: readonly ReadmeCommand[];
}

interface Fence {
  readonly line: number;
  readonly lang: string;
  readonly body: readonly string[];
  /** Only blank lines between the previous fence's end and this one. */
  readonly adjacent: boolean;
  /** The last line of text before the fence (blank lines skipped). */
  readonly lead: string;
  readonly heading: string;
}

function fences(markdown: string, page: string): Fence[] {
  const lines = markdown.split('\n');
  const out: Fence[] = [];
  let heading = '';
  let lastEnd = -2;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    const open = /^```(\S*)$/.exec(line);
    if (open === null) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) {
      if ((lines[i] ?? '').startsWith('```'))
        throw new Error(
          `${page}:${String(i + 1)}: a code block opens inside the one of line ${String(start + 1)}`,
        );
      body.push(lines[i] ?? '');
    }
    if (i >= lines.length) throw new Error(`${page}:${String(start + 1)}: a code block is never closed`);
    const between = lines.slice(lastEnd + 1, start);
    out.push({
      line: start + 1,
      lang: open[1] ?? '',
      body,
      adjacent: lastEnd >= 0 && between.every((l) => l.trim() === ''),
      lead: between.filter((l) => l.trim() !== '').at(-1) ?? '',
      heading,
    });
    lastEnd = i;
  }
  return out;
}

/** The commands of a ```sh block whose body starts on line FIRST of PAGE. */
function shellCommands(body: readonly string[], first: number, page: string): ReadmeCommand[] {
  const out: ReadmeCommand[] = [];
  for (let i = 0; i < body.length; i++) {
    const raw = body[i] ?? '';
    if (raw.trim() === '' || raw.trim().startsWith('#')) continue;
    const line = first + i;
    let text = raw;
    while (text.endsWith('\\') && i + 1 < body.length) {
      i++;
      text = `${text.slice(0, -1).trimEnd()} ${(body[i] ?? '').trim()}`;
    }
    const heredoc = /<<-?\s*'?([A-Za-z_]+)'?/.exec(text);
    if (heredoc !== null) {
      const end = heredoc[1] ?? '';
      const lines = [text];
      while (i + 1 < body.length && (body[i] ?? '') !== end) {
        i++;
        lines.push(body[i] ?? '');
      }
      if ((body[i] ?? '') !== end) throw new Error(`${page}:${String(line)}: here-document never ends`);
      text = lines.join('\n');
    }
    out.push({ line, text });
  }
  return out;
}

/** The commands of a transcript block (`$ command` lines, each followed by its output). */
function transcript(body: readonly string[], first: number): ReadmeCommand[] {
  const out: ReadmeCommand[] = [];
  for (let i = 0; i < body.length; i++) {
    const at = i;
    const text = (body[i] ?? '').slice(2);
    const output: string[] = [];
    while (i + 1 < body.length && !(body[i + 1] ?? '').startsWith('$ ')) output.push(body[++i] ?? '');
    out.push({ line: first + at, text, expected: { line: first + at + 1, text: output.join('\n') } });
  }
  return out;
}

/** Every block of MARKDOWN with commands, in order. */
export function readmeBlocks(markdown: string, page = 'README.md'): ReadmeBlock[] {
  const all = fences(markdown, page);
  const blocks: ReadmeBlock[] = [];
  for (const [i, f] of all.entries()) {
    if (f.lang === 'sh') {
      const commands = shellCommands(f.body, f.line + 1, page);
      const next = all[i + 1];
      const last = commands.at(-1);
      if (next !== undefined && next.lang === '' && next.adjacent && last !== undefined) {
        commands[commands.length - 1] = {
          ...last,
          expected: { line: next.line, text: next.body.join('\n') },
        };
      }
      blocks.push({ line: f.line, heading: f.heading, commands });
    } else if (f.lang === '' && (f.body[0] ?? '').startsWith('$ ')) {
      blocks.push({ line: f.line, heading: f.heading, commands: transcript(f.body, f.line + 1) });
    }
  }
  return blocks;
}

export interface TerminalTranscript {
  /** The line of the opening fence (1-based). */
  readonly line: number;
  /** The terminal's width the page names, or undefined (then as wide as the output needs). */
  readonly columns: number | undefined;
  readonly commands: readonly ReadmeCommand[];
}

/** Every ```text block of MARKDOWN that is a transcript of the plugin on a terminal. */
export function terminalTranscripts(markdown: string, page: string): TerminalTranscript[] {
  return fences(markdown, page)
    .filter((f) => f.lang === 'text' && (f.body[0] ?? '').startsWith('$ kubectl crossplane-rbac '))
    .map((f) => {
      const width = /on a terminal (\d+) columns wide:?$/i.exec(f.lead)?.[1];
      return {
        line: f.line,
        columns: width !== undefined ? Number(width) : undefined,
        commands: transcript(f.body, f.line + 1),
      };
    });
}

/**
 * Whether ACTUAL is the output EXPECTED shows. Lines compare exactly, after trailing blanks; an expected line `...`
 * stands for one or more lines, and an expected line ending in ` ...` for any line that begins with what is before.
 */
export function outputMatches(expected: string, actual: string): boolean {
  const want = expected.split('\n');
  const got = actual.replace(/\n$/, '').split('\n');
  const same = (w: string, g: string): boolean =>
    w.endsWith(' ...') ? g.startsWith(w.slice(0, -3)) : w.trimEnd() === g.trimEnd();
  const memo = new Map<string, boolean>();
  const from = (i: number, j: number): boolean => {
    const key = `${String(i)},${String(j)}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let ok: boolean;
    if (i === want.length) ok = j === got.length;
    else if (want[i] === '...') {
      ok = false;
      for (let k = j + 1; k <= got.length && !ok; k++) ok = from(i + 1, k);
    } else ok = j < got.length && same(want[i] ?? '', got[j] ?? '') && from(i + 1, j + 1);
    memo.set(key, ok);
    return ok;
  };
  return from(0, 0);
}
