// Exec credential plugins for tests: a shell script in its own folder that records every run (a line in
// `count`, KUBERNETES_EXEC_INFO in `info.json`, its argv[0], whether stdin is a terminal and what it read
// from stdin) and prints the ExecCredential the test put in `out` (or `out.<run>` for one run only).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { ExecIo } from '../../src/cluster/connection/exec-credential-types.js';

export const V1 = 'client.authentication.k8s.io/v1';
export const V1BETA1 = 'client.authentication.k8s.io/v1beta1';

export interface TestPlugin {
  /** The folder holding the plugin and its records. */
  readonly dir: string;
  /** Absolute path of the script. */
  readonly path: string;
  /** What the plugin prints from now on. */
  print(output: string): void;
  /** What the plugin prints on its n-th run (1-based), overriding print(). */
  printOnRun(run: number, output: string): void;
  runs(): number;
  /** The KUBERNETES_EXEC_INFO of the last run, parsed. */
  info(): unknown;
  infoText(): string;
  /** "tty" or "notty" for the last run. */
  stdinKind(): string;
  stdinContent(): string;
  argv0(): string;
  /** The value of $EXEC_TEST_VAR in the last run. */
  testVar(): string;
}

export interface PluginOptions {
  /** Folder (created) below a fresh temporary folder; default: the temporary folder itself. */
  readonly subdir?: string;
  readonly name?: string;
  /** Seconds to sleep before answering, so that concurrent callers overlap. */
  readonly sleep?: number;
  /** Shell lines run after recording and before printing (e.g. `echo oops >&2; exit 3`). */
  readonly extra?: string;
}

export function credential(
  status: Record<string, unknown>,
  apiVersion: string = V1,
  kind = 'ExecCredential',
): string {
  return JSON.stringify({ apiVersion, kind, status });
}

export function writePlugin(opts: PluginOptions = {}): TestPlugin {
  const base = mkdtempSync(join(tmpdir(), 'xrbac-exec-'));
  const dir = opts.subdir === undefined ? base : join(base, opts.subdir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, opts.name ?? 'plugin.sh');
  const q = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;
  const script = [
    '#!/bin/sh',
    `d=${q(dir)}`,
    'echo run >> "$d/count"',
    'n=$(wc -l < "$d/count" | tr -d " ")',
    'printf "%s" "$KUBERNETES_EXEC_INFO" > "$d/info.json"',
    'printf "%s" "$0" > "$d/argv0"',
    'printf "%s" "$EXEC_TEST_VAR" > "$d/testvar"',
    'if [ -t 0 ]; then echo tty > "$d/stdin"; : > "$d/stdin-content"; else echo notty > "$d/stdin"; cat > "$d/stdin-content"; fi',
    opts.sleep === undefined ? '' : `sleep ${opts.sleep}`,
    opts.extra ?? '',
    'if [ -f "$d/out.$n" ]; then cat "$d/out.$n"; else cat "$d/out"; fi',
    '',
  ].join('\n');
  writeFileSync(path, script);
  chmodSync(path, 0o755);
  writeFileSync(join(dir, 'out'), credential({ token: 'token-1' }));
  const read = (file: string): string => readFileSync(join(dir, file), 'utf8');
  return {
    dir,
    path,
    print: (output) => {
      writeFileSync(join(dir, 'out'), output);
    },
    printOnRun: (run, output) => {
      writeFileSync(join(dir, `out.${run}`), output);
    },
    runs: () =>
      existsSync(join(dir, 'count'))
        ? read('count')
            .split('\n')
            .filter((l) => l !== '').length
        : 0,
    info: () => JSON.parse(read('info.json')) as unknown,
    infoText: () => read('info.json'),
    stdinKind: () => read('stdin').trim(),
    stdinContent: () => read('stdin-content'),
    argv0: () => read('argv0'),
    testVar: () => read('testvar'),
  };
}

/** Streams for the provider: stderr captured, stdin a finite stream (not a terminal unless said so). */
export function testIo(
  opts: { stdinIsTTY?: boolean; stdin?: string; env?: NodeJS.ProcessEnv; now?: () => number } = {},
): ExecIo & { stderrText(): string } {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return {
    env: opts.env ?? process.env,
    stdin: Readable.from(opts.stdin === undefined ? [] : [Buffer.from(opts.stdin)]),
    stdinIsTTY: opts.stdinIsTTY ?? false,
    stderr,
    now: opts.now ?? Date.now,
    stderrText: () => text,
  };
}

/** A plugin that never answers, and the processes it started. */
export interface HangingPlugin {
  readonly path: string;
  /** Its own pid and its background `sleep`'s, once it has recorded them. */
  pids(): number[];
}

/**
 * A plugin that never exits: it starts a `sleep 150` in the background (which keeps its stdout open, as a script's
 * children do), records its pid and that one's, then becomes `sleep 150` itself (`exec`). Only killing its whole
 * process group stops both.
 */
export function writeHangingPlugin(): HangingPlugin {
  const dir = mkdtempSync(join(tmpdir(), 'xrbac-exec-hang-'));
  const path = join(dir, 'hang.sh');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      'sleep 150 &',
      `echo "$$ $!" > '${dir}/pids.tmp' && mv '${dir}/pids.tmp' '${dir}/pids'`,
      'exec sleep 150',
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  const file = join(dir, 'pids');
  return {
    path,
    pids: () =>
      existsSync(file)
        ? readFileSync(file, 'utf8')
            .trim()
            .split(' ')
            .map((p) => Number(p))
        : [],
  };
}

/** Whether PID is a live process: not gone, not a zombie (a killed child nobody has reaped yet is dead). */
export function processAlive(pid: number): boolean {
  if (existsSync('/proc/self/stat')) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    } catch {
      return false;
    }
    // pid (comm) state ...: comm may hold spaces and parentheses, the state follows the last ')'.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (at most about 10s) until none of PIDS is alive; the ones still alive then. */
export async function survivors(pids: readonly number[]): Promise<number[]> {
  for (let i = 0; i < 100 && pids.some(processAlive); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return pids.filter(processAlive);
}

/** Kills what a test's plugin left behind (a failing test must not leave a `sleep 150`). */
export function killLeftovers(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
}
