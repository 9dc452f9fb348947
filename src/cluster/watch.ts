/**
 * Cluster.watch over the run's one transport: a LIST, then a WATCH from the list's resourceVersion, kept going as
 * client-go's reflector keeps it going: ListAndWatch, watch, handleAnyWatch in kubernetes/client-go
 * tools/cache/reflector.go@cad7aa5a474a1ff81643e854548f95523748cee8 ("reflector.go" below). The server's side is
 * kube-apiserver's watch cache, in kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/storage/cacher/:
 * cacher.go Watch@00319881a809400fd88feac10e724a9e4afae4d9 (an expired resourceVersion is an ERROR event, not an
 * HTTP error), watch_cache.go getAllEventsSinceLocked@00f3bd4418723bfd579a3b13ac1f824083ac5942 (410 Expired "too
 * old resource version"), cache_watcher.go nextBookmarkTime@04d6b4f11d533e92dc999e981f73f7b44dacd591 (bookmarks).
 *
 * Why the transport and not client-node's `Watch`: that class (dist/watch.js in 1.4) opens its own node-fetch
 * connection from a KubeConfig, so a watch would skip what the transport does for every other request of the run:
 * the exec plugin run once and shared, token files, impersonation, HTTP CONNECT and SOCKS5 proxies (dial.ts), the
 * retries and the "server gone" breaker, and the -v request logs. It also reads a non-200 answer as its status text
 * only (so a 410 and its Status body cannot be told apart from any other failure) and drops a line that is not JSON
 * without a word. A watch is one streamed GET of the collection with `watch=true`: Transport.stream gives it every
 * part of the transport up to the answer's headers, then the body as it arrives.
 */
import type { Readable } from 'node:stream';
import { UserError } from '../errors.js';
import { isKubeObject, type KubeObject } from '../kube/types.js';
import type { ResourceKind, WatchEvent, WatchOptions } from '../port/cluster.js';
import { ApiError, type StatusBody } from '../port/translate-error.js';
import { ReflectorBackoff } from '../kube/backoff.js';
import { resourceUrl } from './resource-url.js';
import {
  NotJsonError,
  answerError,
  jsonAnswer,
  proxyHint,
  sleepUnlessAborted,
  type Answer,
  type StreamedAnswer,
} from './connection/http-answer.js';
import type { RestConfig } from './connection/rest-config.js';

const PAGE_SIZE = 500;
/**
 * A watch that ends this soon having sent nothing did not work (reflector.go's "very short watch"): the next one
 * waits a backoff. Any other end resumes at once.
 */
const SHORT_WATCH_MS = 1_000;
/** How long past its timeoutSeconds a watch may stay silent before its connection counts as dead. */
const IDLE_GRACE_MS = 30_000;
/** ERROR events of these codes are the server's passing trouble: back off, then watch again from the same point. */
const PASSING_CODES = new Set([429, 500, 502, 503, 504]);

/** What a watch needs from the transport (connection/transport.ts). */
export interface WatchTransport {
  get(url: URL, signal: AbortSignal): Promise<Answer>;
  stream(url: URL, signal: AbortSignal, idleMs: number): Promise<Answer | StreamedAnswer>;
}

/** The server watched, and the kubeconfig context it came from ('' when none), which hints name. */
export type WatchTarget = Pick<RestConfig, 'server' | 'contextName'>;

/** How one watch request ended: where to resume, whether anything came, and why it stopped. */
interface WatchEnd {
  readonly resourceVersion: string;
  readonly received: number;
  /** The server no longer has the history from resourceVersion on (410): relist. */
  readonly relist: boolean;
  /** The connection broke, or the server sent a passing ERROR: watch again after a backoff. */
  readonly failed: boolean;
}

/**
 * Lists KIND, yields the list as SYNCED, then watches from its resourceVersion and yields each change. Every watch
 * request asks for bookmarks (allowWatchBookmarks, as the reflector does); a BOOKMARK only advances the
 * resourceVersion the next watch starts from. When the server ends a watch (its timeoutSeconds) or the connection
 * breaks, the next starts from the resourceVersion of the last event or bookmark, so no event is lost or repeated.
 * When the server no longer has that history (410 Gone: an HTTP 410 answer, or an ERROR event carrying a Status
 * with code 410, as kube-apiserver's watch cache sends it once it has passed authorization), it relists after the
 * reflector's backoff and yields the new state as SYNCED. An abort of SIGNAL ends it quietly; anything no retry can mend (403, 404, an answer
 * that is not JSON, the server gone) is thrown.
 */
export async function* watchKind(
  transport: WatchTransport,
  target: WatchTarget,
  kind: ResourceKind,
  opts: WatchOptions,
  signal: AbortSignal,
): AsyncGenerator<WatchEvent, void, undefined> {
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  let from: string | undefined;
  // A watch that did not work waits as the reflector's backoffManager says (kube/backoff.ts): 800ms doubling to 30s.
  const waits = new ReflectorBackoff(Date.now, Math.random);
  try {
    while (!signal.aborted) {
      if (from === undefined) {
        const listed = await listAll(transport, target, kind, opts, signal);
        from = listed.resourceVersion;
        yield { type: 'SYNCED', objects: listed.objects, resourceVersion: from };
        continue;
      }
      const started = Date.now();
      const end = yield* watchFrom(transport, target, kind, opts, from, signal);
      if (end.relist) {
        // As the reflector after an expired watch: its watch returns, and Run's BackoffUntil waits the backoff
        // manager's next delay before ListAndWatch lists again (reflector.go, Run; watch: isExpiredError). A server
        // that forgets every watch is listed at that pace, not in a loop as fast as it answers.
        from = undefined;
        await sleepUnlessAborted(sleep, waits.next(), signal);
        continue;
      }
      from = end.resourceVersion;
      const worked = end.received > 0 || (!end.failed && Date.now() - started >= SHORT_WATCH_MS);
      if (!worked) await sleepUnlessAborted(sleep, waits.next(), signal);
    }
  } catch (err) {
    if (signal.aborted) return;
    throw err;
  }
}

/**
 * Every page of KIND, and the resourceVersion of the first: the whole list is at that version (continue tokens
 * read the first page's snapshot), as client-go's pager keeps it (tools/pager/pager.go, List). It reads with no
 * resourceVersion, the consistent read the reflector falls back to after a 410 (reflector.go,
 * relistResourceVersion): the reflector's first list asks for "0" (any cached state) to spare the server, but a
 * command wants the state as it is. A continue token that expired (410 on a later page) falls back to one full
 * list, as the pager does.
 */
async function listAll(
  transport: WatchTransport,
  target: WatchTarget,
  kind: ResourceKind,
  opts: WatchOptions,
  signal: AbortSignal,
): Promise<{ objects: KubeObject[]; resourceVersion: string }> {
  const objects: KubeObject[] = [];
  let resourceVersion: string | undefined;
  let cont = '';
  let limit = PAGE_SIZE;
  const seen = new Set<string>();
  for (;;) {
    const url = collectionUrl(target.server, kind, opts);
    url.searchParams.set('limit', String(limit));
    if (cont !== '') url.searchParams.set('continue', cont);
    const answer = await transport.get(url, signal);
    if (answer.status === 410 && cont !== '') {
      objects.length = 0;
      resourceVersion = undefined;
      cont = '';
      limit = 0;
      continue;
    }
    const page = jsonAnswer(answer, 'GET', url, target.contextName) as {
      metadata?: { resourceVersion?: unknown; continue?: unknown };
      items?: unknown;
    };
    resourceVersion ??=
      typeof page.metadata?.resourceVersion === 'string' ? page.metadata.resourceVersion : '';
    for (const item of Array.isArray(page.items) ? (page.items as unknown[]) : []) {
      objects.push(kubeObject(kind, item));
    }
    cont = typeof page.metadata?.continue === 'string' ? page.metadata.continue : '';
    if (cont === '') break;
    if (seen.has(cont)) {
      throw new UserError(
        `the API server sent the same continue token twice while listing ${kind.plural}; stopped instead of looping`,
        {
          hint: 'the server or a proxy in front of it pages incorrectly: run kubectl get --v=6 to see the requests',
        },
      );
    }
    seen.add(cont);
  }
  if (resourceVersion === undefined || resourceVersion === '') {
    throw new UserError(
      `the API server listed ${kind.plural} without a resourceVersion: it cannot be watched`,
    );
  }
  return { objects, resourceVersion };
}

/** One watch request from FROM: yields its changes, and says how it ended. */
async function* watchFrom(
  transport: WatchTransport,
  target: WatchTarget,
  kind: ResourceKind,
  opts: WatchOptions,
  from: string,
  signal: AbortSignal,
): AsyncGenerator<WatchEvent, WatchEnd, undefined> {
  // Random in [300s, 600s) unless given, as the reflector spreads its watches (reflector.go, watch: minWatchTimeout).
  const given = opts.timeoutSeconds;
  const timeoutSeconds =
    given !== undefined && given > 0 ? Math.ceil(given) : Math.floor(300 * (1 + Math.random()));
  const url = collectionUrl(target.server, kind, opts);
  url.searchParams.set('watch', 'true');
  url.searchParams.set('resourceVersion', from);
  url.searchParams.set('allowWatchBookmarks', 'true');
  url.searchParams.set('timeoutSeconds', String(timeoutSeconds));
  const answer = await transport.stream(url, signal, timeoutSeconds * 1000 + IDLE_GRACE_MS);
  let end: WatchEnd = { resourceVersion: from, received: 0, relist: false, failed: false };
  if (!('stream' in answer)) {
    const error = answerError(answer);
    if (mustRelist(error.code, error.status)) return { ...end, relist: true };
    throw error;
  }
  const { stream } = answer;
  try {
    const tooLong = (): UserError =>
      new UserError(
        `the server sent a watch event of ${kind.plural} longer than 16 MiB, the most kubectl reads: is a proxy in front of the API server?`,
        { hint: proxyHint(target.contextName) },
      );
    for await (const line of lines(stream, tooLong)) {
      const event = parseEvent(line, kind, target.contextName);
      switch (event.type) {
        case 'ADDED':
        case 'MODIFIED':
        case 'DELETED': {
          const object = kubeObject(kind, event.object);
          end = {
            ...end,
            received: end.received + 1,
            resourceVersion: versionOf(object) ?? end.resourceVersion,
          };
          yield { type: event.type, object };
          break;
        }
        case 'BOOKMARK':
          // A bookmark only moves the point the next watch starts from (reflector.go, handleAnyWatch).
          end = {
            ...end,
            received: end.received + 1,
            resourceVersion: versionOf(event.object) ?? end.resourceVersion,
          };
          break;
        case 'ERROR': {
          // The ERROR event's object is a Status (apimachinery's errors.FromObject reads it so).
          const status = event.object as StatusBody & { details?: { causes?: { reason?: unknown }[] } };
          const code = typeof status.code === 'number' ? status.code : 500;
          if (mustRelist(code, status)) return { ...end, relist: true };
          if (PASSING_CODES.has(code)) return { ...end, failed: true };
          throw new ApiError(code, status, undefined);
        }
        default:
          // An event type this client does not know is skipped, as the reflector skips it.
          break;
      }
    }
    return end;
  } catch (err) {
    if (signal.aborted || err instanceof UserError || err instanceof ApiError) throw err;
    // The connection broke mid-watch (reset, truncated, silent too long): resume from the last event.
    return { ...end, failed: true };
  } finally {
    stream.destroy();
  }
}

/**
 * Whether an answer or ERROR event says the history from the requested resourceVersion is gone, so only a relist
 * can go on: a 410, or the reasons Expired and Gone (client-go's isExpiredError: apierrors.IsResourceExpired ||
 * IsGone); or a resourceVersion the server has not reached (a 504 with cause ResourceVersionTooLarge, which the
 * reflector answers with a consistent relist: isTooLargeResourceVersionError).
 */
function mustRelist(
  code: number,
  status: (StatusBody & { details?: { causes?: { reason?: unknown }[] } }) | undefined,
): boolean {
  if (code === 410 || status?.reason === 'Expired' || status?.reason === 'Gone') return true;
  return (status?.details?.causes ?? []).some((c) => c.reason === 'ResourceVersionTooLarge');
}

/**
 * The most one watch event may hold: client-go reads each event as one frame of at most 16 MiB and fails with
 * ErrObjectTooLarge past that (kubernetes/kubernetes
 * staging/src/k8s.io/apimachinery/pkg/runtime/serializer/streaming/streaming.go@e63752e0f2710cbb0ae36a012878fa1812b14e5a
 * NewDecoder's maxBytes, Decode). A stream that sends no newline is refused there, not held without bound.
 */
const MAX_EVENT_BYTES = 16 * 1024 * 1024;

/**
 * The lines of a JSON watch stream, one event each (the API server writes each event as one line of JSON). Split on
 * the newline byte, which never occurs inside a UTF-8 sequence, so each byte is looked at once; a line past
 * MAX_EVENT_BYTES throws what TOO_LONG makes.
 */
async function* lines(stream: Readable, tooLong: () => Error): AsyncGenerator<string, void, undefined> {
  let pending: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    let start = 0;
    for (let newline = bytes.indexOf(10); newline >= 0; newline = bytes.indexOf(10, start)) {
      if (size + newline - start > MAX_EVENT_BYTES) throw tooLong();
      pending.push(bytes.subarray(start, newline));
      const line = Buffer.concat(pending).toString('utf8').trim();
      pending = [];
      size = 0;
      start = newline + 1;
      if (line !== '') yield line;
    }
    size += bytes.length - start;
    if (size > MAX_EVENT_BYTES) throw tooLong();
    if (start < bytes.length) pending.push(bytes.subarray(start));
  }
  // A stream that ends inside an event was cut, not closed: the event is read again by the next watch.
  if (Buffer.concat(pending).toString('utf8').trim() !== '') {
    throw new Error('the watch stream ended inside an event');
  }
}

function parseEvent(
  line: string,
  kind: ResourceKind,
  context: string,
): { type: string; object: Record<string, unknown> } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new NotJsonError(
      `the server sent a watch event of ${kind.plural} that is not JSON: is a proxy in front of the API server?`,
      { hint: proxyHint(context) },
    );
  }
  const event = value as { type?: unknown; object?: unknown };
  if (typeof event.type !== 'string' || !isRecord(event.object)) {
    throw new UserError(
      `the server sent a watch event of ${kind.plural} without a type and an object: ${shortened(line)}`,
    );
  }
  return { type: event.type, object: event.object };
}

/** How much of a bad event an error shows: as much of a body as kubectl's -v=8 log shows (client-go truncateBody). */
const SHOWN_CHARS = 1024;

function shortened(line: string): string {
  return line.length > SHOWN_CHARS
    ? `${line.slice(0, SHOWN_CHARS)} [truncated ${String(line.length - SHOWN_CHARS)} chars]`
    : line;
}

/** An item or event object as a KubeObject: a built-in list's items lack apiVersion and kind, so they get KIND's. */
function kubeObject(kind: ResourceKind, value: unknown): KubeObject {
  const apiVersion = kind.group === '' ? kind.version : `${kind.group}/${kind.version}`;
  const obj = isRecord(value) ? { apiVersion, kind: kind.kind, ...value } : value;
  if (!isKubeObject(obj)) {
    throw new UserError(`the server sent a ${kind.kind} that is not a Kubernetes object (no metadata.name)`);
  }
  return obj;
}

function versionOf(obj: { metadata?: unknown }): string | undefined {
  const rv = isRecord(obj.metadata) ? obj.metadata.resourceVersion : undefined;
  return typeof rv === 'string' && rv !== '' ? rv : undefined;
}

/** The collection's URL (resourceUrl), with the selectors. */
function collectionUrl(server: string, kind: ResourceKind, opts: WatchOptions): URL {
  const url = resourceUrl(server, kind, opts.namespace);
  if (opts.labelSelector !== undefined) url.searchParams.set('labelSelector', opts.labelSelector);
  if (opts.fieldSelector !== undefined) url.searchParams.set('fieldSelector', opts.fieldSelector);
  return url;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
