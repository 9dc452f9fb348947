import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { SocksClient } from 'socks';
import { hostOf, portOf } from './proxy.js';
import type { TlsConfig } from './rest-config.js';

/** client-go's dialer and TLS handshake limits. */
export const CONNECT_TIMEOUT_MS = 30_000;
export const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;

/** A network error with a code, as Node's own (ETIMEDOUT, ECONNREFUSED, ...), so messages and retries treat it alike. */
export class DialError extends Error {
  override readonly name = 'DialError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export interface DialOptions {
  readonly proxy: URL | undefined;
  readonly connectTimeoutMs: number;
}

/**
 * Opens a TCP stream to HOST:PORT, directly or through a proxy: HTTP CONNECT through an http:// or https:// proxy
 * (with Basic credentials from the proxy URL), or SOCKS5 with the name resolved by the proxy, as kubectl does for
 * socks5:// proxy URLs.
 */
export async function dial(
  host: string,
  port: number,
  opts: DialOptions,
): Promise<net.Socket | tls.TLSSocket> {
  const proxy = opts.proxy;
  if (proxy === undefined) return connectTcp(host, port, opts.connectTimeoutMs);
  if (proxy.protocol === 'socks5:' || proxy.protocol === 'socks5h:') {
    try {
      const { socket } = await SocksClient.createConnection({
        proxy: {
          host: hostOf(proxy),
          port: proxy.port === '' ? 1080 : Number(proxy.port),
          type: 5,
          ...(proxy.username !== '' ? { userId: decodeURIComponent(proxy.username) } : {}),
          ...(proxy.password !== '' ? { password: decodeURIComponent(proxy.password) } : {}),
        },
        command: 'connect',
        destination: { host, port },
        timeout: opts.connectTimeoutMs,
      });
      return socket;
    } catch (err) {
      throw new DialError(`SOCKS5 proxy ${proxy.host}: ${(err as Error).message}`, 'EPROXY');
    }
  }
  const raw = await connectTcp(hostOf(proxy), portOf(proxy), opts.connectTimeoutMs);
  const toProxy = proxy.protocol === 'https:' ? await startTls(raw, { servername: hostOf(proxy) }) : raw;
  await connectTunnel(toProxy, host, port, proxy, opts.connectTimeoutMs);
  return toProxy;
}

function connectTcp(host: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new DialError(
          `connecting to ${host}:${String(port)} timed out after ${String(timeoutMs / 1000)}s`,
          'ETIMEDOUT',
        ),
      );
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/**
 * Starts TLS on SOCKET, failing with ETLSTIMEDOUT when the handshake does not finish in time. On any failure SOCKET
 * is destroyed: a connected socket left open would keep the process alive after the error is reported.
 */
export function startTls(
  socket: Duplex,
  options: tls.ConnectionOptions,
  onSession?: (session: Buffer) => void,
): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const fail = (err: Error): void => {
      socket.destroy();
      reject(err);
    };
    let secure: tls.TLSSocket;
    try {
      // Throws at once when Node cannot build the secure context (a certificate, key or cipher it cannot use).
      secure = tls.connect({ ...options, socket });
    } catch (err) {
      fail(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    // Before the handshake: a TLS 1.2 session comes with it, a TLS 1.3 ticket after it, for the life of the socket.
    if (onSession !== undefined) secure.on('session', onSession);
    const timer = setTimeout(() => {
      secure.destroy();
      fail(
        new DialError(
          `TLS handshake timeout after ${String(TLS_HANDSHAKE_TIMEOUT_MS / 1000)}s`,
          'ETLSTIMEDOUT',
        ),
      );
    }, TLS_HANDSHAKE_TIMEOUT_MS);
    secure.once('secureConnect', () => {
      clearTimeout(timer);
      secure.removeAllListeners('error');
      resolve(secure);
    });
    secure.once('error', (err: Error) => {
      clearTimeout(timer);
      secure.destroy();
      fail(err);
    });
  });
}

function connectTunnel(
  socket: Duplex,
  host: string,
  port: number,
  proxy: URL,
  timeoutMs: number,
): Promise<void> {
  const authority = `${host.includes(':') ? `[${host}]` : host}:${String(port)}`;
  const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`];
  if (proxy.username !== '') {
    const basic = Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`);
    lines.push(`Proxy-Authorization: Basic ${basic.toString('base64')}`);
  }
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => {
      fail(
        new DialError(
          `proxy ${proxy.host} did not answer CONNECT in ${String(timeoutMs / 1000)}s`,
          'ETIMEDOUT',
        ),
      );
    }, timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', fail);
      socket.off('end', onEnd);
    };
    function fail(err: Error): void {
      cleanup();
      socket.destroy();
      reject(err);
    }
    function onEnd(): void {
      fail(new DialError(`proxy ${proxy.host} closed the connection during CONNECT`, 'ECONNRESET'));
    }
    function onData(chunk: Buffer): void {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buffered.length > 16_384)
          fail(new DialError(`proxy ${proxy.host} sent an oversized answer`, 'EPROXY'));
        return;
      }
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(buffered.subarray(0, end).toString('latin1'));
      if (status?.[1] !== '200') {
        const line = buffered.subarray(0, buffered.indexOf('\r\n')).toString('latin1');
        fail(new DialError(`proxy ${proxy.host} refused CONNECT ${authority}: ${line}`, 'EPROXY'));
        return;
      }
      cleanup();
      const rest = buffered.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      resolve();
    }
    socket.on('data', onData);
    socket.once('error', fail);
    socket.once('end', onEnd);
  });
}

type Callback = (err: Error | null, socket?: Duplex) => void;

/**
 * How long the pool's other connections wait for its first one's session ticket, at least and at most: as long as
 * its handshake took, within these. A TLS 1.3 ticket comes after the handshake, in a message of its own; on a busy
 * machine a wait as short as a loopback handshake (a few ms) ended before the ticket was read, and every connection
 * shook hands in full.
 */
const MIN_TICKET_WAIT_MS = 100;
const MAX_TICKET_WAIT_MS = 1_000;

/**
 * One keep-alive connection pool for the whole run, whose connections are opened by `dial` (directly or through the
 * proxy) with client-go's connect and TLS handshake limits.
 *
 * Its connections resume the TLS session of the pool's latest handshake (a TLS 1.3 session ticket, or a TLS 1.2
 * session), which spares client and server the certificate work of a full handshake (Node checks the server's
 * certificate and name only when a session is new: the server that issued the ticket is the one verified). A
 * session can only be resumed once one handshake has finished, so when a run opens several connections at once
 * (its LISTs), the first one goes alone and the others wait for its session: until its ticket comes, it fails, or as
 * long again as its handshake took (a server that sends no ticket; within MIN_/MAX_TICKET_WAIT_MS), then open together.
 * kube-apiserver sends tickets (Go's crypto/tls server does unless SessionTicketsDisabled, and the apiserver's
 * serving config leaves it unset); kubectl itself sends its requests over one HTTP/2 connection instead.
 */
class DialingHttpsAgent extends https.Agent {
  /**
   * Built from the CA, certificate and key once, at the first connection, for every later one: Node would otherwise
   * parse the PEMs again at every handshake (a run opens up to maxSockets connections at once).
   */
  private secureContext: tls.SecureContext | undefined;
  /** The latest TLS session of each pool (by getName), for the next connections to resume. */
  private readonly sessions = new Map<string, Buffer>();
  /** Each pool's first handshake until its session is known (or known not to come): what the others wait for. */
  private readonly firstHandshakes = new Map<string, Promise<void>>();

  constructor(
    options: https.AgentOptions,
    private readonly dialOptions: DialOptions,
  ) {
    super(options);
  }

  /**
   * The pool a request's connection comes from: where it goes (host, port, local address, family). Node's https
   * agent also appends the CA, certificate and key PEMs at every request, but this agent's TLS settings are its own
   * and never change, so they tell no two pools apart.
   */
  override getName(options?: http.ClientRequestArgs): string {
    return http.Agent.prototype.getName.call(this, options);
  }

  override createConnection(
    options: tls.ConnectionOptions & { host?: string; port?: number },
    callback: Callback,
  ): undefined {
    this.open(options).then(
      (socket) => {
        callback(null, socket);
      },
      (err: unknown) => {
        callback(err instanceof Error ? err : new Error(String(err)));
      },
    );
    return undefined;
  }

  private async open(
    options: tls.ConnectionOptions & { host?: string; port?: number },
  ): Promise<tls.TLSSocket> {
    const host = options.host ?? 'localhost';
    const pool = this.getName(options);
    const first = this.firstHandshakes.get(pool);
    let settled: (() => void) | undefined;
    if (first !== undefined) {
      if (!this.sessions.has(pool)) await first;
    } else {
      this.firstHandshakes.set(pool, new Promise<void>((resolve) => (settled = resolve)));
    }
    const started = Date.now();
    try {
      const raw = await dial(host, options.port ?? 443, this.dialOptions);
      try {
        this.secureContext ??= tls.createSecureContext(options);
      } catch (err) {
        // Node cannot use the certificate, key or CA: the error tls.connect would throw, and (as startTls does
        // then) no socket left open to keep the process alive after it is reported.
        raw.destroy();
        throw err;
      }
      const session = this.sessions.get(pool);
      const socket = await startTls(
        raw,
        {
          ...options,
          secureContext: this.secureContext,
          ...(session !== undefined ? { session } : {}),
          // Name checks and SNI use tls-server-name when set, else the host; never SNI for an IP address.
          ...(options.servername === undefined && net.isIP(host) === 0 ? { servername: host } : {}),
        },
        (next) => {
          this.sessions.set(pool, next);
          settled?.();
        },
      );
      if (settled !== undefined) {
        const release = settled;
        setTimeout(
          release,
          Math.min(Math.max(Date.now() - started, MIN_TICKET_WAIT_MS), MAX_TICKET_WAIT_MS),
        ).unref();
        socket.once('close', release);
      }
      return socket;
    } catch (err) {
      // The next connection tries a first handshake of its own.
      if (settled !== undefined) {
        this.firstHandshakes.delete(pool);
        settled();
      }
      throw err;
    }
  }
}

class DialingHttpAgent extends http.Agent {
  constructor(
    options: http.AgentOptions,
    private readonly dialOptions: DialOptions,
  ) {
    super(options);
  }

  override createConnection(options: { host?: string; port?: number }, callback: Callback): undefined {
    dial(options.host ?? 'localhost', options.port ?? 80, this.dialOptions).then(
      (socket) => {
        callback(null, socket);
      },
      (err: unknown) => {
        callback(err instanceof Error ? err : new Error(String(err)));
      },
    );
    return undefined;
  }
}

/**
 * The connection pool for one protocol, proxy and client certificate: keep-alive, up to 32 connections, each opened
 * by `dial` with client-go's connect limit; over https, the kubeconfig's TLS settings, with CLIENT_CERT (an exec
 * plugin's) in place of the kubeconfig's certificate when given.
 */
export function newAgent(
  protocol: string,
  proxy: URL | undefined,
  tls: TlsConfig,
  clientCert: { readonly cert: string; readonly key: string } | undefined,
): http.Agent {
  const dialOptions = { proxy, connectTimeoutMs: CONNECT_TIMEOUT_MS };
  const pool = { keepAlive: true, maxSockets: 32 };
  if (protocol !== 'https:') return new DialingHttpAgent(pool, dialOptions);
  const cert =
    clientCert ?? (tls.cert !== undefined && tls.key !== undefined ? { cert: tls.cert, key: tls.key } : {});
  return new DialingHttpsAgent(
    {
      ...pool,
      rejectUnauthorized: !tls.insecure,
      ALPNProtocols: ['http/1.1'],
      ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
      ...(tls.serverName !== undefined ? { servername: tls.serverName } : {}),
      ...cert,
    },
    dialOptions,
  );
}
