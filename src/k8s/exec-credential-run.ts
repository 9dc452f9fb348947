/**
 * One run of an exec credential plugin, as client-go's exec authenticator does it: the interactive decision,
 * KUBERNETES_EXEC_INFO, the PATH lookup, the child process and the decoding of the ExecCredential it prints.
 */
import { spawn } from 'node:child_process';
import type { StdioOptions } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { UserError } from '../errors.js';
import type { ExecClusterInfo, ExecConfig, ExecCredential, ExecIo } from './exec-credential.js';

export const EXEC_API_VERSIONS: readonly string[] = [
  'client.authentication.k8s.io/v1',
  'client.authentication.k8s.io/v1beta1',
];

const DOCS =
  'https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins';
/** time.Time{} of Go, which client-go reads as "no expiration". */
const GO_ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');

/** Runs the plugin once and returns its credential; every failure is a UserError in client-go's words. */
export async function runExecPlugin(
  config: ExecConfig,
  cluster: ExecClusterInfo | undefined,
  io: ExecIo,
  userName: string,
): Promise<ExecCredential> {
  const fail = (message: string, hint?: string): UserError =>
    new UserError(`getting credentials for user "${userName}": ${message}`, { hint });
  const interactive = isInteractive(config, io, fail);
  const env: NodeJS.ProcessEnv = { ...io.env };
  for (const e of config.env) env[e.name] = e.value;
  env.KUBERNETES_EXEC_INFO = execInfo(config, cluster, interactive);

  const notInstalled =
    config.installHint ?? `it looks like a client-go credential plugin that is not installed; see ${DOCS}`;
  let file = config.command;
  if (!config.command.includes(sep) && process.platform !== 'win32') {
    const found = await lookPath(config.command, io.env.PATH);
    if (found === undefined) throw fail(`exec: executable ${config.command} not found`, notInstalled);
    file = found;
  }
  let result: { stdout: Buffer; exitCode: number };
  try {
    result = await spawnPlugin(file, config, env, interactive, io);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const reason = ERRNO_TEXT[code] ?? (err instanceof Error ? err.message : String(err));
    const hint = config.installHint ?? `check that ${file} exists and is executable`;
    throw fail(`exec: fork/exec ${file}: ${reason}`, hint);
  }
  if (result.exitCode !== 0) {
    throw fail(
      `exec: executable ${config.command} failed with exit code ${result.exitCode}`,
      "the plugin's own error output, if any, is printed above",
    );
  }
  return decodeExecCredential(result.stdout.toString('utf8'), config.apiVersion, fail);
}

function isInteractive(
  config: ExecConfig,
  io: ExecIo,
  fail: (message: string, hint?: string) => UserError,
): boolean {
  const stdinUnavailable = io.stdinUnavailable === true;
  switch (config.interactiveMode) {
    case 'Never':
      return false;
    case 'IfAvailable':
      return !stdinUnavailable && io.stdinIsTTY;
    case 'Always': {
      const prefix = 'exec plugin cannot support interactive mode: standard input is';
      const hint = 'the plugin is configured with interactiveMode: Always; run the command from a terminal';
      if (!io.stdinIsTTY) throw fail(`${prefix} not a terminal`, hint);
      if (stdinUnavailable) {
        const message = io.stdinUnavailableMessage ?? '';
        throw fail(`${prefix} unavailable${message === '' ? '' : `: ${message}`}`, hint);
      }
      return true;
    }
  }
}

/** The KUBERNETES_EXEC_INFO value: client-go's ExecCredential {kind, apiVersion, spec: {cluster?, interactive}}. */
export function execInfo(
  config: ExecConfig,
  cluster: ExecClusterInfo | undefined,
  interactive: boolean,
): string {
  const spec: Record<string, unknown> = {};
  if (config.provideClusterInfo && cluster !== undefined) spec.cluster = execCluster(cluster);
  spec.interactive = interactive;
  return JSON.stringify({ kind: 'ExecCredential', apiVersion: config.apiVersion, spec });
}

/** spec.cluster with client-go's field names, order and omitempty rules (config is always there, null if unset). */
function execCluster(c: ExecClusterInfo): Record<string, unknown> {
  const out: Record<string, unknown> = { server: c.server };
  if (c.tlsServerName !== undefined && c.tlsServerName !== '') out['tls-server-name'] = c.tlsServerName;
  if (c.insecureSkipTlsVerify === true) out['insecure-skip-tls-verify'] = true;
  if (c.certificateAuthorityData !== undefined && c.certificateAuthorityData.length > 0) {
    out['certificate-authority-data'] = c.certificateAuthorityData.toString('base64');
  }
  if (c.proxyUrl !== undefined && c.proxyUrl !== '') out['proxy-url'] = c.proxyUrl;
  if (c.disableCompression === true) out['disable-compression'] = true;
  out.config = c.config === undefined ? null : sortKeys(c.config);
  return out;
}

/** Go encodes the extension through a map: keys sorted. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isRecord(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys(v[k])]),
  );
}

/**
 * Go's exec.LookPath: the first PATH entry holding an executable file wins; an entry that is not absolute
 * ("" or ".") makes the lookup fail instead of running something from the current folder (exec.ErrDot).
 */
async function lookPath(file: string, pathVar: string | undefined): Promise<string | undefined> {
  for (const dir of (pathVar ?? '').split(delimiter)) {
    const candidate = join(dir === '' ? '.' : dir, file);
    if (await isExecutable(candidate)) return isAbsolute(candidate) ? candidate : undefined;
  }
  return undefined;
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    const st = await stat(file);
    if (st.isDirectory() || (st.mode & 0o111) === 0) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  ENOEXEC: 'exec format error',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
};

/** A stream's file descriptor, so a terminal is handed to the plugin as itself rather than through a pipe. */
function fdOf(stream: NodeJS.ReadableStream | NodeJS.WritableStream): number | undefined {
  const fd = (stream as { fd?: unknown }).fd;
  return typeof fd === 'number' ? fd : undefined;
}

/** Resolves with stdout and the exit code (-1 when killed by a signal, as Go); rejects when it cannot start. */
function spawnPlugin(
  file: string,
  config: ExecConfig,
  env: NodeJS.ProcessEnv,
  interactive: boolean,
  io: ExecIo,
): Promise<{ stdout: Buffer; exitCode: number }> {
  return new Promise((resolveRun, rejectRun) => {
    const stdinFd = fdOf(io.stdin);
    const stderrFd = fdOf(io.stderr);
    const stdio: StdioOptions = [interactive ? (stdinFd ?? 'pipe') : 'ignore', 'pipe', stderrFd ?? 'pipe'];
    const child = spawn(file, [...config.args], { env, stdio, argv0: config.command, windowsHide: true });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => io.stderr.write(chunk));
    const pipedStdin = child.stdin;
    if (pipedStdin !== null) {
      pipedStdin.on('error', () => undefined); // the plugin may exit without reading its input
      io.stdin.pipe(pipedStdin);
    }
    let settled = false;
    child.once('error', (err) => {
      if (settled) return;
      settled = true;
      if (pipedStdin !== null) io.stdin.unpipe(pipedStdin);
      rejectRun(err);
    });
    child.once('close', (code: number | null) => {
      if (settled) return;
      settled = true;
      if (pipedStdin !== null) io.stdin.unpipe(pipedStdin);
      resolveRun({ stdout: Buffer.concat(chunks), exitCode: code ?? -1 });
    });
  });
}

type Fail = (message: string, hint?: string) => UserError;

/** Decodes what the plugin printed (JSON, or YAML as client-go's universal decoder also takes) and checks it as client-go does. */
export function decodeExecCredential(stdout: string, apiVersion: string, fail: Fail): ExecCredential {
  const hint = `the plugin must print an ExecCredential of ${apiVersion} on stdout; see ${DOCS}`;
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

/** tls.X509KeyPair's checks: PEM blocks present, both parse, and the key belongs to the certificate. */
function checkKeyPair(cert: string, key: string, fail: Fail): void {
  const prefix = 'failed parsing client key/certificate: tls:';
  const hint = 'status.clientCertificateData and status.clientKeyData must be PEM';
  if (!cert.includes('-----BEGIN CERTIFICATE-----'))
    throw fail(`${prefix} failed to find any PEM data in certificate input`, hint);
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key))
    throw fail(`${prefix} failed to find any PEM data in key input`, hint);
  let matches: boolean;
  try {
    matches = new X509Certificate(cert).checkPrivateKey(createPrivateKey(key));
  } catch (err) {
    throw fail(`${prefix} ${err instanceof Error ? err.message : String(err)}`, hint);
  }
  if (!matches) throw fail(`${prefix} private key does not match public key`, hint);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}
