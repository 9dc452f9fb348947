/**
 * Text from outside (names and fields read from a cluster or a file, flags, API messages) made safe for a terminal.
 *
 * A name may hold anything but `/` and `%` (a ClusterRole's, a binding's) or anything at all (a subject's), so an
 * OSC/CSI escape sequence, a carriage return or a right-to-left override in it would reach the administrator's
 * terminal and could retitle it, erase a line or fake one (kubectl's CVE-2021-25743). Every character Go's
 * strconv.Quote would escape, that is every one that is not printable by Go's IsPrint (letters, marks, numbers,
 * punctuation, symbols and the ASCII space: so C0 and C1 controls, DEL, format characters such as the bidi controls
 * U+200E/U+200F, U+202A-U+202E and U+2066-U+2069, line and paragraph separators, spaces other than U+0020, private
 * use and unassigned code points) is written as Go writes it there: `\a \b \f \n \r \t \v`, `\xNN` below U+0020,
 * `\uNNNN`, `\UNNNNNNNN` (golang/go src/strconv/quote.go@1bfcc11beb5d91ea391237644a39119a45615b7a appendEscapedRune).
 * Printable text, `é` and `日本` included, is left exactly as it is, and no quotes are added, so a name keeps its
 * look and a message its own quoting; `"` and `\` are therefore kept too (strconv.Quote escapes those only because
 * it adds the quotes). kubectl's own fix replaces only ESC and CR (kubernetes/kubernetes
 * staging/src/k8s.io/cli-runtime/pkg/printers/terminal.go@ca7c2394a3282bd022be6e52dd0fe568d228f44b EscapeTerminal);
 * this escapes every character that can move the cursor, reorder the text or hide in it.
 *
 * Human output only, at the presentation edge (tables, trees, warnings, errors, prompts, progress): `-o json|yaml`
 * print the objects exactly as they are.
 */

/** One code point (or a lone surrogate) that Go's IsPrint rejects. */
const NOT_PRINTABLE = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;
const NOT_PRINTABLE_ALL = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/gu;

/** strconv's one-letter escapes. */
const NAMED: Readonly<Record<string, string>> = {
  '\u0007': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

function escapeCodePoint(ch: string): string {
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x20) return `\\x${hex(cp, 2)}`;
  // A lone surrogate is no valid rune: strconv writes an invalid rune as U+FFFD, escaped.
  if (cp >= 0xd800 && cp <= 0xdfff) return '\\ufffd';
  if (cp < 0x10000) return `\\u${hex(cp, 4)}`;
  return `\\U${hex(cp, 8)}`;
}

/** S with every character Go's strconv.Quote would escape written as that escape; anything printable unchanged. */
export function escapeTerminal(s: string): string {
  return NOT_PRINTABLE.test(s) ? s.replace(NOT_PRINTABLE_ALL, escapeCodePoint) : s;
}

/** Each line of TEXT escaped, the line breaks between them kept (a stack trace, a block of lines made here). */
export function escapeLines(text: string): string {
  return text.split('\n').map(escapeTerminal).join('\n');
}
