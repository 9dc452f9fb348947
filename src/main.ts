import { answerEarly } from './cli/fast-start.js';

declare const __VERSION__: string | undefined;
/** The top-level help as printed off a terminal, rendered at build time (scripts/build.ts); absent under tsx. */
declare const __ROOT_HELP__: string | undefined;

// The entry point: what needs no parser (src/cli/fast-start.ts) is answered here, loading nothing else; every other
// command line goes to the composition root, loaded then. Kept small on purpose: the standalone executables embed
// this file and the composition root as two modules (scripts/build.ts), so `version` and `--help` load only this.

/** bun's writer, when the plugin runs as a standalone executable. */
interface BunRuntime {
  readonly stdout: unknown;
  write(destination: unknown, data: string): Promise<number>;
}

/**
 * The pre-rendered help when stdout is not a terminal, else undefined (the parser wraps it to the terminal's
 * width). A terminal is a character device and a pipe, file or socket never is: one fstat, where asking the tty
 * module (or process.stdout.isTTY) costs a standalone executable 20-30 ms, more than the whole answer. Other
 * character devices (/dev/null) take the parser's path, which answers the same.
 */
async function helpOffTerminal(): Promise<string | undefined> {
  if (typeof __ROOT_HELP__ !== 'string') return undefined;
  const { fstatSync } = await import('node:fs');
  try {
    return fstatSync(1).isCharacterDevice() ? undefined : __ROOT_HELP__;
  } catch {
    return undefined;
  }
}

/** Writes TEXT to stdout; a reader that went away (`| head`) ends it quietly, as kubectl does. */
function print(text: string): void {
  const bun = (globalThis as { Bun?: BunRuntime }).Bun;
  const closed = (err: NodeJS.ErrnoException): void => {
    if (err.code === 'EPIPE') process.exit(0);
  };
  // bun's process.stdout is a stream built on first use (30 ms of start-up): write to the descriptor directly.
  if (bun !== undefined) bun.write(bun.stdout, text).catch(closed);
  else process.stdout.on('error', closed).write(text);
}

// Deprecation warnings come from bundled libraries (node-fetch's url.parse, printed by the standalone runtime);
// users cannot act on them, so they are shown only with --stack-traces.
if (!process.argv.includes('--stack-traces')) process.noDeprecation = true;

const argv = process.argv.slice(2);
const version = typeof __VERSION__ === 'string' ? __VERSION__ : 'v0.0.0-dev';
void answerEarly(argv, { version, help: helpOffTerminal }).then(async (early) => {
  if (early !== undefined) print(early);
  else await (await import('./composition-root.js')).main(argv, version);
});
