/**
 * A count with thousands separators, as `n.toLocaleString('en-US')` writes a whole number ("12,345"). Written here:
 * the first toLocaleString of a run loads ICU's number formats, about 30 ms of every command that reports progress.
 */
export function thousands(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 || Object.is(n, -0) ? `-${out}` : out;
}
