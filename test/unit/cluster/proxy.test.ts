// kubectl chooses proxies with Go's golang.org/x/net/http/httpproxy. These tables are transcribed from its tests,
// golang/net http/httpproxy/proxy_test.go (proxyForURLTests, UseProxyTests with its noProxy list,
// TestInvalidNoProxy, TestAllNoProxy). Rows left out, and why:
// - the CGI rows (REQUEST_METHOD set): a CGI guard for servers, not something a kubectl plugin runs under;
// - "ftp://insecure.tld/": the API server is always http or https;
// - "http://[1000::%25.example.com]:123": Node's URL parser rejects IPv6 zone identifiers.
import { describe, expect, it } from 'vitest';
import { chooseProxy, noProxyMatches, proxyChooser } from '../../../src/cluster/connection/proxy.js';

interface ProxyForUrlCase {
  readonly env: { HTTP_PROXY?: string; HTTPS_PROXY?: string; NO_PROXY?: string };
  /** The URL fetched; Go's default is http://example.com. */
  readonly req?: string;
  /** The proxy URL, as Go prints it, or "<nil>" for a direct connection. */
  readonly want: string;
}

const proxyForUrl: readonly ProxyForUrlCase[] = [
  { env: { HTTP_PROXY: '127.0.0.1:8080' }, want: 'http://127.0.0.1:8080' },
  { env: { HTTP_PROXY: 'cache.corp.example.com:1234' }, want: 'http://cache.corp.example.com:1234' },
  { env: { HTTP_PROXY: 'cache.corp.example.com' }, want: 'http://cache.corp.example.com' },
  // A single label is recognised as a scheme by url.Parse in Go.
  { env: { HTTP_PROXY: 'localhost' }, want: 'http://localhost' },
  { env: { HTTP_PROXY: 'https://cache.corp.example.com' }, want: 'https://cache.corp.example.com' },
  { env: { HTTP_PROXY: 'http://127.0.0.1:8080' }, want: 'http://127.0.0.1:8080' },
  { env: { HTTP_PROXY: 'https://127.0.0.1:8080' }, want: 'https://127.0.0.1:8080' },
  { env: { HTTP_PROXY: 'socks5://127.0.0.1' }, want: 'socks5://127.0.0.1' },
  // Unknown schemes are kept.
  { env: { HTTP_PROXY: 'foo://host' }, want: 'foo://host' },
  // The secure proxy is not used for http...
  {
    env: { HTTP_PROXY: 'http.proxy.tld', HTTPS_PROXY: 'secure.proxy.tld' },
    req: 'http://insecure.tld/',
    want: 'http://http.proxy.tld',
  },
  // ... and is for https.
  {
    env: { HTTP_PROXY: 'http.proxy.tld', HTTPS_PROXY: 'secure.proxy.tld' },
    req: 'https://secure.tld/',
    want: 'http://secure.proxy.tld',
  },
  {
    env: { HTTP_PROXY: 'http.proxy.tld', HTTPS_PROXY: 'https://secure.proxy.tld' },
    req: 'https://secure.tld/',
    want: 'https://secure.proxy.tld',
  },
  { env: { HTTP_PROXY: 'http.proxy.tld' }, req: 'https://secure.tld/', want: '<nil>' },
  { env: {}, want: '<nil>' },
  { env: { NO_PROXY: 'example.com', HTTP_PROXY: 'proxy' }, req: 'http://example.com/', want: '<nil>' },
  {
    env: { NO_PROXY: '.example.com', HTTP_PROXY: 'proxy' },
    req: 'http://example.com/',
    want: 'http://proxy',
  },
  { env: { NO_PROXY: 'ample.com', HTTP_PROXY: 'proxy' }, req: 'http://example.com/', want: 'http://proxy' },
  { env: { NO_PROXY: 'example.com', HTTP_PROXY: 'proxy' }, req: 'http://foo.example.com/', want: '<nil>' },
  { env: { NO_PROXY: '.foo.com', HTTP_PROXY: 'proxy' }, req: 'http://example.com/', want: 'http://proxy' },
  // Internationalised names match in either spelling.
  { env: { NO_PROXY: '.示例.com', HTTP_PROXY: 'proxy' }, req: 'http://www.示例.com', want: '<nil>' },
  { env: { NO_PROXY: 'xn--fsq092h.com', HTTP_PROXY: 'proxy' }, req: 'http://www.示例.com', want: '<nil>' },
  { env: { NO_PROXY: '示例.com', HTTP_PROXY: 'proxy' }, req: 'http://www.xn--fsq092h.com', want: '<nil>' },
];

/** Go prints a URL without the trailing slash of an empty path. */
function asGoPrints(url: URL | undefined): string {
  return url === undefined ? '<nil>' : url.href.replace(/\/$/, '');
}

describe('chooseProxy, as Go ProxyFromEnvironment', () => {
  it.each(proxyForUrl)('$env with $req', (tc) => {
    const req = new URL(tc.req ?? 'http://example.com');
    expect(asGoPrints(chooseProxy(req, undefined, tc.env))).toBe(tc.want);
  });

  it('reads the lower-case variables when the upper-case ones are unset, upper case first', () => {
    const req = new URL('https://example.com');
    expect(asGoPrints(chooseProxy(req, undefined, { https_proxy: 'lower' }))).toBe('http://lower');
    expect(asGoPrints(chooseProxy(req, undefined, { HTTPS_PROXY: 'upper', https_proxy: 'lower' }))).toBe(
      'http://upper',
    );
    expect(asGoPrints(chooseProxy(req, undefined, { HTTPS_PROXY: 'p', no_proxy: 'example.com' }))).toBe(
      '<nil>',
    );
  });

  it("uses the cluster's proxy-url whatever the environment says, as kubectl does", () => {
    const req = new URL('https://127.0.0.1:6443');
    const env = { HTTPS_PROXY: 'http://env-proxy', NO_PROXY: '*' };
    expect(asGoPrints(chooseProxy(req, 'socks5://proxy:1080', env))).toBe('socks5://proxy:1080');
  });
});

/** NO_PROXY of Go's TestUseProxy. */
const noProxy =
  'foobar.com, .barbaz.net, *.wildcard.io, 192.168.1.1, 192.168.1.2:81, 192.168.1.3:80, 10.0.0.0/30, 2001:db8::52:0:1, [2001:db8::52:0:2]:443, [2001:db8::52:0:3]:80, 2002:db8:a::45/64';

/** Host (requested on port 80) and whether Go uses the proxy for it. */
const useProxy: readonly [string, boolean, string][] = [
  ['localhost', false, 'never proxy localhost'],
  ['127.0.0.1', false, 'never proxy loopback'],
  ['127.0.0.2', false, 'never proxy loopback'],
  ['[::1]', false, 'never proxy loopback'],
  ['[::2]', true, 'not a loopback address'],
  ['192.168.1.1', false, 'matches exact IPv4'],
  ['192.168.1.2', true, 'ports do not match'],
  ['192.168.1.3', false, 'matches exact IPv4:port'],
  ['192.168.1.4', true, 'no match'],
  ['10.0.0.2', false, 'matches IPv4/CIDR'],
  ['[2001:db8::52:0:1]', false, 'matches exact IPv6'],
  ['[2001:db8::52:0:2]', true, 'no match'],
  ['[2001:db8::52:0:3]', false, 'matches exact [IPv6]:port'],
  ['[2002:db8:a::123]', false, 'matches IPv6/CIDR'],
  ['[fe80::424b:c8be:1643:a1b6]', true, 'no match'],
  ['barbaz.net', true, 'does not match as .barbaz.net'],
  ['www.barbaz.net', false, 'does match as .barbaz.net'],
  ['foobar.com', false, 'does match as foobar.com'],
  ['www.foobar.com', false, 'match because NO_PROXY includes "foobar.com"'],
  ['foofoobar.com', true, 'not match as a part of foobar.com'],
  ['baz.com', true, 'not match as a part of barbaz.com'],
  ['localhost.net', true, 'not match as suffix of address'],
  ['local.localhost', true, 'not match as prefix as address'],
  ['barbarbaz.net', true, 'not match, wrong domain'],
  ['wildcard.io', true, 'does not match as *.wildcard.io'],
  ['nested.wildcard.io', false, 'match as *.wildcard.io'],
  ['awildcard.io', true, "not a match because of '*'"],
];

const proxied = (host: string, no: string): boolean =>
  chooseProxy(new URL(`http://${host}:80/`), undefined, { HTTP_PROXY: 'http://proxy', NO_PROXY: no }) !==
  undefined;

describe('NO_PROXY, as Go useProxy', () => {
  it.each(useProxy)('%s: proxied=%s (%s)', (host, want) => {
    expect(proxied(host, noProxy)).toBe(want);
  });

  it.each(useProxy)('%s: never proxied with NO_PROXY=*', (host) => {
    expect(proxied(host, '*')).toBe(false);
  });

  it('an entry with no host (":1") matches nothing and does not throw', () => {
    expect(proxied('example.com', ':1')).toBe(true);
    expect(noProxyMatches(':1', 'example.com', 80)).toBe(false);
  });
});

describe('proxyChooser: one decision per scheme and host for a run', () => {
  it('gives the same proxies as Go, reading the variables once per scheme and host', () => {
    for (const c of proxyForUrl) {
      const reads: string[] = [];
      const vars: Record<string, string | undefined> = { ...c.env };
      const env = new Proxy(vars, {
        get: (target, name): string | undefined => {
          if (typeof name !== 'string') return undefined;
          reads.push(name);
          return target[name];
        },
      });
      const choose = proxyChooser(undefined, env);
      const url = new URL(c.req ?? 'http://example.com');
      const first = choose(url);
      const readsOnce = reads.length;
      const again = choose(new URL(`${url.href}${url.href.endsWith('/') ? '' : '/'}other/path?x=1`));
      expect(first?.href.replace(/\/$/, '') ?? '<nil>', JSON.stringify(c)).toBe(c.want);
      expect(again, JSON.stringify(c)).toBe(first);
      expect(reads.length, 'no second read of the environment').toBe(readsOnce);
    }
  });

  it('decides each host apart: NO_PROXY may exempt one and not another', () => {
    const choose = proxyChooser(undefined, {
      HTTPS_PROXY: 'http://proxy:3128',
      NO_PROXY: 'internal.example',
    });
    expect(choose(new URL('https://api.internal.example:6443/api'))).toBeUndefined();
    expect(choose(new URL('https://api.example.com:6443/api'))?.href).toBe('http://proxy:3128/');
    expect(choose(new URL('http://api.example.com:6443/api'))).toBeUndefined();
    expect(choose(new URL('https://api.internal.example:6443/apis'))).toBeUndefined();
  });
});
