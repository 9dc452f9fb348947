/** N and WORD, WORD in the plural unless N is 1 ("1 context", "3 contexts"): the counts the output names. */
export function plural(n: number, word: string): string {
  return `${String(n)} ${word}${n === 1 ? '' : 's'}`;
}
