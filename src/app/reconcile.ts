/**
 * What `sync --watch` reports as it goes, as data (the CLI prints it: one line, or one JSON object, per reconcile).
 * A leaf module: deps.ts names these types for AppDeps.onProgress, sync-watch.ts produces them.
 */
import type { Warning } from './warning.js';

/** A change a watch saw: the object, and what happened to it. */
export interface WatchChange {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string | undefined;
  /**
   * added, modified, deleted; listed: the first list; relisted: a list after the server forgot the watch (410);
   * retried: no change, the writes of the reconcile before failed (kind and name are empty).
   */
  readonly change: 'added' | 'modified' | 'deleted' | 'listed' | 'relisted' | 'retried';
}

/** One reconcile: what set it off, and what it wrote. */
export interface Reconcile {
  /** 1 for the reconcile after the first list, then counting. */
  readonly number: number;
  /** When it ended (ms since the epoch), and how long it took (planning and writing). */
  readonly at: number;
  readonly tookMs: number;
  /** The first change of the batch it reconciled, and how many changes the batch held in all. */
  readonly trigger: WatchChange;
  readonly changes: number;
  /**
   * applied: planned and written (or nothing to write); denied: the pre-flight found missing permissions, nothing
   * written; declined: the user said no to the first writes; failed: the state could not be planned (an invalid
   * object), nothing written.
   */
  readonly status: 'applied' | 'denied' | 'declined' | 'failed';
  readonly created: number;
  readonly updated: number;
  readonly deleted: number;
  /** Writes that failed (`Kind "name": message`), and writes a Ctrl-C left unstarted. */
  readonly failed: readonly string[];
  readonly notStarted: number;
  /** Owners left untouched (`Kind "name": why`) and objects refused (`key: why`): the loop goes on around them. */
  readonly held: readonly string[];
  readonly refused: readonly string[];
  /** With status denied: the missing permissions; with failed: why. */
  readonly problems: readonly string[];
  /** What else sync reported (the renderer's warnings, skipped owners, adopted objects), as data. */
  readonly warnings: readonly Warning[];
  /** Whether a Ctrl-C stopped its writes. */
  readonly interrupted: boolean;
  /** When some writes failed: the wait before the watch reconciles again, with no change needed (client-go's). */
  readonly retryInMs?: number | undefined;
  /** A reconcile set off by failed writes: how many reconciles in a row have failed before it. */
  readonly retry?: number | undefined;
}

/** What a watch reports besides its reconciles. */
export type WatchProgress =
  | { readonly type: 'reconciled'; readonly reconcile: Reconcile }
  | { readonly type: 'watching'; readonly kinds: readonly string[]; readonly objects: number }
  | {
      readonly type: 'reconnecting';
      /** Why the connection was given up (the server gone). */
      readonly reason: string;
      readonly inMs: number;
    }
  | { readonly type: 'unwatched'; readonly kind: string; readonly reason: string };
