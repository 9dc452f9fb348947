import type { IncomingHttpHeaders } from 'node:http';
import { escapeTerminal } from '../../escape.js';

/**
 * kubectl's request logging by -v level, in klog's line format: 6 one line per request (verb, URL, status, time),
 * 7 adds the request headers, 8 the response headers and bodies cut at 1 KiB, 9 at 10 KiB, 10 whole. In a run
 * across contexts, whose runs log side by side, each line names its CONTEXT (given escaped) after klog's header.
 * Each line is escaped for the terminal (src/escape.ts), a body's line breaks included, so one line stays one line.
 */
export class RequestLog {
  private readonly prefix: string;

  constructor(
    private readonly level: number,
    private readonly write: (line: string) => void,
    private readonly pid: number,
    context?: string,
  ) {
    this.prefix = context === undefined ? '' : `[context ${context}] `;
  }

  request(
    method: string,
    url: URL,
    headers: Record<string, string | string[]>,
    body: string | undefined,
  ): void {
    if (this.level < 7) return;
    this.line(`${method} ${shown(url)}`);
    this.line('Request Headers:');
    for (const [name, value] of Object.entries(headers)) {
      if (BELOW_THE_LOG.has(name.toLowerCase())) continue;
      for (const v of Array.isArray(value) ? value : [value])
        this.line(`    ${canonicalHeaderKey(name)}: ${maskSecret(name, v)}`);
    }
    if (this.level >= 8 && body !== undefined) this.line(`Request Body: ${this.truncate(body)}`);
  }

  response(
    method: string,
    url: URL,
    answer: {
      status: number;
      statusText: string;
      headers: IncomingHttpHeaders | Record<string, string>;
      body: Buffer;
    },
    ms: number,
  ): void {
    if (this.level < 6) return;
    const status = `${String(answer.status)} ${answer.statusText}`.trim();
    if (this.level < 7) {
      this.line(`${method} ${shown(url)} ${status} in ${String(ms)} milliseconds`);
      return;
    }
    this.line(`Response Status: ${status} in ${String(ms)} milliseconds`);
    if (this.level < 8) return;
    this.line('Response Headers:');
    // Node lower-cases an answer's header names (http-answer.ts reads them so too).
    const unzipped = answer.headers['content-encoding'] === 'gzip';
    for (const [name, value] of Object.entries(answer.headers)) {
      if (unzipped && BELOW_THE_LOG.has(name.toLowerCase())) continue;
      this.line(`    ${canonicalHeaderKey(name)}: ${String(value)}`);
    }
    // The API server ends a JSON body with a newline; klog ends the line there, as this does.
    this.line(`Response Body: ${this.truncate(answer.body.toString('utf8').replace(/\n$/, ''))}`);
  }

  /** Whether response bodies are printed (-v=8 and above). */
  showsBodies(): boolean {
    return this.level >= 8;
  }

  failure(method: string, url: URL, err: unknown, ms: number): void {
    if (this.level < 6) return;
    const message = err instanceof Error ? err.message : String(err);
    this.line(`${method} ${shown(url)}  in ${String(ms)} milliseconds: ${message}`);
  }

  /** A line of the exec credential plugin's life (run, cached, refreshed), shown from -v=6. */
  note(text: string): void {
    if (this.level >= 6) this.line(text);
  }

  private truncate(text: string): string {
    const max = this.level >= 10 ? Infinity : this.level >= 9 ? 10_240 : 1_024;
    return text.length > max ? `${text.slice(0, max)} [truncated ${String(text.length - max)} chars]` : text;
  }

  private line(text: string): void {
    // What is logged comes from the server (status text, headers, bodies, failures): escaped for the terminal.
    this.write(`${klogHeader(new Date(), this.pid)}] ${this.prefix}${escapeTerminal(text)}\n`);
  }
}

/**
 * The headers kubectl's log never shows, because Go's transport handles them below the round tripper that logs: it
 * asks for gzip itself (Accept-Encoding, in the request's extra headers) and writes Content-Length from the request's
 * length, not its headers; when it unzips an answer it asked gzip for, it deletes the answer's Content-Encoding and
 * Content-Length (golang/go src/net/http/transport.go, persistConn.roundTrip's requestedGzip and readLoop's addedGzip).
 * The plugin's transport does the same work above its log, so its log leaves them out as kubectl's does.
 */
const BELOW_THE_LOG = new Set(['accept-encoding', 'content-encoding', 'content-length']);

/** RFC 9110's tchar: the bytes of a token, a header name's. */
const TOKEN = /^[-!#$%&'*+.^_`|~0-9A-Za-z]*$/;

/**
 * A header name as Go's http.Header keeps it, so as kubectl's log prints it (Node hands response headers over in
 * lower case): the first letter and each letter after a hyphen upper case, the others lower case; a name with a byte
 * that is no token byte (a space, non-ASCII) unchanged (golang/go src/net/textproto/reader.go
 * CanonicalMIMEHeaderKey, checked against its test table in test/fixtures/go/).
 */
export function canonicalHeaderKey(name: string): string {
  if (!TOKEN.test(name)) return name;
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

/** The URL as sent: a fragment (client-node puts one in some paths) never leaves the client, so kubectl shows none. */
function shown(url: URL): string {
  return `${url.origin}${url.pathname}${url.search}`;
}

function maskSecret(name: string, value: string): string {
  if (name.toLowerCase() !== 'authorization' && name.toLowerCase() !== 'proxy-authorization') return value;
  const scheme = value.split(' ')[0] ?? '';
  return `${scheme} <masked>`;
}

/** klog's "Immdd hh:mm:ss.uuuuuu pid file]" prefix, so the lines sort and read like kubectl's own. */
function klogHeader(d: Date, pid: number): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  const micros = String(d.getMilliseconds() * 1000).padStart(6, '0');
  return `I${two(d.getMonth() + 1)}${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${micros} ${String(pid).padStart(7)} crossplane-rbac`;
}
