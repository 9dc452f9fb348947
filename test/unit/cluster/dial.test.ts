// dial.ts's TLS start: a failure must leave no open connection behind, or the process would stay alive after the
// error is reported (the run would print its error and hang). Its pools resume TLS sessions: checked against Node's
// own TLS server and its default session tickets.
import net, { type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import https from 'node:https';
import { constants } from 'node:crypto';
import { TLSSocket } from 'node:tls';
import { newAgent, startTls } from '../../../src/cluster/connection/dial.js';
import type { TlsConfig } from '../../../src/cluster/connection/rest-config.js';
import { TEST_CERT, TEST_KEY } from '../../apiserver/tls.js';

describe('startTls', () => {
  it('destroys the socket it was given when TLS cannot even start, so nothing keeps the process alive', async () => {
    const server = net.createServer((s) => s.on('error', () => undefined));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      // A key Node cannot load makes tls.connect throw before any byte is sent.
      await expect(startTls(socket, { cert: 'not a certificate', key: 'not a key' })).rejects.toThrow();
      expect(socket.destroyed).toBe(true);
    } finally {
      server.close();
    }
  });
});

describe('newAgent pools', () => {
  const tls = {
    ca: Buffer.from('-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n'),
    cert: Buffer.from('-----BEGIN CERTIFICATE-----\nCERT\n-----END CERTIFICATE-----\n'),
    key: Buffer.from('-----BEGIN PRIVATE KEY-----\nKEY\n-----END PRIVATE KEY-----\n'),
    insecure: false,
    serverName: undefined,
  };

  it('names a pool by where it connects, never by the PEMs every request would otherwise carry', () => {
    const agent = newAgent('https:', undefined, tls, undefined);
    try {
      const name = agent.getName({ host: 'api.example.com', port: 6443 });
      expect(name).not.toMatch(/BEGIN|CA|CERT|KEY/);
      expect(name).toBe(new http.Agent().getName({ host: 'api.example.com', port: 6443 }));
      expect(agent.getName({ host: 'api.example.com', port: 443 })).not.toBe(name);
      expect(agent.getName({ host: 'other.example.com', port: 6443 })).not.toBe(name);
      expect(agent.getName({ host: 'api.example.com', port: 6443, localAddress: '10.0.0.1' })).not.toBe(name);
    } finally {
      agent.destroy();
    }
  });
});

/** A CA of its own (self-signed, for 127.0.0.1 and localhost) that signed nothing the test servers present. */
const OTHER_CA = `-----BEGIN CERTIFICATE-----
MIIBqDCCAU2gAwIBAgIUEMa8UT/HyXBrW4txd0Qxk2nmCiIwCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPYW5vdGhlciB0ZXN0IENBMCAXDTI2MTEyODE3MzMyNloYDzIx
MjYxMTA0MTczMzI2WjAaMRgwFgYDVQQDDA9hbm90aGVyIHRlc3QgQ0EwWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAAQCybpamp8Q2q4Nk7pOnQhvz/qpi7SwrN9OvdT8
a5Ktoz8EjHAz9rfRb0PPRILHyctceM7MX1V4FjifknvlWwAjo28wbTAdBgNVHQ4E
FgQUlOo1shYPLCnnzJW/UmI5CiDcApEwHwYDVR0jBBgwFoAUlOo1shYPLCnnzJW/
UmI5CiDcApEwDwYDVR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2Nh
bGhvc3QwCgYIKoZIzj0EAwIDSQAwRgIhAM3gfQF22ad+ahsJfRupJ2oACMWMo/Y2
Y87z7010HyvqAiEAm2J/oRrJs7fBrk9s4aJGsXm3Fn4XHVsTlt1aojJCTy0=
-----END CERTIFICATE-----
`;

describe('newAgent TLS sessions', () => {
  /** A TLS server (Node's, with its default session tickets) answering every request with ok. */
  async function tlsServer(
    options: https.ServerOptions = {},
  ): Promise<{ server: https.Server; port: number }> {
    const server = https.createServer({ cert: TEST_CERT, key: TEST_KEY, ...options }, (_req, res) => {
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.address() as AddressInfo).port };
  }

  /** N requests sent at once through AGENT: for each, whether its connection resumed a TLS session. */
  function resumed(agent: http.Agent, port: number, n: number): Promise<boolean[]> {
    return Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<boolean>((resolve, reject) => {
            https
              .get({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
                const socket = res.socket;
                if (!(socket instanceof TLSSocket)) throw new Error('not a TLS connection');
                const reused = socket.isSessionReused();
                res.resume();
                res.on('end', () => {
                  resolve(reused);
                });
              })
              .on('error', reject);
          }),
      ),
    );
  }

  const tls = (): TlsConfig => ({
    ca: Buffer.from(TEST_CERT),
    cert: undefined,
    key: undefined,
    insecure: false,
    serverName: undefined,
  });

  it('opens the first of requests sent at once alone, and the other connections resume its session', async () => {
    // TLS 1.2: the session is known when the first handshake ends, so what the others wait for is certain. (A TLS 1.3
    // ticket comes after the handshake, and the others wait for it only so long: on a busy machine they may give up
    // and shake hands in full, which the next case leaves out.)
    const { server, port } = await tlsServer({ maxVersion: 'TLSv1.2' });
    const agent = newAgent('https:', undefined, tls(), undefined);
    try {
      const first = await resumed(agent, port, 9);
      // Nine connections (none free when the next request is sent): one full handshake, eight resumed.
      expect(first.filter((r) => !r)).toHaveLength(1);
      expect(first.filter((r) => r)).toHaveLength(8);
    } finally {
      agent.destroy();
      server.close();
    }
  });

  it('resumes a TLS 1.3 session ticket in the connections opened once the first request has its answer', async () => {
    const { server, port } = await tlsServer({ minVersion: 'TLSv1.3' });
    const agent = newAgent('https:', undefined, tls(), undefined);
    try {
      expect(await resumed(agent, port, 1)).toEqual([false]);
      // The ticket came before the answer. Of eight requests at once, one may take the first connection again
      // (kept alive: it reports its own full handshake); every new one resumes.
      const next = await resumed(agent, port, 8);
      expect(next.filter((r) => r).length).toBeGreaterThanOrEqual(7);
    } finally {
      agent.destroy();
      server.close();
    }
  });

  it("never carries one context's verified session to another pool: a pool trusting another CA still checks the server", async () => {
    // Two contexts of one --all-contexts run may name the same host:port: one trusting the server's CA (or skipping
    // verification), the other only another CA. Node verifies a resumed session only as far as the session says
    // (lib/_tls_wrap.js onConnectSecure skips the name check when isSessionReused), so a session made by the first
    // must never be offered by the second: sessions are kept per agent, and each context has its own transport.
    const { server, port } = await tlsServer({ maxVersion: 'TLSv1.2' });
    const trusting = newAgent('https:', undefined, tls(), undefined);
    const skipping = newAgent('https:', undefined, { ...tls(), ca: undefined, insecure: true }, undefined);
    const other = newAgent('https:', undefined, { ...tls(), ca: Buffer.from(OTHER_CA) }, undefined);
    try {
      expect(await resumed(trusting, port, 2)).toEqual([false, true]);
      await expect(resumed(other, port, 1)).rejects.toThrow(/self[- ]signed certificate/);
      expect(await resumed(skipping, port, 2)).toEqual([false, true]);
      await expect(resumed(other, port, 1)).rejects.toThrow(/self[- ]signed certificate/);
    } finally {
      for (const a of [trusting, skipping, other]) a.destroy();
      server.close();
    }
  });

  it('opens them all with a full handshake when the server sends no session ticket (the others wait for none forever)', async () => {
    // No tickets and no session cache: nothing to resume (a server with TLS session resumption turned off).
    const { server, port } = await tlsServer({
      secureOptions: constants.SSL_OP_NO_TICKET,
      sessionTimeout: 0,
    });
    const agent = newAgent('https:', undefined, tls(), undefined);
    try {
      expect(await resumed(agent, port, 4)).toEqual([false, false, false, false]);
    } finally {
      agent.destroy();
      server.close();
    }
  });
});
