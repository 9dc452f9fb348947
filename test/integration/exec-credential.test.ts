// The exec credential module against real kubectl: the same plugin, the same kubeconfig, a loopback HTTPS
// stub (kubectl only asks for credentials for https servers). kubectl is the oracle for what the plugin is
// given (KUBERNETES_EXEC_INFO, argv[0], stdin) and for the wording of every error.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { UserError } from '../../src/errors.js';
import { ExecCredentialProvider, parseExecConfig } from '../../src/cluster/connection/exec-credential.js';
import type {
  ExecClusterInfo,
  ExecCredential,
  ExecIo,
} from '../../src/cluster/connection/exec-credential-types.js';
import { TEST_CERT, TEST_KEY } from '../apiserver/tls.js';
import { credential, testIo, V1, V1BETA1, writePlugin } from '../support/exec-plugin.js';
import type { TestPlugin } from '../support/exec-plugin.js';

const execFileAsync = promisify(execFile);
const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';
const hasScript = existsSync('/usr/bin/script');
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const USER = 'u';

let server: https.Server;
let serverUrl = '';
const requests: string[] = [];

beforeAll(async () => {
  server = https.createServer({ cert: TEST_CERT, key: TEST_KEY }, (req, res) => {
    requests.push(req.headers.authorization ?? '');
    const unauthorized = req.headers.authorization === 'Bearer bad';
    res.writeHead(unauthorized ? 401 : 200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        unauthorized
          ? { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', code: 401 }
          : { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

interface Setup {
  readonly exec: Record<string, unknown>;
  /** Extra fields of clusters[].cluster (server and the CA are set unless overridden). */
  readonly cluster?: Record<string, unknown>;
  /** The client.authentication.k8s.io/exec cluster extension. */
  readonly extension?: unknown;
  /** Where the kubeconfig goes (a fresh folder by default). */
  readonly dir?: string;
}

function writeKubeconfig(setup: Setup): string {
  const dir = setup.dir ?? mkdtempSync(join(tmpdir(), 'xrbac-exec-kc-'));
  mkdirSync(dir, { recursive: true });
  const cluster: Record<string, unknown> = {
    server: serverUrl,
    'certificate-authority-data': Buffer.from(TEST_CERT).toString('base64'),
    ...setup.cluster,
  };
  if (setup.extension !== undefined) {
    cluster.extensions = [{ name: 'client.authentication.k8s.io/exec', extension: setup.extension }];
  }
  const file = join(dir, 'config');
  writeFileSync(
    file,
    YAML.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster }],
      users: [{ name: USER, user: { exec: setup.exec } }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: USER } }],
      'current-context': 'c',
    }),
  );
  return file;
}

/** Cluster info as the connection layer hands it to the module: straight from the kubeconfig's cluster. */
function clusterInfo(kubeconfig: string): ExecClusterInfo {
  const doc = YAML.parse(readFileSync(kubeconfig, 'utf8'));
  const c = doc.clusters[0].cluster;
  const ext = (c.extensions ?? []).find((e: any) => e.name === 'client.authentication.k8s.io/exec');
  return {
    server: c.server,
    tlsServerName: c['tls-server-name'],
    insecureSkipTlsVerify: c['insecure-skip-tls-verify'],
    certificateAuthorityData:
      c['certificate-authority-data'] === undefined
        ? undefined
        : Buffer.from(c['certificate-authority-data'], 'base64'),
    proxyUrl: c['proxy-url'],
    disableCompression: c['disable-compression'],
    config: ext?.extension,
  };
}

function moduleProvider(kubeconfig: string, io: ExecIo = testIo()): ExecCredentialProvider {
  const doc = YAML.parse(readFileSync(kubeconfig, 'utf8'));
  return new ExecCredentialProvider(parseExecConfig(doc.users[0].user.exec, USER), {
    configDir: dirname(kubeconfig),
    cluster: clusterInfo(kubeconfig),
    io,
    userName: USER,
    deadline: undefined,
  });
}

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `kubectl get --raw /api` from an unrelated folder, stdin not a terminal. */
function kubectl(kubeconfig: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      KUBECTL,
      ['--kubeconfig', kubeconfig, 'get', '--raw', '/api'],
      { cwd: tmpdir(), env: { ...process.env, HOME: tmpdir() }, timeout: 30_000 },
      (err, stdout, stderr) => {
        resolve({ code: err === null ? 0 : Number(err.code ?? 1), stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

/** kubectl's error without its "Unable to connect to the server: getting credentials: " wrapping (first line). */
function kubectlError(run: Run): string {
  expect(run.code).not.toBe(0);
  const line =
    run.stderr.split('\n').find((l) => l.startsWith('Unable to connect') || l.startsWith('error: ')) ?? '';
  return line
    .replace(/^Unable to connect to the server: (getting credentials: )?/, '')
    .replace(/^error: /, '');
}

async function moduleError(kubeconfig: string, io?: ExecIo): Promise<UserError> {
  const err: unknown = await Promise.resolve()
    .then(() => moduleProvider(kubeconfig, io).get())
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(UserError);
  return err as UserError;
}

function withoutPrefix(err: UserError): string {
  return err.message.replace(`getting credentials for user "${USER}": `, '');
}

const never = (plugin: TestPlugin, more: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: V1,
  command: plugin.path,
  interactiveMode: 'Never',
  ...more,
});

describe.skipIf(!existsSync(KUBECTL))('exec credential plugins, module vs kubectl', () => {
  describe('KUBERNETES_EXEC_INFO', () => {
    it('is identical with the cluster info: CA, tls-server-name and the exec extension (keys sorted)', async () => {
      const plugin = writePlugin();
      const kubeconfig = writeKubeconfig({
        exec: never(plugin, { provideClusterInfo: true }),
        cluster: { 'tls-server-name': 'localhost' },
        extension: { zeta: [3, { b: 1, a: 2 }], alpha: 'x', mid: { q: null, p: true, num: 1.5 } },
      });
      const run = await kubectl(kubeconfig);
      expect(run.stdout).toContain('APIVersions');
      const fromKubectl = plugin.infoText();
      await moduleProvider(kubeconfig).get();
      expect(JSON.parse(plugin.infoText())).toEqual(JSON.parse(fromKubectl));
      expect(plugin.infoText()).toBe(fromKubectl);
    });

    it('is identical for v1beta1 with insecure-skip-tls-verify, proxy-url, disable-compression and no extension', async () => {
      const plugin = writePlugin();
      plugin.print(credential({ token: 't' }, V1BETA1));
      const kubeconfig = writeKubeconfig({
        exec: { apiVersion: V1BETA1, command: plugin.path, provideClusterInfo: true },
        cluster: {
          'certificate-authority-data': undefined,
          'insecure-skip-tls-verify': true,
          'proxy-url': 'http://127.0.0.1:1',
          'disable-compression': true,
        },
      });
      await kubectl(kubeconfig); // fails at the proxy, after the plugin ran
      expect(plugin.runs()).toBeGreaterThan(0);
      const fromKubectl = plugin.infoText();
      await moduleProvider(kubeconfig).get();
      expect(JSON.parse(plugin.infoText())).toEqual(JSON.parse(fromKubectl));
      expect(plugin.info()).toMatchObject({ spec: { cluster: { config: null }, interactive: false } });
    });

    it('carries no cluster without provideClusterInfo', async () => {
      const plugin = writePlugin();
      const kubeconfig = writeKubeconfig({ exec: never(plugin), extension: { a: 1 } });
      await kubectl(kubeconfig);
      const fromKubectl = plugin.infoText();
      await moduleProvider(kubeconfig).get();
      expect(plugin.infoText()).toBe(fromKubectl);
      expect(plugin.info()).toEqual({ kind: 'ExecCredential', apiVersion: V1, spec: { interactive: false } });
    });
  });

  it('resolves a relative command against the kubeconfig folder, whatever the working folder', async () => {
    const plugin = writePlugin({ subdir: 'kube/bin' });
    const dir = join(plugin.dir, '..');
    const kubeconfig = writeKubeconfig({
      dir,
      exec: never(plugin, { command: `./${relative(dir, plugin.path)}` }),
    });
    expect((await kubectl(kubeconfig)).code).toBe(0);
    const fromKubectl = plugin.argv0();
    expect(fromKubectl).toBe(plugin.path);
    await moduleProvider(kubeconfig).get();
    expect(plugin.argv0()).toBe(fromKubectl);
    expect(plugin.runs()).toBe(2);
  });

  it('gives a non-interactive plugin no stdin, as kubectl', async () => {
    const plugin = writePlugin();
    const kubeconfig = writeKubeconfig({ exec: never(plugin, { interactiveMode: 'IfAvailable' }) });
    await kubectl(kubeconfig);
    const fromKubectl = [plugin.stdinKind(), plugin.stdinContent()];
    await moduleProvider(kubeconfig, testIo({ stdin: 'typed\n' })).get();
    expect([plugin.stdinKind(), plugin.stdinContent()]).toEqual(fromKubectl);
    expect(fromKubectl).toEqual(['notty', '']);
  });

  it.skipIf(!hasScript)(
    'gives an interactive plugin the terminal, as kubectl (under script(1))',
    async () => {
      for (const interactiveMode of ['IfAvailable', 'Always']) {
        const plugin = writePlugin();
        const kubeconfig = writeKubeconfig({ exec: never(plugin, { interactiveMode }) });
        // Asynchronously: the stub server answers from this process.
        const shell = async (cmd: string): Promise<string> =>
          (await execFileAsync('script', ['-qec', cmd, '/dev/null'], { cwd: tmpdir(), timeout: 60_000 }))
            .stdout;
        expect(await shell(`${KUBECTL} --kubeconfig ${kubeconfig} get --raw /api`)).toContain('APIVersions');
        const fromKubectl = [plugin.info(), plugin.stdinKind()];
        const driver = join(plugin.dir, 'driver.mts');
        writeFileSync(
          driver,
          [
            `import { ExecCredentialProvider, parseExecConfig } from ${JSON.stringify(join(repoRoot, 'src/cluster/connection/exec-credential.ts'))};`,
            `const exec = ${JSON.stringify(never(plugin, { interactiveMode }))};`,
            `const p = new ExecCredentialProvider(parseExecConfig(exec, 'u'), { configDir: undefined, cluster: undefined,`,
            `  io: { env: process.env, stdin: process.stdin, stdinIsTTY: process.stdin.isTTY === true, stderr: process.stderr, now: Date.now }, userName: 'u' });`,
            `console.log(JSON.stringify(await p.get()));`,
          ].join('\n'),
        );
        const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
        expect(await shell(`${tsx} ${driver}`)).toContain('"token":"token-1"');
        expect([plugin.info(), plugin.stdinKind()]).toEqual(fromKubectl);
        expect(fromKubectl).toEqual([
          { kind: 'ExecCredential', apiVersion: V1, spec: { interactive: true } },
          'tty',
        ]);
      }
    },
  );

  it('runs a plugin without expiration once, and once more after a 401, as kubectl', async () => {
    const plugin = writePlugin();
    const kubeconfig = writeKubeconfig({ exec: never(plugin) });
    expect((await kubectl(kubeconfig)).code).toBe(0);
    expect(plugin.runs()).toBe(1);
    plugin.print(credential({ token: 'bad' }));
    const unauthorized = await kubectl(kubeconfig);
    expect(unauthorized.stderr).toContain('You must be logged in to the server');
    expect(plugin.runs()).toBe(3); // kubectl: the run for the request, one refresh after the 401

    const p = moduleProvider(kubeconfig);
    const used = await Promise.all(Array.from({ length: 50 }, () => p.get()));
    expect(plugin.runs()).toBe(4);
    const first = used[0] as ExecCredential;
    const refreshed = await p.refreshAfterUnauthorized(first);
    expect(plugin.runs()).toBe(5);
    await p.refreshAfterUnauthorized(first); // a late 401 for the replaced credential
    expect(await p.get()).toBe(refreshed);
    expect(plugin.runs()).toBe(5);
  });

  describe('errors, worded as kubectl words them', () => {
    it('a missing command names it, with the installHint', async () => {
      const installHint = 'Install it with:\n  brew install xyz';
      const kubeconfig = writeKubeconfig({
        exec: { apiVersion: V1, command: 'no-such-plugin-xyz', interactiveMode: 'Never', installHint },
      });
      const run = await kubectl(kubeconfig);
      expect(kubectlError(run)).toBe('exec: executable no-such-plugin-xyz not found');
      expect(run.stderr).toContain(installHint);
      const err = await moduleError(kubeconfig);
      expect(withoutPrefix(err)).toBe(kubectlError(run));
      expect(err.hint).toBe(installHint);
    });

    it('a missing relative path is a fork/exec error', async () => {
      const kubeconfig = writeKubeconfig({
        exec: { apiVersion: V1, command: 'bin/nope', interactiveMode: 'Never' },
      });
      const run = await kubectl(kubeconfig);
      expect(kubectlError(run)).toBe(
        `exec: fork/exec ${join(dirname(kubeconfig), 'bin/nope')}: no such file or directory`,
      );
      expect(withoutPrefix(await moduleError(kubeconfig))).toBe(kubectlError(run));
    });

    it('Always without a terminal fails before running the plugin', async () => {
      const plugin = writePlugin();
      const kubeconfig = writeKubeconfig({ exec: never(plugin, { interactiveMode: 'Always' }) });
      const run = await kubectl(kubeconfig);
      expect(kubectlError(run)).toBe(
        'exec plugin cannot support interactive mode: standard input is not a terminal',
      );
      expect(withoutPrefix(await moduleError(kubeconfig))).toBe(kubectlError(run));
      expect(plugin.runs()).toBe(0);
    });

    it('a non-zero exit gives its code, the plugin stderr passed through', async () => {
      const plugin = writePlugin({ extra: 'echo "token expired, run login" >&2; exit 3' });
      const kubeconfig = writeKubeconfig({ exec: never(plugin) });
      const run = await kubectl(kubeconfig);
      expect(kubectlError(run)).toBe(`exec: executable ${plugin.path} failed with exit code 3`);
      expect(run.stderr).toContain('token expired, run login\n');
      const io = testIo();
      expect(withoutPrefix(await moduleError(kubeconfig, io))).toBe(kubectlError(run));
      expect(io.stderrText()).toBe('token expired, run login\n');
    });

    const pem = { clientCertificateData: 'x', clientKeyData: 'y' };
    it.each([
      ['another apiVersion', credential({ token: 't' }, V1BETA1)],
      ['no status', JSON.stringify({ apiVersion: V1, kind: 'ExecCredential' })],
      ['no token', credential({})],
      ['a null token', credential({ token: null })],
      ['only a certificate', credential({ clientCertificateData: TEST_CERT })],
      ['no PEM data', credential(pem)],
    ])('output with %s', async (_name, output) => {
      const plugin = writePlugin();
      plugin.print(output);
      const kubeconfig = writeKubeconfig({ exec: never(plugin) });
      const run = await kubectl(kubeconfig);
      expect(withoutPrefix(await moduleError(kubeconfig))).toBe(kubectlError(run));
    });

    it.each([
      ['another kind', credential({ token: 't' }, V1, 'Pod')],
      ['an unknown apiVersion', credential({ token: 't' }, 'foo/v9')],
      ['a bad expirationTimestamp', credential({ token: 't', expirationTimestamp: 'tomorrow' })],
      ['trailing garbage', `${credential({ token: 't' })} x`],
    ])('output with %s (same start; kubectl adds Go internals)', async (_name, output) => {
      const plugin = writePlugin();
      plugin.print(output);
      const kubeconfig = writeKubeconfig({ exec: never(plugin) });
      const ours = withoutPrefix(await moduleError(kubeconfig));
      const essential = ours.replace(/: not an RFC 3339 time$|: invalid JSON( at position \d+)?$/, '');
      expect(kubectlError(await kubectl(kubeconfig)).startsWith(essential)).toBe(true);
    });

    it('accepts what kubectl accepts: YAML, no kind, an expiration in the past', async () => {
      for (const output of [
        `apiVersion: ${V1}\nkind: ExecCredential\nstatus:\n  token: t\n`,
        JSON.stringify({ apiVersion: V1, status: { token: 't' } }),
        credential({ token: 't', expirationTimestamp: '2001-01-01T00:00:00Z' }),
      ]) {
        const plugin = writePlugin();
        plugin.print(output);
        const kubeconfig = writeKubeconfig({ exec: never(plugin) });
        expect((await kubectl(kubeconfig)).code).toBe(0);
        expect((await moduleProvider(kubeconfig).get()).token).toBe('t');
      }
    });

    it.each([
      ['no interactiveMode for v1', { apiVersion: V1, command: 'x' }, false],
      ['an unknown interactiveMode', { apiVersion: V1, command: 'x', interactiveMode: 'Sometimes' }, false],
      ['no apiVersion', { command: 'x', interactiveMode: 'Never' }, false],
      ['v1alpha1', { apiVersion: 'client.authentication.k8s.io/v1alpha1', command: 'x' }, true],
    ])('a kubeconfig with %s', async (_name, exec, prefixOnly) => {
      const kubeconfig = writeKubeconfig({ exec });
      const expected = kubectlError(await kubectl(kubeconfig));
      const doc = YAML.parse(readFileSync(kubeconfig, 'utf8'));
      let message = '';
      try {
        parseExecConfig(doc.users[0].user.exec, USER);
      } catch (err) {
        expect(err).toBeInstanceOf(UserError);
        message = (err as UserError).message;
      }
      if (prefixOnly) expect(message.startsWith(expected)).toBe(true);
      else expect(message).toBe(expected);
    });
  });
});
