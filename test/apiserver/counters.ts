/**
 * Request counters by verb and resource. Every resource request is counted exactly once, when its path has
 * been parsed and before anything can fail it: requests later rejected by a fault, by authentication or
 * authorization, by validation or as not found are counted too. Discovery and other non-resource requests
 * (/api, /apis, /version, /openapi) are not counted. Subresources count as "resource/sub".
 */

export const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;

/** Resources whose create persists nothing; they are not writes. */
const REVIEWS = new Set([
  'selfsubjectaccessreviews',
  'selfsubjectrulesreviews',
  'subjectaccessreviews',
  'localsubjectaccessreviews',
]);

/** One write as the server received and answered it (what writes() counts), for a request log. */
export interface WriteRecord {
  readonly verb: string;
  readonly resource: string;
  /** '' for cluster-scoped objects. */
  readonly namespace: string;
  /** The object's name: from the path, or for a create from the body ('' when the body had none). */
  readonly name: string;
  /** When it was received (process.hrtime.bigint(), as window()). */
  readonly at: bigint;
  /** The answer's status code; 0 when no answer was sent (a dropped connection). */
  readonly status: number;
}

export class RequestCounters {
  private readonly counts = new Map<string, number>();
  private readonly injected = new Map<string, number>();
  private readonly times = new Map<'read' | 'write', { first: bigint; last: bigint }>();
  private readonly writeListeners = new Set<(w: WriteRecord) => void>();

  /**
   * Calls LISTENER with each write once it has been answered, until the returned function is called: a request
   * log of writes, kept by the caller (the server keeps none, so a long run holds no more memory).
   */
  onWrite(listener: (w: WriteRecord) => void): () => void {
    this.writeListeners.add(listener);
    return () => this.writeListeners.delete(listener);
  }

  /** Whether anything listens for writes (the router then reads each write's name and answer). */
  get loggingWrites(): boolean {
    return this.writeListeners.size > 0;
  }

  /** @internal called by the router when a write counted by record() has been answered. */
  recordWrite(w: WriteRecord): void {
    for (const l of this.writeListeners) l(w);
  }

  /** Whether VERB on RESOURCE is a write (as writes() counts them). */
  static isWrite(verb: string, resource: string): boolean {
    return (WRITE_VERBS as readonly string[]).includes(verb) && !REVIEWS.has(resource);
  }

  /** @internal called by the server once per request. */
  record(verb: string, resource: string): void {
    const key = `${verb} ${resource}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const what =
      verb === 'get' || verb === 'list'
        ? 'read'
        : (WRITE_VERBS as readonly string[]).includes(verb) && !REVIEWS.has(resource)
          ? 'write'
          : undefined;
    if (what !== undefined) {
      const now = process.hrtime.bigint();
      this.times.set(what, { first: this.times.get(what)?.first ?? now, last: now });
    }
  }

  /** @internal called by the router when it injects a fault into a request (see faults.ts' pickFault). */
  recordFault(kind: string): void {
    this.injected.set(kind, (this.injected.get(kind) ?? 0) + 1);
  }

  /**
   * The faults injected since the last reset, by kind: the status code answered ('409', '429', '503', ...), 'drop'
   * (the connection closed before the request was served) or 'drop-answer' (served, the answer lost). A test that
   * injects faults reads here whether they landed; the rates alone do not say.
   */
  faults(): Record<string, number> {
    return Object.fromEntries([...this.injected.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /**
   * When the first and the last read (get, list) or write (as writes() counts them) was received, in
   * process.hrtime.bigint() time; undefined before the first.
   */
  window(what: 'read' | 'write'): { readonly first: bigint; readonly last: bigint } | undefined {
    return this.times.get(what);
  }

  get(verb: string, resource: string): number {
    return this.counts.get(`${verb} ${resource}`) ?? 0;
  }

  /** All requests, or those of one verb. */
  total(verb?: string): number {
    let n = 0;
    for (const [key, c] of this.counts) if (verb === undefined || key.startsWith(`${verb} `)) n += c;
    return n;
  }

  /** create/update/patch/delete/deletecollection requests, access reviews excluded (they persist nothing). */
  writes(): number {
    let n = 0;
    for (const [key, c] of this.counts) {
      const [verb = '', resource = ''] = key.split(' ');
      if ((WRITE_VERBS as readonly string[]).includes(verb) && !REVIEWS.has(resource)) n += c;
    }
    return n;
  }

  reset(): void {
    this.counts.clear();
    this.injected.clear();
    this.times.clear();
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}
