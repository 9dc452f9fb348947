// Client certificates and keys as Go checks them before kubectl connects. The base64 table is Go's own,
// golang/go src/encoding/base64/base64_test.go@9398d6b03b34265d72fed5f3b4bfd794c2542cac (TestDecodeCorrupt: the
// offset Go reports, -1 = valid; TestNewLineCharacters: CR and LF anywhere). The key-pair cases follow Go's
// TestX509KeyPairErrors in golang/go src/crypto/tls/tls_test.go@5e421a80a09b31583d4a161ab9238d1dab89016c, and each
// expected message is the one X509KeyPair returns in golang/go src/crypto/tls/tls.go@7926af0ddbd70675dce43aeedfff21353d5d54c2.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeStdBase64, keyPairProblem } from '../../../src/cluster/connection/tls-material.js';
import { TEST_CERT, TEST_KEY } from '../../apiserver/tls.js';

describe('decodeStdBase64: Go base64.StdEncoding', () => {
  const corrupt: readonly (readonly [string, number])[] = [
    ['', -1],
    ['\n', -1],
    ['AAA=\n', -1],
    ['AAAA\n', -1],
    ['!!!!', 0],
    ['====', 0],
    ['x===', 1],
    ['=AAA', 0],
    ['A=AA', 1],
    ['AA=A', 2],
    ['AA==A', 4],
    ['AAA=AAAA', 4],
    ['AAAAA', 4],
    ['AAAAAA', 4],
    ['A=', 1],
    ['A==', 1],
    ['AA=', 3],
    ['AA==', -1],
    ['AAA=', -1],
    ['AAAA', -1],
    ['AAAAAA=', 7],
    ['YWJjZA=====', 8],
    ['A!\n', 1],
    ['A=\n', 1],
  ];

  it.each(corrupt)('%j fails at byte %i (-1: decodes)', (input, offset) => {
    if (offset < 0) expect(() => decodeStdBase64(input)).not.toThrow();
    else expect(() => decodeStdBase64(input)).toThrow(`illegal base64 data at input byte ${String(offset)}`);
  });

  it.each([
    'c3VyZQ==',
    'c3VyZQ==\r',
    'c3VyZQ==\n',
    'c3VyZQ==\r\n',
    'c3VyZ\r\nQ==',
    'c3V\ryZ\nQ==',
    'c3V\nyZ\rQ==',
    'c3VyZ\nQ==',
    'c3VyZQ\n==',
    'c3VyZQ=\n=',
    'c3VyZQ=\r\n\r\n=',
  ])('%j decodes to "sure": CR and LF are skipped anywhere', (input) => {
    expect(decodeStdBase64(input).toString()).toBe('sure');
  });
});

describe('keyPairProblem: Go tls.X509KeyPair', () => {
  const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
  const rsaKey = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
    type: 'pkcs1',
    format: 'pem',
  }) as string;
  const nonsense = '\n-----BEGIN NONSENSE-----\nZm9vZm9vZm9v\n-----END NONSENSE-----\n';

  const cases: Readonly<
    Record<string, { cert: string; key: string; want: string | undefined; reason: string }>
  > = {
    MatchingPair: { cert: TEST_CERT, key: TEST_KEY, want: undefined, reason: 'the control: a usable pair' },
    BothInOneInput: {
      cert: TEST_CERT + TEST_KEY,
      key: TEST_KEY + TEST_CERT,
      want: undefined,
      reason: 'TestX509KeyPair: each input may hold both blocks, in either order',
    },
    NoPem: {
      cert: 'not a certificate',
      key: TEST_KEY,
      want: 'tls: failed to find any PEM data in certificate input',
      reason: 'no PEM block in the certificate input',
    },
    Empty: {
      cert: '',
      key: '',
      want: 'tls: failed to find any PEM data in certificate input',
      reason: 'an empty file',
    },
    Truncated: {
      cert: TEST_CERT.slice(0, 200),
      key: TEST_KEY,
      want: 'tls: failed to find any PEM data in certificate input',
      reason: 'a BEGIN line without its END line is no block',
    },
    KeyNotPem: {
      cert: TEST_CERT,
      key: 'not a key',
      want: 'tls: failed to find any PEM data in key input',
      reason: 'no PEM block in the key input',
    },
    Switched: {
      cert: TEST_KEY,
      key: TEST_CERT,
      want: 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
      reason: 'TestX509KeyPairErrors: arguments switched',
    },
    CertificateAsKey: {
      cert: TEST_CERT,
      key: TEST_CERT,
      want: 'tls: found a certificate rather than a key in the PEM for the private key',
      reason: 'TestX509KeyPairErrors: both arguments certificates',
    },
    Nonsense: {
      cert: nonsense,
      key: nonsense,
      want: 'tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [NONSENSE]',
      reason: 'TestX509KeyPairErrors: the skipped block types are named',
    },
    NonsenseKey: {
      cert: TEST_CERT,
      key: nonsense,
      want: 'tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [NONSENSE]',
      reason: 'the key input holds only a block of another type',
    },
    KeyNotParsable: {
      cert: TEST_CERT,
      key: '-----BEGIN PRIVATE KEY-----\nZm9vZm9vZm9v\n-----END PRIVATE KEY-----\n',
      want: 'tls: failed to parse private key',
      reason: 'a PRIVATE KEY block that is no PKCS #1, PKCS #8 or SEC 1 key',
    },
    OtherKey: {
      cert: TEST_CERT,
      key: otherKey,
      want: 'tls: private key does not match public key',
      reason: 'an ECDSA key of another certificate',
    },
    OtherKeyType: {
      cert: TEST_CERT,
      key: rsaKey,
      want: 'tls: private key type does not match public key type',
      reason: 'an RSA key for an ECDSA certificate',
    },
  };

  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(keyPairProblem(tc.cert, tc.key), tc.reason).toBe(tc.want);
  });
});
