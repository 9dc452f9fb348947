import { answerEarly } from './cli/fast-start.js';

declare const __VERSION__: string | undefined;
/** The top-level help as printed off a terminal, rendered at build time (scripts/build.ts); absent under tsx. */
declare const __ROOT_HELP__: string | undefined;

// The entry point: what needs no parser (src/cli/fast-start.ts) is answered here, loading nothing else; every other
// command line goes to the composition root, loaded then. Kept small on purpose: the standalone executables embed
// this file and the composition root as two modules (scripts/build.ts), so `version` and `--help` load only this.

/** What main.ts uses of bun's API. */
interface BunRuntime {
  readonly stdout: unknown;
  write(destination: unknown, data: string): Promise<number>;
}

/** bun, when the plugin runs as a standalone executable. */
const bun = (globalThis as { Bun?: BunRuntime }).Bun;

/** The pre-rendered help when stdout is not a terminal, else undefined (the parser wraps it to the width). */
function helpOffTerminal(): string | undefined {
  return typeof __ROOT_HELP__ === 'string' && !(stdoutIsTerminal() ?? true) ? __ROOT_HELP__ : undefined;
}

/**
 * Whether stdout is a terminal, or undefined when that cannot be asked cheaply (the parser's path answers then). In
 * bun, process.stdout is a stream built on first use and its tty module is slow to load (30 and 18 ms, more than
 * the whole answer): the question goes to bun's tty binding, which answers it in microseconds.
 */
function stdoutIsTerminal(): boolean | undefined {
  // Node: process.stdout.isTTY is undefined, not false, off a terminal.
  if (bun === undefined) return (process.stdout as { isTTY?: boolean }).isTTY ?? false;
  try {
    const node = process as unknown as { binding: (name: string) => { isTTY?: (fd: number) => unknown } };
    const answer = node.binding('tty_wrap').isTTY?.(1);
    return typeof answer === 'boolean' ? answer : undefined;
  } catch {
    return undefined;
  }
}

/** Writes TEXT to stdout; a reader that went away (`| head`) ends it quietly, as kubectl does. */
function print(text: string): void {
  const closed = (err: NodeJS.ErrnoException): void => {
    if (err.code === 'EPIPE') process.exit(0);
  };
  // bun's process.stdout is a stream built on first use (30 ms of start-up): write to the descriptor directly.
  if (bun !== undefined) bun.write(bun.stdout, text).catch(closed);
  else process.stdout.on('error', closed).write(text);
}

// Deprecation warnings would come from bundled libraries, which users cannot change: they are shown only with
// --stack-traces.
if (!process.argv.includes('--stack-traces')) process.noDeprecation = true;

const argv = process.argv.slice(2);
const version = typeof __VERSION__ === 'string' ? __VERSION__ : 'v0.0.0-dev';
const early = answerEarly(argv, { version, help: helpOffTerminal });
if (early !== undefined) print(early);
else void import('./composition-root.js').then(({ main }) => main(argv, version));
