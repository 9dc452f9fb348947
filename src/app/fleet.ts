/**
 * Fleets: one read-only command across many kubeconfig contexts, each connected exactly as `--context NAME` would
 * be, at most PARALLEL at once, each handing what it shows to the front end as data (nothing interleaves) and its own
 * connection pool closed when it is done. A context that fails fails alone; the results come back in the order the contexts were
 * given, whatever finished first.
 */
import { PartialAnswer, UsageError, describeError } from '../errors.js';
import type { Cluster } from '../port/cluster.js';
import type { AppDeps } from './deps.js';
import { escapeTerminal } from '../escape.js';
import { RenderShare } from './render-share.js';

export interface FleetOptions {
  /** --contexts: names or shell-style globs (`prod-*`, `eu-?`, `[ab]-*`), in the order given. */
  readonly contexts: readonly string[];
  /** --all-contexts: every context of the kubeconfig, in its order. */
  readonly all: boolean;
  /** --parallel: how many contexts at once. */
  readonly parallel: number;
}

/**
 * Where one context's run hands what it shows, as the front end made it (the CLI: its result, warnings and stderr
 * lines, as data): handed to the run as it is, never looked into here.
 */
export interface Capture<S, O> {
  readonly sink: S;
  /**
   * What the run handed over, once it is over, in the form it is kept in until every context is done (the CLI's:
   * printed, so that a result's data, such as the live objects a plan compared, is let go with the context).
   */
  readonly collected: () => O | Promise<O>;
}

/** What one context's run showed (as the front end collected it) and how it ended. */
export interface ContextRun<O> {
  readonly context: string;
  readonly output: O;
  /** 0, 1 (drift, denied) or 2 (failed: the error lines are in `error`). */
  readonly exitCode: number;
  /** The error's lines (`error: ...`, `hint: ...`) when the run failed. */
  readonly error?: readonly string[];
  /** The run printed its whole answer from what it could read, some reads refused (its error says which). */
  readonly partial?: true;
}

/**
 * How many requests each context of a fleet has in flight at most. Alone, a context sends its reads all at once (sync
 * --check: 9 LISTs), and each opens a connection of its own: with --parallel 8, some 70 TLS handshakes at a time for
 * client and servers to pay. Across contexts the other contexts' reads fill the wait, so fewer connections cost no
 * time (the fleet bench's 20 contexts, 8 runs each way taken in turn: the plugin's CPU 2.77 -> 2.55 s, the servers'
 * 0.92 -> 0.71 s, medians; the wall time no longer).
 */
const CONTEXT_IN_FLIGHT = 4;

const GLOB = /[*?[]/;

/** A character written literally inside a regular expression's class. */
function classChar(c: string): string {
  return /[\\\]^[-]/.test(c) ? `\\${c}` : c;
}

/**
 * The class of GLOB that starts at its `[` at START: the regular expression's class and the index of its `]`. As
 * POSIX brackets: `!` (or `^`) first negates, a `]` right after it is literal, `a-z` a range. A range out of order
 * (`z-a`), which no shell agrees on, is a usage error like an unclosed `[`.
 */
function globClass(glob: string, start: number): { source: string; end: number } {
  const chars = Array.from(glob.slice(start + 1));
  const negated = chars[0] === '!' || chars[0] === '^';
  let i = negated ? 1 : 0;
  let source = negated ? '[^' : '[';
  for (let first = true; i < chars.length && (first || chars[i] !== ']'); first = false) {
    const lo = chars[i] ?? '';
    const hi = chars[i + 2];
    if (chars[i + 1] === '-' && hi !== undefined && hi !== ']') {
      if ((lo.codePointAt(0) ?? 0) > (hi.codePointAt(0) ?? 0)) {
        throw new UsageError(`invalid --contexts pattern "${glob}": range ${lo}-${hi} is out of order`, {
          hint: 'write a range low to high, e.g. [a-z]',
        });
      }
      source += `${classChar(lo)}-${classChar(hi)}`;
      i += 3;
    } else {
      source += classChar(lo);
      i++;
    }
  }
  if (i >= chars.length) {
    throw new UsageError(`invalid --contexts pattern "${glob}": unclosed [`, {
      hint: 'close the class with ], or write [[] for a literal [',
    });
  }
  const end = start + 1 + chars.slice(0, i).join('').length;
  return { source: `${source}]`, end };
}

/** A shell glob as a whole-name regular expression: `*` any run, `?` one character, `[...]` a class. */
function globRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? '';
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const { source, end } = globClass(glob, i);
      out += source;
      i = end;
    } else out += c.replace(/[.+^${}()|\\/\]]/g, '\\$&');
  }
  // As Go's path.Match: `?` and a class match one code point (u), a name's line break too (s).
  return new RegExp(`^${out}$`, 'su');
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
    const glob = GLOB.test(pattern) ? globRegExp(pattern) : undefined;
    const matches = names.filter((n) => (glob === undefined ? n === pattern : glob.test(n)));
    if (matches.length === 0) {
      throw new UsageError(
        glob !== undefined
          ? `--contexts "${pattern}" matches no context`
          : `context "${pattern}" does not exist`,
        { hint: `known contexts: ${names.join(', ') || '(none)'}` },
      );
    }
    for (const m of matches) if (!out.includes(m)) out.push(m);
  }
  return out;
}

/** The AppDeps of one context's run: never asking, its clusters closed after. */
function contextDeps(base: AppDeps, context: string, opened: Cluster[], renderShare: RenderShare): AppDeps {
  return {
    ...base,
    renderShare,
    connect: async (flags) => {
      // Its -v log lines go straight to stderr, beside the other contexts': each names its context.
      const cluster = await base.connect({
        ...flags,
        logContext: escapeTerminal(context),
        maxInFlight: CONTEXT_IN_FLIGHT,
      });
      opened.push(cluster);
      return cluster;
    },
    confirm: () =>
      Promise.reject(new UsageError('a run across contexts never writes: use --check or --dry-run')),
    choose: () => Promise.reject(new UsageError('a run across contexts cannot ask')),
    startProgress: () => Promise.resolve({ update: () => undefined, stop: () => undefined }),
  };
}

/**
 * Runs RUN once per context, PARALLEL at a time, each with its own capture (CAPTURE makes one per context); RUN returns
 * the exit code (0 or 1) or throws. PROGRESS is told each time a context finishes. FAIL_FAST: start no context after
 * one failed. The contexts share sync's
 * renders (render-share.ts): a context whose render input equals another's by content gets that render, with its own
 * uids; from VERBOSITY 4 a line says how many renders were shared.
 */
export async function runFleet<S, O>(
  contexts: readonly string[],
  parallel: number,
  base: AppDeps,
  capture: (context: string) => Capture<S, O>,
  run: (context: string, deps: AppDeps, sink: S) => Promise<number>,
  progress?: (done: number, failed: number) => void,
  failFast = false,
  verbosity = 0,
): Promise<ContextRun<O>[]> {
  const results: ContextRun<O>[] = new Array<ContextRun<O>>(contexts.length);
  const share = new RenderShare();
  let next = 0;
  let done = 0;
  let failed = 0;
  const worker = async (): Promise<void> => {
    while (next < contexts.length && !(failFast && failed > 0)) {
      const i = next++;
      const context = contexts[i] ?? '';
      const opened: Cluster[] = [];
      const deps = contextDeps(base, context, opened, share);
      const captured = capture(context);
      let exitCode: number;
      let error: string[] | undefined;
      let partial = false;
      try {
        exitCode = await run(context, deps, captured.sink);
      } catch (e) {
        const described = describeError(e, false);
        exitCode = described.exitCode;
        partial = e instanceof PartialAnswer;
        if (described.lines.length > 0) error = described.lines;
      } finally {
        for (const c of opened) c.close?.();
      }
      const output = await captured.collected();
      if (error !== undefined && !partial) failed++;
      done++;
      results[i] = {
        context,
        output,
        exitCode,
        ...(error !== undefined ? { error } : {}),
        ...(partial ? { partial: true as const } : {}),
      };
      progress?.(done, failed);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, contexts.length)) }, worker));
  if (verbosity >= 4) {
    const { rendered, shared } = share.counts();
    base.warn({ kind: 'renders-shared', contexts: contexts.length, rendered, shared });
  }
  // With failFast, the contexts never started are left out.
  return results.filter((r) => r !== undefined);
}
