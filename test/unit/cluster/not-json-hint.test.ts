// An answer that is not JSON (a proxy's or a login page in front of the API server) gets a hint naming the command
// that shows the server address and proxy of the context that failed: with --context (or a fleet run), `kubectl
// config view --minify` alone shows the current context's, not that one. The hint's command is run through the real
// kubectl against a kubeconfig whose current context is another.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { jsonAnswer, type Answer, type StreamedAnswer } from '../../../src/cluster/connection/http-answer.js';
import { watchKind, type WatchTransport } from '../../../src/cluster/watch.js';
import type { ResourceKind } from '../../../src/port/cluster.js';
import { CURRENT_SERVER, otherContextRunner } from '../../support/context-kubeconfig.js';

const SERVER = 'https://proxied.example:6443';
const runAgainst = otherContextRunner();

/** The command in HINT, run with bash and the real kubectl against the kubeconfig of CONTEXT: what it prints. */
function runHint(hint: string, context: string): string {
  const command = /proxy settings \((kubectl config view --minify.*?); HTTPS_PROXY, NO_PROXY\)$/.exec(
    hint,
  )?.[1];
  expect(command, hint).toBeDefined();
  return runAgainst(command ?? 'false', { context, server: SERVER, proxyUrl: 'http://proxy.example:3128' });
}

const page: Answer = {
  status: 200,
  statusText: 'OK',
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: Buffer.from('<html>Sign in</html>'),
};

function hintOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    return (err as { hint?: string }).hint ?? '';
  }
  throw new Error('no error');
}

const CONTEXTS = [
  ['prod-eu', 'a plain name'],
  ["team's cluster (eu)", 'a name the shell would split or read, quoted'],
] as const;

describe('jsonAnswer: the hint of a page that is not JSON names the context', () => {
  it.each(CONTEXTS)('%s (%s): the hint, run, shows its server and proxy', (context) => {
    const hint = hintOf(() => jsonAnswer(page, 'GET', new URL(`${SERVER}/api`), context));
    const shown = runHint(hint, context);
    expect(shown).toContain(SERVER);
    expect(shown).toContain('proxy.example');
    expect(shown).not.toContain(new URL(CURRENT_SERVER).hostname);
  });

  it('without a context (--server, no kubeconfig), the command has no --context', () => {
    const hint = hintOf(() => jsonAnswer(page, 'GET', new URL(`${SERVER}/api`), ''));
    expect(hint).toBe(
      'check the server address and proxy settings (kubectl config view --minify; HTTPS_PROXY, NO_PROXY)',
    );
  });
});

const kind: ResourceKind = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterroles',
  kind: 'ClusterRole',
  namespaced: false,
};

/** A server that lists no ClusterRoles, then sends a watch event that is not JSON. */
const transport: WatchTransport = {
  get: () =>
    Promise.resolve({
      status: 200,
      statusText: 'OK',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(
        JSON.stringify({ kind: 'ClusterRoleList', metadata: { resourceVersion: '7' }, items: [] }),
      ),
    }),
  stream: (): Promise<StreamedAnswer> =>
    Promise.resolve({
      status: 200,
      statusText: 'OK',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(0),
      stream: Readable.from(['<html>Sign in</html>\n']),
    }),
};

describe('watchKind: the hint of a watch event that is not JSON names the context', () => {
  it.each(CONTEXTS)('%s (%s): the hint, run, shows its server and proxy', async (context) => {
    const events = watchKind(
      transport,
      { server: SERVER, contextName: context },
      kind,
      {},
      new AbortController().signal,
    );
    let hint = '';
    try {
      for await (const event of events) expect(event.type).toBe('SYNCED');
    } catch (err) {
      hint = (err as { hint?: string }).hint ?? '';
    }
    const shown = runHint(hint, context);
    expect(shown).toContain(SERVER);
    expect(shown).not.toContain(new URL(CURRENT_SERVER).hostname);
  });
});
