// Small real servers for the connection tests, each on a loopback port chosen by the OS and closed by the test:
// a recording front for the test API server, an HTTP CONNECT proxy, a SOCKS5 proxy, a server that never answers
// and a TCP gate that can be shut and reopened on the same port.
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { gzipSync } from 'node:zlib';
import { TEST_CERT, TEST_KEY } from '../apiserver/tls.js';

type Closable = Pick<net.Server, 'close' | 'listen' | 'address'>;

function listen(server: Closable, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    (server as net.Server).once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Closes SERVER after destroying the sockets it still holds (keep-alive pools would keep it open). */
function closeAll(server: Closable, sockets: Set<net.Socket>): Promise<void> {
  for (const s of sockets) s.destroy();
  sockets.clear();
  return new Promise((resolve) => {
    server.close(() => {
      resolve();
    });
  });
}

function track(server: net.Server, sockets: Set<net.Socket>): void {
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  });
}

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  /** Lower-case names; a header sent on several lines has several values. */
  readonly headers: NodeJS.Dict<string[]>;
  /** The common name of the client certificate, when one was presented. */
  readonly clientCn: string | undefined;
}

export interface Answer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body: string;
}

export interface RecorderOptions {
  /** Serve https with the test certificate; with clientCa, require a client certificate signed by it. */
  readonly tls?: boolean | { readonly clientCa: Buffer };
  /** Forward every request to this http:// URL (the test API server), with this bearer token. */
  readonly forwardTo?: { readonly url: string; readonly token: string };
  /** Gzip the answers of requests that accept gzip. */
  readonly gzip?: boolean;
  /** The answer when not forwarding. */
  readonly answer?: (req: http.IncomingMessage) => Answer;
  /** When forwarding: an answer of its own for the requests it returns one for (a fault), the rest forwarded. */
  readonly intercept?: (req: http.IncomingMessage) => Answer | undefined;
}

export interface Recorder {
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A server that records every request (headers, client certificate) and forwards it or answers it itself. */
export async function startRecorder(opts: RecorderOptions): Promise<Recorder> {
  const requests: RecordedRequest[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const peer = (req.socket as Partial<TLSSocket>).getPeerCertificate?.();
    const cn = peer?.subject === undefined ? undefined : String(peer.subject.CN);
    requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headersDistinct,
      clientCn: cn,
    });
    const send = (a: Answer): void => {
      let body = Buffer.from(a.body);
      const headers: Record<string, string> = { ...a.headers };
      if (opts.gzip === true && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        body = gzipSync(body);
        headers['content-encoding'] = 'gzip';
      }
      headers['content-length'] = String(body.length);
      res.writeHead(a.status, headers).end(body);
    };
    if (opts.forwardTo === undefined) {
      req.resume();
      req.on('end', () => {
        send(opts.answer?.(req) ?? { status: 404, body: '' });
      });
      return;
    }
    const own = opts.intercept?.(req);
    if (own !== undefined) {
      req.resume();
      req.on('end', () => {
        send(own);
      });
      return;
    }
    const target = new URL(opts.forwardTo.url);
    const { host: _host, 'accept-encoding': _encoding, ...kept } = req.headersDistinct;
    const headers = { ...kept, authorization: `Bearer ${opts.forwardTo.token}` };
    const up = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (upRes) => {
        const chunks: Buffer[] = [];
        upRes.on('data', (c: Buffer) => chunks.push(c));
        upRes.on('end', () => {
          const type = upRes.headers['content-type'];
          send({
            status: upRes.statusCode ?? 502,
            headers: type === undefined ? {} : { 'content-type': type },
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  };
  const tls = opts.tls;
  const server =
    tls === undefined || tls === false
      ? http.createServer(handler)
      : https.createServer(
          {
            cert: TEST_CERT,
            key: TEST_KEY,
            ...(typeof tls === 'object'
              ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true }
              : {}),
          },
          handler,
        );
  const sockets = new Set<net.Socket>();
  track(server, sockets);
  server.on('tlsClientError', () => undefined);
  const port = await listen(server);
  return {
    url: `${tls === undefined || tls === false ? 'http' : 'https'}://127.0.0.1:${String(port)}`,
    port,
    requests,
    close: () => closeAll(server, sockets),
  };
}

export interface Proxy {
  readonly port: number;
  /** What each client asked for: CONNECT targets, or SOCKS5 destinations as "domain|ipv4|ipv6 host:port". */
  readonly tunnels: string[];
  close(): Promise<void>;
}

/** Connects a client socket to 127.0.0.1:PORT whatever host it asked for, so names never need to resolve here. */
function splice(client: net.Socket, port: number, head: Buffer, greeting: Buffer): void {
  const up = net.connect(port, '127.0.0.1', () => {
    client.write(greeting);
    if (head.length > 0) up.write(head);
    up.pipe(client);
    client.pipe(up);
  });
  up.on('error', () => client.destroy());
  client.on('error', () => up.destroy());
  client.on('close', () => up.destroy());
}

/** An HTTP proxy that answers CONNECT only, tunnelling every target to 127.0.0.1 on the target's port. */
export async function startConnectProxy(): Promise<Proxy> {
  const tunnels: string[] = [];
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = req.url ?? '';
    tunnels.push(target);
    const port = Number(/:(\d+)$/.exec(target)?.[1] ?? '443');
    splice(client, port, head, Buffer.from('HTTP/1.1 200 Connection Established\r\n\r\n'));
  });
  const sockets = new Set<net.Socket>();
  track(server, sockets);
  const port = await listen(server);
  return { port, tunnels, close: () => closeAll(server, sockets) };
}

/** A SOCKS5 proxy (RFC 1928: no authentication, CONNECT only) recording how each destination was named. */
export async function startSocks5Proxy(): Promise<Proxy> {
  const tunnels: string[] = [];
  const server = net.createServer((client) => {
    let buffered = Buffer.alloc(0);
    let greeted = false;
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      if (!greeted) {
        // VER NMETHODS METHODS...
        const n = buffered[1];
        if (n === undefined || buffered.length < 2 + n) return;
        buffered = buffered.subarray(2 + n);
        greeted = true;
        client.write(Buffer.from([5, 0]));
      }
      // VER CMD RSV ATYP DST.ADDR DST.PORT
      const atyp = buffered[3];
      if (atyp === undefined) return;
      const addrLen = atyp === 1 ? 4 : atyp === 4 ? 16 : 1 + (buffered[4] ?? 255);
      if (buffered.length < 4 + addrLen + 2) return;
      const addr = buffered.subarray(4, 4 + addrLen);
      const port = buffered.readUInt16BE(4 + addrLen);
      const rest = buffered.subarray(4 + addrLen + 2);
      client.off('data', onData);
      const [type, host] =
        atyp === 1
          ? ['ipv4', [...addr].join('.')]
          : atyp === 4
            ? ['ipv6', addr.toString('hex')]
            : ['domain', addr.subarray(1).toString('latin1')];
      tunnels.push(`${type} ${host}:${String(port)}`);
      splice(client, port, rest, Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
    };
    client.on('data', onData);
  });
  const sockets = new Set<net.Socket>();
  track(server, sockets);
  const port = await listen(server);
  return { port, tunnels, close: () => closeAll(server, sockets) };
}

export interface SilentServer {
  readonly port: number;
  /** Connections accepted so far. */
  readonly accepted: () => number;
  close(): Promise<void>;
}

/** Accepts TCP connections and never sends a byte. */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer(() => {
    accepted++;
  });
  track(server, sockets);
  const port = await listen(server);
  return { port, accepted: () => accepted, close: () => closeAll(server, sockets) };
}

export interface Gate {
  readonly port: number;
  /** TCP connections accepted so far. */
  readonly connections: () => number;
  /** Stops listening and cuts every connection: to clients, the server is gone. */
  shut(): Promise<void>;
  /** Listens again on the same port. */
  open(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP forwarder to 127.0.0.1:TARGET that counts connections and can be shut and reopened. */
export async function startGate(target: number): Promise<Gate> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const make = (): net.Server => {
    const server = net.createServer((client) => {
      connections++;
      splice(client, target, Buffer.alloc(0), Buffer.alloc(0));
    });
    track(server, sockets);
    return server;
  };
  let server = make();
  const port = await listen(server);
  let open = true;
  const shut = async (): Promise<void> => {
    if (!open) return;
    open = false;
    await closeAll(server, sockets);
  };
  return {
    port,
    connections: () => connections,
    shut,
    open: async () => {
      server = make();
      await listen(server, port);
      open = true;
    },
    close: shut,
  };
}
