// Where the gate's CPU goes, file by file: with TEST_CPU_LOG=FILE, each test file appends one JSON line to FILE
// (its project, path, wall seconds, the CPU seconds of its worker process and of the child processes it waited
// for, and how many processes it started, by command). The gate is CPU-bound on a 2-core machine, so CPU seconds,
// not wall, say what a file costs; they hold on a busy machine, where wall does not. A setup file of every project
// (vitest.config.ts); without TEST_CPU_LOG it does nothing. Linux only (it reads /proc/self/stat).
//
//   TEST_CPU_LOG=/tmp/cpu.log npm test
//   jq -r '[.self + .children, .project, .file] | @tsv' /tmp/cpu.log | sort -rn | head -30
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { basename, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';

const LOG = process.env.TEST_CPU_LOG;

type Counts = Map<string, number>;
const COUNTS = Symbol.for('xrbac.cpu-per-file.spawns');

/**
 * The processes started through node:child_process, by command (bash, kubectl, the plugin; `script` by the command
 * it runs), counted once per worker: the files of a worker may share this module's evaluation or not.
 */
function spawnCounts(): Counts {
  const holder = globalThis as { [COUNTS]?: Counts };
  const existing = holder[COUNTS];
  if (existing !== undefined) return existing;
  const counts: Counts = new Map();
  holder[COUNTS] = counts;
  // The CommonJS module object: its functions are replaced, then the ES module bindings synced to them.
  const cp = createRequire(import.meta.url)('node:child_process') as Record<string, unknown>;
  const count = (args: readonly unknown[]): void => {
    const [command, argv] = args;
    let key = basename(String(command).split(' ')[0] ?? '');
    if (key === 'script' && Array.isArray(argv)) key = `script ${String(argv[1]).split(' ')[0] ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  for (const name of ['execFile', 'execFileSync', 'spawn', 'spawnSync', 'exec', 'execSync', 'fork']) {
    const original = cp[name] as ((...args: unknown[]) => unknown) & { [promisify.custom]?: unknown };
    const counted = function (this: unknown, ...args: unknown[]): unknown {
      count(args);
      return original.apply(this, args);
    };
    // promisify(execFile) and promisify(exec) resolve to { stdout, stderr } through this: keep it, counted.
    const custom = original[promisify.custom] as ((...args: unknown[]) => unknown) | undefined;
    if (custom !== undefined) {
      Object.defineProperty(counted, promisify.custom, {
        value: (...args: unknown[]): unknown => {
          count(args);
          return custom(...args);
        },
      });
    }
    cp[name] = counted;
  }
  syncBuiltinESMExports();
  return counts;
}

/** This process's CPU seconds and those of its waited-for children (utime+stime, cutime+cstime). */
function cpu(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  // Fields 14-17 of proc(5), counted from the state (field 3) here; clock ticks of 1/100 s on Linux.
  const at = (n: number): number => f[n - 3] ?? 0;
  return { self: (at(14) + at(15)) / 100, children: (at(16) + at(17)) / 100 };
}

// Evaluated once per test file, before the file is imported: the figures include the file's imports.
if (LOG !== undefined && LOG !== '') {
  const counts = spawnCounts();
  counts.clear();
  const start = cpu();
  const started = Date.now();
  // Vitest reads a hook's first parameter as the fixtures it asks for: it must be an object pattern, here empty.
  // eslint-disable-next-line no-empty-pattern
  afterAll(({}, suite) => {
    const end = cpu();
    const line = {
      project: suite.file.projectName ?? '',
      file: relative(process.cwd(), suite.file.filepath),
      wall: (Date.now() - started) / 1000,
      self: Math.round((end.self - start.self) * 100) / 100,
      children: Math.round((end.children - start.children) * 100) / 100,
      spawns: Object.fromEntries(counts),
    };
    appendFileSync(LOG, `${JSON.stringify(line)}\n`);
  });
}
