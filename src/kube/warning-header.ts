/**
 * The API server's warnings (HTTP `Warning` headers), read as client-go reads them: apimachinery's
 * ParseWarningHeaders and ParseWarningHeader (kubernetes/kubernetes
 * staging/src/k8s.io/apimachinery/pkg/util/net/http.go@0072a2a3c378142e8ee4095d76e35a9b8c1352fe), with Go's
 * mime.WordDecoder.DecodeHeader for RFC 2047 words (golang/go
 * src/mime/encodedword.go@d0c9b40964f1951d2684545f1a6df64be899d26d).
 *
 * Go reads a header as bytes; Node hands a header's value over as a byte string (each byte one Latin-1 character),
 * so this parser works on such strings and decodes the agent and the text as UTF-8 only once they are cut out: a
 * warning with bytes that are not UTF-8 is refused alone, as Go refuses it.
 */

/** One warning: its three-digit code, its agent (`-` from kube-apiserver) and its text, decoded. */
export interface WarningHeader {
  readonly code: number;
  readonly agent: string;
  readonly text: string;
}

/** What a set of header values held: the warnings read, and one message per header value cut short. */
export interface ParsedWarnings {
  readonly warnings: WarningHeader[];
  readonly errors: string[];
}

/**
 * Every warning of every header value (several per value, comma-separated). A malformed warning ends the reading of
 * its own value only: the warnings before it are kept, the next value is read.
 */
export function parseWarningHeaders(values: readonly string[]): ParsedWarnings {
  const warnings: WarningHeader[] = [];
  const errors: string[] = [];
  for (const value of values) {
    let rest = value;
    while (rest.length > 0) {
      const one = parseWarningHeader(rest);
      if ('error' in one) {
        errors.push(one.error);
        break;
      }
      warnings.push(one.warning);
      rest = one.remainder;
    }
  }
  return { warnings, errors };
}

type OneWarning =
  { readonly warning: WarningHeader; readonly remainder: string } | { readonly error: string };

const CODE = /^[0-9]{3}$/;

/** The first warning of HEADER (`code agent "text" ["date"]`) and what follows its comma; or why there is none. */
export function parseWarningHeader(header: string): OneWarning {
  const fail = (why: string): OneWarning => ({ error: `invalid warning header: ${why}` });
  const trimmed = trimSpace(header);
  const first = trimmed.indexOf(' ');
  const second = first < 0 ? -1 : trimmed.indexOf(' ', first + 1);
  if (second < 0) return fail('fewer than 3 segments');
  const code = trimmed.slice(0, first);
  const agentBytes = trimmed.slice(first + 1, second);
  const textDateRemainder = trimmed.slice(second + 1);
  if (!CODE.test(code)) return fail('code segment is not 3 digits between 100-299');
  if (agentBytes === '') return fail('empty agent segment');
  const agent = utf8(agentBytes);
  if (agent === undefined || hasControl(agent)) return fail('invalid agent');
  if (textDateRemainder === '') return fail('empty text segment');
  const quoted = parseQuotedString(textDateRemainder);
  if ('error' in quoted) return fail(quoted.error);
  const text = utf8(decodeWords(quoted.value) ?? quoted.value);
  if (text === undefined || hasControl(text)) return fail('invalid text');
  let remainder = '';
  const after = quoted.remainder;
  if (after.startsWith('"')) {
    const end = after.indexOf('"', 1);
    if (end < 0) return fail('unterminated date segment');
    remainder = trimSpace(after.slice(end + 1));
  } else {
    remainder = after;
  }
  if (remainder !== '') {
    if (!remainder.startsWith(',')) return fail('unexpected token after warn-date');
    remainder = trimSpace(remainder.slice(1));
  }
  return { warning: { code: Number(code), agent, text }, remainder };
}

/** A quoted-string with backslash escapes, and what follows it (trimmed). */
function parseQuotedString(s: string): { value: string; remainder: string } | { error: string } {
  if (s === '') return { error: 'invalid quoted string: 0-length' };
  if (!s.startsWith('"')) return { error: 'invalid quoted string: missing initial quote' };
  let value = '';
  let escaping = false;
  for (let i = 1; i < s.length; i++) {
    const c = s.charAt(i);
    if (c === '"' && !escaping) return { value, remainder: trimSpace(s.slice(i + 1)) };
    if (c === '\\' && !escaping) {
      escaping = true;
      continue;
    }
    value += c;
    escaping = false;
  }
  return { error: 'invalid quoted string: missing closing quote' };
}

/** The byte string S as UTF-8 text; undefined when its bytes are not valid UTF-8. */
function utf8(s: string): string | undefined {
  const bytes = Uint8Array.from(s, (c) => c.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** TEXT as a byte string of its UTF-8 encoding. */
function utf8Bytes(text: string): string {
  return String.fromCharCode(...new TextEncoder().encode(text));
}

/** Go's unicode.IsControl: C0, DEL and C1. */
function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/**
 * Go's strings.TrimSpace on a byte string: ASCII white space, and the UTF-8 encodings of Unicode's other white
 * space (unicode.IsSpace: U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
 */
function trimSpace(s: string): string {
  let start = 0;
  let end = s.length;
  for (;;) {
    const n = spaceAt(s, start);
    if (n === 0 || start >= end) break;
    start += n;
  }
  for (;;) {
    const n = spaceBefore(s, end);
    if (n === 0 || end <= start) break;
    end -= n;
  }
  return start >= end ? '' : s.slice(start, end);
}

const ASCII_SPACE = new Set(['\t', '\n', '\v', '\f', '\r', ' ']);
const WIDE_SPACES = [
  0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
].map((cp) => utf8Bytes(String.fromCodePoint(cp)));

/** How many bytes of white space begin at I (0: none). */
function spaceAt(s: string, i: number): number {
  if (ASCII_SPACE.has(s.charAt(i))) return 1;
  return WIDE_SPACES.find((w) => s.startsWith(w, i))?.length ?? 0;
}

/** How many bytes of white space end at END (0: none). */
function spaceBefore(s: string, end: number): number {
  if (ASCII_SPACE.has(s.charAt(end - 1))) return 1;
  return WIDE_SPACES.find((w) => end - w.length >= 0 && s.startsWith(w, end - w.length))?.length ?? 0;
}

/**
 * Go's mime.WordDecoder.DecodeHeader on a byte string (the decoder apimachinery uses has no CharsetReader): every
 * `=?charset?B|Q?text?=` word in UTF-8, ISO-8859-1 or US-ASCII decoded, white space between two decoded words
 * dropped, a word that does not decode left as it is. Undefined when a word names another charset: Go then fails
 * and apimachinery keeps the text undecoded.
 */
function decodeWords(header: string): string | undefined {
  const firstWord = header.indexOf('=?');
  if (firstWord < 0) return header;
  let out = header.slice(0, firstWord);
  let rest = header.slice(firstWord);
  let betweenWords = false;
  for (;;) {
    const start = rest.indexOf('=?');
    if (start < 0) break;
    let cur = start + 2;
    const q = rest.indexOf('?', cur);
    if (q < 0) break;
    const charset = rest.slice(cur, q);
    cur = q + 1;
    if (rest.length < cur + 4) break;
    const encoding = rest.charAt(cur);
    cur++;
    if (rest.charAt(cur) !== '?') break;
    cur++;
    const j = rest.indexOf('?=', cur);
    if (j < 0) break;
    const content = decodeContent(encoding, rest.slice(cur, j));
    if (content === undefined) {
      betweenWords = false;
      out += rest.slice(0, start + 2);
      rest = rest.slice(start + 2);
      continue;
    }
    const before = rest.slice(0, start);
    if (start > 0 && (!betweenWords || /[^ \t\n\r]/.test(before))) out += before;
    const converted = convertCharset(charset, content);
    if (converted === undefined) return undefined;
    out += converted;
    rest = rest.slice(j + 2);
    betweenWords = true;
  }
  return out + rest;
}

/** A word's content as bytes: B is standard base64 (padded; CR and LF ignored), Q is RFC 2047's Q encoding. */
function decodeContent(encoding: string, text: string): string | undefined {
  if (encoding === 'B' || encoding === 'b') {
    const b64 = text.replace(/[\r\n]/g, '');
    if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:==|=)?$/.test(b64)) return undefined;
    return atob(b64);
  }
  if (encoding !== 'Q' && encoding !== 'q') return undefined;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '_') out += ' ';
    else if (c === '=') {
      const hex = text.slice(i + 1, i + 3);
      if (i + 2 >= text.length || !/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      out += String.fromCharCode(parseInt(hex, 16));
      i += 2;
    } else if ((c >= ' ' && c <= '~') || c === '\n' || c === '\r' || c === '\t') out += c;
    else return undefined;
  }
  return out;
}

/** CONTENT (bytes in CHARSET) as UTF-8 bytes; undefined for a charset Go's decoder does not know. */
function convertCharset(charset: string, content: string): string | undefined {
  switch (charset.toLowerCase()) {
    case 'utf-8':
      return content;
    case 'iso-8859-1':
      return utf8Bytes(content);
    case 'us-ascii':
      return utf8Bytes(content.replace(/[\u0080-\u00ff]/g, '\ufffd'));
    default:
      return undefined;
  }
}
