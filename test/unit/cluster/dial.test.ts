// dial.ts's TLS start: a failure must leave no open connection behind, or the process would stay alive after the
// error is reported (the run would print its error and hang).
import net, { type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import { newAgent, startTls } from '../../../src/cluster/connection/dial.js';

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
