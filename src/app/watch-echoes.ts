/**
 * The echoes of sync --watch's own writes: each write it makes comes back as a watch event, and an event whose object
 * is exactly what was written (kube/as-written.ts) tells the watch nothing it does not know: it starts no reconcile.
 * Anything else (another writer's change, a write the server changed as it stored it, an echo that cannot be told
 * apart) starts one, as before: a missed echo costs one reconcile that finds nothing to do, never a missed change.
 */
import { isAsWritten } from '../kube/as-written.js';
import { objectKey } from '../kube/meta.js';
import type { KubeObject } from '../kube/types.js';
import type { OperationResult } from './apply-operations.js';

/** A watch event of an object (ADDED, MODIFIED or DELETED). */
export interface ObjectEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: KubeObject;
}

export class WatchEchoes<T extends ObjectEvent> {
  /** What the last writes left each object as (null: deleted), until an event of that object comes. */
  private readonly written = new Map<string, KubeObject | null>();
  /** Events that came while writes were in flight: judged once the writes are known. */
  private held: T[] | undefined;

  /**
   * Whether EVENT may start a reconcile: false for the echo of a write, and while writes are in flight (the event
   * is held: `writesDone` returns it unless it is the echo of one of them). Any event of an object ends the wait
   * for that object's echo.
   */
  takes(event: T): boolean {
    if (this.isEcho(event)) return false;
    if (this.held !== undefined) {
      this.held.push(event);
      return false;
    }
    return true;
  }

  /** Writes are about to start: events are held until `writesDone`. */
  writing(): void {
    this.held ??= [];
  }

  /**
   * The writes are done (RESULTS: only the successful ones count): remembers what each one left, and returns the
   * events held meanwhile that are not their echoes, in the order they came.
   */
  writesDone(results: readonly OperationResult[]): T[] {
    for (const r of results) {
      if (r.error !== undefined || r.notAttempted === true) continue;
      const { action, object } = r.operation;
      // A recreate is two events (the delete, then the create), a patch's result is the server's: not echoes.
      if (action === 'create' || action === 'update') this.written.set(keyOf(object), object);
      else if (action === 'delete') this.written.set(keyOf(object), null);
    }
    const held = this.held ?? [];
    this.held = undefined;
    return held.filter((e) => !this.isEcho(e));
  }

  /** Whether EVENT is the echo of the last write of its object; any event of the object ends the wait for it. */
  private isEcho(event: T): boolean {
    const key = keyOf(event.object);
    if (!this.written.has(key)) return false;
    const written = this.written.get(key);
    this.written.delete(key);
    if (event.type === 'DELETED') return written === null;
    return written != null && isAsWritten(written, event.object);
  }
}

function keyOf(o: KubeObject): string {
  return `${o.kind}/${objectKey(o)}`;
}
