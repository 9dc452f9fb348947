/**
 * A long-running watch's garbage, collected when the watch is idle. Each reconcile plans the whole state again and
 * leaves its garbage behind; V8 lets such garbage pile up in the old generation as long as its heap limit allows
 * (the watch bench measured its RSS 37% higher in the last hour-equivalent than in the first, while a run under
 * `--max-old-space-size=160` stayed within 4%: the live set is bounded). A fixed heap cap would crash a cluster ten
 * times larger; a full collection asked for after a reconcile cannot kill the process, and costs about what the
 * reconcile did (both are proportional to the state held).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** What this uses of bun's API: a synchronous full collection (bun's docs: `Bun.gc(true)`). */
interface BunGc {
  gc(force: boolean): void;
}

/**
 * A full, synchronous garbage collection of this runtime, or undefined where none can be asked for. In Node, `gc` is
 * exposed at run time (V8's --expose-gc flag, read when a context is created: a new context has it).
 */
export function fullCollection(): (() => void) | undefined {
  const bun = (globalThis as { Bun?: BunGc }).Bun;
  if (bun !== undefined) {
    return () => {
      bun.gc(true);
    };
  }
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    if (typeof gc !== 'function') return undefined;
    return () => {
      (gc as () => void)();
    };
  } catch {
    return undefined;
  }
}

/**
 * Called when the watch has reconciled and waits for the next change: collects once the heap in use has grown more
 * than GROWTH (a fraction) past what the last collection left, as Go's GOGC paces its collector. A reconcile that
 * left little garbage costs nothing; one that left much is followed by a collection at once, before the next change.
 */
export function idleCollector(collect: () => void, heapUsed: () => number, growth: number): () => void {
  let live: number | undefined;
  return () => {
    if (live !== undefined && heapUsed() <= live * (1 + growth)) return;
    collect();
    live = heapUsed();
  };
}
