import { describe, expect, it } from 'vitest';
import { escapeLines, escapeTerminal } from '../../src/escape.js';

interface QuoteCase {
  reason: string;
  input: string;
  /**
   * What Go's strconv.Quote(input) returns, written by hand from its rules (golang/go
   * src/strconv/quote.go@1bfcc11beb5d91ea391237644a39119a45615b7a appendEscapedRune): IsPrint runes as they are;
   * \a \b \f \n \r \t \v; other runes below ' ' as \xNN; other non-printable runes below U+10000 as \uNNNN (lower
   * case hex), above as \UNNNNNNNN. IsPrint is L, M, N, P, S and the ASCII space, with U+00AD not printable.
   */
  goQuoted: string;
}

describe('escapeTerminal', () => {
  // Inputs hold no `"` or `\`: strconv.Quote backslashes those only because it adds quotes, which escapeTerminal
  // does not (see the next table), so here the escaped text is exactly what Go prints between its quotes.
  const cases: Record<string, QuoteCase> = {
    OscSetsTheWindowTitle: {
      reason: 'An OSC sequence ends with BEL, which strconv writes as \\a.',
      input: '\u001b]0;title\u0007',
      goQuoted: '"\\x1b]0;title\\a"',
    },
    CsiErasesTheLine: {
      reason: 'ESC is below space: \\x1b; CR has its own letter.',
      input: '\u001b[2K\r',
      goQuoted: '"\\x1b[2K\\r"',
    },
    SgrColours: {
      reason: 'A colour change is an ESC sequence like any other.',
      input: '\u001b[31mred\u001b[0m',
      goQuoted: '"\\x1b[31mred\\x1b[0m"',
    },
    NewlineFakesALine: {
      reason: 'A newline in a subject name would print a line of its own.',
      input: 'alice\nGroup  system:masters',
      goQuoted: '"alice\\nGroup  system:masters"',
    },
    EveryLetterEscape: {
      reason: 'BEL, BS, FF, LF, CR, TAB and VT have one-letter escapes.',
      input: '\u0007\b\f\n\r\t\v',
      goQuoted: '"\\a\\b\\f\\n\\r\\t\\v"',
    },
    OtherC0AsHex: {
      reason: 'The other C0 controls are \\xNN, two lower-case hex digits.',
      input: 'a\u0000b\u0001c\u001f',
      goQuoted: '"a\\x00b\\x01c\\x1f"',
    },
    DelIsAUnicodeEscape: {
      reason: 'DEL is not printable and not below space, so strconv writes it as \\u007f.',
      input: 'x\u007f',
      goQuoted: '"x\\u007f"',
    },
    C1Controls: {
      reason: 'C1 controls (CSI U+009B, NEL U+0085) are not printable: \\uNNNN.',
      input: '\u009b2J\u0085',
      goQuoted: '"\\u009b2J\\u0085"',
    },
    RightToLeftOverride: {
      reason: 'U+202E reverses what follows on screen; a format character (Cf), not printable.',
      input: 'evil\u202egnp.exe',
      goQuoted: '"evil\\u202egnp.exe"',
    },
    BidiMarks: {
      reason: 'LRM and RLM (U+200E, U+200F) are format characters.',
      input: '\u200ea\u200f',
      goQuoted: '"\\u200ea\\u200f"',
    },
    BidiEmbeddings: {
      reason: 'LRE, RLE, PDF, LRO, RLO (U+202A..U+202E) are format characters.',
      input: '\u202a\u202b\u202c\u202d\u202e',
      goQuoted: '"\\u202a\\u202b\\u202c\\u202d\\u202e"',
    },
    BidiIsolates: {
      reason: 'LRI, RLI, FSI, PDI (U+2066..U+2069) are format characters.',
      input: '\u2066\u2067\u2068\u2069',
      goQuoted: '"\\u2066\\u2067\\u2068\\u2069"',
    },
    InvisibleFormatCharacters: {
      reason: 'A zero-width space and a BOM hide in a name; both are Cf.',
      input: 'ad\u200bmin\ufeff',
      goQuoted: '"ad\\u200bmin\\ufeff"',
    },
    SpacesOtherThanAsciiSpace: {
      reason: 'IsPrint admits only the ASCII space: NBSP and the ideographic space are escaped.',
      input: 'a b\u00a0c\u3000d',
      goQuoted: '"a b\\u00a0c\\u3000d"',
    },
    SoftHyphen: {
      reason: "IsPrint's one exception in Latin-1: U+00AD is not printable.",
      input: 'ad\u00admin',
      goQuoted: '"ad\\u00admin"',
    },
    LineSeparator: {
      reason: 'U+2028 (Zl) breaks a line in some terminals and is not printable.',
      input: 'a\u2028b',
      goQuoted: '"a\\u2028b"',
    },
    PrivateUse: {
      reason: 'A private-use character (Co) is not printable.',
      input: '\ue000',
      goQuoted: '"\\ue000"',
    },
    AstralFormatCharacter: {
      reason: 'Above U+FFFF the escape is \\U with eight hex digits (U+E0001 LANGUAGE TAG, Cf).',
      input: 'x\u{e0001}',
      goQuoted: '"x\\U000e0001"',
    },
    PlainName: {
      reason: 'Printable ASCII is unchanged.',
      input: 'system:serviceaccount:crossplane-system:crossplane',
      goQuoted: '"system:serviceaccount:crossplane-system:crossplane"',
    },
    NonAsciiLetters: {
      reason: 'Letters of any script are printable: é and 日本 stay as they are.',
      input: 'équipe-日本',
      goQuoted: '"équipe-日本"',
    },
    CombiningMark: {
      reason: 'Marks (M) are printable: a decomposed é is kept.',
      input: 'e\u0301',
      goQuoted: '"e\u0301"',
    },
    AstralSymbol: {
      reason: 'Symbols (S) above U+FFFF are printable.',
      input: 'ok \u{1f600}',
      goQuoted: '"ok \u{1f600}"',
    },
  };
  for (const [name, c] of Object.entries(cases)) {
    it(name, () => {
      expect(c.input.includes('"') || c.input.includes('\\'), 'no quote or backslash in these inputs').toBe(
        false,
      );
      expect(`"${escapeTerminal(c.input)}"`, c.reason).toBe(c.goQuoted);
    });
  }

  const kept: Record<string, { reason: string; input: string; want: string }> = {
    QuotesAndBackslashesKept: {
      reason:
        'No quotes are added, so `"` and `\\` stay: a message keeps its own quoting and DOMAIN\\user its look.',
      input: 'role "x" for CORP\\alice',
      want: 'role "x" for CORP\\alice',
    },
    LoneSurrogate: {
      reason:
        'A lone UTF-16 surrogate is no valid rune; strconv writes an invalid rune as U+FFFD, escaped (appendEscapedRune).',
      input: 'a\ud800b',
      want: 'a\\ufffdb',
    },
    PrintableIsTheSameString: {
      reason: 'Nothing to escape: the very same text.',
      input: 'crossplane-edit',
      want: 'crossplane-edit',
    },
  };
  for (const [name, c] of Object.entries(kept)) {
    it(name, () => {
      expect(escapeTerminal(c.input), c.reason).toBe(c.want);
    });
  }

  it('EscapeLinesKeepsTheLineBreaksBetweenLines', () => {
    expect(escapeLines('at x (\u001b[2K)\nat y\r')).toBe('at x (\\x1b[2K)\nat y\\r');
  });
});
