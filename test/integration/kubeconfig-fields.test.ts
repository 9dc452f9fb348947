// Kubeconfig fields the plugin must read as kubectl does. Each case runs real kubectl and the plugin with the
// same kubeconfig, against the test API server or a recording front that forwards to it with an admin token (so
// both commands succeed and the recorder shows what each client sent).
import { writeFileSync } from 'node:fs';
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
  writeConfig,
} from './connection-harness.js';
import { startSeeded } from './harness.js';

const CA_DATA = Buffer.from(TEST_CERT).toString('base64');

let api: TestApiServer;
let front: Recorder;
let plainFront: Recorder;

beforeAll(async () => {
  ({ server: api } = await startSeeded());
  front = await startRecorder({ tls: true, forwardTo: { url: api.url, token: ADMIN_TOKEN } });
  plainFront = await startRecorder({ forwardTo: { url: api.url, token: ADMIN_TOKEN } });
});

afterAll(async () => {
  await front.close();
  await plainFront.close();
  await api.stop();
});

const apiCluster = (): Record<string, unknown> => ({
  server: api.url.replace('http:', 'https:'),
  'certificate-authority-data': CA_DATA,
});

describe('tokenFile (kubectl spelling)', () => {
  it('authenticates with the token in the file, relative to the kubeconfig', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'admin-token'), `${ADMIN_TOKEN}\n`);
    const kubeconfig = writeConfig(dir, apiCluster(), { tokenFile: 'admin-token' });
    expectBothSucceed(await compareWithKubectl(['--kubeconfig', kubeconfig]));
  });

  it('with a wrong token instead, the same server refuses both (the control)', async () => {
    const kubeconfig = writeConfig(freshDir(), apiCluster(), { token: 'wrong' });
    expectBothFail(
      await compareWithKubectl(['--kubeconfig', kubeconfig]),
      /must be logged in|Unauthorized/,
      /^error: unauthorized while listing ClusterRoles/m,
    );
  });
});

interface ImpersonationCase {
  readonly reason: string;
  readonly user: Record<string, unknown>;
  readonly args: readonly string[];
  readonly want: Record<string, string[]>;
}

const impersonation: Record<string, ImpersonationCase> = {
  KubeconfigFields: {
    reason: 'as, as-groups, as-uid and as-user-extra of the kubeconfig user become Impersonate-* headers',
    user: {
      token: 'unused',
      as: 'admin',
      'as-groups': ['system:masters', 'devs'],
      'as-uid': '1234',
      'as-user-extra': { scopes: ['read', 'write'], 'example.org/tenant': ['t1'] },
    },
    args: [],
    want: {
      'impersonate-user': ['admin'],
      'impersonate-group': ['system:masters', 'devs'],
      'impersonate-uid': ['1234'],
      'impersonate-extra-scopes': ['read', 'write'],
      'impersonate-extra-example.org%2ftenant': ['t1'],
    },
  },
  FlagsOverTheKubeconfig: {
    reason: '--as, --as-group and --as-uid replace the kubeconfig fields',
    user: { token: 'unused', as: 'someone', 'as-groups': ['nobody'], 'as-uid': '1' },
    args: ['--as', 'admin', '--as-group', 'system:masters', '--as-uid', '42'],
    want: {
      'impersonate-user': ['admin'],
      'impersonate-group': ['system:masters'],
      'impersonate-uid': ['42'],
    },
  },
};

describe('impersonation', () => {
  it.each(Object.entries(impersonation))('%s', async (_name, tc) => {
    const kubeconfig = writeConfig(
      freshDir(),
      { server: front.url, 'certificate-authority-data': CA_DATA },
      tc.user,
    );
    const c = await compareWithKubectl(['--kubeconfig', kubeconfig, ...tc.args], { recorder: front });
    expectBothSucceed(c);
    expect(c.kubectlRequests.length, tc.reason).toBeGreaterThan(0);
    expect(c.pluginRequests.length, tc.reason).toBeGreaterThan(0);
    for (const headers of headersStarting(c.kubectlRequests, 'impersonate-'))
      expect(headers, `kubectl: ${tc.reason}`).toStrictEqual(tc.want);
    for (const headers of headersStarting(c.pluginRequests, 'impersonate-'))
      expect(headers, tc.reason).toStrictEqual(tc.want);
  });
});

describe('clusters the context does not use', () => {
  const broken = {
    clusters: [{ name: 'broken', cluster: {} }],
    contexts: [{ name: 'other', context: { cluster: 'broken', user: 'u' } }],
  };

  it('a cluster entry without a server does not reject the file', async () => {
    const kubeconfig = writeConfig(freshDir(), apiCluster(), { token: ADMIN_TOKEN }, broken);
    expectBothSucceed(await compareWithKubectl(['--kubeconfig', kubeconfig]));
  });

  it('the context that uses it fails, naming the missing server (the control)', async () => {
    const kubeconfig = writeConfig(freshDir(), apiCluster(), { token: ADMIN_TOKEN }, broken);
    expectBothFail(
      await compareWithKubectl(['--kubeconfig', kubeconfig, '--context', 'other']),
      // kubectl falls back to http://localhost:8080; the plugin never connects to an address nobody gave it.
      /localhost:8080/,
      /^error: cluster "broken" has no server/m,
    );
  });
});

describe('a plain http:// server', () => {
  const users: Record<string, Record<string, unknown>> = {
    BearerToken: { token: ADMIN_TOKEN },
    BasicAuth: { username: 'jane', password: 's3cret' },
    TokenFile: { tokenFile: '/nonexistent/never-read' },
  };

  it.each(Object.entries(users))('is sent no credentials: %s', async (_name, user) => {
    const kubeconfig = writeConfig(freshDir(), { server: plainFront.url }, user);
    const c = await compareWithKubectl(['--kubeconfig', kubeconfig], { recorder: plainFront });
    expectBothSucceed(c);
    expect(c.kubectlRequests.length).toBeGreaterThan(0);
    expect(c.pluginRequests.length).toBeGreaterThan(0);
    expect(
      headersStarting(c.kubectlRequests, 'authorization').filter((h) => Object.keys(h).length > 0),
    ).toEqual([]);
    expect(
      headersStarting(c.pluginRequests, 'authorization').filter((h) => Object.keys(h).length > 0),
    ).toEqual([]);
  });
});
