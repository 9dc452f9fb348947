import type { Io } from '../io.js';

/**
 * Whether output to a stream is coloured: the one rule for stdout and for stderr's warnings, kubectl's (cli-runtime
 * printers.AllowsColorOutput, kubernetes staging/src/k8s.io/cli-runtime/pkg/printers/terminal.go
 * @cb6ff2d8ce3595f88570f82c7d0e6d98910afd3c): a terminal, TERM not `dumb`, NO_COLOR not set at all (looked up, not
 * read: an empty value turns colour off too, where no-color.org lets it colour), and not --no-color.
 */
export function useColor(io: Pick<Io, 'env'>, isTTY: boolean, noColorFlag: boolean): boolean {
  if (noColorFlag || !isTTY) return false;
  if (io.env.TERM === 'dumb') return false;
  return io.env.NO_COLOR === undefined;
}

export interface Palette {
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly red: (s: string) => string;
  readonly green: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly cyan: (s: string) => string;
}

const ident = (s: string): string => s;
const sgr =
  (open: number, close: number) =>
  (s: string): string =>
    `\u001b[${open}m${s}\u001b[${close}m`;

export function palette(enabled: boolean): Palette {
  if (!enabled) return { bold: ident, dim: ident, red: ident, green: ident, yellow: ident, cyan: ident };
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
  };
}
