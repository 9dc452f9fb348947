/** The orders Kubernetes and Crossplane sort names in. */

/** Byte-order (UTF-16 code unit) comparison, like Go's `<` on ASCII strings. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Go's string order (UTF-8 bytes), which is code-point order. */
export function compareNames(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (0xD800-0xDFFF) encode code points above 0xFFFF, which sort after every BMP character.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Sorts names in Go's order; UTF-16 order is the same unless a name holds a surrogate pair. */
export function sortNames(names: string[]): string[] {
  // Stryker disable next-line ConditionalExpression,Regex: compareNames orders names without surrogates as UTF-16 does, so using it always (true) or for any name with a character outside the surrogates sorts the same
  if (names.some((n) => /[\uD800-\uDFFF]/.test(n))) return names.sort(compareNames);
  // Stryker disable next-line EqualityOperator,ConditionalExpression: two equal names are the same string, so the order the comparator gives them cannot be seen
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
