// A client certificate or key the plugin cannot use, from the kubeconfig (`-data` fields or files) or from kubectl's
// flags, through the built binary against the test API server: one `error:` line and exit code 2, at once, never a
// process left waiting. Real kubectl with the same kubeconfig is the reference: it fails too, without hanging, and
// names the same reason (client-go runs Go's tls.X509KeyPair on the pair, golang/go src/crypto/tls/tls.go@7926af0ddbd70675dce43aeedfff21353d5d54c2;
// a `-data` field that is not base64 fails as encoding/base64 reports it when kubectl loads the file).
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { TEST_CERT, TEST_KEY } from '../apiserver/tls.js';
import { runKubectl } from '../support/kubectl.js';
import { assertBuilt, kubectl, repoRoot, tempDir } from './harness.js';

const TIMEOUT_MS = 15_000;

let server: TestApiServer;
let https: string;
let ca: string;

beforeAll(async () => {
  assertBuilt();
  server = await startApiServer({ seed: loadSeedFiles([join(repoRoot, 'examples', 'cluster')]) });
  https = server.url.replace('http:', 'https:');
  ca = join(tempDir(), 'ca.crt');
  writeFileSync(ca, TEST_CERT);
});

afterAll(async () => {
  await server.stop();
});

const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
  type: 'pkcs8',
  format: 'pem',
}) as string;

interface Shape {
  readonly reason: string;
  readonly cert: string;
  readonly key: string;
  /** How the pair reaches the plugin; an empty `-data` field counts as unset, so the empty file is files only. */
  readonly ways: readonly Way[];
}
type Way = 'data' | 'files' | 'flags';

const SHAPES: Readonly<Record<string, Shape>> = {
  NotPem: {
    reason: 'text that holds no PEM block at all',
    cert: 'this is not a certificate\n',
    key: 'nor is this a key\n',
    ways: ['data', 'files', 'flags'],
  },
  TruncatedPem: {
    reason: 'a certificate cut in the middle: its BEGIN line has no END line',
    cert: TEST_CERT.slice(0, Math.floor(TEST_CERT.length / 2)),
    key: TEST_KEY,
    ways: ['data', 'files', 'flags'],
  },
  KeyOfAnotherCertificate: {
    reason: 'a well-formed key that does not belong to the certificate',
    cert: TEST_CERT,
    key: otherKey,
    ways: ['data', 'files', 'flags'],
  },
  CertificateGivenAsKey: {
    reason: 'the certificate PEM given where the key belongs',
    cert: TEST_CERT,
    key: TEST_CERT,
    ways: ['data', 'files', 'flags'],
  },
  EmptyFile: {
    reason: 'empty certificate and key files',
    cert: '',
    key: '',
    ways: ['files', 'flags'],
  },
};

function kubeconfigWithUser(dir: string, user: string): string {
  const file = join(dir, 'kubeconfig');
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: c',
      '  cluster:',
      `    server: ${https}`,
      `    certificate-authority: ${ca}`,
      'users:',
      '- name: u',
      '  user:',
      user,
      'contexts:',
      '- name: c',
      '  context: {cluster: c, user: u}',
      'current-context: c',
      '',
    ].join('\n'),
  );
  return file;
}

/** The connection part of the command line (and environment) that hands the plugin and kubectl the same pair. */
function connection(way: Way, cert: string, key: string): { args: string[]; env: Record<string, string> } {
  const dir = tempDir('xrbac-e2e-cert-');
  const certFile = join(dir, 'client.crt');
  const keyFile = join(dir, 'client.key');
  writeFileSync(certFile, cert);
  writeFileSync(keyFile, key);
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  switch (way) {
    case 'data':
      return {
        args: [],
        env: {
          KUBECONFIG: kubeconfigWithUser(
            dir,
            `    client-certificate-data: ${b64(cert)}\n    client-key-data: ${b64(key)}`,
          ),
        },
      };
    case 'files':
      return {
        args: [],
        env: {
          KUBECONFIG: kubeconfigWithUser(
            dir,
            `    client-certificate: ${certFile}\n    client-key: ${keyFile}`,
          ),
        },
      };
    case 'flags':
      return {
        args: [
          ...['--server', https, '--certificate-authority', ca],
          ...['--client-certificate', certFile, '--client-key', keyFile],
        ],
        env: {},
      };
  }
}

/** Why kubectl refused the pair, in Go's words: its error line, or the cert loader's log when it reads files. */
function kubectlReason(stderr: string): string | undefined {
  return /(tls: [^"\n]+|illegal base64 data at input byte \d+)/.exec(stderr)?.[1];
}

const errorLines = (stderr: string): string[] => stderr.split('\n').filter((l) => l.startsWith('error:'));

async function expectRefusedLikeKubectl(
  command: readonly string[],
  args: readonly string[],
  env: Record<string, string>,
  why: string,
): Promise<void> {
  const ref = await runKubectl(['get', 'clusterroles', ...args], env, TIMEOUT_MS);
  expect(ref.ms, `kubectl finished: ${ref.stderr}`).toBeLessThan(TIMEOUT_MS);
  expect(ref.code, `kubectl fails too: ${ref.stderr}`).not.toBe(0);
  const reason = kubectlReason(ref.stderr);
  expect(reason, `kubectl names the reason: ${ref.stderr}`).toBeDefined();

  const started = Date.now();
  const r = await kubectl(['crossplane-rbac', ...command, ...args], { env, timeoutMs: TIMEOUT_MS });
  expect(Date.now() - started, `the run ends instead of hanging (${why})`).toBeLessThan(TIMEOUT_MS);
  expect(r.code, r.stderr).toBe(2);
  expect(errorLines(r.stderr), why).toHaveLength(1);
  expect(errorLines(r.stderr)[0], why).toContain(reason ?? '');
  expect(r.stderr, 'never a bug report for bad input').not.toMatch(/this is a bug|\n\s+at /);
  expect(r.stdout).toBe('');
}

/** Both commands that read the cluster, in turn. */
const SYNC = ['sync', '--dry-run=server', '--yes'];
const EXPLAIN = ['explain', 'crossplane-edit'];

describe('a client certificate or key that cannot be used ends the run at once, as kubectl', () => {
  const cases = Object.entries(SHAPES).flatMap(([name, shape]) =>
    shape.ways.map((way) => [`${name} (${way})`, shape, way] as const),
  );

  it.each(cases)('%s', async (_name, shape, way) => {
    const { args, env } = connection(way, shape.cert, shape.key);
    await expectRefusedLikeKubectl(way === 'files' ? EXPLAIN : SYNC, args, env, shape.reason);
  });

  it.each([
    ['Base64GarbageCertificate', 'client-certificate-data: "!!!not*base64"', `client-key-data: KEY`, SYNC],
    ['Base64GarbageKey', 'client-certificate-data: CERT', 'client-key-data: "abc"', EXPLAIN],
  ])('%s (data)', async (_name, certLine, keyLine, command) => {
    const b64 = (s: string): string => Buffer.from(s).toString('base64');
    const user = [certLine, keyLine]
      .map((l) => `    ${l.replace('CERT', b64(TEST_CERT)).replace('KEY', b64(TEST_KEY))}`)
      .join('\n');
    const env = { KUBECONFIG: kubeconfigWithUser(tempDir('xrbac-e2e-cert-'), user) };
    await expectRefusedLikeKubectl(command, [], env, 'a -data field that is not base64');
  });
});
