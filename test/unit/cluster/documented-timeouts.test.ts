// The manual's "Timeouts and retries" figures (docs/reference/authentication-and-networks.md) are the ones the connection layer uses: connect 30 s and TLS handshake
// 10 s (client-go's dialer and transport), and 60 s without data before a request fails when --request-timeout is
// not given, which is also how long an exec credential plugin may run. The manual is the reference: a change to a
// limit must change what users are told.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONNECT_TIMEOUT_MS, TLS_HANDSHAKE_TIMEOUT_MS } from '../../../src/cluster/connection/dial.js';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../../../src/cluster/connection/transport.js';

const readme = readFileSync(
  join(import.meta.dirname, '..', '..', '..', 'docs', 'reference', 'authentication-and-networks.md'),
  'utf8',
).replace(/\s+/g, ' ');

describe('the timeouts the manual documents', () => {
  it.each([
    ['connecting gives up after (\\d+) s', CONNECT_TIMEOUT_MS],
    ['a TLS handshake after (\\d+) s', TLS_HANDSHAKE_TIMEOUT_MS],
    ['a request that receives nothing for (\\d+) s fails', DEFAULT_IDLE_TIMEOUT_MS],
    ['credential plugin that has not exited after (\\d+) s', DEFAULT_IDLE_TIMEOUT_MS],
  ])('/%s/', (sentence, ms) => {
    const documented = new RegExp(sentence).exec(readme)?.[1];
    expect(documented, `the manual says: ${sentence}`).toBeDefined();
    expect(Number(documented) * 1000).toBe(ms);
  });
});
