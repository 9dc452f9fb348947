import { UserError } from '../errors.js';

/** The parts of a Kubernetes `Status` body the messages use. */
export interface StatusBody {
  readonly message?: string;
  readonly reason?: string;
  readonly code?: number;
}

/** An HTTP error answer from the API server, before translation. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: number,
    readonly status: StatusBody | undefined,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(status?.message ?? `HTTP ${code}`);
  }
}

/** The API server stopped answering: every request of the run fails at once with this, so the caller can stop. */
export class ServerGoneError extends UserError {
  override readonly name = 'ServerGoneError';
}

const STATUS_HINTS: Readonly<Record<number, string>> = {
  400: 'the server rejected the request as malformed; re-run with -v=8 and report it',
  401: 'your credentials were not accepted: log in again or check the user in your kubeconfig',
  403: 'check what you may do with: kubectl auth can-i --list',
  404: 'the resource type or object does not exist on this cluster: is Crossplane installed?',
  409: 'the object changed while the command ran: re-run the command',
  422: 'the object was rejected as invalid',
  429: 'the API server is throttling requests: try again later or lower --concurrency',
  500: 'the API server failed: try again, and check its logs if it persists',
  503: 'the API server is unavailable: try again later',
};

/**
 * What to do about a network error of CODE, for SERVER (a Cluster's describe: the address, and `(context NAME)`
 * when a kubeconfig context was used): the server address to check is the one of that context, which
 * `kubectl config view --minify` shows only when it is the current one.
 */
function networkHint(code: string, server: string): string | undefined {
  const view = configView(/\(context (.+)\)$/.exec(server)?.[1] ?? '');
  if (code === 'ECONNREFUSED') return `is the cluster running? check the server address with: ${view}`;
  if (code === 'ENOTFOUND') return `the server name does not resolve: check the server address with: ${view}`;
  return NETWORK_HINTS[code];
}

/**
 * The command that shows the server address, proxy and credentials of CONTEXT (none: '', a run with --server and no
 * kubeconfig): `--minify` alone shows the current context's, which need not be the one a command used.
 */
export function configView(context: string): string {
  return `kubectl config view --minify${context !== '' ? ` --context ${shellWord(context)}` : ''}`;
}

/** WORD as a shell reads it back: as it is when it holds nothing the shell treats specially, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

const NETWORK_HINTS: Readonly<Record<string, string>> = {
  EAI_AGAIN: 'the server name does not resolve: check DNS and the server address',
  ETIMEDOUT: 'the server did not answer: check the network or raise --request-timeout',
  ETLSTIMEDOUT:
    'the server accepted the connection but not a TLS handshake: check the server address and port',
  ECONNRESET: 'the connection was dropped: try again',
  EHOSTUNREACH: 'the server is unreachable: check the network',
  ENETUNREACH: 'the network is unreachable',
};

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_NOT_YET_VALID',
  'EPROTO',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** Translates any client error into a one-line `UserError` that says what failed while doing what. */
export function translateError(err: unknown, doing: string, server: string): UserError {
  if (err instanceof UserError) return err;
  if (err instanceof ApiError) {
    const detail = err.status?.message ?? `HTTP ${err.code}`;
    return new UserError(`${statusWord(err.code)} while ${doing}: ${detail}`, {
      hint:
        STATUS_HINTS[err.code] ?? STATUS_HINTS[Math.floor(err.code / 100) * 100] ?? 'see the message above',
      cause: err,
    });
  }
  const code = errorCode(err);
  if (code !== undefined && (TLS_CODES.has(code) || code.startsWith('ERR_SSL_'))) {
    const detail = code.startsWith('ERR_SSL_') ? opensslReason(err) : firstLine(err);
    return new UserError(`TLS error while ${doing} at ${server}: ${detail}`, {
      hint: /_ALERT_(CERTIFICATE_REQUIRED|BAD_CERTIFICATE)$/.test(code)
        ? 'the server wants a client certificate it trusts: check client-certificate and client-key in your kubeconfig (or --client-certificate and --client-key)'
        : 'check certificate-authority in your kubeconfig (or insecure-skip-tls-verify for a test cluster)',
      cause: err,
    });
  }
  const hint = code === undefined ? undefined : networkHint(code, server);
  if (code !== undefined && hint !== undefined) {
    // The dialer's own errors say what timed out and after how long; Node's say little beyond their code.
    const detail = err instanceof Error && err.name === 'DialError' ? `: ${err.message}` : ` (${code})`;
    return new UserError(`cannot reach the API server at ${server} while ${doing}${detail}`, {
      hint,
      cause: err,
    });
  }
  if (isAbort(err)) {
    return new UserError(`request to ${server} timed out while ${doing}`, {
      hint: 'raise --request-timeout or check the network',
      cause: err,
    });
  }
  return new UserError(`failed while ${doing}: ${firstLine(err)}`, {
    hint: 're-run with -v=6 to see the requests, or --stack-traces for a bug report',
    cause: err,
  });
}

function statusWord(code: number): string {
  switch (code) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not found';
    case 409:
      return 'conflict';
    case 422:
      return 'invalid';
    case 429:
      return 'too many requests';
    default:
      return `HTTP ${code}`;
  }
}

/**
 * Whether ERR (or its cause) is a connection that failed or timed out, which connecting again may mend: a network
 * error code or a request timeout, not an answer of the server (an ApiError) nor a certificate that is refused.
 */
export function connectionFailed(err: unknown): boolean {
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    if (e instanceof ApiError) return false;
    if (isAbort(e)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  // A system error's code (ECONNRESET, ETIMEDOUT, the dialer's ETLSTIMEDOUT), not Node's ERR_* of a bad argument.
  const code = errorCode(err);
  return code !== undefined && /^E[A-Z0-9_]+$/.test(code) && !code.startsWith('ERR_') && !TLS_CODES.has(code);
}

/** The Node-style error code (ECONNRESET, ...) of ERR or of its causes. */
export function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; errno?: unknown; cause?: unknown };
  if (typeof e.code === 'string') return e.code;
  if (typeof e.errno === 'string') return e.errno;
  if (e.cause !== undefined && e.cause !== err) return errorCode(e.cause);
  return undefined;
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

/** OpenSSL's reason ("tlsv13 alert certificate required") rather than its error stack with file names. */
function opensslReason(err: unknown): string {
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    const { reason, cause } = e as { reason?: unknown; cause?: unknown };
    if (typeof reason === 'string' && reason !== '') return reason;
    e = cause;
  }
  return firstLine(err);
}

function firstLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0] ?? msg;
}
