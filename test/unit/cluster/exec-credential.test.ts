import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/errors.js';
import {
  decodeExecCredential,
  parseRfc3339,
} from '../../../src/cluster/connection/exec-credential-decode.js';
import {
  ExecCredentialProvider,
  parseExecConfig,
  resolveExecCommand,
  STDIN_USED_BY_MANIFESTS,
} from '../../../src/cluster/connection/exec-credential.js';
import type {
  ExecClusterInfo,
  ExecConfig,
  ExecDeadline,
  ExecIo,
} from '../../../src/cluster/connection/exec-credential-types.js';
import { TEST_CERT, TEST_KEY } from '../../apiserver/tls.js';
import {
  credential,
  killLeftovers,
  survivors,
  testIo,
  V1,
  V1BETA1,
  writeHangingPlugin,
  writePlugin,
} from '../../support/exec-plugin.js';
import type { TestPlugin } from '../../support/exec-plugin.js';

function config(command: string, more: Partial<Record<string, unknown>> = {}): ExecConfig {
  return parseExecConfig({ apiVersion: V1, command, interactiveMode: 'Never', ...more }, 'alice');
}

function provider(
  plugin: TestPlugin | string,
  opts: {
    exec?: Partial<Record<string, unknown>>;
    io?: ExecIo;
    cluster?: ExecClusterInfo;
    configDir?: string;
    deadline?: ExecDeadline;
  } = {},
): ExecCredentialProvider {
  const command = typeof plugin === 'string' ? plugin : plugin.path;
  return new ExecCredentialProvider(config(command, opts.exec), {
    configDir: opts.configDir,
    cluster: opts.cluster,
    io: opts.io ?? testIo(),
    userName: 'alice',
    deadline: opts.deadline,
  });
}

async function failure(p: Promise<unknown>): Promise<UserError> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return err as UserError;
}

describe('parseExecConfig', () => {
  it('reads a v1 exec stanza', () => {
    const stanza = {
      apiVersion: V1,
      command: 'aws',
      args: ['eks', 'get-token'],
      env: [{ name: 'AWS_PROFILE', value: 'prod' }],
      installHint: 'install the aws cli',
      provideClusterInfo: true,
      interactiveMode: 'Always',
    };
    expect(parseExecConfig({ ...stanza, unknownField: 1 }, 'alice')).toEqual(stanza);
  });

  it('defaults interactiveMode to IfAvailable for v1beta1 only, and the rest to empty', () => {
    expect(parseExecConfig({ apiVersion: V1BETA1, command: 'x', args: null, env: null }, 'alice')).toEqual({
      apiVersion: V1BETA1,
      command: 'x',
      args: [],
      env: [],
      installHint: undefined,
      provideClusterInfo: false,
      interactiveMode: 'IfAvailable',
    });
  });

  it.each([
    [
      { apiVersion: V1, interactiveMode: 'Never' },
      'command must be specified for alice to use exec authentication plugin',
    ],
    [
      { command: 'x', interactiveMode: 'Never' },
      'apiVersion must be specified for alice to use exec authentication plugin',
    ],
    [
      { apiVersion: V1, command: 'x' },
      'interactiveMode must be specified for alice to use exec authentication plugin',
    ],
    [
      { apiVersion: V1, command: 'x', interactiveMode: 'Sometimes' },
      'invalid interactiveMode for alice: "Sometimes"',
    ],
    [
      { apiVersion: V1, command: 'x', interactiveMode: 'Never', env: [{ value: 'v' }] },
      'env variable name must be specified for alice to use exec authentication plugin',
    ],
    [
      { apiVersion: 'client.authentication.k8s.io/v1alpha1', command: 'x' },
      'exec plugin: invalid apiVersion "client.authentication.k8s.io/v1alpha1" for user alice',
    ],
    [
      { apiVersion: V1, command: 'x', interactiveMode: 'Never', args: 'get-token' },
      'invalid users[].user.exec.args of user "alice": must be a list of strings',
    ],
    [
      { apiVersion: V1, command: 'x', interactiveMode: 'Never', provideClusterInfo: 'yes' },
      'invalid users[].user.exec.provideClusterInfo of user "alice": must be a boolean',
    ],
    [
      { apiVersion: V1, command: 7, interactiveMode: 'Never' },
      'invalid users[].user.exec.command of user "alice": must be a string',
    ],
    ['aws', 'invalid users[].user.exec of user "alice": must be a mapping'],
  ])('rejects %j in clientcmd words', (raw, message) => {
    expect(() => parseExecConfig(raw, 'alice')).toThrow(UserError);
    expect(() => parseExecConfig(raw, 'alice')).toThrow(message);
  });
});

describe('resolveExecCommand', () => {
  it('resolves relative paths with a separator against the kubeconfig folder, nothing else', () => {
    expect(resolveExecCommand('./bin/plugin', '/home/me/.kube')).toBe('/home/me/.kube/bin/plugin');
    expect(resolveExecCommand('bin/../plugin', '/home/me/.kube')).toBe('/home/me/.kube/plugin');
    expect(resolveExecCommand('plugin', '/home/me/.kube')).toBe('plugin');
    expect(resolveExecCommand('/usr/bin/plugin', '/home/me/.kube')).toBe('/usr/bin/plugin');
    expect(resolveExecCommand('./plugin', undefined)).toBe('./plugin');
  });
});

describe('decodeExecCredential', () => {
  const fail = (message: string, hint?: string): UserError => new UserError(message, { hint });
  const decode = (out: string, apiVersion = V1) => decodeExecCredential(out, apiVersion, fail);
  const status = (s: Record<string, unknown>) => credential(s);

  it('reads a token, its RFC 3339 expiration and a cert/key pair', () => {
    expect(decode(status({ token: 't', expirationTimestamp: '2030-01-02T03:04:05Z' }))).toEqual({
      token: 't',
      expiresAt: Date.UTC(2030, 0, 2, 3, 4, 5),
    });
    expect(decode(status({ clientCertificateData: TEST_CERT, clientKeyData: TEST_KEY }))).toEqual({
      clientCertificateData: TEST_CERT,
      clientKeyData: TEST_KEY,
    });
  });

  it('takes YAML, a missing kind, unknown fields, null and the zero time as client-go does', () => {
    expect(decode(`apiVersion: ${V1}\nkind: ExecCredential\nstatus:\n  token: t\n`)).toEqual({ token: 't' });
    expect(decode(JSON.stringify({ apiVersion: V1, status: { token: 't', extra: 1 }, more: 2 }))).toEqual({
      token: 't',
    });
    expect(decode(status({ token: 't', expirationTimestamp: null }))).toEqual({ token: 't' });
    expect(decode(status({ token: 't', expirationTimestamp: '0001-01-01T00:00:00Z' }))).toEqual({
      token: 't',
    });
  });

  it.each([
    [
      credential({ token: 't' }, V1BETA1),
      `exec plugin is configured to use API version ${V1}, plugin returned version ${V1BETA1}`,
    ],
    [JSON.stringify({ kind: 'ExecCredential', status: { token: 't' } }), 'plugin returned no apiVersion'],
    ['', `exec plugin is configured to use API version ${V1}, plugin returned no output`],
    [
      credential({ token: 't' }, V1, 'Pod'),
      `decoding stdout: no kind "Pod" is registered for version "${V1}"`,
    ],
    [
      credential({ token: 't' }, 'foo/v9'),
      'decoding stdout: no kind "ExecCredential" is registered for version "foo/v9"',
    ],
    [JSON.stringify({ apiVersion: V1, kind: 'ExecCredential' }), "exec plugin didn't return a status field"],
    [status({}), "exec plugin didn't return a token or cert/key pair"],
    [status({ token: null }), "exec plugin didn't return a token or cert/key pair"],
    [status({ clientCertificateData: TEST_CERT }), 'exec plugin returned only certificate or key, not both'],
    [
      status({ clientCertificateData: 'x', clientKeyData: 'y' }),
      'failed parsing client key/certificate: tls: failed to find any PEM data in certificate input',
    ],
    [status({ token: 5 }), 'decoding stdout: status.token must be a string, not a number'],
    [
      JSON.stringify({ apiVersion: V1, status: 'x' }),
      'decoding stdout: status must be an object, not a string',
    ],
    ['not json', "decoding stdout: couldn't get version/kind; expected an object, not a string"],
    ['[1]', "decoding stdout: couldn't get version/kind; expected an object, not an array"],
    [
      `${status({ token: 'secret' })} trailing`,
      "decoding stdout: couldn't get version/kind; json parse error: invalid JSON",
    ],
    [
      status({ token: 't', expirationTimestamp: 'tomorrow' }),
      'decoding stdout: parsing time "tomorrow" as "2006-01-02T15:04:05Z07:00"',
    ],
  ])('rejects %j', (out, message) => {
    expect(() => decode(out)).toThrow(message);
  });

  it('never quotes the output in a JSON parse error (it may hold a token)', () => {
    expect(() => decode(`{"apiVersion":"${V1}","status":{"token":"s3cr3t"}} x`)).toThrow(/^(?!.*s3cr3t)/);
  });

  it('checks that the key belongs to the certificate', () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    expect(() =>
      decode(status({ clientCertificateData: TEST_CERT, clientKeyData: other.toString() })),
    ).toThrow('failed parsing client key/certificate: tls: private key does not match public key');
  });
});

describe('parseRfc3339', () => {
  it.each([
    ['2030-01-02T03:04:05Z', Date.UTC(2030, 0, 2, 3, 4, 5)],
    ['2030-01-02T03:04:05.123456789Z', Date.UTC(2030, 0, 2, 3, 4, 5, 123)],
    ['2030-01-02T03:04:05+02:00', Date.UTC(2030, 0, 2, 1, 4, 5)],
    ['2030-01-02T03:04:05.5-01:30', Date.UTC(2030, 0, 2, 4, 34, 5, 500)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['0001-01-01T00:00:00Z', Date.parse('0001-01-01T00:00:00Z')],
  ])('%s', (s, ms) => {
    expect(parseRfc3339(s)).toBe(ms);
  });

  it.each([
    'tomorrow',
    '',
    '2030-01-02 03:04:05Z',
    '2030-01-02t03:04:05z',
    '2030-01-02T03:04:05',
    '2030-13-01T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '2030-01-02T24:00:00Z',
    '2030-01-02T03:60:00Z',
    '2030-01-02T03:04:05+24:00',
  ])('rejects %j', (s) => {
    expect(parseRfc3339(s)).toBeUndefined();
  });
});

describe('ExecCredentialProvider', () => {
  it('runs the plugin once for 50 concurrent callers, who all get the same credential', async () => {
    const plugin = writePlugin({ sleep: 0.2 });
    const p = provider(plugin);
    const all = await Promise.all(Array.from({ length: 50 }, () => p.get()));
    expect(plugin.runs()).toBe(1);
    expect(new Set(all).size).toBe(1);
    expect(all[0]).toEqual({ token: 'token-1' });
  });

  it('never re-runs a credential without expiration', async () => {
    const plugin = writePlugin();
    let now = Date.now();
    const p = provider(plugin, { io: testIo({ now: () => now }) });
    for (let i = 0; i < 20; i++) {
      await p.get();
      now += 365 * 86_400_000;
    }
    expect(plugin.runs()).toBe(1);
  });

  it('re-runs once the expiration has passed, not before (client-go: no skew)', async () => {
    const plugin = writePlugin();
    const expiry = '2030-01-01T00:00:00Z';
    plugin.print(credential({ token: 'token-1', expirationTimestamp: expiry }));
    let now = Date.parse(expiry) - 60_000;
    const p = provider(plugin, { io: testIo({ now: () => now }) });
    const first = await p.get();
    expect(first).toEqual({ token: 'token-1', expiresAt: Date.parse(expiry) });
    now = Date.parse(expiry);
    expect(await p.get()).toBe(first);
    expect(plugin.runs()).toBe(1);
    now += 1;
    plugin.print(credential({ token: 'token-2' }));
    const all = await Promise.all(Array.from({ length: 10 }, () => p.get()));
    expect(plugin.runs()).toBe(2);
    expect(all.every((c) => c.token === 'token-2')).toBe(true);
  });

  it('hands out a freshly run credential even when it has already expired, as client-go', async () => {
    const plugin = writePlugin();
    plugin.print(credential({ token: 'old', expirationTimestamp: '2001-01-01T00:00:00Z' }));
    const p = provider(plugin);
    expect((await p.get()).token).toBe('old');
    expect((await p.get()).token).toBe('old');
    expect(plugin.runs()).toBe(2);
  });

  it('after a 401 re-runs for the credential in use, once for concurrent callers, never for a stale one', async () => {
    const plugin = writePlugin({ sleep: 0.1 });
    const p = provider(plugin);
    const first = await p.get();
    plugin.print(credential({ token: 'token-2' }));
    const refreshed = await Promise.all(Array.from({ length: 10 }, () => p.refreshAfterUnauthorized(first)));
    expect(plugin.runs()).toBe(2);
    expect(new Set(refreshed).size).toBe(1);
    expect(refreshed[0]).toEqual({ token: 'token-2' });
    // A request that was still in flight with the old credential answers 401 later: nothing to re-run.
    expect(await p.refreshAfterUnauthorized(first)).toBe(refreshed[0]);
    expect(await p.get()).toBe(refreshed[0]);
    expect(plugin.runs()).toBe(2);
  });

  it('keeps the unexpired credential when the refresh after a 401 fails, and reports the failure', async () => {
    const plugin = writePlugin({ extra: 'if [ "$n" = 2 ]; then exit 4; fi' });
    const p = provider(plugin);
    const first = await p.get();
    const [refresh, got] = await Promise.allSettled([p.refreshAfterUnauthorized(first), p.get()]);
    expect(refresh.status === 'rejected' && String(refresh.reason)).toContain('failed with exit code 4');
    expect(got).toEqual({ status: 'fulfilled', value: first });
    expect(plugin.runs()).toBe(2);
  });

  it('shares one failing run among concurrent callers and runs again on the next call', async () => {
    const plugin = writePlugin({ sleep: 0.1, extra: 'exit 3' });
    const io = testIo();
    const p = provider(plugin, { io });
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => p.get()));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(plugin.runs()).toBe(1);
    const err = await failure(p.get());
    expect(err.message).toBe(
      `getting credentials for user "alice": exec: executable ${plugin.path} failed with exit code 3`,
    );
    expect(plugin.runs()).toBe(2);
  });

  it('reports a plugin killed by a signal with exit code -1, as Go', async () => {
    const plugin = writePlugin({ extra: 'kill -9 $$' });
    const err = await failure(provider(plugin).get());
    expect(err.message).toContain(`exec: executable ${plugin.path} failed with exit code -1`);
  });

  it('stops a plugin that never exits at its deadline: its whole process group is killed, the run fails in one line', async () => {
    // client-go waits for the plugin forever (exec.Command, no deadline, in refreshCredsLocked); ours is stopped.
    const plugin = writeHangingPlugin();
    try {
      const err = await failure(
        provider(plugin.path, { deadline: { ms: 2000, name: '--request-timeout 2s' } }).get(),
      );
      expect(err.message).toBe(
        `getting credentials for user "alice": exec: executable ${plugin.path} did not exit within --request-timeout 2s: it was stopped`,
      );
      expect(err.hint).toMatch(/--request-timeout/);
      const pids = plugin.pids();
      expect(pids).toHaveLength(2);
      expect(await survivors(pids)).toStrictEqual([]);
    } finally {
      killLeftovers(plugin.pids());
    }
  });

  it('passes the plugin stderr through', async () => {
    const plugin = writePlugin({ extra: 'echo "opening the browser for login" >&2' });
    const io = testIo();
    await provider(plugin, { io }).get();
    expect(io.stderrText()).toBe('opening the browser for login\n');
  });

  it('resolves a relative command against the kubeconfig folder', async () => {
    const plugin = writePlugin({ subdir: 'bin' });
    const configDir = dirname(dirname(plugin.path));
    const p = provider(`./bin/${basename(plugin.path)}`, { configDir });
    expect(p.command).toBe(plugin.path);
    await p.get();
    expect(plugin.runs()).toBe(1);
    expect(plugin.argv0()).toBe(plugin.path);
  });

  it('looks a bare name up on PATH, not in the kubeconfig folder', async () => {
    const plugin = writePlugin({ name: 'kubelogin-test' });
    const found = provider('kubelogin-test', {
      io: testIo({ env: { ...process.env, PATH: `/nonexistent:${plugin.dir}:${process.env.PATH ?? ''}` } }),
      configDir: '/nonexistent',
    });
    await found.get();
    expect(plugin.runs()).toBe(1);
    expect(plugin.argv0()).toBe(join(plugin.dir, 'kubelogin-test'));

    const notOnPath = provider('kubelogin-test', {
      configDir: plugin.dir,
      exec: { installHint: 'brew install x' },
    });
    const err = await failure(notOnPath.get());
    expect(err.message).toBe(
      'getting credentials for user "alice": exec: executable kubelogin-test not found',
    );
    expect(err.hint).toBe('brew install x');
  });

  it('skips PATH entries that are not executable files', async () => {
    const plugin = writePlugin({ name: 'tool' });
    const shadow = join(plugin.dir, 'shadow');
    mkdirSync(join(shadow, 'tool'), { recursive: true }); // a folder named like the plugin
    const noexec = join(plugin.dir, 'noexec');
    mkdirSync(noexec);
    writeFileSync(join(noexec, 'tool'), '#!/bin/sh\nexit 9\n');
    chmodSync(join(noexec, 'tool'), 0o644);
    await provider('tool', {
      io: testIo({
        env: { ...process.env, PATH: `${shadow}:${noexec}:${plugin.dir}:${process.env.PATH ?? ''}` },
      }),
    }).get();
    expect(plugin.runs()).toBe(1);
  });

  it('names a missing command, with its installHint, or a generic hint', async () => {
    const hinted = await failure(
      provider('no-such-plugin-xyz', {
        exec: { installHint: 'Install it with:\n  brew install xyz\n' },
      }).get(),
    );
    expect(hinted.message).toBe(
      'getting credentials for user "alice": exec: executable no-such-plugin-xyz not found',
    );
    expect(hinted.hint).toBe('Install it with:\n  brew install xyz\n');
    const bare = await failure(provider('no-such-plugin-xyz').get());
    expect(bare.hint).toContain('client-go credential plugin that is not installed');
    const path = await failure(provider('./bin/nope', { configDir: '/nonexistent' }).get());
    expect(path.message).toBe(
      'getting credentials for user "alice": exec: fork/exec /nonexistent/bin/nope: no such file or directory',
    );
  });

  it('sets KUBERNETES_EXEC_INFO, the env entries over the inherited environment', async () => {
    const plugin = writePlugin();
    const io = testIo({ env: { ...process.env, EXEC_TEST_VAR: 'inherited' } });
    await provider(plugin, { io }).get();
    expect(plugin.testVar()).toBe('inherited');
    expect(plugin.info()).toEqual({ kind: 'ExecCredential', apiVersion: V1, spec: { interactive: false } });

    const cluster: ExecClusterInfo = {
      server: 'https://10.0.0.1:6443',
      tlsServerName: 'kubernetes',
      insecureSkipTlsVerify: false,
      certificateAuthorityData: Buffer.from(TEST_CERT),
      proxyUrl: 'http://proxy:3128',
      disableCompression: true,
      config: { zeta: 1, alpha: { b: [1, { d: 2, c: 3 }], a: null } },
    };
    const exec = { env: [{ name: 'EXEC_TEST_VAR', value: 'from-kubeconfig' }], provideClusterInfo: true };
    await provider(plugin, { io, cluster, exec }).get();
    expect(plugin.testVar()).toBe('from-kubeconfig');
    expect(plugin.infoText()).toBe(
      JSON.stringify({
        kind: 'ExecCredential',
        apiVersion: V1,
        spec: {
          cluster: {
            server: 'https://10.0.0.1:6443',
            'tls-server-name': 'kubernetes',
            'certificate-authority-data': Buffer.from(TEST_CERT).toString('base64'),
            'proxy-url': 'http://proxy:3128',
            'disable-compression': true,
            config: { alpha: { a: null, b: [1, { c: 3, d: 2 }] }, zeta: 1 },
          },
          interactive: false,
        },
      }) + '\n',
    );
    await provider(plugin, {
      io,
      cluster: { server: 'https://x' },
      exec: { provideClusterInfo: true },
    }).get();
    expect(plugin.info()).toEqual({
      kind: 'ExecCredential',
      apiVersion: V1,
      spec: { cluster: { server: 'https://x', config: null }, interactive: false },
    });
  });

  it('gives stdin to interactive plugins only', async () => {
    const plugin = writePlugin();
    const run = async (interactiveMode: string, stdinIsTTY: boolean, apiVersion = V1): Promise<unknown> => {
      plugin.print(credential({ token: 't' }, apiVersion));
      await provider(plugin, {
        exec: { interactiveMode, apiVersion },
        io: testIo({ stdinIsTTY, stdin: 'typed\n' }),
      }).get();
      return {
        interactive: (plugin.info() as { spec: { interactive: boolean } }).spec.interactive,
        stdin: plugin.stdinContent(),
      };
    };
    expect(await run('Never', true)).toEqual({ interactive: false, stdin: '' });
    expect(await run('IfAvailable', false)).toEqual({ interactive: false, stdin: '' });
    expect(await run('IfAvailable', true)).toEqual({ interactive: true, stdin: 'typed\n' });
    expect(await run('Always', true, V1BETA1)).toEqual({ interactive: true, stdin: 'typed\n' });
  });

  it('fails an Always plugin without a terminal, or with stdin taken, before running it', async () => {
    const plugin = writePlugin();
    const noTty = await failure(provider(plugin, { exec: { interactiveMode: 'Always' } }).get());
    expect(noTty.message).toBe(
      'getting credentials for user "alice": exec plugin cannot support interactive mode: standard input is not a terminal',
    );
    const taken = {
      ...testIo({ stdinIsTTY: true }),
      stdinUnavailable: true,
      stdinUnavailableMessage: STDIN_USED_BY_MANIFESTS,
    };
    const busy = await failure(provider(plugin, { exec: { interactiveMode: 'Always' }, io: taken }).get());
    expect(busy.message).toContain(
      'exec plugin cannot support interactive mode: standard input is unavailable: used by stdin resource manifest reader',
    );
    expect(plugin.runs()).toBe(0);
    await provider(plugin, { exec: { interactiveMode: 'IfAvailable' }, io: taken }).get();
    expect((plugin.info() as { spec: { interactive: boolean } }).spec.interactive).toBe(false);
  });

  it('reports output errors with the plugin named', async () => {
    const plugin = writePlugin();
    plugin.print(credential({}));
    const err = await failure(provider(plugin).get());
    expect(err.message).toBe(
      `getting credentials for user "alice": exec plugin didn't return a token or cert/key pair`,
    );
  });
});
