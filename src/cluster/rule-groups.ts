/**
 * Whether a Role or ClusterRole, as the bytes of the API server's JSON answer spell it, may hold a rule that allows a
 * resource request of one API group, told without decoding the answer. The RBAC authorizer matches a rule's group only
 * when its apiGroups holds the requested group or "*" (APIGroupMatches, kubernetes/kubernetes@03bf11a309fd1369f5c2dc7f3b31d63a97a14d66
 * pkg/apis/rbac/v1/evaluation_helpers.go): a role whose every apiGroups is an array of plain strings, none of them the
 * group or "*", allows no request of the group, whatever else it holds.
 *
 * Exact for the JSON a server sends where a string has one spelling: in a body without a backslash every string is
 * its bytes between two quotes, and every `"` delimits a string. Any backslash (an escape such as `\u0061` or `\/`
 * spells a string another way), or a group that is not a plain name (invalid UTF-8 decodes to U+FFFD, and a quote or a
 * comma could start a group's string where another ends) leaves the answer unsure: the role may allow it. A body that
 * is not JSON at all is not told apart: only decoding it would tell.
 */

const KEY = Buffer.from('"apiGroups"');
const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = 0x5b;
const ALL = Buffer.from('*"');
/**
 * The groups narrowed: the characters of API group names (DNS subdomains) and "". In valid JSON none of them can
 * follow a string's closing quote, so that every `"GROUP"` in a body without a backslash is the string GROUP.
 */
const NAME = /^[A-Za-z0-9._-]*$/;

/** False only when BODY (a role's JSON) has no rule whose apiGroups holds GROUP or "*"; true when it may have one. */
export function mayAllowGroup(body: Buffer, group: string): boolean {
  if (!NAME.test(group) || body.includes(BACKSLASH)) return true;
  // Few strings are the group or "*" (a provider's roles name their own groups, "*" mostly as a verb): each is looked
  // at where it stands, rather than every apiGroups of the role. Searched from its first character on (every other
  // byte of a JSON body is a quote), the opening quote checked after.
  return anyInApiGroups(body, Buffer.from(`${group}"`, 'latin1')) || anyInApiGroups(body, ALL);
}

/** Whether a string spelled `"` and TAIL is an element of an apiGroups array in BODY. */
function anyInApiGroups(body: Buffer, tail: Buffer): boolean {
  for (let at = body.indexOf(tail, 1); at !== -1; at = body.indexOf(tail, at + 1)) {
    if (body[at - 1] === QUOTE && inApiGroups(body, at - 1)) return true;
  }
  return false;
}

/**
 * Whether the string opening at AT is an element of an array that is the value of an "apiGroups" key: back over the
 * elements before it (plain strings: no quote inside) to the array's `[`, its `:` and the key.
 */
function inApiGroups(body: Buffer, at: number): boolean {
  let i = spaceBefore(body, at - 1);
  while (body[i] === COMMA) {
    i = spaceBefore(body, i - 1);
    // (lastIndexOf counts a negative offset from the end.)
    const open = body[i] === QUOTE && i > 0 ? body.lastIndexOf(QUOTE, i - 1) : -1;
    if (open === -1) return false;
    i = spaceBefore(body, open - 1);
  }
  if (body[i] !== OPEN) return false;
  i = spaceBefore(body, i - 1);
  if (body[i] !== COLON) return false;
  const end = spaceBefore(body, i - 1) + 1;
  return end >= KEY.length && body.compare(KEY, 0, KEY.length, end - KEY.length, end) === 0;
}

/** The offset of the last byte at or before I that is not JSON whitespace (space, tab, line feed, carriage return). */
function spaceBefore(body: Buffer, i: number): number {
  let j = i;
  for (;;) {
    const c = body[j];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return j;
    j--;
  }
}
