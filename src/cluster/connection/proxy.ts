import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/**
 * The proxy a request to TARGET goes through, as kubectl (Go's net/http) chooses it: the cluster's proxy-url when
 * set; else HTTPS_PROXY for https and HTTP_PROXY for http (upper case first, then lower case), unless NO_PROXY
 * matches; never for localhost or a loopback address. Returns undefined for a direct connection.
 */
export function chooseProxy(
  target: URL,
  proxyUrl: string | undefined,
  env: NodeJS.ProcessEnv,
): URL | undefined {
  if (proxyUrl !== undefined) return new URL(proxyUrl);
  const fromEnv =
    target.protocol === 'https:'
      ? envAny(env, 'HTTPS_PROXY', 'https_proxy')
      : envAny(env, 'HTTP_PROXY', 'http_proxy');
  if (fromEnv === undefined) return undefined;
  const host = hostOf(target);
  if (host === 'localhost' || isLoopback(host)) return undefined;
  if (noProxyMatches(envAny(env, 'NO_PROXY', 'no_proxy') ?? '', host, portOf(target))) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(fromEnv) ? fromEnv : `http://${fromEnv}`;
  try {
    return new URL(withScheme);
  } catch {
    return undefined;
  }
}

/**
 * chooseProxy for one run, decided once per scheme and host: Go reads the proxy variables once per process too, and
 * a run sends thousands of requests to the same server (each read of process.env is a call into the runtime).
 */
export function proxyChooser(
  proxyUrl: string | undefined,
  env: NodeJS.ProcessEnv,
): (target: URL) => URL | undefined {
  const chosen = new Map<string, URL | undefined>();
  return (target) => {
    const where = `${target.protocol}//${target.host}`;
    if (chosen.has(where)) return chosen.get(where);
    const proxy = chooseProxy(target, proxyUrl, env);
    chosen.set(where, proxy);
    return proxy;
  };
}

function envAny(env: NodeJS.ProcessEnv, ...names: string[]): string | undefined {
  for (const name of names) {
    const v = env[name];
    if (v !== undefined && v !== '') return v;
  }
  return undefined;
}

/** The URL's host name without IPv6 brackets, lower case. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

export function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

function isLoopback(host: string): boolean {
  const version = isIP(host);
  if (version === 4) return host.startsWith('127.');
  if (version === 6) return host === '::1' || /^(0+:){7}0*1$/.test(host);
  return false;
}

/**
 * NO_PROXY as Go reads it: comma-separated entries; `*` matches everything; an IP or CIDR matches addresses; a
 * name matches itself and its subdomains, `.name` and `*.name` only subdomains; an entry with `:port` only that port.
 */
export function noProxyMatches(noProxy: string, host: string, port: number): boolean {
  for (const raw of noProxy.split(',')) {
    let entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    if (entry.includes('/')) {
      if (isIP(host) !== 0 && cidrContains(entry, host)) return true;
      continue;
    }
    let entryPort: number | undefined;
    const portMatch = /^(.*):(\d+)$/.exec(entry);
    if (portMatch !== null && isIP(entry) !== 6) {
      entry = portMatch[1] ?? '';
      entryPort = Number(portMatch[2]);
    }
    entry = entry.replace(/^\[|\]$/g, '');
    if (entryPort !== undefined && entryPort !== port) continue;
    if (isIP(entry) !== 0) {
      if (entry === host) return true;
      continue;
    }
    if (entry.startsWith('*.')) entry = entry.slice(1);
    // Hosts arrive in ASCII (the URL parser applies IDNA): compare entries spelled in Unicode the same way, as Go.
    if (/\P{ASCII}/u.test(entry)) entry = domainToASCII(entry) || entry;
    if (entry.startsWith('.')) {
      if (host.endsWith(entry)) return true;
      continue;
    }
    if (host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}

function cidrContains(cidr: string, ip: string): boolean {
  const [base, bitsText] = cidr.split('/');
  if (base === undefined || bitsText === undefined) return false;
  const bits = Number(bitsText);
  const a = ipBytes(base);
  const b = ipBytes(ip);
  if (a === undefined || b === undefined || a.length !== b.length || !Number.isInteger(bits)) return false;
  if (bits < 0 || bits > a.length * 8) return false;
  for (let i = 0; i < bits; i++) {
    const byte = Math.floor(i / 8);
    const mask = 0x80 >> (i % 8);
    if (((a[byte] ?? 0) & mask) !== ((b[byte] ?? 0) & mask)) return false;
  }
  return true;
}

function ipBytes(ip: string): number[] | undefined {
  if (isIP(ip) === 4) return ip.split('.').map(Number);
  if (isIP(ip) !== 6) return undefined;
  const [head = '', tail = ''] = ip.split('::');
  const groups = (s: string): string[] => (s === '' ? [] : s.split(':'));
  const h = groups(head);
  const t = groups(tail);
  const all = ip.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  return all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}
