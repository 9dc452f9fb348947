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
