// Servers that misbehave: silent, answering HTML, throttling, failing, dropping connections, or gone in the middle
// of a sync. Each ends in one `error:` line or in success after retries, never in a hang; real kubectl with the
// same kubeconfig shows the reference behaviour where it has one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApiServer } from '../apiserver/server.js';
import { TEST_CERT } from '../apiserver/tls.js';
import { runKubectl } from '../support/kubectl.js';
import { startGate, startRecorder, startSilentServer } from '../support/net-servers.js';
import { ROLE, errorLines, freshDir, writeConfig } from './connection-harness.js';
import { runPlugin, startSeeded, type CliResult } from './harness.js';

const CA_DATA = Buffer.from(TEST_CERT).toString('base64');

function kubeconfigAt(server: string): string {
  return writeConfig(
    freshDir(),
    { server, ...(server.startsWith('https:') ? { 'certificate-authority-data': CA_DATA } : {}) },
    { token: ADMIN_TOKEN },
  );
}

async function timed(run: Promise<CliResult>): Promise<CliResult & { ms: number }> {
  const started = Date.now();
  const r = await run;
  return { ...r, ms: Date.now() - started };
}

const explain = (kubeconfig: string, ...args: string[]): Promise<CliResult & { ms: number }> =>
  timed(runPlugin(['explain', ROLE, '--kubeconfig', kubeconfig, ...args], { env: { HOME: freshDir() } }));

describe('a server that accepts connections and never answers', () => {
  it('over TLS: one error after the TLS handshake timeout (10 s), as kubectl', async () => {
    const silent = await startSilentServer();
    try {
      const kubeconfig = kubeconfigAt(`https://127.0.0.1:${String(silent.port)}`);
      const [kubectl, plugin] = await Promise.all([
        runKubectl(['get', '--raw', '/api', '--kubeconfig', kubeconfig]),
        explain(kubeconfig),
      ]);
      expect(kubectl.stderr).toMatch(/net\/http: TLS handshake timeout/);
      expect(kubectl.ms).toBeGreaterThanOrEqual(10_000);
      expect(plugin.code).toBe(2);
      expect(errorLines(plugin.stderr)).toHaveLength(1);
      expect(plugin.stderr).toMatch(
        /^error: cannot reach the API server .*: TLS handshake timeout after 10s$/m,
      );
      expect(plugin.stderr).toMatch(/^hint: .*not a TLS handshake/m);
      // It waited for the handshake limit (a timeout cannot fire early); no upper bound: machines are noisy.
      expect(plugin.ms).toBeGreaterThanOrEqual(9_500);
    } finally {
      await silent.close();
    }
  }, 40_000);

  it('over http with --request-timeout 2s: one error after 2 s, as kubectl', async () => {
    const silent = await startSilentServer();
    try {
      const kubeconfig = kubeconfigAt(`http://127.0.0.1:${String(silent.port)}`);
      const [kubectl, plugin] = await Promise.all([
        runKubectl(['get', '--raw', '/api', '--kubeconfig', kubeconfig, '--request-timeout', '2s']),
        explain(kubeconfig, '--request-timeout', '2s'),
      ]);
      expect(kubectl.stderr).toMatch(/Client\.Timeout exceeded|context deadline exceeded|Timeout/);
      expect(plugin.code).toBe(2);
      expect(errorLines(plugin.stderr)).toHaveLength(1);
      expect(plugin.stderr).toMatch(/^error: .*\(ETIMEDOUT\)$/m);
      expect(plugin.stderr).toMatch(/^hint: .*--request-timeout/m);
      // It waited for --request-timeout (a timeout cannot fire early); no upper bound: machines are noisy.
      expect(plugin.ms).toBeGreaterThanOrEqual(1_900);
    } finally {
      await silent.close();
    }
  });
});

describe('a server that answers 200 with an HTML page', () => {
  it('is one error naming the content type, never an empty result', async () => {
    const html = await startRecorder({
      answer: () => ({
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<html><body>Please sign in</body></html>',
      }),
    });
    try {
      const kubeconfig = kubeconfigAt(html.url);
      const kubectl = await runKubectl(['get', 'clusterroles', '--kubeconfig', kubeconfig]);
      expect(kubectl.code).not.toBe(0);
      expect(kubectl.stdout).toBe('');
      const plugin = await explain(kubeconfig);
      expect(plugin.code).toBe(2);
      expect(plugin.stdout).toBe('');
      expect(errorLines(plugin.stderr)).toHaveLength(1);
      expect(plugin.stderr).toMatch(/^error: .*text\/html/m);
    } finally {
      await html.close();
    }
  });
});

describe('answers to retry and dropped connections', () => {
  let api: TestApiServer;
  let kubeconfig: string;

  beforeAll(async () => {
    ({ server: api, kubeconfig } = await startSeeded());
  });
  afterAll(async () => {
    await api.stop();
  });

  it.each([
    ['429 with Retry-After', 429],
    ['503', 503],
  ])('%s is retried and the command succeeds', async (_name, code) => {
    api.counters.reset();
    api.faults.failNext = { count: 2, code, verbs: ['list'] };
    const plugin = await explain(kubeconfig);
    expect(plugin.stderr).toBe('');
    expect(plugin.code).toBe(0);
    expect(plugin.stdout).toContain(`${ROLE} (aggregated, `);
    // explain lists three kinds once each: two more lists are the two failed ones, sent again.
    expect(api.counters.total('list')).toBe(5);
  });

  it('kubectl retries a 429 with Retry-After the same way (the reference)', async () => {
    api.counters.reset();
    api.faults.failNext = { count: 2, code: 429, verbs: ['get'] };
    const kubectl = await runKubectl(['get', 'clusterrole', ROLE, '-o', 'name', '--kubeconfig', kubeconfig]);
    expect(kubectl.stderr).toBe('');
    expect(api.counters.get('get', 'clusterroles')).toBe(3);
  });

  it('connections reset while reading are retried, as kubectl does', async () => {
    // The first two lists of ClusterRoles lose their connection once the server has read them (the counters
    // count a request before its fault is picked).
    const dropFirstTwo = { ...api.faults, onlyVerbs: ['list'], onlyResources: ['clusterroles'] };
    Object.defineProperty(dropFirstTwo, 'dropRate', {
      get: () => (api.counters.get('list', 'clusterroles') <= 2 ? 1 : 0),
    });
    api.faults = dropFirstTwo;
    try {
      api.counters.reset();
      const kubectl = await runKubectl(['get', 'clusterroles', '-o', 'name', '--kubeconfig', kubeconfig]);
      expect(kubectl.stderr).toBe('');
      expect(api.counters.get('list', 'clusterroles')).toBe(3);
      api.counters.reset();
      const plugin = await explain(kubeconfig);
      expect(plugin.stderr).toBe('');
      expect(plugin.code).toBe(0);
      expect(api.counters.get('list', 'clusterroles')).toBe(3);
    } finally {
      api.faults = { ...api.faults, dropRate: 0, onlyVerbs: undefined, onlyResources: undefined };
    }
  });
});

describe('the server gone in the middle of sync --yes', () => {
  it('stops with one error saying how far it got; once the server is back, a re-run converges', async () => {
    const { server: api } = await startSeeded();
    const gate = await startGate(Number(new URL(api.url).port));
    try {
      const kubeconfig = kubeconfigAt(`https://127.0.0.1:${String(gate.port)}`);
      const sync = (...args: string[]): Promise<CliResult & { ms: number }> =>
        timed(runPlugin(['sync', '--kubeconfig', kubeconfig, ...args], { env: { HOME: freshDir() } }));
      const planned = await sync('--dry-run=client', '-o', 'name');
      const total = planned.stdout.split('\n').filter((l) => l !== '').length;
      expect(total).toBeGreaterThan(200);
      const running = sync('--yes');
      // Cut when the server has seen 40 of the writes (16 run at once: some have been answered).
      const cut = setInterval(() => {
        if (api.counters.writes() >= 40) void gate.shut();
      }, 2);
      const stopped = await running;
      clearInterval(cut);
      expect(stopped.code).toBe(2);
      expect(errorLines(stopped.stderr)).toHaveLength(1);
      const progress =
        /^error: lost the API server .*: no answer for \d+s \(\w+\); (\d+) of (\d+) writes? (?:was|were) done before$/m;
      expect(stopped.stderr).toMatch(progress);
      const [, done, of] = progress.exec(stopped.stderr) ?? [];
      expect(Number(of)).toBe(total);
      expect(Number(done)).toBeGreaterThan(0);
      expect(Number(done)).toBeLessThan(total);

      await gate.open();
      const again = await sync('--yes');
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
      const check = await sync('--check');
      expect(check.code).toBe(0);
    } finally {
      await gate.close();
      await api.stop();
    }
  }, 90_000);
});
