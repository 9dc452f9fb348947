/**
 * Decoding of what an exec credential plugin prints, checked as client-go checks it: the ExecCredential's
 * apiVersion and kind, its status, the RFC 3339 expiration and the client certificate and key.
 */
import { parse as parseYaml } from 'yaml';
import type { UserError } from '../../errors.js';
import type { ExecCredential } from './exec-credential-types.js';
import { keyPairProblem } from './tls-material.js';

export const EXEC_API_VERSIONS: readonly string[] = [
  'client.authentication.k8s.io/v1',
  'client.authentication.k8s.io/v1beta1',
];

export const EXEC_PLUGIN_DOCS =
  'https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins';
/** time.Time{} of Go, which client-go reads as "no expiration". */
const GO_ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');

/** Builds the UserError of a failed run from client-go's message. */
export type Fail = (message: string, hint?: string) => UserError;

/** Decodes what the plugin printed (JSON, or YAML as client-go's universal decoder also takes) and checks it as client-go does. */
export function decodeExecCredential(stdout: string, apiVersion: string, fail: Fail): ExecCredential {
  const hint = `the plugin must print an ExecCredential of ${apiVersion} on stdout; see ${EXEC_PLUGIN_DOCS}`;
  const decodeError = (problem: string): UserError => fail(`decoding stdout: ${problem}`, hint);
  if (stdout.trim() === '') {
    throw fail(`exec plugin is configured to use API version ${apiVersion}, plugin returned no output`, hint);
  }
  let doc: unknown;
  if (stdout.trimStart().startsWith('{')) {
    try {
      doc = JSON.parse(stdout);
    } catch (err) {
      // V8 quotes the input in its message: keep only the position, never the output (it may hold a token).
      const at = /at position \d+/.exec(err instanceof Error ? err.message : '');
      throw decodeError(`couldn't get version/kind; json parse error: invalid JSON${at ? ` ${at[0]}` : ''}`);
    }
  } else {
    try {
      doc = parseYaml(stdout);
    } catch (err) {
      const first = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
      throw decodeError(`yaml: ${first.replace(/:$/, '')}`);
    }
  }
  if (!isRecord(doc))
    throw decodeError(`couldn't get version/kind; expected an object, not ${typeName(doc)}`);
  const gotVersion = stringField(doc, 'apiVersion', '', decodeError);
  const kind = stringField(doc, 'kind', '', decodeError);
  if (
    gotVersion !== '' &&
    (!EXEC_API_VERSIONS.includes(gotVersion) || (kind !== '' && kind !== 'ExecCredential'))
  ) {
    throw decodeError(
      `no kind "${kind === '' ? 'ExecCredential' : kind}" is registered for version "${gotVersion}"`,
    );
  }
  const status = doc.status ?? undefined;
  if (status !== undefined && !isRecord(status))
    throw decodeError(`status must be an object, not ${typeName(status)}`);
  const token = status === undefined ? '' : stringField(status, 'token', 'status.', decodeError);
  const cert =
    status === undefined ? '' : stringField(status, 'clientCertificateData', 'status.', decodeError);
  const key = status === undefined ? '' : stringField(status, 'clientKeyData', 'status.', decodeError);
  const expiresAt =
    status === undefined ? undefined : expiration(status.expirationTimestamp ?? undefined, decodeError);
  if (gotVersion !== apiVersion) {
    const got = gotVersion === '' ? 'no apiVersion' : `version ${gotVersion}`;
    throw fail(`exec plugin is configured to use API version ${apiVersion}, plugin returned ${got}`, hint);
  }
  if (status === undefined) throw fail("exec plugin didn't return a status field", hint);
  if (token === '' && cert === '' && key === '')
    throw fail("exec plugin didn't return a token or cert/key pair", hint);
  if ((cert === '') !== (key === ''))
    throw fail('exec plugin returned only certificate or key, not both', hint);
  if (cert !== '') checkKeyPair(cert, key, fail);
  return Object.freeze({
    ...(token === '' ? {} : { token }),
    ...(cert === '' ? {} : { clientCertificateData: cert, clientKeyData: key }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
  });
}

function stringField(
  obj: Record<string, unknown>,
  field: string,
  prefix: string,
  decodeError: (problem: string) => UserError,
): string {
  const v = obj[field];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw decodeError(`${prefix}${field} must be a string, not ${typeName(v)}`);
  return v;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** metav1.Time: an RFC 3339 time (fractional seconds allowed); Go's zero time means no expiration. */
function expiration(v: unknown, decodeError: (problem: string) => UserError): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string')
    throw decodeError(`status.expirationTimestamp must be a string, not ${typeName(v)}`);
  const ms = parseRfc3339(v);
  if (ms === undefined) {
    throw decodeError(`parsing time "${v}" as "2006-01-02T15:04:05Z07:00": not an RFC 3339 time`);
  }
  return ms === GO_ZERO_TIME ? undefined : ms;
}

/** Go's time.Parse(time.RFC3339, s) in ms since epoch (fractions truncated), undefined when it would fail. */
export function parseRfc3339(s: string): number | undefined {
  const m = RFC3339.exec(s);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = [1, 2, 3, 4, 5, 6, 9, 10].map(
    (i) => Number(m[i] ?? 0),
  ) as [number, number, number, number, number, number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0); // day 0 of the next month: the last day of this one
  const inRange =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= date.getUTCDate() &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59;
  if (!inRange || offsetHours > 23 || offsetMinutes > 59) return undefined;
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3)));
  const offset = (m[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  return date.getTime() - offset * 60_000;
}

/** client-go's check of the pair the plugin returned: tls.X509KeyPair, its message wrapped as client-go wraps it. */
function checkKeyPair(cert: string, key: string, fail: Fail): void {
  const problem = keyPairProblem(cert, key);
  if (problem !== undefined) {
    throw fail(
      `failed parsing client key/certificate: ${problem}`,
      'status.clientCertificateData and status.clientKeyData must be PEM',
    );
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}
