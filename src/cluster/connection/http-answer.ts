import type http from 'node:http';
import { constants } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { pipeline, type Readable } from 'node:stream';
import { constants as zlibConstants, createGunzip, gunzipSync } from 'node:zlib';
import { UserError } from '../../errors.js';
import { ApiError, configView, type StatusBody } from '../../port/translate-error.js';

/** One HTTP answer, read whole (and gunzipped). */
export interface Answer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  /** The values of its Warning headers, one per header line (Node joins repeated headers in `headers`). */
  readonly warnings?: readonly string[];
}

/** A 200 answer whose body is read as it arrives (a watch): `body` is empty, `stream` carries the body, gunzipped. */
export interface StreamedAnswer extends Answer {
  readonly stream: Readable;
}

/**
 * The most of one answer's body this client keeps: 512 MiB, and never more than the longest string the runtime makes
 * (V8's is 24 bytes short of 512 MiB), which decoding the JSON needs. client-go reads a body whole with no limit of its
 * own; past this one an answer cannot be decoded here, so it is refused as it arrives (or as it is gunzipped) instead
 * of being gathered until memory runs out.
 */
const MAX_ANSWER_BYTES = Math.min(512 * 1024 * 1024, constants.MAX_STRING_LENGTH);

function answerTooLarge(): UserError {
  return new UserError(
    'the server sent an answer larger than 512 MiB, more than this client can decode: is a proxy in front of the API server?',
    { hint: 'run the command with -v=6 to see the request' },
  );
}

/**
 * A body sent as gzip that zlib cannot read (zlib's Z_... errors: a bad header, a truncated stream, a checksum or
 * length that does not match): kubectl fails alike ("unexpected error when reading response body ... gzip: invalid
 * checksum"). The server's, or a proxy's, not the plugin's.
 */
function notGzip(err: Error): UserError {
  return new UserError(
    `the server's gzipped answer could not be read (${err.message}): is a proxy in front of the API server changing it?`,
    { hint: 'run the command with -v=6 to see the request', cause: err },
  );
}

/** Deflate's greatest expansion: a 258-byte match coded in 2 bits at best, about 1,032 to 1. */
const MAX_DEFLATE_RATIO = 1032;

/**
 * The output buffer for gunzipping BODY whole: the length the body says it has (the last four bytes of its last gzip
 * member, ISIZE: the uncompressed length modulo 2^32, little-endian) and one byte more, so that zlib ends inside one
 * buffer. zlib's default, 16 KiB buffers gathered and then copied into one, made a synced cluster's 40 MB ClusterRole
 * list 2,500 allocations and a copy (its gunzip, decoding and parse: 661 -> 481 ms, medians of 15 in one process).
 * Only a length the body can hold is believed (not more than deflate can expand it to, nor than this client keeps).
 * A false one fails zlib's own check of it, as it did before; the length of the last of several members (a part of
 * the whole) costs buffers, never bytes: zlib goes on into more of them.
 */
function gunzippedSize(body: Buffer): number | undefined {
  // A gzip member is at least a 10-byte header and an 8-byte trailer.
  if (body.length < 18) return undefined;
  const size = body.readUInt32LE(body.length - 4);
  if (size === 0 || size >= MAX_ANSWER_BYTES || size > body.length * MAX_DEFLATE_RATIO) return undefined;
  return Math.max(zlibConstants.Z_MIN_CHUNK, size + 1);
}

/**
 * Reads one answer whole, gunzipped; with PREFIX, a 2xx answer that is not gzipped keeps only the body's first PREFIX
 * bytes (the rest is received and dropped: a large body is neither gathered nor copied). A body past
 * MAX_ANSWER_BYTES (gunzipped) is refused.
 */
export function readAnswer(res: http.IncomingMessage, prefix?: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const status = res.statusCode ?? 0;
    const headers = flattenHeaders(res.headers);
    const limit =
      prefix !== undefined && status >= 200 && status <= 299 && headers['content-encoding'] !== 'gzip'
        ? prefix
        : Infinity;
    const chunks: Buffer[] = [];
    let kept = 0;
    res.on('data', (c: Buffer) => {
      if (kept >= limit) return;
      const part = kept + c.length <= limit ? c : Buffer.from(c.subarray(0, limit - kept));
      if (kept + part.length > MAX_ANSWER_BYTES) {
        chunks.length = 0;
        reject(answerTooLarge());
        res.destroy();
        return;
      }
      chunks.push(part);
      kept += part.length;
    });
    res.on('error', reject);
    res.on('end', () => {
      let body = Buffer.concat(chunks);
      if (headers['content-encoding'] === 'gzip') {
        try {
          const chunkSize = gunzippedSize(body);
          body = gunzipSync(body, {
            maxOutputLength: MAX_ANSWER_BYTES,
            ...(chunkSize !== undefined ? { chunkSize } : {}),
          });
        } catch (err) {
          const code = (err as { code?: unknown }).code;
          if (code === 'ERR_BUFFER_TOO_LARGE') reject(answerTooLarge());
          else if (typeof code === 'string' && code.startsWith('Z_')) reject(notGzip(err as Error));
          else reject(err instanceof Error ? err : new Error(String(err)));
          return;
        }
      }
      resolve({ status, statusText: res.statusMessage ?? '', headers, body, warnings: warningValues(res) });
    });
  });
}

/** A 200 answer as a stream: its body as it arrives, gunzipped when it is gzip (an error of either side ends it). */
export function streamAnswer(res: http.IncomingMessage): StreamedAnswer {
  const headers = flattenHeaders(res.headers);
  const stream =
    headers['content-encoding'] === 'gzip'
      ? pipeline(res, createGunzip(), () => undefined)
      : (res as Readable);
  return {
    status: 200,
    statusText: res.statusMessage ?? '',
    headers,
    body: Buffer.alloc(0),
    stream,
    warnings: warningValues(res),
  };
}

/**
 * The answer's Warning header lines, each apart: apimachinery parses each line on its own, and a malformed warning
 * ends the reading of its own line only (kube/warning-header.ts), which Node's joined value would blur.
 */
function warningValues(res: http.IncomingMessage): readonly string[] {
  // rawHeaders (name, value, name, value...) rather than headersDistinct, which bun's runtime (the standalone
  // executables) may not have.
  const values: string[] = [];
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() === 'warning') values.push(raw[i + 1] ?? '');
  }
  return values;
}

/** The server (or something in front of it) answered with a body that is not JSON. */
export class NotJsonError extends UserError {
  override readonly name = 'NotJsonError';
}

/** What to check when something in front of the API server answered for it, in CONTEXT ('' when none). */
export function proxyHint(context: string): string {
  return `check the server address and proxy settings (${configView(context)}; HTTPS_PROXY, NO_PROXY)`;
}

const MAX_BACKOFF_MS = 5_000;
const MAX_RETRY_AFTER_MS = 10_000;

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\b/i;

/**
 * The JSON of a 2xx answer to METHOD URL (undefined when it has no body); a 2xx answer that is not JSON (a proxy's or
 * a login page) is a NotJsonError, whose hint names CONTEXT (the kubeconfig context, '' when none), and any other
 * answer the ApiError of answerError.
 */
export function jsonAnswer(answer: Answer, method: string, url: URL, context: string): unknown {
  checkJsonAnswer(answer, method, url, context);
  if (answer.body.length === 0) return undefined;
  try {
    return JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw notJson(answer, method, url, context);
  }
}

/**
 * What jsonAnswer checks before it decodes: a 2xx answer (else answerError's ApiError) that is empty or says it is
 * JSON (else a NotJsonError).
 */
export function checkJsonAnswer(answer: Answer, method: string, url: URL, context: string): void {
  if (answer.status < 200 || answer.status > 299) throw answerError(answer);
  if (answer.body.length > 0 && !JSON_TYPE.test(answer.headers['content-type'] ?? '')) {
    throw notJson(answer, method, url, context);
  }
}

function notJson(answer: Answer, method: string, url: URL, context: string): NotJsonError {
  const type = answer.headers['content-type'] ?? '';
  return new NotJsonError(
    `the server answered ${method} ${url.pathname} with ${typeName(type)}, not JSON: is a proxy or a login page in front of the API server?`,
    { hint: proxyHint(context) },
  );
}

function typeName(type: string): string {
  return type === '' ? 'no content type' : (type.split(';')[0] ?? type);
}

/**
 * A non-2xx answer as an ApiError: its Status body (a JSON body that is no Status keeps its text as the message),
 * and Retry-After. Plain text is the message; any other body that is not JSON (a proxy's error page) becomes a
 * message saying so.
 */
export function answerError(answer: Answer): ApiError {
  const type = answer.headers['content-type'] ?? '';
  const text = answer.body.toString('utf8');
  let status: StatusBody | undefined;
  if (answer.body.length > 0 && /^text\/plain\b/i.test(type)) {
    // Plain text is a message (an API server's own text answers, a proxy's one-line errors), as client-go shows it.
    status = { message: text.trim() };
  } else if (answer.body.length > 0 && !JSON_TYPE.test(type)) {
    status = {
      message: `HTTP ${String(answer.status)} ${answer.statusText} with ${typeName(type)}, not a Kubernetes answer: is a proxy in front of the API server?`,
    };
  } else if (answer.body.length > 0) {
    try {
      const parsed: unknown = JSON.parse(text);
      status = typeof parsed === 'object' && parsed !== null ? parsed : { message: text };
    } catch {
      status = { message: text };
    }
  }
  const retryAfter = answer.headers['retry-after'];
  const seconds = retryAfter !== undefined && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  return new ApiError(answer.status, status, seconds);
}

export function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

export function proxyAuthorization(proxy: URL): Record<string, string> {
  if (proxy.username === '') return {};
  const basic = Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`);
  return { 'Proxy-Authorization': `Basic ${basic.toString('base64')}` };
}

/** Impersonate-Extra-* keys are percent-encoded as client-go does (legal header characters pass through). */
export function encodeExtraKey(key: string): string {
  return key.replace(/[^A-Za-z0-9!#$&'*+.^_`|~-]/g, (c) =>
    [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

export function readTokenFile(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (err) {
    throw new UserError(`cannot read the token file ${path}: ${(err as Error).message}`, {
      hint: 'check users[].user.tokenFile in your kubeconfig',
      cause: err,
    });
  }
}

export function retryAfterMs(answer: Answer): number | undefined {
  const value = answer.headers['retry-after'];
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Math.min(Number(value) * 1000, MAX_RETRY_AFTER_MS);
}

/** SLEEP(MS), or until SIGNAL aborts (then throws its reason). */
export async function sleepUnlessAborted(
  sleep: (ms: number) => Promise<void>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal === undefined) return sleep(ms);
  signal.throwIfAborted();
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

export function backoff(attempt: number): number {
  const base = Math.min(200 * 2 ** attempt, MAX_BACKOFF_MS);
  return base / 2 + Math.random() * (base / 2);
}
