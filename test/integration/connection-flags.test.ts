// kubectl's connection flags with no kubeconfig at all (an empty HOME, KUBECONFIG unset): the same flags must
// work for real kubectl and the plugin, against the test API server or a recording front that forwards to it.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApiServer } from '../apiserver/server.js';
import { TEST_CERT } from '../apiserver/tls.js';
import { startRecorder, type Recorder } from '../support/net-servers.js';
import {
  compareWithKubectl,
  expectBothFail,
  expectBothSucceed,
  freshDir,
  headersStarting,
} from './connection-harness.js';
import { startSeeded } from './harness.js';

const hasOpenssl = spawnSync('openssl', ['version']).error === undefined;

let api: TestApiServer;
let https: string;
let ca: string;

beforeAll(async () => {
  ({ server: api } = await startSeeded());
  https = api.url.replace('http:', 'https:');
  ca = join(freshDir(), 'ca.crt');
  writeFileSync(ca, TEST_CERT);
});

afterAll(async () => {
  await api.stop();
});

describe('server, CA and TLS flags against the test API server', () => {
  const token = ['--token', ADMIN_TOKEN];

  it('--server, --token and --certificate-authority are enough', async () => {
    expectBothSucceed(await compareWithKubectl(['--server', https, ...token, '--certificate-authority', ca]));
  });

  it('--insecure-skip-tls-verify needs no CA', async () => {
    expectBothSucceed(await compareWithKubectl(['--server', https, ...token, '--insecure-skip-tls-verify']));
  });

  it('without a CA or --insecure-skip-tls-verify the certificate is refused (the control)', async () => {
    expectBothFail(
      await compareWithKubectl(['--server', https, ...token]),
      /x509: certificate signed by unknown authority/,
      /^error: .*certificate/m,
    );
  });

  const withServerName = (name: string): ReturnType<typeof compareWithKubectl> =>
    compareWithKubectl([
      '--server',
      https,
      ...token,
      '--certificate-authority',
      ca,
      '--tls-server-name',
      name,
    ]);

  it('--tls-server-name names the certificate to expect: one of its names works', async () => {
    expectBothSucceed(await withServerName('localhost'));
  });

  it('--tls-server-name with a name the certificate lacks fails for both', async () => {
    expectBothFail(await withServerName('wrong.example'), /not wrong\.example/, /^error: .*wrong\.example/m);
  });
});

describe('credential and header flags, recorded by a front of the test API server', () => {
  let front: Recorder;

  beforeAll(async () => {
    front = await startRecorder({ tls: true, gzip: true, forwardTo: { url: api.url, token: ADMIN_TOKEN } });
  });
  afterAll(async () => {
    await front.close();
  });

  const at = (): string[] => ['--server', front.url, '--certificate-authority', ca];

  it('--username and --password send Basic credentials', async () => {
    const c = await compareWithKubectl([...at(), '--username', 'jane', '--password', 's3cret'], {
      recorder: front,
    });
    expectBothSucceed(c);
    const basic = { authorization: [`Basic ${Buffer.from('jane:s3cret').toString('base64')}`] };
    for (const h of headersStarting([...c.kubectlRequests, ...c.pluginRequests], 'authorization'))
      expect(h).toStrictEqual(basic);
  });

  it('--as, --as-group and --as-uid send the impersonation headers kubectl sends', async () => {
    const flags = ['--token', 't', '--as', 'admin', '--as-group', 'system:masters', '--as-uid', '42'];
    const c = await compareWithKubectl([...at(), ...flags], { recorder: front });
    expectBothSucceed(c);
    const want = {
      'impersonate-user': ['admin'],
      'impersonate-group': ['system:masters'],
      'impersonate-uid': ['42'],
    };
    for (const h of headersStarting([...c.kubectlRequests, ...c.pluginRequests], 'impersonate-'))
      expect(h).toStrictEqual(want);
  });

  it('asks for gzip by default and decodes the gzipped answers', async () => {
    const c = await compareWithKubectl([...at(), '--token', 't'], { recorder: front });
    expectBothSucceed(c);
    for (const h of headersStarting([...c.kubectlRequests, ...c.pluginRequests], 'accept-encoding'))
      expect(h).toStrictEqual({ 'accept-encoding': ['gzip'] });
  });

  it('--disable-compression sends no Accept-Encoding', async () => {
    const c = await compareWithKubectl([...at(), '--token', 't', '--disable-compression'], {
      recorder: front,
    });
    expectBothSucceed(c);
    expect(c.pluginRequests.length).toBeGreaterThan(0);
    for (const h of headersStarting([...c.kubectlRequests, ...c.pluginRequests], 'accept-encoding'))
      expect(h).toStrictEqual({});
  });
});

/** A throwaway CA and a client certificate for CN=jane signed by it, made with openssl. */
function makeClientCertificate(dir: string): { ca: string; cert: string; key: string } {
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  };
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '1',
    '-subj',
    '/CN=client-ca',
  );
  openssl('req', ...ec, '-keyout', 'jane.key', '-out', 'jane.csr', '-subj', '/CN=jane/O=devs');
  openssl(
    'x509',
    '-req',
    '-in',
    'jane.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-out',
    'jane.crt',
    '-days',
    '1',
  );
  return { ca: join(dir, 'ca.crt'), cert: join(dir, 'jane.crt'), key: join(dir, 'jane.key') };
}

describe('--client-certificate and --client-key', () => {
  if (!hasOpenssl) console.warn('skipped: openssl is not installed, so no client certificate can be made');
  let front: Recorder;
  let client: { ca: string; cert: string; key: string };

  beforeAll(async () => {
    if (!hasOpenssl) return;
    client = makeClientCertificate(freshDir());
    front = await startRecorder({
      tls: { clientCa: readFileSync(client.ca) },
      forwardTo: { url: api.url, token: ADMIN_TOKEN },
    });
  });
  afterAll(async () => {
    await front?.close();
  });

  it.skipIf(!hasOpenssl)('authenticate to a server that requires a client certificate', async () => {
    const args = ['--server', front.url, '--certificate-authority', ca];
    const c = await compareWithKubectl(
      [...args, '--client-certificate', client.cert, '--client-key', client.key],
      {
        recorder: front,
      },
    );
    expectBothSucceed(c);
    expect(c.pluginRequests.length).toBeGreaterThan(0);
    for (const r of [...c.kubectlRequests, ...c.pluginRequests]) expect(r.clientCn).toBe('jane');
  });

  it.skipIf(!hasOpenssl)('without them that server refuses both (the control)', async () => {
    const c = await compareWithKubectl(['--server', front.url, '--certificate-authority', ca], {
      recorder: front,
    });
    // TLS 1.3 clients learn of the refusal after the handshake: kubectl says "EOF".
    expectBothFail(
      c,
      /EOF|certificate required/,
      /^error: TLS error .*: tlsv13 alert certificate required$/m,
    );
    expect(c.plugin.stderr).toMatch(/^hint: the server wants a client certificate/m);
    expect(c.pluginRequests).toEqual([]);
  });
});
