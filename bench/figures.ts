/** The bench's figures: medians and their printing, shared by bench/run.ts and the cases it runs apart. */

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

export const fixed = (n: number, digits = 0): string => n.toFixed(digits);

export const MB = 1e6;
