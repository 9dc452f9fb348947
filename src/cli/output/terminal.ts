import type { Io } from '../io.js';

/** Colour is on only for a TTY, without --no-color and without NO_COLOR (https://no-color.org). */
export function useColor(io: Pick<Io, 'env'>, isTTY: boolean, noColorFlag: boolean): boolean {
  if (noColorFlag) return false;
  const noColor = io.env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  if (io.env.TERM === 'dumb') return false;
  return isTTY;
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
