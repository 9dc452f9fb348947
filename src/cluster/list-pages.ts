import { UserError } from '../errors.js';
import type { Answer } from './connection/http-answer.js';

/** A page of a list as the server sends it: the items, and the token of the next page (absent or "" on the last). */
export interface ListPage {
  readonly items?: readonly unknown[];
  readonly metadata?: { readonly continue?: string };
}

/** How list() gets its pages: the answer to the request for the page at CONT (undefined: the first). */
export interface PageSource {
  readonly fetch: (cont: string | undefined) => Promise<Answer>;
  /** The answer read as a page (a non-2xx or non-JSON answer throws, as every read does). */
  readonly read: (answer: Answer) => ListPage | undefined;
}

/**
 * Every page of a list, one after another as client-go's pager reads them, each with the continue token the page
 * before it gave. One difference in timing, none in requests: the next page is asked for as soon as its token is
 * seen at the start of the current page's body (the API server writes a list's metadata before its items), so the
 * server produces it while this client decodes the current one. The token read from the decoded page decides: a
 * page asked for with another token (which the server never sends) is dropped, and the right one asked for.
 */
export async function readAllPages(
  source: PageSource,
  what: string,
  onPage: (items: readonly unknown[]) => void,
): Promise<void> {
  const seen = new Set<string>();
  let next: Promise<Answer> = source.fetch(undefined);
  let count = 0;
  for (;;) {
    const answer = await next;
    const peeked = answer.status >= 200 && answer.status <= 299 ? peekContinue(answer.body) : undefined;
    const early = peeked !== undefined && !seen.has(peeked) ? source.fetch(peeked) : undefined;
    if (early !== undefined) {
      // Awaited below when its token is the page's; otherwise dropped, its failure with it.
      early.catch(() => undefined);
      // Decoding is synchronous: one turn of the event loop first, so that the request really leaves now.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const page = source.read(answer);
    const items = page?.items ?? [];
    count += items.length;
    onPage(items);
    const cont = page?.metadata?.continue;
    if (cont === undefined || cont === '') return;
    if (seen.has(cont)) {
      throw new UserError(
        `the API server sent the same continue token twice while listing ${what}; stopped after ${String(count)} items instead of looping`,
        {
          hint: 'the server or a proxy in front of it pages incorrectly: run kubectl get --v=6 to see the requests',
        },
      );
    }
    seen.add(cont);
    next = early !== undefined && peeked === cont ? early : source.fetch(cont);
  }
}

/** How far into a body the list's metadata is looked for: kind, apiVersion and metadata come first. */
const PEEK_BYTES = 4096;
const CONTINUE =
  /^\s*\{"kind":"[^"]*","apiVersion":"[^"]*","metadata":\{(?:"[a-zA-Z]+":"[^"\\]*",)*"continue":"([^"\\]+)"/;

/**
 * The continue token at the start of a list's JSON body, as the API server encodes a list (TypeMeta, then ListMeta:
 * `{"kind":…,"apiVersion":…,"metadata":{"resourceVersion":…,"continue":…}`), or undefined for anything else: a
 * token with an escape in it, another field order, or a page without one. Only a guess: the decoded page decides.
 */
export function peekContinue(body: Buffer): string | undefined {
  return CONTINUE.exec(body.subarray(0, PEEK_BYTES).toString('latin1'))?.[1];
}
