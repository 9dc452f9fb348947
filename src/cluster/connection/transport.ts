import http from 'node:http';
import https from 'node:https';
import { newAgent } from './dial.js';
import { InFlight } from './in-flight.js';
import type { ExecCredential, ExecDeadline, ExecIo } from './exec-credential-types.js';
import { proxyChooser } from './proxy.js';
import type { RestConfig } from './rest-config.js';
import {
  backoff,
  encodeExtraKey,
  proxyAuthorization,
  readAnswer,
  retryAfterMs,
  sleepUnlessAborted,
  streamAnswer,
  type Answer,
  type StreamedAnswer,
} from './http-answer.js';
import { RequestAuth } from './request-auth.js';
import { RequestLog } from './request-log.js';
import { ServerGoneError, errorCode } from '../../port/translate-error.js';
import { parseWarningHeaders, type WarningHeader } from '../../kube/warning-header.js';

/** With no --request-timeout, a request that receives nothing for this long fails (kubectl would wait forever). */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/** Connection failures are retried until the server has given no answer at all for this long. */
export const GONE_AFTER_MS = 30_000;
/** Answers that ask to be retried (429, 5xx) are retried this many times. */
const MAX_ANSWER_RETRIES = 5;

/** Network errors after which the same request may be sent again (nothing was done, or the write is guarded). */
const RETRIABLE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** Failures that, before the server has ever answered, mean the address is wrong rather than a blink. */
const ADDRESS_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH']);
const RETRIABLE_STATUS = new Set([429, 500, 502, 503, 504]);

/** How one request is read: SIGNAL abandons it; with STREAM_IDLE_MS a 200 answer streams (see stream()). */
interface ReadMode {
  readonly signal?: AbortSignal;
  readonly streamIdleMs?: number;
  /** Keep only this many bytes of a 2xx answer's body (see request). */
  readonly bodyPrefix?: number;
}

/**
 * How long an exec credential plugin may run: as long as a request may take (--request-timeout; 0: no limit), else
 * as long as a silent server is waited for. client-go sets none (see exec-credential-run.ts).
 */
function execDeadline(requestTimeoutMs: number | undefined): ExecDeadline {
  if (requestTimeoutMs === undefined)
    return { ms: DEFAULT_IDLE_TIMEOUT_MS, name: seconds(DEFAULT_IDLE_TIMEOUT_MS) };
  return requestTimeoutMs > 0
    ? { ms: requestTimeoutMs, name: `--request-timeout ${seconds(requestTimeoutMs)}` }
    : undefined;
}

function seconds(ms: number): string {
  return `${String(ms / 1000)}s`;
}

function timeoutError(message: string): Error {
  return Object.assign(new Error(message), { code: 'ETIMEDOUT' });
}

export interface TransportDeps {
  readonly env: NodeJS.ProcessEnv;
  readonly userAgent: string;
  /** Where -v request logs go (stderr). */
  readonly log: (line: string) => void;
  readonly execIo: ExecIo;
  readonly pid: number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Where the warnings of each answer the transport returns go, parsed (client-go drops malformed ones too). */
  readonly warn?: ((warnings: readonly WarningHeader[]) => void) | undefined;
}

/**
 * The one HTTP transport of a run: one keep-alive pool (direct or through the proxy kubectl would use), kubectl's authentication (token, token file, basic, client certificate,
 * exec plugin run once and shared), impersonation, a real User-Agent, gzip, timeouts that never hang, retries of
 * what is safe to retry, and kubectl's -v request logs.
 */
export class Transport {
  private readonly agents = new Map<string, http.Agent>();
  private readonly proxyFor: (target: URL) => URL | undefined;
  private readonly auth: RequestAuth;
  private readonly log: RequestLog;
  private readonly secure: boolean;
  private failingSince: number | undefined;
  private answered = false;
  private gone: ServerGoneError | undefined;
  private closed = false;
  private readonly sleep: (ms: number) => Promise<void>;
  /** The requests in flight, when limited (a run across contexts); a watch's stream is never counted. */
  private readonly inFlight: InFlight | undefined;

  constructor(
    private readonly config: RestConfig,
    private readonly deps: TransportDeps,
    verbosity: number,
    logContext?: string,
    maxInFlight?: number,
  ) {
    this.inFlight = maxInFlight === undefined ? undefined : new InFlight(maxInFlight);
    this.secure = config.server.startsWith('https:');
    this.proxyFor = proxyChooser(config.proxyUrl, deps.env);
    this.log = new RequestLog(verbosity, deps.log, deps.pid, logContext);
    this.sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.auth = new RequestAuth(config, deps.execIo, this.secure, execDeadline(config.requestTimeoutMs));
  }

  /**
   * Closes the pooled connections so the process can exit. The requests still in flight (the command has already
   * failed, or it would not close) fail at once: none is retried on a new connection, where it would wait for a
   * second timeout before the process could exit.
   */
  close(): void {
    this.closed = true;
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  /**
   * One request read whole: METHOD to URL with HEADERS (Content-Type, Accept) and BODY, with the run's credentials,
   * retries, breaker and -v logs. Every call of the adapter but the watch's comes here (connect.ts). BODY_PREFIX:
   * of a 2xx answer only the body's first bytes are wanted (a write's answer echoes the object, which nothing reads);
   * the rest is received and dropped, not gathered. Any other answer, and every answer at -v=8 and above (which
   * prints bodies), is read whole.
   */
  request(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    bodyPrefix?: number,
  ): Promise<Answer> {
    return this.roundTrip(
      url,
      method,
      headers,
      body,
      bodyPrefix !== undefined && !this.log.showsBodies() ? { bodyPrefix } : {},
    );
  }

  /** A GET read whole (a list page), with everything request() does; SIGNAL abandons it (its socket is destroyed). */
  get(url: URL, signal: AbortSignal): Promise<Answer> {
    return this.roundTrip(url, 'GET', {}, undefined, { signal });
  }

  /**
   * A GET whose 200 answer is read as it arrives (a watch), with everything request() does up to the answer's headers
   * (credentials, proxies, retries, the breaker, -v logs); any other answer is read whole. Once streaming, the
   * request timeouts give way to IDLE_MS: nothing received for that long fails the stream with ETIMEDOUT (a silent
   * half-open connection). SIGNAL destroys the request or the stream.
   */
  stream(url: URL, signal: AbortSignal, idleMs: number): Promise<Answer | StreamedAnswer> {
    return this.roundTrip(url, 'GET', {}, undefined, { signal, streamIdleMs: idleMs });
  }

  private async roundTrip(
    url: URL,
    method: string,
    fromClient: Record<string, string>,
    body: string | undefined,
    mode: ReadMode,
  ): Promise<Answer | StreamedAnswer> {
    let answerRetries = 0;
    let refreshedAuth = false;
    for (let attempt = 0; ; attempt++) {
      mode.signal?.throwIfAborted();
      if (this.gone !== undefined) throw this.gone;
      if (this.closed) throw new Error(`${method} ${url.pathname}: the connection was closed`);
      const auth = await this.auth.authorization();
      const headers = this.headers(fromClient, auth.header, body);
      const started = Date.now();
      let answer: Answer;
      try {
        this.log.request(method, url, headers, body);
        const send = (): Promise<Answer> => this.exchange(url, method, headers, body, auth.credential, mode);
        answer =
          this.inFlight === undefined || mode.streamIdleMs !== undefined
            ? await send()
            : await this.inFlight.run(send);
      } catch (err) {
        if (this.closed || mode.signal?.aborted === true) throw err;
        this.log.failure(method, url, err, Date.now() - started);
        const code = errorCode(err);
        // Before the server has ever answered, a refused connection means a wrong address: fail at once, as
        // kubectl does. After, it means the server is restarting or the network blinked: retry for a while.
        if (!this.answered && code !== undefined && ADDRESS_CODES.has(code)) throw err;
        const now = Date.now();
        this.failingSince ??= now;
        const silentFor = now - this.failingSince;
        if (code !== undefined && RETRIABLE_CODES.has(code) && silentFor < GONE_AFTER_MS) {
          await sleepUnlessAborted(this.sleep, backoff(attempt), mode.signal);
          continue;
        }
        if (code !== undefined && RETRIABLE_CODES.has(code)) {
          this.gone = new ServerGoneError(
            `lost the API server at ${this.config.server}: no answer for ${String(Math.round(silentFor / 1000))}s (${code})`,
            {
              hint: 'check the cluster and the network, then re-run the command: it continues where this run stopped',
              cause: err,
            },
          );
          throw this.gone;
        }
        throw err;
      }
      this.failingSince = undefined;
      this.answered = true;
      this.log.response(method, url, answer, Date.now() - started);
      if (
        answer.status === 401 &&
        !refreshedAuth &&
        (await this.auth.refreshAfterUnauthorized(auth.credential))
      ) {
        refreshedAuth = true;
        continue;
      }
      if (RETRIABLE_STATUS.has(answer.status) && answerRetries < MAX_ANSWER_RETRIES) {
        answerRetries++;
        await sleepUnlessAborted(this.sleep, retryAfterMs(answer) ?? backoff(answerRetries), mode.signal);
        continue;
      }
      // As client-go, the warnings of the answer returned only (not of one retried), the watch's included.
      if (answer.warnings !== undefined && answer.warnings.length > 0 && this.deps.warn !== undefined) {
        this.deps.warn(parseWarningHeaders(answer.warnings).warnings);
      }
      return answer;
    }
  }

  private headers(
    fromClient: Record<string, string>,
    authorization: string | undefined,
    body: string | undefined,
  ): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = { ...fromClient };
    headers['User-Agent'] = this.deps.userAgent;
    // A request for a particular form (`as=`: a metadata-only list, aggregated discovery) keeps its Accept;
    // anything else asks for JSON.
    const accept = fromClient.Accept ?? fromClient.accept;
    headers.Accept = accept?.includes(';as=') === true ? accept : 'application/json, */*';
    if (!this.config.disableCompression) headers['Accept-Encoding'] = 'gzip';
    if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
    const imp = this.config.impersonate;
    if (imp.user !== undefined) {
      headers['Impersonate-User'] = imp.user;
      if (imp.uid !== undefined) headers['Impersonate-Uid'] = imp.uid;
      if (imp.groups.length > 0) headers['Impersonate-Group'] = [...imp.groups];
      for (const [key, values] of Object.entries(imp.extra)) {
        headers[`Impersonate-Extra-${encodeExtraKey(key)}`] = [...values];
      }
    }
    if (authorization !== undefined) headers.Authorization = authorization;
    return headers;
  }

  private exchange(
    url: URL,
    method: string,
    headers: Record<string, string | string[]>,
    body: string | undefined,
    credential: ExecCredential | undefined,
    mode: ReadMode,
  ): Promise<Answer | StreamedAnswer> {
    const proxy = this.proxyFor(url);
    // A plain-http target behind an HTTP proxy is asked for in absolute form, as Go does; anything else tunnels.
    const absoluteForm = url.protocol === 'http:' && proxy !== undefined && proxy.protocol === 'http:';
    const target = absoluteForm ? proxy : url;
    const options: http.RequestOptions = {
      method,
      host: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port === '' ? (target.protocol === 'https:' ? 443 : 80) : Number(target.port),
      path: absoluteForm ? url.href : `${url.pathname}${url.search}`,
      headers: absoluteForm ? { ...headers, ...proxyAuthorization(proxy), Host: url.host } : headers,
      agent: this.agent(url, absoluteForm ? undefined : proxy, credential),
    };
    const limit = this.config.requestTimeoutMs;
    const { signal, streamIdleMs, bodyPrefix } = mode;
    return new Promise<Answer | StreamedAnswer>((resolve, reject) => {
      let streaming = false;
      const settle = (): void => {
        clearTimeout(deadline);
        if (!streaming) signal?.removeEventListener('abort', onAbort);
      };
      const req = (url.protocol === 'https:' ? https : http).request(options, (res) => {
        if (streamIdleMs !== undefined && res.statusCode === 200) {
          streaming = true;
          settle();
          // The request's idle limit gives way to the stream's: a socket idle this long is dead (the server ends a
          // watch by its timeoutSeconds, bookmarks or not).
          req.removeAllListeners('timeout');
          res.setTimeout(streamIdleMs, () => {
            res.destroy(timeoutError(`the watch sent nothing for ${String(streamIdleMs / 1000)}s`));
          });
          res.on('close', () => signal?.removeEventListener('abort', onAbort));
          resolve(streamAnswer(res));
          return;
        }
        readAnswer(res, bodyPrefix).then(
          (answer) => {
            settle();
            resolve(answer);
          },
          (err: unknown) => {
            settle();
            reject(err instanceof Error ? err : new Error(String(err)));
          },
        );
      });
      const fail = (code: string, message: string): void => {
        req.destroy(Object.assign(new Error(message), { code }));
      };
      // Abandoned by the caller: the request and any answer streaming in are destroyed with their socket.
      const onAbort = (): void => {
        req.destroy(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted === true) onAbort();
      const deadline =
        limit !== undefined && limit > 0
          ? setTimeout(() => {
              fail('ETIMEDOUT', `the request took longer than --request-timeout ${String(limit / 1000)}s`);
            }, limit)
          : undefined;
      if (limit === undefined) {
        // A watch waits for its answer as long as it may stay silent once streaming: a server (or a proxy) that holds
        // the answer's headers back until the first event must not end a watch of a quiet kind after a minute.
        const idleMs = streamIdleMs ?? DEFAULT_IDLE_TIMEOUT_MS;
        req.setTimeout(idleMs, () => {
          fail('ETIMEDOUT', `the server sent nothing for ${String(idleMs / 1000)}s`);
        });
      }
      req.on('error', (err) => {
        settle();
        reject(err);
      });
      req.end(body);
    });
  }

  private agent(url: URL, proxy: URL | undefined, credential: ExecCredential | undefined): http.Agent {
    const key = `${url.protocol}|${proxy?.href ?? ''}|${credential?.clientCertificateData ?? ''}`;
    let agent = this.agents.get(key);
    if (agent === undefined) {
      const exec =
        credential?.clientCertificateData !== undefined && credential.clientKeyData !== undefined
          ? { cert: credential.clientCertificateData, key: credential.clientKeyData }
          : undefined;
      agent = newAgent(url.protocol, proxy, this.config.tls, exec);
      this.agents.set(key, agent);
    }
    return agent;
  }
}
