import { escapeTerminal } from '../escape.js';

/** The streams and terminal facts a command may use; composition-root.ts passes the real ones, tests pass fakes. */
export interface Io {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  /** Reads all of standard input (for `-f -`), stopping once more than `maxBytes` bytes came in. */
  readonly readStdin: (maxBytes: number) => Promise<string>;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Terminal width, when stdout is a terminal. */
  readonly columns?: number | undefined;
  /** Terminal width of stderr, when it is a terminal (0 when the terminal does not say). */
  readonly stderrColumns?: number | undefined;
}

export interface TextSink {
  write(text: string): unknown;
}

/**
 * Writes one line of human output (a warning, a refusal, a per-object error) to SINK, escaped for the terminal: the
 * names and messages in it come from the cluster, files or flags (see escape.ts).
 */
export function writeLine(sink: TextSink, line: string): void {
  sink.write(`${escapeTerminal(line)}\n`);
}
