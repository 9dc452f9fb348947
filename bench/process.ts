/** What the benchmark cases share: where the plugin is, a scratch directory, and running a command with its time. */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { fixed, MB } from './figures.js';

export const root = resolve(fileURLToPath(import.meta.url), '..', '..');
export const BIN = 'kubectl-crossplane_rbac';
export const binDir = resolve(process.env.BENCH_BIN_DIR ?? join(root, 'dist', 'bin'));
export const env = { ...process.env, PATH: `${binDir}:${process.env.PATH ?? ''}`, NO_COLOR: '1' };
export const work = mkdtempSync(join(tmpdir(), 'xrbac-bench-'));
const GNU_TIME = '/usr/bin/time';

export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;

export interface Measured {
  readonly ms: number;
  /** Peak resident memory of the command, when GNU time is there to say. */
  readonly peakMB: number | undefined;
  /** CPU seconds (user + system) of the command and its children, when measured by GNU time (runAsync's PEAK). */
  readonly cpuS?: number | undefined;
  readonly out: string;
  /** Standard error, from runAsync. */
  readonly err?: string;
}

/**
 * Runs a command to completion (blocking: for commands that need nothing from this process). stdout goes to the
 * file OUT when given (large outputs), else it is returned.
 */
export function run(
  cmd: string,
  args: readonly string[],
  opts: { out?: string; env?: NodeJS.ProcessEnv } = {},
): Measured {
  const timeFile = join(work, 'time.txt');
  const measure = existsSync(GNU_TIME);
  const argv = measure ? ['-f', '%M', '-o', timeFile, cmd, ...args] : [...args];
  const stdout = opts.out !== undefined ? openSync(opts.out, 'w') : 'pipe';
  const t = process.hrtime.bigint();
  const r = spawnSync(measure ? GNU_TIME : cmd, argv, {
    env: opts.env ?? env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', stdout, 'pipe'],
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (typeof stdout === 'number') closeSync(stdout);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${String(r.status)}): ${r.stderr}`);
  const peakKB = measure ? Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)) : Number.NaN;
  return { ms, peakMB: Number.isFinite(peakKB) ? (peakKB * 1024) / MB : undefined, out: r.stdout ?? '' };
}

/**
 * Like run(), without blocking the event loop: the test API server answering the command lives in this process.
 * OK_CODES: the exit codes that are not a failure (sync --check exits 1 on drift); PEAK: measure peak RSS.
 */
export function runAsync(
  cmd: string,
  args: readonly string[],
  extraEnv: NodeJS.ProcessEnv = {},
  opts: { okCodes?: readonly number[]; peak?: boolean } = {},
): Promise<Measured> {
  const start = process.hrtime.bigint();
  const timeFile = join(work, `time-${String(start)}.txt`);
  const measure = opts.peak === true && existsSync(GNU_TIME);
  const [bin, argv] = measure ? [GNU_TIME, ['-f', '%M %U %S', '-o', timeFile, cmd, ...args]] : [cmd, args];
  return new Promise((done, failed) => {
    const child = spawn(bin, argv, { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', failed);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (!(opts.okCodes ?? [0]).includes(code ?? -1)) {
        failed(
          new Error(`${cmd} ${args.join(' ')} failed (${String(code)}): ${Buffer.concat(err).toString()}`),
        );
      } else {
        // GNU time's last line: peak RSS in KB, user and system CPU seconds.
        const [peakKB, user, system] = measure
          ? (readFileSync(timeFile, 'utf8').trim().split('\n').at(-1) ?? '').split(' ').map(Number)
          : [];
        const peakMB = Number.isFinite(peakKB) ? ((peakKB ?? 0) * 1024) / MB : undefined;
        const cpu = (user ?? Number.NaN) + (system ?? Number.NaN);
        done({
          ms,
          peakMB,
          cpuS: Number.isFinite(cpu) ? cpu : undefined,
          out: Buffer.concat(out).toString('utf8'),
          err: Buffer.concat(err).toString('utf8'),
        });
      }
    });
  });
}

export const mem = (m: Measured): string =>
  m.peakMB === undefined ? 'peak RSS unknown (no GNU time)' : `peak RSS ${fixed(m.peakMB)} MB`;

/**
 * bench/NAME.ts bundled into one ESM file in the work folder, for plain node to run as a process of its own (the
 * floor clients: loading it costs what loading a compiled client costs); its path.
 */
export async function bundleClient(name: string): Promise<string> {
  const outfile = join(work, `${name}.mjs`);
  await build({
    entryPoints: [join(root, 'bench', `${name}.ts`)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}
