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

export class RequestCounters {
  private readonly counts = new Map<string, number>();
  private readonly times = new Map<'read' | 'write', { first: bigint; last: bigint }>();

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
    this.times.clear();
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}
