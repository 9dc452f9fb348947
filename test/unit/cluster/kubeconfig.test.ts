import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/errors.js';
import { loadKubeconfig } from '../../../src/cluster/connection/kubeconfig.js';
import { parseRequestTimeout } from '../../../src/port/connection-flags.js';

function kubeconfig(opts: {
  clusters?: [string, string][];
  users?: string[];
  contexts?: [string, string, string, string?][];
  current?: string;
}): string {
  const lines = ['apiVersion: v1', 'kind: Config', 'clusters:'];
  for (const [name, server] of opts.clusters ?? [])
    lines.push(`- name: ${name}`, '  cluster:', `    server: ${server}`);
  lines.push('users:');
  for (const name of opts.users ?? []) lines.push(`- name: ${name}`, '  user:', `    token: token-${name}`);
  lines.push('contexts:');
  for (const [name, cluster, user, ns] of opts.contexts ?? []) {
    lines.push(`- name: ${name}`, '  context:', `    cluster: ${cluster}`, `    user: ${user}`);
    if (ns !== undefined) lines.push(`    namespace: ${ns}`);
  }
  if (opts.current !== undefined) lines.push(`current-context: ${opts.current}`);
  return `${lines.join('\n')}\n`;
}

function write(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const dir = mkdtempSync(join(tmpdir(), 'xrbac-kc-'));
const first = write(
  dir,
  'first',
  kubeconfig({
    clusters: [['shared', 'https://first.example:6443']],
    users: ['alice'],
    contexts: [['one', 'shared', 'alice', 'team-a']],
    current: 'one',
  }),
);
const second = write(
  dir,
  'second',
  kubeconfig({
    clusters: [
      ['shared', 'https://second.example:6443'],
      ['other', 'https://other.example:6443'],
    ],
    users: ['alice', 'bob'],
    contexts: [
      ['one', 'other', 'bob'],
      ['two', 'other', 'bob'],
    ],
    current: 'two',
  }),
);

describe('loadKubeconfig', () => {
  it('merges KUBECONFIG files first-wins, current-context from the first file that sets it', () => {
    const kc = loadKubeconfig({}, { KUBECONFIG: `${first}:${second}`, HOME: dir });
    expect(kc.contextName).toBe('one');
    expect(kc.server).toBe('https://first.example:6443');
    expect(kc.namespace).toBe('team-a');
    expect(kc.namespaceSource).toBe('context');
  });

  it('takes names only the later file defines', () => {
    const kc = loadKubeconfig({ context: 'two' }, { KUBECONFIG: `${first}:${second}`, HOME: dir });
    expect(kc.server).toBe('https://other.example:6443');
    expect(kc.userName).toBe('bob');
  });

  it('ignores files of KUBECONFIG that do not exist', () => {
    const kc = loadKubeconfig({}, { KUBECONFIG: `${join(dir, 'missing')}:${second}`, HOME: dir });
    expect(kc.contextName).toBe('two');
  });

  it('applies --cluster, --user and -n over the context', () => {
    const kc = loadKubeconfig(
      { context: 'two', cluster: 'shared', user: 'alice', namespace: 'ns-x' },
      { KUBECONFIG: `${first}:${second}`, HOME: dir },
    );
    expect(kc.server).toBe('https://first.example:6443');
    expect(kc.credentials).toStrictEqual({ kind: 'token', token: 'token-alice' });
    expect(kc.namespace).toBe('ns-x');
    expect(kc.namespaceSource).toBe('flag');
  });

  it('falls back to "default" when neither -n nor the context names a namespace, and says so', () => {
    const kc = loadKubeconfig({ kubeconfig: second }, { HOME: dir });
    expect(kc.namespace).toBe('default');
    expect(kc.namespaceSource).toBe('default');
  });

  it('uses --kubeconfig alone, ignoring KUBECONFIG', () => {
    const kc = loadKubeconfig({ kubeconfig: second }, { KUBECONFIG: first, HOME: dir });
    expect(kc.contextName).toBe('two');
  });

  const failures: Record<
    string,
    { flags: object; env: Record<string, string>; message: RegExp; reason: string }
  > = {
    NoKubeconfigAtAll: {
      flags: {},
      env: { HOME: join(dir, 'nohome') },
      message: /^no kubeconfig found: .*\.kube\/config does not exist/,
      reason: 'client-node would silently fall back to localhost:8080; kubectl-like tools must not',
    },
    MissingKubeconfigFlag: {
      flags: { kubeconfig: join(dir, 'nope') },
      env: { HOME: dir },
      message: /does not exist/,
      reason: '--kubeconfig naming a missing file is an error, as in kubectl',
    },
    KubeconfigEnvAllMissing: {
      flags: {},
      env: { KUBECONFIG: join(dir, 'a-missing'), HOME: dir },
      message: /none of the files in KUBECONFIG exists/,
      reason: 'a KUBECONFIG whose files are all missing leaves no configuration',
    },
    UnknownContext: {
      flags: { context: 'nope' },
      env: { KUBECONFIG: first, HOME: dir },
      message: /^context "nope" does not exist/,
      reason: 'a typo in --context must not pick another cluster',
    },
    NoCurrentContext: {
      flags: {},
      env: { KUBECONFIG: write(dir, 'nocurrent', kubeconfig({ clusters: [['c', 'https://c']] })), HOME: dir },
      message: /^no current context is set/,
      reason: 'without a current context there is no cluster to talk to',
    },
    InvalidYaml: {
      flags: {},
      env: { KUBECONFIG: write(dir, 'broken', 'clusters: [\n  - : :\n'), HOME: dir },
      message: /^invalid kubeconfig /,
      reason: 'a broken file names itself',
    },
    UnknownCluster: {
      flags: { cluster: 'nope' },
      env: { KUBECONFIG: first, HOME: dir },
      message: /^cluster "nope" of context "one" does not exist/,
      reason: '--cluster must name a cluster of the kubeconfig',
    },
    CaDataNotBase64: {
      flags: {},
      env: {
        KUBECONFIG: write(
          dir,
          'bad-ca-data',
          kubeconfig({
            clusters: [['c', 'https://c']],
            users: ['u'],
            contexts: [['x', 'c', 'u']],
            current: 'x',
          }).replace(
            '    server: https://c\n',
            '    server: https://c\n    certificate-authority-data: "@@@"\n',
          ),
        ),
        HOME: dir,
      },
      message:
        /^invalid certificate-authority-data of cluster "c" in the kubeconfig: illegal base64 data at input byte 0$/,
      reason:
        'kubectl refuses such a file when it loads it: "error loading config file ...: illegal base64 data at input byte 0"',
    },
  };
  it.each(Object.entries(failures))('%s', (_name, tc) => {
    let caught: unknown;
    try {
      loadKubeconfig(tc.flags, tc.env);
    } catch (err) {
      caught = err;
    }
    expect(caught, tc.reason).toBeInstanceOf(UserError);
    expect((caught as UserError).message, tc.reason).toMatch(tc.message);
    expect((caught as UserError).hint, tc.reason).toBeTruthy();
  });
});

describe('parseRequestTimeout', () => {
  it.each([
    ['5', 5000],
    ['500ms', 500],
    ['2m', 120_000],
    ['1.5s', 1500],
    ['0', undefined],
    ['1m30s', 90_000],
    ['1h2m3.5s', 3_723_500],
    ['0s', undefined],
  ])('%s', (input, want) => {
    expect(parseRequestTimeout(input)).toBe(want);
  });
  it('rejects garbage', () => {
    expect(() => parseRequestTimeout('soon')).toThrow(/invalid --request-timeout/);
  });
});
