// Proxies, chosen and used as kubectl does: HTTPS_PROXY / NO_PROXY, never for loopback, the cluster's proxy-url
// (http:// CONNECT or socks5:// with the name resolved by the proxy). The server is named apiserver.test, a name
// that does not resolve here: only a proxy can reach it (both proxies send every tunnel to 127.0.0.1 on the asked
// port). Real kubectl, with the same kubeconfig and environment, is the reference for each case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApiServer } from '../apiserver/server.js';
import { TEST_CERT } from '../apiserver/tls.js';
import { startConnectProxy, startGate, startSocks5Proxy, type Proxy } from '../support/net-servers.js';
import {
  compareWithKubectl,
  expectBothFail,
  expectBothSucceed,
  freshDir,
  writeConfig,
} from './connection-harness.js';
import { runPlugin, startSeeded } from './harness.js';

const NAME = 'apiserver.test';

let api: TestApiServer;
let port: number;
let connectProxy: Proxy;
let socksProxy: Proxy;

beforeAll(async () => {
  ({ server: api } = await startSeeded());
  port = Number(new URL(api.url).port);
  connectProxy = await startConnectProxy();
  socksProxy = await startSocks5Proxy();
});

afterAll(async () => {
  await connectProxy.close();
  await socksProxy.close();
  await api.stop();
});

/** A kubeconfig for the test API server at HOST (its certificate names localhost and 127.0.0.1). */
function kubeconfigFor(host: string, cluster: Record<string, unknown> = {}): string {
  return writeConfig(
    freshDir(),
    {
      server: `https://${host}:${String(port)}`,
      'certificate-authority-data': Buffer.from(TEST_CERT).toString('base64'),
      'tls-server-name': 'localhost',
      ...cluster,
    },
    { token: ADMIN_TOKEN },
  );
}

const viaEnv = (): Record<string, string> => ({
  HTTPS_PROXY: `http://127.0.0.1:${String(connectProxy.port)}`,
});

describe('HTTPS_PROXY and NO_PROXY', () => {
  it('HTTPS_PROXY tunnels to a server name only the proxy can reach', async () => {
    const c = await compareWithKubectl(['--kubeconfig', kubeconfigFor(NAME)], {
      env: viaEnv(),
      proxy: connectProxy,
    });
    expectBothSucceed(c);
    expect(c.pluginTunnels.length).toBeGreaterThan(0);
    expect(new Set(c.kubectlTunnels)).toStrictEqual(new Set([`${NAME}:${String(port)}`]));
    expect(new Set(c.pluginTunnels)).toStrictEqual(new Set([`${NAME}:${String(port)}`]));
  });

  it('NO_PROXY naming the server bypasses the proxy (and the name then does not resolve)', async () => {
    const c = await compareWithKubectl(['--kubeconfig', kubeconfigFor(NAME)], {
      env: { ...viaEnv(), NO_PROXY: `localhost,${NAME}` },
      proxy: connectProxy,
    });
    expectBothFail(c, /lookup apiserver\.test/, /^error: .*apiserver\.test/m);
    expect(c.plugin.stderr).toMatch(/^hint: .*does not resolve/m);
    expect(c.kubectlTunnels).toEqual([]);
    expect(c.pluginTunnels).toEqual([]);
  });

  it.each(['127.0.0.1', 'localhost'])(
    'a loopback server (%s) never goes through HTTPS_PROXY',
    async (host) => {
      const c = await compareWithKubectl(['--kubeconfig', kubeconfigFor(host)], {
        env: viaEnv(),
        proxy: connectProxy,
      });
      expectBothSucceed(c);
      expect(c.kubectlTunnels).toEqual([]);
      expect(c.pluginTunnels).toEqual([]);
    },
  );
});

describe('the cluster proxy-url', () => {
  it('socks5:// sends the server name to the proxy, which resolves it', async () => {
    const kubeconfig = kubeconfigFor(NAME, { 'proxy-url': `socks5://127.0.0.1:${String(socksProxy.port)}` });
    const c = await compareWithKubectl(['--kubeconfig', kubeconfig], { proxy: socksProxy });
    expectBothSucceed(c);
    expect(c.pluginTunnels.length).toBeGreaterThan(0);
    expect(new Set(c.kubectlTunnels)).toStrictEqual(new Set([`domain ${NAME}:${String(port)}`]));
    expect(new Set(c.pluginTunnels)).toStrictEqual(new Set([`domain ${NAME}:${String(port)}`]));
  });

  it('http:// tunnels with CONNECT', async () => {
    const kubeconfig = kubeconfigFor(NAME, { 'proxy-url': `http://127.0.0.1:${String(connectProxy.port)}` });
    const c = await compareWithKubectl(['--kubeconfig', kubeconfig], { proxy: connectProxy });
    expectBothSucceed(c);
    expect(c.pluginTunnels.length).toBeGreaterThan(0);
    expect(new Set(c.kubectlTunnels)).toStrictEqual(new Set([`${NAME}:${String(port)}`]));
    expect(new Set(c.pluginTunnels)).toStrictEqual(new Set([`${NAME}:${String(port)}`]));
  });
});

describe('one connection pool for a whole run', () => {
  // examples/cluster: sync --dry-run=server sends about 250 requests (reads, access reviews, dry-run writes).
  const sync = (kubeconfig: string, env: Record<string, string> = {}): ReturnType<typeof runPlugin> =>
    runPlugin(['sync', '--kubeconfig', kubeconfig, '--dry-run=server'], {
      env: { HOME: freshDir(), ...env },
    });

  it('through HTTPS_PROXY: a few tunnels for all of a sync', async () => {
    connectProxy.tunnels.splice(0);
    api.counters.reset();
    const r = await sync(kubeconfigFor(NAME), viaEnv());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(api.counters.total()).toBeGreaterThan(200);
    expect(connectProxy.tunnels.length).toBeGreaterThan(0);
    expect(connectProxy.tunnels.length).toBeLessThanOrEqual(20);
  });

  it('direct: a few TCP connections for all of a sync', async () => {
    const gate = await startGate(port);
    try {
      api.counters.reset();
      const kubeconfig = writeConfig(
        freshDir(),
        {
          server: `https://127.0.0.1:${String(gate.port)}`,
          'certificate-authority-data': Buffer.from(TEST_CERT).toString('base64'),
        },
        { token: ADMIN_TOKEN },
      );
      const r = await sync(kubeconfig);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(api.counters.total()).toBeGreaterThan(200);
      expect(gate.connections()).toBeLessThanOrEqual(20);
    } finally {
      await gate.close();
    }
  });
});
