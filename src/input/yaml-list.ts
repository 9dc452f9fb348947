/**
 * `kubectl get ... -o yaml` of many objects is one YAML document: a List whose `items:` is a block sequence at
 * column 0. js-yaml builds a whole document before it returns, so a 50 MB List holds the parser's garbage for all of
 * it at once (in bun, about ten times the text). Split at its items, the List is parsed one item at a time and each
 * item's garbage can go before the next is parsed. The split is line-based and only taken when the text has exactly
 * that shape; anything else (several documents, an indented sequence, an alias across items, malformed text) is left
 * to the parser of the whole text, which also words every error. Nothing is copied until an item is parsed.
 */

/** Texts smaller than this are parsed whole: the split saves nothing worth its scan. */
export const SPLIT_LIST_MIN_CHARS = 1024 * 1024;

/** The List without its items, and where each item's lines are in the text. */
export interface SplitList {
  readonly head: string;
  /** [start, end) of each item's lines, the first one starting with `- `. */
  readonly items: readonly (readonly [number, number])[];
}

const CR = 13;
const SPACE = 32;
const TAB = 9;
const DASH = 45;
const DOT = 46;
const HASH = 35;

function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== CR) return false;
  }
  return true;
}

/** `---` or `...` followed by a blank or the end of the line. */
function isDocumentMarker(text: string, start: number, end: number): boolean {
  const c = text.charCodeAt(start);
  if ((c !== DASH && c !== DOT) || end - start < 3) return false;
  if (text.charCodeAt(start + 1) !== c || text.charCodeAt(start + 2) !== c) return false;
  const next = text.charCodeAt(start + 3);
  return end === start + 3 || next === SPACE || next === TAB || next === CR;
}

/** A line `items:` at column 0 (trailing blanks allowed). */
function isItemsKey(text: string, start: number, end: number): boolean {
  return text.startsWith('items:', start) && isBlank(text, start + 6, end);
}

/**
 * Finds the items of the top-level `items:` sequence, or returns undefined when the text is not a single document
 * shaped as kubectl writes a List.
 */
export function splitList(text: string): SplitList | undefined {
  let itemsKeyAt = -1;
  let regionEnd = text.length;
  const items: [number, number][] = [];
  let inRegion = false;
  let itemStart = -1;
  for (let start = 0, line = 0; start < text.length; line++) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    const next = nl < 0 ? text.length : nl + 1;
    const c = text.charCodeAt(start);
    if (inRegion) {
      if (c === DASH && (text.charCodeAt(start + 1) === SPACE || isBlank(text, start + 1, end))) {
        if (itemStart >= 0) items.push([itemStart, start]);
        itemStart = start;
      } else if (c === SPACE && text.charCodeAt(start + 1) === SPACE) {
        if (itemStart < 0) return undefined;
      } else if (!isBlank(text, start, end)) {
        // kubectl writes no comments; a comment at column 0 could end a block scalar, so leave it to the parser.
        if (c === HASH) return undefined;
        inRegion = false;
        regionEnd = start;
      }
    } else if (isItemsKey(text, start, end)) {
      if (itemsKeyAt >= 0) return undefined;
      itemsKeyAt = start;
      inRegion = true;
    }
    // A document marker anywhere but on the first line means several documents.
    if (line > 0 && !inRegion && isDocumentMarker(text, start, end)) return undefined;
    start = next;
  }
  if (itemStart >= 0) items.push([itemStart, regionEnd]);
  if (itemsKeyAt < 0 || items.length === 0) return undefined;
  const head = text.slice(0, itemsKeyAt) + text.slice(regionEnd);
  return { head, items };
}

/** The text of one item as a document of its own: its lines with the sequence's two columns taken off. */
export function itemText(text: string, item: readonly [number, number]): string {
  return text.slice(item[0], item[1]).replace(/^(?:- |-(?=\r?$)| {2})/gm, '');
}
