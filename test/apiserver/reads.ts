/** The read verbs: list (paged, filtered), the Table form, and watch. */
import type http from 'node:http';
import { groupVersion, present } from './objects.js';
import type { ResourceInfo } from './registry.js';
import type { RequestInfo } from './request-info.js';
import { fieldsMatch, labelsMatch, parseFieldSelector, parseLabelSelector } from './selectors.js';
import { badRequest, resourceExpired } from './status.js';
import type { Store } from './store.js';
import { objectKey, storeKeyOf } from './store.js';
import type { Obj } from './types.js';

/** A list as the API answers it: label and field selectors, then a page of `limit` from the `continue` token. */
export function listObjects(store: Store, info: ResourceInfo, ri: RequestInfo, query: URLSearchParams): Obj {
  const labelReqs = parseLabelSelector(query.get('labelSelector') ?? '');
  const supported = (f: string): boolean =>
    f === 'metadata.name' ||
    f === 'metadata.namespace' ||
    (info.resource === 'events' && /^(involvedObject\.\w+|reason|reportingComponent|source|type)$/.test(f)) ||
    (info.resource === 'secrets' && f === 'type') ||
    (info.resource === 'namespaces' && f === 'status.phase');
  const fieldReqs = parseFieldSelector(query.get('fieldSelector') ?? '', supported);
  const all = store
    .list(storeKeyOf(info), info.namespaced && ri.namespace !== '' ? ri.namespace : undefined)
    .filter((o) => labelsMatch(labelReqs, o.metadata?.labels) && fieldsMatch(fieldReqs, o));
  const limit = Number(query.get('limit') ?? '0');
  if (!Number.isInteger(limit) || limit < 0) throw badRequest(`invalid limit: ${query.get('limit') ?? ''}`);
  let start = 0;
  const cont = query.get('continue') ?? '';
  if (cont !== '') {
    let token: Obj;
    try {
      token = JSON.parse(Buffer.from(cont, 'base64').toString('utf8')) as Obj;
    } catch {
      throw badRequest('continue key is not valid: illegal base64 data');
    }
    if (typeof token.start !== 'string')
      throw badRequest(
        'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
      );
    // A token's snapshot compacted away cannot be listed on (apiserver's storage/etcd3/errors.go, continueExpired).
    if (typeof token.rv === 'number' && token.rv < store.compacted())
      throw resourceExpired(
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
      );
    const key = token.start;
    start = all.findIndex((o) => objectKey(o.metadata.namespace ?? '', o.metadata.name) > key);
    if (start < 0) start = all.length;
  }
  const page = limit > 0 ? all.slice(start, start + limit) : all.slice(start);
  const metadata: Obj = { resourceVersion: String(store.currentRv()) };
  const last = page[page.length - 1];
  if (limit > 0 && start + limit < all.length && last !== undefined) {
    metadata.continue = Buffer.from(
      JSON.stringify({
        v: 'meta.k8s.io/v1',
        rv: store.currentRv(),
        start: objectKey(last.metadata.namespace ?? '', last.metadata.name),
      }),
    ).toString('base64');
    metadata.remainingItemCount = all.length - start - limit;
  }
  // Shallow copies: an answer is encoded as soon as it is made and nothing changes it on the way (a deep copy of a
  // large list cost seconds of CPU, most of it collecting garbage). Like the real server, items of built-in lists
  // carry no apiVersion/kind; custom resources do.
  const items = page.map((o) => {
    if (info.custom) return { ...o, apiVersion: groupVersion(info), kind: info.kind };
    const { apiVersion: _apiVersion, kind: _kind, ...rest } = o;
    return rest;
  });
  return { kind: info.listKind, apiVersion: groupVersion(info), metadata, items };
}

/** The Table form kubectl asks for (`Accept: ...;as=Table`): name and age columns. */
export function table(
  store: Store,
  info: ResourceInfo,
  items: Obj[],
  query: URLSearchParams,
  listMeta?: Obj,
): Obj {
  const includeObject = query.get('includeObject') ?? 'Metadata';
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta ?? { resourceVersion: String(store.currentRv()) },
    columnDefinitions: [
      {
        name: 'Name',
        type: 'string',
        format: 'name',
        description: 'Name must be unique within a namespace.',
        priority: 0,
      },
      {
        name: 'Created At',
        type: 'date',
        format: '',
        description:
          'CreationTimestamp is a timestamp representing the server time when this object was created.',
        priority: 0,
      },
    ],
    rows: items.map((o) => ({
      cells: [o.metadata?.name ?? '', o.metadata?.creationTimestamp ?? ''],
      object:
        includeObject === 'Object'
          ? { ...o, apiVersion: groupVersion(info), kind: info.kind }
          : includeObject === 'None'
            ? undefined
            : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
    })),
  };
}

/** How watches are served; tests change it between requests. */
export interface WatchSettings {
  /**
   * How a watch from a compacted resourceVersion is answered. 'event', as kube-apiserver's watch cache answers it:
   * 200, then one ERROR event whose object is a 410 Expired Status, then the end (cacher.go Watch: newErrWatcher;
   * watch_cache.go getAllEventsSinceLocked: errors.NewResourceExpired). 'status': an HTTP 410 answer with that
   * Status, as a server that checks the resourceVersion before it starts the stream would.
   */
  expiredAs: 'event' | 'status';
  /** How often a watch that allows bookmarks gets one (kube-apiserver's defaultBookmarkFrequency: a minute). */
  bookmarkIntervalMs: number;
}

export const DEFAULT_WATCH_SETTINGS: WatchSettings = { expiredAs: 'event', bookmarkIntervalMs: 60_000 };

/** An open watch, as the server holds it: `bookmark` sends one now (false when the watch did not ask for them). */
export interface OpenWatch {
  bookmark(): boolean;
}

/**
 * A watch: the current objects (or the events after `resourceVersion`), then every change, as JSON lines, until
 * `timeoutSeconds` or the client goes away. A `resourceVersion` older than the compacted history answers 410
 * Expired (see WatchSettings). With `allowWatchBookmarks=true` it also gets BOOKMARK events, as kube-apiserver's
 * cacheWatcher sends them (cache_watcher.go nextBookmarkTime: every bookmarkIntervalMs, and 2s before the
 * timeout): the watched kind with only metadata.resourceVersion, the version up to which the watch has every
 * event. `open` holds the open watches, for the server to bookmark and end.
 */
export function watch(
  store: Store,
  open: Map<http.ServerResponse, OpenWatch>,
  settings: WatchSettings,
  info: ResourceInfo,
  ri: RequestInfo,
  query: URLSearchParams,
  res: http.ServerResponse,
): void {
  const labelReqs = parseLabelSelector(query.get('labelSelector') ?? '');
  const fieldReqs = parseFieldSelector(
    query.get('fieldSelector') ?? '',
    (f) => f === 'metadata.name' || f === 'metadata.namespace',
  );
  const key = storeKeyOf(info);
  const matches = (o: Obj): boolean =>
    (!info.namespaced || ri.namespace === '' || o.metadata?.namespace === ri.namespace) &&
    labelsMatch(labelReqs, o.metadata?.labels) &&
    fieldsMatch(fieldReqs, o);
  const rv = query.get('resourceVersion') ?? '';
  const expired =
    rv !== '' && rv !== '0' && Number(rv) < store.forgotten()
      ? resourceExpired(`too old resource version: ${rv} (${String(store.forgotten())})`)
      : undefined;
  if (expired !== undefined && settings.expiredAs === 'status') throw expired;
  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
  // Sent at once, before any event, as serveWatch flushes its 200 (k8s.io/apiserver handlers/watch.go): a quiet kind's
  // watch is answered, not left waiting for its first event or bookmark.
  res.flushHeaders();
  // Ended (timeoutSeconds, the server stopping) before its 'close' unsubscribes it: later events are not its own.
  const line = (type: string, object: Obj): void => {
    if (!res.writableEnded) res.write(`${JSON.stringify({ type, object })}\n`);
  };
  if (expired !== undefined) {
    line('ERROR', expired.body());
    res.end();
    return;
  }
  const send = (type: string, o: Obj): void => {
    line(type, present(info, o));
  };
  const allowBookmarks = query.get('allowWatchBookmarks') === 'true';
  const bookmark = (): boolean => {
    if (!allowBookmarks || res.writableEnded) return false;
    line('BOOKMARK', {
      kind: info.kind,
      apiVersion: groupVersion(info),
      metadata: { resourceVersion: String(store.currentRv()) },
    });
    return true;
  };
  open.set(res, { bookmark });
  if (rv === '' || rv === '0') {
    for (const o of store.list(key)) if (matches(o)) send('ADDED', o);
  } else {
    for (const e of store.history)
      if (e.storeKey === key && e.rv > Number(rv) && matches(e.object)) send(e.type, e.object);
  }
  const unsubscribe = store.subscribe((e) => {
    if (e.storeKey === key && matches(e.object)) send(e.type, e.object);
  });
  const timeoutMs = Math.max(0, Number(query.get('timeoutSeconds') ?? '1800')) * 1000;
  const timer = setTimeout(() => res.end(), timeoutMs);
  const heartbeat = allowBookmarks ? setInterval(bookmark, settings.bookmarkIntervalMs) : undefined;
  const beforeEnd = allowBookmarks && timeoutMs > 2_000 ? setTimeout(bookmark, timeoutMs - 2_000) : undefined;
  res.on('close', () => {
    clearTimeout(timer);
    clearInterval(heartbeat);
    clearTimeout(beforeEnd);
    unsubscribe();
    open.delete(res);
  });
}
