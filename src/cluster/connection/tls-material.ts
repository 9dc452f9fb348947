/**
 * Client certificates and keys checked before any connection is made, with Go's rules and messages: the kubeconfig's
 * base64 `-data` fields (encoding/base64's StdEncoding, as kubectl decodes them when it loads the file) and a
 * certificate/key pair (crypto/tls's X509KeyPair, which client-go runs when it builds the transport).
 */
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { UserError } from '../../errors.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Decodes standard, padded base64 as Go's base64.StdEncoding does: CR and LF are skipped, anything else outside the
 * alphabet, missing or misplaced padding, or data after the padding fails with Go's message and the byte offset Go
 * reports (golang/go src/encoding/base64/base64.go, decodeQuantum).
 */
export function decodeStdBase64(text: string): Buffer {
  const src = Buffer.from(text, 'latin1');
  const isNewline = (i: number): boolean => src[i] === 0x0a || src[i] === 0x0d;
  const corrupt = (at: number): Error => new Error(`illegal base64 data at input byte ${String(at)}`);
  let si = 0;
  quanta: while (si < src.length) {
    // One quantum: up to four alphabet characters, newlines skipped.
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) break quanta;
        throw corrupt(si - j);
      }
      const c = src[si] ?? 0;
      si++;
      if (ALPHABET.includes(String.fromCharCode(c))) continue;
      if (c === 0x0a || c === 0x0d) {
        j--;
        continue;
      }
      if (c !== 0x3d /* = */ || j < 2) throw corrupt(si - 1);
      if (j === 2) {
        // "==" is expected: the second "=" may come after newlines.
        while (si < src.length && isNewline(si)) si++;
        if (si === src.length) throw corrupt(src.length);
        if (src[si] !== 0x3d) throw corrupt(si - 1);
        si++;
      }
      while (si < src.length && isNewline(si)) si++;
      if (si < src.length) throw corrupt(si);
      break quanta;
    }
  }
  return Buffer.from(text.replace(/[\r\n]/g, ''), 'base64');
}

/** The kubeconfig's FIELD-data value of OWNER, decoded as kubectl decodes it, or the UserError naming the field. */
export function decodeDataField(data: string, field: string, owner: string): Buffer {
  try {
    return decodeStdBase64(data);
  } catch (err) {
    throw new UserError(`invalid ${field}-data of ${owner} in the kubeconfig: ${(err as Error).message}`, {
      hint: `${field}-data holds base64 (e.g. the output of: base64 -w0 FILE)`,
    });
  }
}

interface PemBlock {
  readonly type: string;
  readonly der: Buffer;
}

/**
 * The PEM blocks of TEXT in order, much as Go's pem.Decode finds them (golang/go src/encoding/pem/pem.go): a BEGIN
 * line at the start of a line, `Key: value` header lines, a base64 body and the END line of the same type; a block
 * whose body is not base64 is skipped.
 */
function pemBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  const block =
    /(?<=^|\n)-----BEGIN ([^\n]*?)-----[ \t\r]*\n([\s\S]*?)(?<=\n)-----END \1-----[ \t\r]*(?=\n|$)/g;
  for (const m of text.matchAll(block)) {
    const lines = (m[2] ?? '').split('\n');
    const firstBodyLine = lines.findIndex((l) => !l.includes(':'));
    const body = lines.slice(firstBodyLine < 0 ? lines.length : firstBodyLine).join('\n');
    try {
      blocks.push({ type: m[1] ?? '', der: decodeStdBase64(body.replace(/[ \t]/g, '')) });
    } catch {
      // Not base64: pem.Decode skips it too.
    }
  }
  return blocks;
}

/** Go's parsePrivateKey: PKCS #1, then PKCS #8 (RSA, ECDSA or Ed25519 inside), then SEC 1. */
function parsePrivateKey(der: Buffer): KeyObject | string {
  for (const type of ['pkcs1', 'pkcs8', 'sec1'] as const) {
    let key: KeyObject;
    try {
      key = createPrivateKey({ key: der, format: 'der', type });
    } catch {
      continue;
    }
    if (type === 'pkcs8' && !['rsa', 'ec', 'ed25519'].includes(key.asymmetricKeyType ?? '')) {
      return 'tls: found unknown private key type in PKCS#8 wrapping';
    }
    return key;
  }
  return 'tls: failed to parse private key';
}

/**
 * What Go's tls.X509KeyPair(cert, key) would fail with, in its words, or undefined when the pair is usable: PEM
 * blocks found, the first certificate parses, the key parses and belongs to it
 * (golang/go src/crypto/tls/tls.go, X509KeyPair).
 */
export function keyPairProblem(cert: Buffer | string, key: Buffer | string): string | undefined {
  const certs: Buffer[] = [];
  const skipped: string[] = [];
  for (const b of pemBlocks(cert.toString('latin1'))) {
    if (b.type === 'CERTIFICATE') certs.push(b.der);
    else skipped.push(b.type);
  }
  if (certs.length === 0) {
    if (skipped.length === 0) return 'tls: failed to find any PEM data in certificate input';
    if (skipped.length === 1 && skipped[0]?.endsWith('PRIVATE KEY') === true) {
      return 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched';
    }
    return `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [${skipped.join(' ')}]`;
  }
  skipped.length = 0;
  const keyBlock = pemBlocks(key.toString('latin1')).find((b) => {
    const isKey = b.type === 'PRIVATE KEY' || b.type.endsWith(' PRIVATE KEY');
    if (!isKey) skipped.push(b.type);
    return isKey;
  });
  if (keyBlock === undefined) {
    if (skipped.length === 0) return 'tls: failed to find any PEM data in key input';
    if (skipped.length === 1 && skipped[0] === 'CERTIFICATE') {
      return 'tls: found a certificate rather than a key in the PEM for the private key';
    }
    return `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [${skipped.join(' ')}]`;
  }
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(certs[0] ?? Buffer.alloc(0));
  } catch {
    return 'x509: malformed certificate';
  }
  const privateKey = parsePrivateKey(keyBlock.der);
  if (typeof privateKey === 'string') return privateKey;
  const publicType = x509.publicKey.asymmetricKeyType ?? '';
  if (!['rsa', 'ec', 'ed25519'].includes(publicType)) return 'tls: unknown public key algorithm';
  if (privateKey.asymmetricKeyType !== publicType) {
    return 'tls: private key type does not match public key type';
  }
  return x509.checkPrivateKey(privateKey) ? undefined : 'tls: private key does not match public key';
}

/** Throws the UserError of a client certificate and key that cannot be used; FROM says where they came from. */
export function checkClientKeyPair(cert: Buffer, key: Buffer, from: string): void {
  const problem = keyPairProblem(cert, key);
  if (problem !== undefined) {
    throw new UserError(`cannot use the client certificate and key ${from}: ${problem}`, {
      hint: 'the certificate must be PEM ("-----BEGIN CERTIFICATE-----") and the key its PEM private key',
    });
  }
}
