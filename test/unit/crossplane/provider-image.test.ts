// Registry hosts of provider images as go-containerregistry parses them, and what that means for provider families.
//
// Crossplane's OrgDiffer (crossplane/crossplane internal/controller/rbac/provider/roles/reconciler.go
// @2d040d2daf4e001799c4154a4a09b9e1f40d7fde) parses both images with name.ParseReference of go-containerregistry
// v0.21.8 (crossplane/crossplane go.mod @2d040d2daf4e001799c4154a4a09b9e1f40d7fde). Its registry check is
// google/go-containerregistry pkg/name/registry.go @2ea098f4b13456cd628460632760b0a74b7488e9 (v0.21.8) checkRegistry:
// a registry is valid when `url.Parse("//" + name).Host == name`. The expectations below follow Go's net/url,
// golang/go src/net/url/url.go @7e6685ce9465d8bbb139a7760565cd792d0e0e5e: Parse cuts "#..." off first; parse
// rejects control bytes, cuts "?..." off, and reads the authority after "//" up to the next "/"; parseAuthority
// takes the host after the last "@"; parseHost checks the text after the last ":" with validOptionalPort (":" and
// digits only) and unescapes the host with encodeHost, where "%XX" is refused (ASCII) or decoded (so the host
// changes) and an ASCII byte is refused when shouldEscape(c, encodeHost) is true: everything except letters,
// digits, "-", "_", ".", "~", the sub-delims "!$&'()*+,;=", and ":", "[", "]", "<", ">", '"'. Bytes >= 0x80 pass.
// Go's security releases since changed IP-literals ("[...]"): the text in brackets must be an IPv6 address as
// netip.ParseAddr reads it, not IPv4 (CVE-2025-47912), and a "[" may only start the host (golang/go issue 77578,
// CVE-2026-25679); golang/go src/net/netip/netip.go @051bdf3fd12a40307606ff9381138039c5f452f0 parseIPv6 decides
// what an IPv6 address is. Cases that older Go decided otherwise say so.
import { describe, expect, it } from 'vitest';
import {
  isValidRegistryHost,
  parseImageContext,
  sameRegistryAndOrg,
} from '../../../src/crossplane/provider/image.js';
import { renderRevisionClusterRoles } from '../../../src/crossplane/provider/roles.js';
import { rev } from '../sync/sync-fixtures.js';

describe('isValidRegistryHost (checkRegistry: url.Parse("//"+host).Host == host)', () => {
  const cases: Record<string, { host: string; valid: boolean; reason: string }> = {
    Plain: { host: 'xpkg.crossplane.io', valid: true, reason: 'Letters, digits and "." pass unescape.' },
    Underscore: {
      host: 'my_reg.example.io',
      valid: true,
      reason: '"_" is an unreserved mark: shouldEscape returns false for it in every mode.',
    },
    Tilde: { host: 'reg~1.example.io', valid: true, reason: '"~" is an unreserved mark too.' },
    Bang: {
      host: 'a!b.example.io',
      valid: true,
      reason: '"!" is a sub-delim, which shouldEscape leaves alone in encodeHost.',
    },
    Dollar: { host: 'a$b.example.io', valid: true, reason: '"$" is a sub-delim.' },
    OtherSubDelims: {
      host: "a&'()*+,;=b.example.io",
      valid: true,
      reason: 'The other sub-delims pass the same way.',
    },
    AngleAndQuote: {
      host: 'a<b>"c.example.io',
      valid: true,
      reason:
        'shouldEscape also leaves "<", ">" and \'"\' unescaped in hosts (its comment: Parse would refuse them escaped).',
    },
    UpperCase: {
      host: 'Reg.Example.IO',
      valid: true,
      reason: 'Nothing lower-cases a host; upper-case letters pass.',
    },
    NonAscii: {
      host: 'regístry.example.io',
      valid: true,
      reason: 'unescape checks shouldEscape only for bytes below 0x80; the UTF-8 bytes of "í" pass.',
    },
    Port: {
      host: 'reg.example.io:5000',
      valid: true,
      reason:
        'validOptionalPort accepts ":5000" (upstream registry_test.go has gcr.io:9001 and localhost:9090).',
    },
    EmptyPort: {
      host: 'reg.example.io:',
      valid: true,
      reason: 'validOptionalPort accepts ":" with no digits.',
    },
    LastColonIsThePort: {
      host: 'a:b:5000',
      valid: true,
      reason:
        'Without a scheme parseHost checks only the text after the last ":" (urlstrictcolons is for http and https).',
    },
    BareIPv6: {
      host: '::1',
      valid: true,
      reason:
        'The text after the last ":" is "1", a port; upstream registry_test.go TestRegistryScheme has "::1".',
    },
    BracketedIPv6WithPort: {
      host: '[2001:db8::1]:5000',
      valid: true,
      reason: 'An IPv6 literal then ":5000"; upstream registry_test.go has it, and [::1]:5000.',
    },
    BracketedMappedIPv4: {
      host: '[::ffff:10.0.0.1]',
      valid: true,
      reason: 'parseIPv6 takes a dotted IPv4 as the last two fields after "::"; the result is IPv6.',
    },
    BracketedIPv4: {
      host: '[10.0.0.1]',
      valid: false,
      reason: 'ParseAddr reads an IPv4 address (a "." before any ":"), and Is4 makes parseHost refuse it.',
    },
    BracketedName: {
      host: '[reg.example.io]',
      valid: false,
      reason: 'ParseAddr fails: only an IPv6 address may be bracketed (older Go took any text here).',
    },
    BracketedTooManyFields: {
      host: '[1:2:3:4:5:6:7:8:9]',
      valid: false,
      reason: 'parseIPv6 stops after 8 fields and refuses the trailing text.',
    },
    BracketedEmptyEllipsis: {
      host: '[1:2:3:4:5:6:7:8::]',
      valid: false,
      reason: 'parseIPv6: the "::" must stand for at least one zero field.',
    },
    BracketedZone: {
      host: '[fe80::1%25en0]',
      valid: false,
      reason: 'unescape turns the zone\'s "%25" into "%": Host is "[fe80::1%en0]", not the input.',
    },
    BracketNotFirst: {
      host: 'a[::1]',
      valid: false,
      reason:
        'A "[" past the start is an invalid IP-literal (older Go refused it too: the text after the last ":" is "1]").',
    },
    MissingCloseBracket: { host: '[::1', valid: false, reason: 'parseHost: missing "]" in host.' },
    PortAfterBracketNotDigits: {
      host: '[::1]x',
      valid: false,
      reason: 'Only ":digits" may follow the "]".',
    },
    PortNotDigits: {
      host: 'reg.example.io:50x0',
      valid: false,
      reason: 'validOptionalPort refuses ":50x0".',
    },
    Space: {
      host: 'white space.io',
      valid: false,
      reason: 'shouldEscape is true for " " (upstream registry_test.go badRegistryNames has "white space").',
    },
    Question: {
      host: 'gcr?com',
      valid: false,
      reason: 'parse cuts the query off: Host is "gcr" (upstream badRegistryNames has "gcr?com").',
    },
    Hash: { host: 'reg#1.io', valid: false, reason: 'Parse cuts the fragment off: Host is "reg".' },
    At: {
      host: 'user@reg.example.io',
      valid: false,
      reason: 'parseAuthority keeps only what follows the last "@": Host is "reg.example.io".',
    },
    PercentAscii: {
      host: 'a%41.io',
      valid: false,
      reason: 'unescape refuses %-escapes of ASCII bytes (other than %25) in a host.',
    },
    PercentNonAscii: {
      host: 'a%C3%A9.io',
      valid: false,
      reason: 'unescape decodes it: Host is "aé.io", not the input.',
    },
    Caret: { host: 'reg^.io', valid: false, reason: 'shouldEscape is true for "^".' },
    Pipe: { host: 'reg|x.io', valid: false, reason: 'shouldEscape is true for "|".' },
    Backslash: { host: 'reg\\x.io', valid: false, reason: 'shouldEscape is true for "\\".' },
    ControlByte: {
      host: 'reg\u007f.io',
      valid: false,
      reason: 'parse refuses any control byte (stringContainsCTLByte: below 0x20, and 0x7f).',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(isValidRegistryHost(tc.host), tc.reason).toBe(tc.valid);
  });
});

describe('parseImageContext with such registries', () => {
  it('keeps a registry with "_" and its organisation', () => {
    expect(parseImageContext('my_reg.example.io/acme/provider-a:v1.0.0')).toEqual({
      registry: 'my_reg.example.io',
      repository: 'acme/provider-a',
    });
  });

  it('takes a bracketed IPv6 registry with a port, and refuses a bracketed name', () => {
    expect(parseImageContext('[2001:db8::1]:5000/acme/provider-a:v1')?.registry).toBe('[2001:db8::1]:5000');
    expect(parseImageContext('[reg.example.io]/acme/provider-a:v1')).toBeUndefined();
  });

  it('refuses a reference whose registry is no URI authority', () => {
    expect(parseImageContext('reg^x.example.io/acme/provider-a:v1')).toBeUndefined();
  });
});

describe('provider families with such registries (OrgDiffer)', () => {
  const cases: Record<string, { a: string; b: string; want: boolean; reason: string }> = {
    UnderscoreSameOrg: {
      a: 'my_reg.example.io/acme/provider-a:v1',
      b: 'my_reg.example.io/acme/provider-b:v1',
      want: true,
      reason: 'Both parse: same registry, same first path segment.',
    },
    SubDelimSameOrg: {
      a: 'a!b$c.example.io:5000/acme/provider-a:v1',
      b: 'a!b$c.example.io:5000/acme/provider-b:v1',
      want: true,
      reason: 'Sub-delims and a port are a valid registry.',
    },
    UnderscoreOtherOrg: {
      a: 'my_reg.example.io/acme/provider-a:v1',
      b: 'my_reg.example.io/evil/provider-b:v1',
      want: false,
      reason: 'Another organisation in the same registry differs.',
    },
    RepositoryWithoutOrgPath: {
      a: 'ghcr.io/foo:v1',
      b: 'ghcr.io/fob:v1',
      want: false,
      reason: 'A one-part repository is its own first path segment, all of it: "foo" and "fob" differ.',
    },
    SameOnePartRepository: {
      a: 'ghcr.io/foo:v1',
      b: 'ghcr.io/foo:v2',
      want: true,
      reason: 'The same one-part repository in the same registry, another tag.',
    },
    InvalidRegistry: {
      a: 'bad^reg.example.io/acme/provider-a:v1',
      b: 'bad^reg.example.io/acme/provider-b:v1',
      want: false,
      reason: 'Unparsable references are never the same org (OrgDiffer returns true on a parse error).',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(sameRegistryAndOrg(tc.a, tc.b), tc.reason).toBe(tc.want);
  });

  it('gives my_reg.example.io/acme/a and my_reg.example.io/acme/b the family rules of both', () => {
    const a = rev('provider-a-1', ['as.a.example.org'], {
      family: 'fam',
      image: 'my_reg.example.io/acme/provider-a:v1',
    });
    const b = rev('provider-b-1', ['bs.b.example.org'], {
      family: 'fam',
      image: 'my_reg.example.io/acme/provider-b:v1',
    });
    const groups = (r: typeof a): string[] =>
      renderRevisionClusterRoles(r, [a, b]).roles[0]!.rules!.map((x) => x.apiGroups![0]!);
    // resourceRules orders by plural+group: "asa.example.org" before "bsb.example.org", for either member.
    expect(groups(a)).toEqual(['a.example.org', 'b.example.org']);
    expect(groups(b)).toEqual(['a.example.org', 'b.example.org']);
  });
});

// Bracketed hosts: parseHost hands the text between "[" and "]" to netip.ParseAddr, which must read an IPv6 address
// (netip.go @051bdf3fd12a40307606ff9381138039c5f452f0 parseIPv6 and parseIPv4, quoted in each reason).
describe('isValidRegistryHost, IPv6 literals as parseIPv6 reads them', () => {
  const cases: Record<string, { host: string; valid: boolean; reason: string }> = {
    OnlyEllipsis: { host: '[::]', valid: true, reason: '"Might be only ellipsis": IPv6Unspecified.' },
    EllipsisAtEnd: { host: '[1::]', valid: true, reason: 'The "::" "can be at end".' },
    EightFields: { host: '[1:2:3:4:5:6:7:8]', valid: true, reason: 'Eight fields, no ellipsis.' },
    SevenFields: { host: '[1:2:3:4:5:6:7]', valid: false, reason: '"address string too short".' },
    TwoEllipses: { host: '[1::2::3]', valid: false, reason: '"multiple :: in address".' },
    TripleColon: {
      host: '[:::1]',
      valid: false,
      reason:
        'After the leading "::", ":1" has no digit: "each colon-separated field must have at least one digit".',
    },
    NotHex: { host: '[::g]', valid: false, reason: '"g" is no hex digit: no digits found.' },
    NotHexThenHex: { host: '[::g1]', valid: false, reason: 'A field must start with its digits.' },
    NotHexThenColon: {
      host: '[::g:1]',
      valid: false,
      reason: 'No digits before the ":": "each colon-separated field must have at least one digit".',
    },
    OtherSeparator: { host: '[::1x2]', valid: false, reason: '"unexpected character, want colon".' },
    FieldTooLarge: { host: '[::10000]', valid: false, reason: '"IPv6 field has value >=2^16".' },
    LargestField: { host: '[::ffff]', valid: true, reason: '0xffff fits 16 bits.' },
    EmbeddedIPv4Last: {
      host: '[1:2:3:4:5:6:1.2.3.4]',
      valid: true,
      reason: 'An embedded IPv4 replaces the final two fields.',
    },
    EmbeddedIPv4Early: {
      host: '[1:2:3:4:5:1.2.3.4]',
      valid: false,
      reason: '"embedded IPv4 address must replace the final 2 fields of the address".',
    },
    EmbeddedIPv4Short: { host: '[::1.2.3]', valid: false, reason: 'parseIPv4: "IPv4 address too short".' },
    EmbeddedIPv4Long: { host: '[::1.2.3.4.5]', valid: false, reason: 'parseIPv4: "IPv4 address too long".' },
    EmbeddedIPv4Max: { host: '[::1.2.3.255]', valid: true, reason: '255 is the largest octet.' },
    EmbeddedIPv4Large: {
      host: '[::1.2.3.256]',
      valid: false,
      reason: 'parseIPv4: "IPv4 field has value >255".',
    },
    EmbeddedIPv4LeadingZero: {
      host: '[::1.2.3.01]',
      valid: false,
      reason: 'parseIPv4: "IPv4 field has octet with leading zero".',
    },
    EmbeddedIPv4LeadingZeros: { host: '[::1.2.3.001]', valid: false, reason: 'The same, with two zeros.' },
    NoSeparator: {
      host: '[abc]',
      valid: false,
      reason: 'ParseAddr finds neither "." nor ":": no address at all.',
    },
    TextBeforePort: {
      host: '[::1]x:5',
      valid: false,
      reason: 'After "]" only ":" and digits may follow (validOptionalPort of the rest).',
    },
    BracketInside: {
      host: 'a[b]',
      valid: false,
      reason: 'A "[" anywhere but first is an invalid IP-literal (golang/go issue 77578).',
    },
    EmptyHostWithPort: {
      host: ':x',
      valid: false,
      reason: 'The text after the last ":" is the port, and "x" is no digit.',
    },
    C1Control: {
      host: 'a\u0080b.io',
      valid: true,
      reason:
        'U+0080 is the UTF-8 bytes 0xc2 0x80: bytes >= 0x80 pass, and no control byte is below 0x20 or 0x7f.',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(isValidRegistryHost(tc.host), tc.reason).toBe(tc.valid);
  });
});

// go-containerregistry pkg/name (v0.21.8): ParseReference tries NewTag (a last ":"-part without "/" is the tag,
// checked against tagChars) then NewDigest (exactly one "@", then a sha256 hash of 64 hex digits); NewRepository
// takes the first "/"-part as the registry when it holds "." or ":", and checks the repository against
// repositoryChars, 2 to 255 of them. OrgDiffer passes WithDefaultRegistry("").
describe('parseImageContext, reference forms', () => {
  const digest = `sha256:${'a'.repeat(64)}`;
  const cases: Record<string, { ref: string; defaultRegistry?: string; want: unknown; reason: string }> = {
    NoRegistry: {
      ref: 'crossplane/provider-aws:v1',
      want: { registry: '', repository: 'crossplane/provider-aws' },
      reason: 'Without a registry part and with the empty default registry, the registry is "".',
    },
    DefaultRegistry: {
      ref: 'crossplane/provider-aws:v1',
      defaultRegistry: 'xpkg.crossplane.io',
      want: { registry: 'xpkg.crossplane.io', repository: 'crossplane/provider-aws' },
      reason: 'A given default registry applies to references without one.',
    },
    OneSegmentNoTag: {
      ref: 'nginx',
      want: { registry: '', repository: 'nginx' },
      reason: 'No ":" at all: no tag, the whole text is the repository.',
    },
    DottedNoSlash: {
      ref: 'provider.aws',
      want: { registry: '', repository: 'provider.aws' },
      reason: 'Without "/" there is no registry part, dots or not.',
    },
    PortNoTag: {
      ref: 'localhost:5000/o/a',
      want: { registry: 'localhost:5000', repository: 'o/a' },
      reason: 'The last ":"-part "5000/o/a" holds a "/": a port, not a tag.',
    },
    Digest: {
      ref: `r.io/o/a@${digest}`,
      want: { registry: 'r.io', repository: 'o/a' },
      reason: 'A digest reference.',
    },
    ShortDigest: {
      ref: 'r.io/o/a@sha256:abc',
      want: undefined,
      reason: 'A sha256 hash has 64 hex digits.',
    },
    TwoAts: {
      ref: `r.io/o/a@x@${digest}`,
      want: undefined,
      reason: 'NewDigest wants exactly one "@"; as a tag the repository would hold "@".',
    },
    OnlyDigest: { ref: `@${digest}`, want: undefined, reason: 'No repository at all.' },
    BadTag: { ref: 'r.io/o/a:v!1', want: undefined, reason: '"!" is not among tagChars.' },
    TrailingSlashRepository: {
      ref: 'o/:v1',
      want: { registry: '', repository: 'o/' },
      reason: 'The tag is the last ":"-part; "o/" is two of repositoryChars, a valid repository.',
    },
    Localhost: {
      ref: 'localhost/o/a:v1',
      want: { registry: 'localhost', repository: 'o/a' },
      reason: 'v0.21.8 NewRepository takes a first part "localhost" as the registry too.',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(parseImageContext(tc.ref, tc.defaultRegistry), tc.reason).toEqual(tc.want);
  });

  it('never puts an unparsable reference in an organisation, whichever side it is on', () => {
    expect(sameRegistryAndOrg('xpkg.upbound.io/upbound/a:v1', 'Bad/Ref:v1')).toBe(false);
    expect(sameRegistryAndOrg('Bad/Ref:v1', 'xpkg.upbound.io/upbound/a:v1')).toBe(false);
    expect(sameRegistryAndOrg(undefined, 'xpkg.upbound.io/upbound/a:v1')).toBe(false);
  });
});
