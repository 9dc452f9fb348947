/**
 * Whether a Role or ClusterRole, as the bytes of the API server's JSON answer spell it, may hold a rule that allows a
 * resource request of one API group, told without decoding the answer. The RBAC authorizer matches a rule's group only
 * when its apiGroups holds the requested group or "*" (APIGroupMatches, kubernetes/kubernetes@03bf11a309fd1369f5c2dc7f3b31d63a97a14d66
 * pkg/apis/rbac/v1/evaluation_helpers.go): a role whose every apiGroups is an array of plain strings, none of them the
 * group or "*", allows no request of the group, whatever else it holds.
 *
 * Exact only where a string has one spelling: in a body without a backslash every string is its bytes between two
 * quotes, and every `"` delimits a string. Any backslash (an escape such as `\u0061` or `\/` spells a string another
 * way), an apiGroups that is not such an array (null, a value where a key was expected), or a group that is not
 * printable ASCII (invalid UTF-8 decodes to U+FFFD) leaves the answer unsure: the role may allow it.
 */

const KEY = Buffer.from('"apiGroups"');
const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const ALL = Buffer.from('*');
/** Printable ASCII but the quote and the backslash: the groups whose JSON string is their bytes between quotes. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** False only when BODY (a role's JSON) has no rule whose apiGroups holds GROUP or "*"; true when it may have one. */
export function mayAllowGroup(body: Buffer, group: string): boolean {
  if (!PLAIN.test(group) || body.includes(BACKSLASH)) return true;
  const wanted = Buffer.from(group, 'latin1');
  let at = body.indexOf(KEY);
  while (at !== -1) {
    const end = groupsHold(body, at + KEY.length, wanted);
    if (end === undefined) return true;
    at = body.indexOf(KEY, end);
  }
  return false;
}

/**
 * The apiGroups array whose key ends at FROM: undefined when it holds WANTED or "*", or is not an array of plain
 * strings (unsure); else the offset after its `]`.
 */
function groupsHold(body: Buffer, from: number, wanted: Buffer): number | undefined {
  let i = skipSpace(body, from);
  if (body[i] !== COLON) return undefined;
  i = skipSpace(body, i + 1);
  if (body[i] !== OPEN) return undefined;
  i = skipSpace(body, i + 1);
  if (body[i] === CLOSE) return i + 1;
  for (;;) {
    if (body[i] !== QUOTE) return undefined;
    const close = body.indexOf(QUOTE, i + 1);
    if (close === -1) return undefined;
    if (equalAt(body, i + 1, close, wanted) || equalAt(body, i + 1, close, ALL)) return undefined;
    i = skipSpace(body, close + 1);
    if (body[i] === CLOSE) return i + 1;
    if (body[i] !== COMMA) return undefined;
    i = skipSpace(body, i + 1);
  }
}

function equalAt(body: Buffer, start: number, end: number, wanted: Buffer): boolean {
  return end - start === wanted.length && body.compare(wanted, 0, wanted.length, start, end) === 0;
}

/** The offset of the first byte at or after I that is not JSON whitespace (space, tab, line feed, carriage return). */
function skipSpace(body: Buffer, i: number): number {
  let j = i;
  for (;;) {
    const c = body[j];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return j;
    j++;
  }
}
