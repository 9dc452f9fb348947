import type { WarningHeader } from '../kube/warning-header.js';
import { UsageError } from '../errors.js';

/** kubectl's global connection flags, as parsed from the command line (undefined = not given). */
export interface ConnectionFlags {
  readonly kubeconfig?: string | undefined;
  readonly context?: string | undefined;
  readonly cluster?: string | undefined;
  readonly user?: string | undefined;
  readonly namespace?: string | undefined;
  readonly server?: string | undefined;
  readonly token?: string | undefined;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  readonly certificateAuthority?: string | undefined;
  readonly clientCertificate?: string | undefined;
  readonly clientKey?: string | undefined;
  readonly insecureSkipTlsVerify?: boolean | undefined;
  readonly tlsServerName?: string | undefined;
  readonly disableCompression?: boolean | undefined;
  readonly as?: string | undefined;
  readonly asUid?: string | undefined;
  readonly asGroup?: readonly string[] | undefined;
  readonly requestTimeout?: string | undefined;
  /** kubectl's -v level: 6 logs one line per request, 7 adds headers, 8 bodies (truncated), 9 and 10 more. */
  readonly verbosity?: number | undefined;
  /**
   * Not a flag: a run across contexts sets it to the context's name, escaped for the terminal, and each -v log line
   * then names it (`[context NAME]` after klog's header). Unset, the lines are kubectl's own.
   */
  readonly logContext?: string | undefined;
  /**
   * Not a flag: a run across contexts sets it to how many requests each context may have in flight (its connection
   * pool is then no larger). Unset, as many as the command sends at once.
   */
  readonly maxInFlight?: number | undefined;
  /**
   * Not a flag: where the API server's warnings go (each answer's Warning headers, parsed), as kubectl hands them to
   * its warning handler. Unset, they are dropped.
   */
  readonly serverWarnings?: ((warnings: readonly WarningHeader[]) => void) | undefined;
}

/** The longest delay a Node timer takes (about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A namespace about to become a segment of a request's path, checked as kubectl checks one it reads in
 * (apimachinery's IsValidPathSegmentName): not "." or "..", no "/" or "%". Returned unchanged; otherwise a usage
 * error with kubectl's words.
 */
export function pathNamespace(namespace: string): string {
  const problems =
    namespace === '.' || namespace === '..'
      ? [`may not be '${namespace}'`]
      : ['/', '%'].filter((c) => namespace.includes(c)).map((c) => `may not contain '${c}'`);
  if (problems.length > 0) {
    throw new UsageError(`invalid namespace "${namespace}": [${problems.join(' ')}]`, {
      hint: 'a namespace is a DNS label, e.g. -n team-a',
    });
  }
  return namespace;
}

/**
 * Parses kubectl's --request-timeout as client-go's clientcmd.ParseTimeout does: a whole number of seconds (Go's
 * strconv.ParseInt, not negative), else a Go duration (time.ParseDuration: 500ms, 30s, 1m30s, 1.5h, signed). Returns
 * milliseconds, or undefined for no limit: 0, and a negative duration, which client-go's HTTP client treats as none.
 * Any other text is a usage error.
 */
export function parseRequestTimeout(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const seconds = /^\+?\d+$/.test(value) && BigInt(value) <= MAX_NS ? Number(value) : undefined;
  const ms = seconds !== undefined ? seconds * 1000 : goDurationMs(value);
  if (ms === undefined) {
    throw new UsageError(`invalid --request-timeout "${value}"`, {
      hint: 'use a whole number of seconds or a duration such as 1s, 2m, 3h, 1m30s (0 = no limit), as kubectl',
    });
  }
  return ms > 0 ? Math.min(ms, MAX_TIMER_MS) : undefined;
}

/** Nanoseconds in each unit Go's time.ParseDuration knows (µ as U+00B5 and U+03BC). */
const UNIT_NS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  '\u00b5s': 1_000n,
  '\u03bcs': 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const MAX_NS = 2n ** 63n - 1n;

/**
 * Go's time.ParseDuration (golang/go src/time/format.go): an optional sign, then one or more decimal numbers each
 * with a unit ("300ms", "-1.5h", "2h45m"), or "0". Returns milliseconds, or undefined where Go fails, including a
 * duration that does not fit in Go's int64 nanoseconds.
 */
export function goDurationMs(text: string): number | undefined {
  const negative = text.startsWith('-');
  let rest = text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text;
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let ns = 0n;
  while (rest !== '') {
    const m = /^(\d*)(?:\.(\d*))?([^\d.]*)/.exec(rest);
    const [whole = '', int = '', frac, unit = ''] = m ?? [];
    if (int === '' && (frac ?? '') === '') return undefined;
    const per = UNIT_NS[unit];
    if (per === undefined) return undefined;
    ns += BigInt(int === '' ? '0' : int) * per;
    if (frac !== undefined && frac !== '') ns += BigInt(Math.floor(Number(`0.${frac}`) * Number(per)));
    if (ns > MAX_NS + (negative ? 1n : 0n)) return undefined;
    rest = rest.slice(whole.length);
  }
  return ((negative ? -1 : 1) * Number(ns)) / 1e6;
}
