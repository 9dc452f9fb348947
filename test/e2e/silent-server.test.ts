// A server that accepts connections and never answers, through the built binary: the run ends after one request
// timeout, as docs/reference/authentication-and-networks.md promises ("a request that receives nothing for 60 s fails"), not after two. Commands read
// several kinds at once; when the first read times out the command fails, and the other reads, cut when the
// connections are closed, must not be retried on new connections that wait for a second timeout before the process
// can exit. --request-timeout stands in for the 60 s default to keep the test short: both limits end a request the
// same way. The one timing bound asserted is the point of the test: less than two timeouts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSilentServer, type SilentServer } from '../support/net-servers.js';
import { assertBuilt, kubectl } from './harness.js';

const TIMEOUT_S = 5;

let silent: SilentServer;

beforeAll(async () => {
  assertBuilt();
  silent = await startSilentServer();
});

afterAll(async () => {
  await silent.close();
});

describe('a server that accepts connections and never answers', () => {
  it.each([
    ['sync', ['sync', '--dry-run=client']],
    ['explain', ['explain', 'crossplane-edit']],
  ])('%s ends after one --request-timeout, not two', async (_name, command) => {
    const server = `http://127.0.0.1:${String(silent.port)}`;
    const started = Date.now();
    const r = await kubectl(
      ['crossplane-rbac', ...command, '--server', server, '--request-timeout', `${String(TIMEOUT_S)}s`],
      { timeoutMs: 60_000 },
    );
    const ms = Date.now() - started;
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toStrictEqual([
      expect.stringMatching(/^error: cannot reach the API server .*\(ETIMEDOUT\)$/),
    ]);
    expect(r.stdout).toBe('');
    expect(ms, 'a timeout cannot fire early').toBeGreaterThanOrEqual(TIMEOUT_S * 1000 - 100);
    expect(ms, 'one timeout, not a second one for reads retried after the failure').toBeLessThan(
      2 * TIMEOUT_S * 1000,
    );
  });
});
