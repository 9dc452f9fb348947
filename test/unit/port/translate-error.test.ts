// A network error's hint names the command that shows the failing context's server address: with several contexts
// (a fleet run, or --context), `kubectl config view --minify` alone shows the current context's, not the one that
// failed. The hint is run through the real kubectl against a kubeconfig whose current context is another.
import { describe, expect, it } from 'vitest';
import { translateError } from '../../../src/port/translate-error.js';
import { CURRENT_SERVER, otherContextRunner } from '../../support/context-kubeconfig.js';

const runAgainst = otherContextRunner();

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });

describe('translateError: a network hint names the context that failed', () => {
  it.each([
    ['prod-eu', 'a plain name'],
    ["team's cluster (eu)", 'a name the shell would split or read, quoted'],
  ])('%s (%s): the hint, run, shows its server, not the current context', (context) => {
    const server = 'https://127.0.0.1:9';
    const error = translateError(refused, 'listing ClusterRoles', `${server} (context ${context})`);
    const hint = error.hint ?? '';
    const command = /check the server address with: (.*)$/.exec(hint)?.[1];
    expect(command, hint).toMatch(/^kubectl config view --minify --context /);
    const shown = runAgainst(command ?? 'false', { context, server });
    expect(shown).toContain(server);
    expect(shown).not.toContain(new URL(CURRENT_SERVER).hostname);
  });

  it('without a context (no kubeconfig), the hint has no --context', () => {
    const error = translateError(refused, 'listing ClusterRoles', 'https://127.0.0.1:9');
    expect(error.hint).toBe(
      'is the cluster running? check the server address with: kubectl config view --minify',
    );
  });
});
