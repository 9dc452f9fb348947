// Paging as client-go's pager does it (one request per page, each with the token the page before gave), with the
// next page asked for while the current one is decoded. The bodies are written as kube-apiserver encodes a list:
// TypeMeta, then ListMeta (resourceVersion, continue, remainingItemCount), then the items.
import { describe, expect, it } from 'vitest';
import type { Answer } from '../../../src/cluster/connection/http-answer.js';
import { peekContinue, readAllPages, type ListPage } from '../../../src/cluster/list-pages.js';

function listBody(
  cont: string | undefined,
  names: readonly string[],
  order: 'server' | 'other' = 'server',
): string {
  const meta =
    cont === undefined ? '{"resourceVersion":"42"}' : `{"resourceVersion":"42","continue":"${cont}"}`;
  const items = JSON.stringify(names.map((name) => ({ metadata: { name } })));
  return order === 'server'
    ? `{"kind":"NamespaceList","apiVersion":"v1","metadata":${meta},"items":${items}}`
    : `{"apiVersion":"v1","kind":"NamespaceList","metadata":${meta},"items":${items}}`;
}

function answer(body: string, status = 200): Answer {
  return {
    status,
    statusText: status === 200 ? 'OK' : 'Error',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(body),
  };
}

/** A server of pages by token ('' is the first), recording what was asked and read, in order. */
function pages(byToken: Record<string, Answer>) {
  const events: string[] = [];
  const source = {
    fetch: (cont: string | undefined): Promise<Answer> => {
      events.push(`fetch ${cont ?? '(first)'}`);
      const a = byToken[cont ?? ''];
      return a === undefined ? Promise.reject(new Error(`no page ${cont ?? ''}`)) : Promise.resolve(a);
    },
    read: (a: Answer): ListPage | undefined => {
      if (a.status !== 200) throw new Error(`HTTP ${String(a.status)}`);
      const page = JSON.parse(a.body.toString('utf8')) as ListPage;
      events.push(
        `read ${(page.items as { metadata: { name: string } }[]).map((i) => i.metadata.name).join(',')}`,
      );
      return page;
    },
  };
  return { source, events };
}

async function names(source: Parameters<typeof readAllPages>[0]): Promise<string[]> {
  const out: string[] = [];
  await readAllPages(source, 'namespaces', (items) => {
    for (const i of items as { metadata: { name: string } }[]) out.push(i.metadata.name);
  });
  return out;
}

describe('peekContinue', () => {
  it('reads the token where kube-apiserver writes it', () => {
    expect(peekContinue(Buffer.from(listBody('eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ==', ['a'])))).toBe(
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ==',
    );
    expect(
      peekContinue(
        Buffer.from(
          '{"kind":"ClusterRoleList","apiVersion":"rbac.authorization.k8s.io/v1","metadata":{"resourceVersion":"7438","continue":"tok","remainingItemCount":2872},"items":[]}',
        ),
      ),
    ).toBe('tok');
    expect(
      peekContinue(
        Buffer.from(
          '{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"continue":"tok"},"items":[]}',
        ),
      ),
    ).toBe('tok');
  });

  it('guesses nothing from anything else', () => {
    expect(peekContinue(Buffer.from(listBody(undefined, ['a'])))).toBeUndefined();
    expect(peekContinue(Buffer.from(listBody('tok', ['a'], 'other')))).toBeUndefined();
    expect(peekContinue(Buffer.from(listBody('', ['a'])))).toBeUndefined();
    expect(peekContinue(Buffer.from(listBody('a\\"b', ['a'])))).toBeUndefined();
    // A continue key inside an item is not the list's.
    expect(
      peekContinue(Buffer.from('{"kind":"L","apiVersion":"v1","metadata":{},"items":[{"continue":"x"}]}')),
    ).toBeUndefined();
    // Only the start of the body is looked at.
    const long = `{"kind":"L","apiVersion":"v1","metadata":{"resourceVersion":"${'9'.repeat(5000)}","continue":"t"}}`;
    expect(peekContinue(Buffer.from(long))).toBeUndefined();
    expect(peekContinue(Buffer.from('<html>login</html>'))).toBeUndefined();
  });
});

describe('readAllPages', () => {
  it('asks for each page once, in order, the next before the current one is decoded', async () => {
    const { source, events } = pages({
      '': answer(listBody('t1', ['a', 'b'])),
      t1: answer(listBody('t2', ['c'])),
      t2: answer(listBody(undefined, ['d'])),
    });
    expect(await names(source)).toEqual(['a', 'b', 'c', 'd']);
    expect(events).toEqual(['fetch (first)', 'fetch t1', 'read a,b', 'fetch t2', 'read c', 'read d']);
  });

  it('without a token at the start of the body, asks after decoding, as the pager does', async () => {
    const { source, events } = pages({
      '': answer(listBody('t1', ['a'], 'other')),
      t1: answer(listBody(undefined, ['b'], 'other')),
    });
    expect(await names(source)).toEqual(['a', 'b']);
    expect(events).toEqual(['fetch (first)', 'read a', 'fetch t1', 'read b']);
  });

  it('drops a page asked for with a guessed token the decoded page does not have, and asks again', async () => {
    // The start of the body says "guess"; the page (decoded whole) says "real": the page decides.
    const first = answer(listBody('real', ['a']));
    const lying: Answer = {
      ...first,
      body: Buffer.from(
        `{"kind":"NamespaceList","apiVersion":"v1","metadata":{"continue":"guess"},"metadata":{"continue":"real"},"items":[{"metadata":{"name":"a"}}]}`,
      ),
    };
    const { source, events } = pages({
      '': lying,
      guess: answer(listBody(undefined, ['wrong'])),
      real: answer(listBody(undefined, ['b'])),
    });
    expect(await names(source)).toEqual(['a', 'b']);
    expect(events).toEqual(['fetch (first)', 'fetch guess', 'read a', 'fetch real', 'read b']);
  });

  it('a dropped early request that fails is no failure of the list', async () => {
    const lying: Answer = answer(
      '{"kind":"NamespaceList","apiVersion":"v1","metadata":{"continue":"gone"},"metadata":{},"items":[{"metadata":{"name":"a"}}]}',
    );
    const { source, events } = pages({ '': lying });
    expect(await names(source)).toEqual(['a']);
    expect(events).toEqual(['fetch (first)', 'fetch gone', 'read a']);
  });

  it('stops at a repeated token with one error, without asking for it again', async () => {
    const { source, events } = pages({
      '': answer(listBody('same', ['a'])),
      same: answer(listBody('same', ['b'])),
    });
    await expect(names(source)).rejects.toThrow(
      'the API server sent the same continue token twice while listing namespaces; stopped after 2 items instead of looping',
    );
    expect(events).toEqual(['fetch (first)', 'fetch same', 'read a', 'read b']);
  });

  it('asks for nothing more after an error answer', async () => {
    const { source, events } = pages({ '': answer(listBody('t1', ['a']), 500) });
    await expect(names(source)).rejects.toThrow('HTTP 500');
    expect(events).toEqual(['fetch (first)']);
  });
});
