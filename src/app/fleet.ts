/**
 * Fleets: one read-only command across many kubeconfig contexts, each connected exactly as `--context NAME` would
 * be, at most PARALLEL at once, each with its own output captured (nothing interleaves) and its own connection pool
 * closed when it is done. A context that fails fails alone; the results come back in the order the contexts were
 * given, whatever finished first.
 */
import { UsageError, describeError } from '../errors.js';
import type { Cluster } from '../port/cluster.js';
import type { AppDeps } from './deps.js';
import type { Io, TextSink } from './io.js';

export interface FleetOptions {
  /** --contexts: names or shell-style globs (`prod-*`, `eu-?`, `[ab]-*`), in the order given. */
  readonly contexts: readonly string[];
  /** --all-contexts: every context of the kubeconfig, in its order. */
  readonly all: boolean;
  /** --parallel: how many contexts at once. */
  readonly parallel: number;
}

/** What one context's run printed and how it ended. */
export interface ContextRun {
  readonly context: string;
  readonly stdout: string;
  readonly stderr: string;
  /** 0, 1 (drift, denied) or 2 (failed: the error lines are in `error`). */
  readonly exitCode: number;
  /** The error's lines (`error: ...`, `hint: ...`) when the run failed. */
  readonly error?: readonly string[];
}

const GLOB = /[*?[]/;

/** A shell glob as a whole-name regular expression: `*` any run, `?` one character, `[...]` a class. */
function globRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? '';
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) throw new UsageError(`invalid --contexts pattern "${glob}": unclosed [`);
      const body = glob.slice(i + 1, end);
      out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else out += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/**
 * The contexts FLEET names among NAMES (the kubeconfig's): each pattern's matches in kubeconfig order, patterns in
 * the order given, each context once. A plain name that is not a context, or a glob that matches none, is an error.
 */
export function selectContexts(fleet: FleetOptions, names: readonly string[]): string[] {
  if (fleet.all) {
    if (names.length === 0) throw new UsageError('--all-contexts: the kubeconfig has no contexts');
    return [...names];
  }
  const out: string[] = [];
  for (const pattern of fleet.contexts) {
    const matches = GLOB.test(pattern)
      ? names.filter((n) => globRegExp(pattern).test(n))
      : names.filter((n) => n === pattern);
    if (matches.length === 0) {
      throw new UsageError(
        GLOB.test(pattern)
          ? `--contexts "${pattern}" matches no context`
          : `context "${pattern}" does not exist`,
        { hint: `known contexts: ${names.join(', ') || '(none)'}` },
      );
    }
    for (const m of matches) if (!out.includes(m)) out.push(m);
  }
  return out;
}

function buffer(): TextSink & { text: () => string } {
  const chunks: string[] = [];
  return { write: (t: string) => chunks.push(t), text: () => chunks.join('') };
}

/** The AppDeps of one context's run: its own streams (not a terminal), never asking, its clusters closed after. */
function contextDeps(
  base: AppDeps,
  opened: Cluster[],
): { deps: AppDeps; out: ReturnType<typeof buffer>; err: ReturnType<typeof buffer> } {
  const out = buffer();
  const err = buffer();
  const io: Io = {
    ...base.io,
    stdout: out,
    stderr: err,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    columns: undefined,
    stderrColumns: undefined,
  };
  const deps: AppDeps = {
    ...base,
    io,
    connect: async (flags) => {
      const cluster = await base.connect(flags);
      opened.push(cluster);
      return cluster;
    },
    confirm: () =>
      Promise.reject(new UsageError('a run across contexts never writes: use --check or --dry-run')),
    choose: () => Promise.reject(new UsageError('a run across contexts cannot ask')),
    startProgress: () => Promise.resolve({ update: () => undefined, stop: () => undefined }),
  };
  return { deps, out, err };
}

/**
 * Runs RUN once per context, PARALLEL at a time, each with its own streams; RUN returns the exit code (0 or 1) or
 * throws. PROGRESS is told each time a context finishes. FAIL_FAST: start no context after one failed.
 */
export async function runFleet(
  contexts: readonly string[],
  parallel: number,
  base: AppDeps,
  run: (context: string, deps: AppDeps) => Promise<number>,
  progress?: (done: number, failed: number) => void,
  failFast = false,
): Promise<ContextRun[]> {
  const results: ContextRun[] = new Array<ContextRun>(contexts.length);
  let next = 0;
  let done = 0;
  let failed = 0;
  const worker = async (): Promise<void> => {
    while (next < contexts.length && !(failFast && failed > 0)) {
      const i = next++;
      const context = contexts[i] ?? '';
      const opened: Cluster[] = [];
      const { deps, out, err } = contextDeps(base, opened);
      let exitCode: number;
      let error: string[] | undefined;
      try {
        exitCode = await run(context, deps);
      } catch (e) {
        const described = describeError(e, false);
        exitCode = described.exitCode;
        if (described.lines.length > 0) error = described.lines;
      } finally {
        for (const c of opened) c.close?.();
      }
      if (error !== undefined) failed++;
      done++;
      results[i] = {
        context,
        stdout: out.text(),
        stderr: err.text(),
        exitCode,
        ...(error !== undefined ? { error } : {}),
      };
      progress?.(done, failed);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, contexts.length)) }, worker));
  // With failFast, the contexts never started are left out.
  return results.filter((r) => r !== undefined);
}
