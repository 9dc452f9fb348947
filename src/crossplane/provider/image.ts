/** OCI image references of provider packages: which registry and organisation a package comes from. */

interface ImageContext {
  readonly registry: string;
  readonly repository: string;
}

const REPO_CHARS = /^[a-z0-9_./-]{2,255}$/;
const TAG_CHARS = /^[A-Za-z0-9_.-]{1,128}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
const DEFAULT_REGISTRY = 'index.docker.io';

/**
 * The ASCII characters Go's net/url leaves in a host (url.go shouldEscape with encodeHost: letters, digits, the
 * unreserved marks, RFC 3986's sub-delims, and ":", "[", "]", "<", ">", '"'). Bytes of non-ASCII characters pass too.
 */
const HOST_CHARS = /^[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"]$/;

/** validOptionalPort of url.go: empty, or ":" followed by digits only (any number of them). */
function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

/**
 * An IPv6 address without a zone as netip.ParseAddr (parseIPv6) accepts it: fields of hex digits worth at most
 * 0xffff, one "::" standing for at least one zero field, and an optional dotted IPv4 in place of the last two fields.
 */
function isIPv6(s: string): boolean {
  let rest = s;
  let fields = 0;
  let ellipsis = false;
  if (rest.startsWith('::')) {
    ellipsis = true;
    rest = rest.slice(2);
    if (rest === '') return true;
  }
  while (fields < 8) {
    const hex = /^[0-9A-Fa-f]+/.exec(rest)?.[0] ?? '';
    if (hex === '' || Number.parseInt(hex, 16) > 0xffff) return false;
    if (rest[hex.length] === '.') {
      // An embedded IPv4 only as the last two fields (or anywhere after a "::"), with room for it.
      // Stryker disable next-line ArithmeticOperator: fields - 2 > 8 only fails to refuse fields 7 with an ellipsis, which ends with 9 fields and is refused at the end
      if ((!ellipsis && fields !== 6) || fields + 2 > 8 || !isIPv4(rest)) return false;
      fields += 2;
      rest = '';
      break;
    }
    fields++;
    rest = rest.slice(hex.length);
    if (rest === '') break;
    if (rest[0] !== ':' || rest.length === 1) return false;
    rest = rest.slice(1);
    if (rest[0] === ':') {
      if (ellipsis) return false;
      ellipsis = true;
      rest = rest.slice(1);
      if (rest === '') break;
    }
  }
  if (rest !== '') return false;
  return ellipsis ? fields < 8 : fields === 8;
}

/** A dotted IPv4 address as netip's parseIPv4 accepts it: four decimal fields 0-255, none with a leading zero. */
function isIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255);
}

/**
 * True when go-containerregistry takes `host` as a registry: pkg/name registry.go checkRegistry wants
 * `url.Parse("//" + host).Host == host`. Following Go's net/url (url.go parse, parseAuthority, parseHost, unescape):
 * - a control character fails the parse; "#", "?", "/" and "@" end the host early, so Host is shorter;
 * - "%" either fails unescaping or decodes to another string;
 * - "[" anywhere but first fails (an IP-literal must start the host); a host starting with "[" needs a "]" after
 *   which only ":digits" may follow, and between them an IPv6 address (an IPv4 one is refused);
 * - otherwise the text after the last ":" must be digits (a port, possibly empty), and every ASCII character must be
 *   one a host may hold unescaped (HOST_CHARS); `_`, `~` and the sub-delims are among them.
 */
export function isValidRegistryHost(host: string): boolean {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: redundant: the HOST_CHARS loop and isIPv6 refuse control characters too
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    // Stryker disable next-line LogicalOperator: redundant: the HOST_CHARS loop and isIPv6 refuse control characters too
    if (c < 0x20 || c === 0x7f) return false;
  }
  if (/[#?/@%]/.test(host)) return false;
  const open = host.lastIndexOf('[');
  if (open > 0) return false;
  if (open === 0) {
    const close = host.lastIndexOf(']');
    if (close < 0 || !validOptionalPort(host.slice(close + 1))) return false;
    const literal = host.slice(1, close);
    // netip.ParseAddr reads an IPv4 address when a "." comes before any ":".
    const firstSeparator = /[.:]/.exec(literal)?.[0];
    return firstSeparator === ':' && isIPv6(literal);
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && !validOptionalPort(host.slice(colon))) return false;
  for (const ch of host) {
    if (ch.charCodeAt(0) < 0x80 && !HOST_CHARS.test(ch)) return false;
  }
  return true;
}

/**
 * Parses an OCI reference the way go-containerregistry's name.ParseReference does with a default registry (empty
 * unless given): the first path segment is the registry only if it contains "." or ":" or is "localhost", else the
 * default registry applies, and it must pass isValidRegistryHost; "docker.io" means "index.docker.io"; a one-segment
 * repository on Docker Hub is "library/<name>". Undefined when unparsable.
 */
export function parseImageContext(ref: string, defaultRegistry = ''): ImageContext | undefined {
  let base = ref;
  const at = base.indexOf('@');
  if (at >= 0) {
    if (base.indexOf('@', at + 1) >= 0 || !DIGEST.test(base.slice(at + 1))) return undefined;
    base = base.slice(0, at);
  }
  const colon = base.lastIndexOf(':');
  if (colon >= 0 && !base.slice(colon + 1).includes('/')) {
    const tag = base.slice(colon + 1);
    if (!TAG_CHARS.test(tag)) return undefined;
    base = base.slice(0, colon);
  }
  // Stryker disable next-line StringLiteral: no other base is compared here; the empty one fails REPO_CHARS anyway
  if (base === '') return undefined;
  let registry = defaultRegistry;
  let repository = base;
  const slash = base.indexOf('/');
  if (slash >= 0) {
    const first = base.slice(0, slash);
    if (first.includes('.') || first.includes(':') || first === 'localhost') {
      if (!isValidRegistryHost(first)) return undefined;
      registry = first;
      repository = base.slice(slash + 1);
    }
  }
  if (!REPO_CHARS.test(repository)) return undefined;
  if (registry === 'docker.io') registry = DEFAULT_REGISTRY;
  if (registry === DEFAULT_REGISTRY && !repository.includes('/')) repository = `library/${repository}`;
  return { registry, repository };
}

/** parseImageContext per default registry and reference: every member of a family is compared with every other. */
const imageContexts = new Map<string, ImageContext | undefined>();

function imageContext(ref: string, defaultRegistry: string): ImageContext | undefined {
  const key = `${defaultRegistry} ${ref}`;
  if (imageContexts.has(key)) return imageContexts.get(key);
  const context = parseImageContext(ref, defaultRegistry);
  imageContexts.set(key, context);
  return context;
}

/**
 * The registry and organisation of a package image, as one string (`registry/org`: neither holds a slash), or
 * undefined when it is no reference: two images are in the same registry and organisation when theirs are equal.
 */
export function registryAndOrg(
  ref: string | undefined,
  // Stryker disable next-line StringLiteral: every caller passes the registry, and no parsed registry can equal an invalid host
  defaultRegistry = '',
): string | undefined {
  // Stryker disable next-line StringLiteral: the text is no reference either
  const context = imageContext(ref ?? '', defaultRegistry);
  if (context === undefined) return undefined;
  const slash = context.repository.indexOf('/');
  return `${context.registry}/${slash < 0 ? context.repository : context.repository.slice(0, slash)}`;
}

/** True when two package images are in the same registry and organisation (crossplane's OrgDiffer, negated). */
export function sameRegistryAndOrg(
  a: string | undefined,
  b: string | undefined,
  // Stryker disable next-line StringLiteral: both references get the same default, and no parsed registry can equal an invalid host
  defaultRegistry = '',
): boolean {
  const org = registryAndOrg(a, defaultRegistry);
  return org !== undefined && org === registryAndOrg(b, defaultRegistry);
}
