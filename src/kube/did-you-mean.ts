import { compareNames } from './order.js';

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** Up to three names close to `name`: by edit distance, or containing it (or contained in it). */
export function closeMatches(name: string, names: readonly string[]): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const scored: { name: string; score: number }[] = [];
  for (const candidate of names) {
    const lower = candidate.toLowerCase();
    // Stryker disable next-line ConditionalExpression: the edit distance is at least the difference in length, so a name further apart in length is never within the limit anyway (the test saves the work)
    if (Math.abs(lower.length - wanted.length) <= limit) {
      const d = editDistance(wanted, lower);
      if (d <= limit) {
        scored.push({ name: candidate, score: d });
        continue;
      }
    }
    if (wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower))) {
      scored.push({ name: candidate, score: limit + 1 + Math.abs(lower.length - wanted.length) });
    }
  }
  scored.sort((a, b) => a.score - b.score || compareNames(a.name, b.name));
  // Only the names about as close as the closest: one typo should not also suggest every name of similar length.
  const best = scored[0]?.score ?? 0;
  return scored
    .filter((s) => s.score <= best + 2)
    .slice(0, 3)
    .map((s) => s.name);
}
