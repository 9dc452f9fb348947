/**
 * One run of an exec credential plugin, as client-go's exec authenticator does it: the interactive decision,
 * KUBERNETES_EXEC_INFO, the PATH lookup, the child process and the decoding of the ExecCredential it prints.
 *
 * One thing is not as client-go does it: a run has a deadline. client-go starts the plugin with exec.Command (not
 * CommandContext) and waits in cmd.Run() while holding the authenticator's lock (refreshCredsLocked in kubernetes/
 * kubernetes staging/src/k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go@cb6ff2d8ce3595f88570f82c7d0e6d98910afd3c),
 * so a plugin that never exits blocks every request of the client forever; --request-timeout (http.Client.Timeout)
 * cannot stop it, since the round tripper is still running the plugin (kubectl v1.32 with --request-timeout=2s and a
 * plugin that sleeps 8s waits the whole 8s on each attempt and reports the timeout only after it, and the plugin is
 * never killed). Here a run that outlives its deadline (the transport's: --request-timeout, or the 60s after which a
 * silent server fails a request) is stopped: its process group is killed and the run fails in one line, so one hung
 * plugin fails its own context and not a whole run across contexts.
 */
import { spawn } from 'node:child_process';
import type { StdioOptions } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, sep } from 'node:path';
import { UserError } from '../../errors.js';
import { EXEC_PLUGIN_DOCS, decodeExecCredential } from './exec-credential-decode.js';
import type { Fail } from './exec-credential-decode.js';
import type {
  ExecClusterInfo,
  ExecConfig,
  ExecCredential,
  ExecDeadline,
  ExecIo,
} from './exec-credential-types.js';

/**
 * Runs the plugin once and returns its credential; every failure is a UserError in client-go's words. Past DEADLINE
 * the plugin is stopped and the run fails.
 */
export async function runExecPlugin(
  config: ExecConfig,
  cluster: ExecClusterInfo | undefined,
  io: ExecIo,
  userName: string,
  deadline: ExecDeadline,
): Promise<ExecCredential> {
  const fail: Fail = (message, hint) =>
    new UserError(`getting credentials for user "${userName}": ${message}`, { hint });
  const interactive = isInteractive(config, io, fail);
  const env: NodeJS.ProcessEnv = { ...io.env };
  for (const e of config.env) env[e.name] = e.value;
  env.KUBERNETES_EXEC_INFO = execInfo(config, cluster, interactive);

  const notInstalled =
    config.installHint ??
    `it looks like a client-go credential plugin that is not installed; see ${EXEC_PLUGIN_DOCS}`;
  let file = config.command;
  if (!config.command.includes(sep) && process.platform !== 'win32') {
    const found = await lookPath(config.command, io.env.PATH);
    if (found === undefined) throw fail(`exec: executable ${config.command} not found`, notInstalled);
    file = found;
  }
  let result: PluginExit | 'deadline';
  try {
    result = await spawnPlugin(file, config, env, interactive, io, deadline?.ms);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const reason = ERRNO_TEXT[code] ?? (err instanceof Error ? err.message : String(err));
    const hint = config.installHint ?? `check that ${file} exists and is executable`;
    throw fail(`exec: fork/exec ${file}: ${reason}`, hint);
  }
  if (result === 'deadline') {
    throw fail(
      `exec: executable ${config.command} did not exit within ${deadline?.name ?? ''}: it was stopped`,
      'the plugin may be waiting for input or the network: run it alone to see; --request-timeout gives it longer (0: no limit)',
    );
  }
  if (result.exitCode !== 0) {
    throw fail(
      `exec: executable ${config.command} failed with exit code ${result.exitCode}`,
      "the plugin's own error output, if any, is printed above",
    );
  }
  return decodeExecCredential(result.stdout.toString('utf8'), config.apiVersion, fail);
}

function isInteractive(config: ExecConfig, io: ExecIo, fail: Fail): boolean {
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
  // Byte for byte what client-go sets, down to the newline its JSON encoder ends with.
  return `${JSON.stringify({ kind: 'ExecCredential', apiVersion: config.apiVersion, spec })}\n`;
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

interface PluginExit {
  readonly stdout: Buffer;
  readonly exitCode: number;
}

/** The process groups of the plugins running in a group of their own, killed if this process exits first. */
const runningGroups = new Set<number>();
let killGroupsOnExit = false;

function trackGroup(group: number): void {
  runningGroups.add(group);
  if (killGroupsOnExit) return;
  killGroupsOnExit = true;
  // A second Ctrl-C exits at once: a plugin in its own group is out of the terminal's reach, so it goes here.
  process.on('exit', () => {
    for (const g of runningGroups) killGroup(g);
  });
}

function killGroup(group: number): void {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/**
 * Resolves with stdout and the exit code (-1 when killed by a signal, as Go), or 'deadline' when it ran longer than
 * DEADLINE_MS (it is killed then); rejects when it cannot start.
 */
function spawnPlugin(
  file: string,
  config: ExecConfig,
  env: NodeJS.ProcessEnv,
  interactive: boolean,
  io: ExecIo,
  deadlineMs: number | undefined,
): Promise<PluginExit | 'deadline'> {
  return new Promise((resolveRun, rejectRun) => {
    const stdinFd = fdOf(io.stdin);
    const stderrFd = fdOf(io.stderr);
    const stdio: StdioOptions = [interactive ? (stdinFd ?? 'pipe') : 'ignore', 'pipe', stderrFd ?? 'pipe'];
    // Not given the terminal, the plugin is the leader of a process group of its own (detached: setsid), so that
    // stopping it stops what it started too (a script's `sleep`, which would keep its stdout open). Given the
    // terminal, it stays in the terminal's foreground group, to read it and to get Ctrl-C: then it alone is killed.
    const detached = !interactive && process.platform !== 'win32';
    const child = spawn(file, [...config.args], {
      env,
      stdio,
      argv0: config.command,
      windowsHide: true,
      detached,
    });
    const group = detached ? child.pid : undefined;
    if (group !== undefined) trackGroup(group);
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => io.stderr.write(chunk));
    const pipedStdin = child.stdin;
    if (pipedStdin !== null) {
      pipedStdin.on('error', () => undefined); // the plugin may exit without reading its input
      io.stdin.pipe(pipedStdin);
    }
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      if (group !== undefined) runningGroups.delete(group);
      if (pipedStdin !== null) io.stdin.unpipe(pipedStdin);
      return true;
    };
    const timer =
      deadlineMs === undefined
        ? undefined
        : setTimeout(() => {
            if (!settle()) return;
            if (group !== undefined) killGroup(group);
            else child.kill('SIGKILL');
            child.stdout?.destroy();
            child.stderr?.destroy();
            resolveRun('deadline');
          }, deadlineMs);
    child.once('error', (err) => {
      if (settle()) rejectRun(err);
    });
    child.once('close', (code: number | null) => {
      if (settle()) resolveRun({ stdout: Buffer.concat(chunks), exitCode: code ?? -1 });
    });
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
