/**
 * The object store: one map per group/resource (all versions share it), a global resourceVersion counter,
 * and a bounded event history for watches (forgotten as it fills, compacted as etcd compacts).
 */
import { randomUUID } from 'node:crypto';
import type { ResourceInfo } from './registry.js';

type Obj = Record<string, any>;

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: Obj;
  rv: number;
  storeKey: string;
}

const HISTORY = 2000;

export function storeKeyOf(info: Pick<ResourceInfo, 'group' | 'resource'>): string {
  return `${info.group}/${info.resource}`;
}

export function objectKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

export class Store {
  private readonly data = new Map<string, Map<string, Obj>>();
  private rv = 1;
  /** etcd's compacted revision (compact()): a continue token of an older list snapshot has expired. */
  private compactedRv = 0;
  /**
   * Every event after this resourceVersion is in `history`; those up to it are forgotten, compacted or fallen off
   * the bounded history (as events fall out of kube-apiserver's watch cache window).
   */
  private forgottenRv = 0;
  readonly history: WatchEvent[] = [];
  private readonly listeners = new Set<(e: WatchEvent) => void>();

  currentRv(): number {
    return this.rv;
  }

  /** etcd's compacted revision: a list snapshot older than it cannot be continued. */
  compacted(): number {
    return this.compactedRv;
  }

  /** The newest resourceVersion whose event is forgotten: a watch must start at it or later. */
  forgotten(): number {
    return this.forgottenRv;
  }

  /**
   * Forgets the events up to RV (default: all of them), as etcd's compaction does: a watch from an older
   * resourceVersion, or a list continued from an older snapshot, can no longer be served and answers 410 Expired.
   */
  compact(rv: number = this.rv): number {
    this.compactedRv = Math.max(this.compactedRv, Math.min(rv, this.rv));
    this.forget(this.compactedRv);
    return this.compactedRv;
  }

  private forget(rv: number): void {
    const keep = this.history.findIndex((e) => e.rv > rv);
    this.history.splice(0, keep < 0 ? this.history.length : keep);
    this.forgottenRv = Math.max(this.forgottenRv, rv);
  }

  nextRv(): string {
    this.rv += 1;
    return String(this.rv);
  }

  private bucket(storeKey: string): Map<string, Obj> {
    let b = this.data.get(storeKey);
    if (b === undefined) {
      b = new Map();
      this.data.set(storeKey, b);
    }
    return b;
  }

  get(storeKey: string, namespace: string, name: string): Obj | undefined {
    return this.data.get(storeKey)?.get(objectKey(namespace, name));
  }

  /** Objects in key order (namespace, then name), as etcd returns them; namespace undefined = all. */
  list(storeKey: string, namespace?: string): Obj[] {
    const b = this.data.get(storeKey);
    if (b === undefined) return [];
    const keys = [...b.keys()].sort();
    const out: Obj[] = [];
    for (const k of keys) {
      const o = b.get(k);
      if (o === undefined) continue;
      if (namespace !== undefined && (o.metadata?.namespace ?? '') !== namespace) continue;
      out.push(o);
    }
    return out;
  }

  allStoreKeys(): string[] {
    return [...this.data.keys()];
  }

  /** Stores the object with a fresh resourceVersion (and uid/creationTimestamp when missing). */
  put(storeKey: string, obj: Obj, type: 'ADDED' | 'MODIFIED'): Obj {
    const meta = (obj.metadata ??= {}) as Obj;
    meta.resourceVersion = this.nextRv();
    meta.uid ??= randomUUID();
    meta.creationTimestamp ??= nowTimestamp();
    this.bucket(storeKey).set(objectKey(meta.namespace ?? '', meta.name), obj);
    this.emit({ type, object: obj, rv: this.rv, storeKey });
    return obj;
  }

  remove(storeKey: string, namespace: string, name: string): Obj | undefined {
    const b = this.data.get(storeKey);
    const o = b?.get(objectKey(namespace, name));
    if (b === undefined || o === undefined) return undefined;
    b.delete(objectKey(namespace, name));
    const rv = this.nextRv();
    const gone = structuredClone(o);
    gone.metadata.resourceVersion = rv;
    this.emit({ type: 'DELETED', object: gone, rv: this.rv, storeKey });
    return o;
  }

  /** Every stored object, with its store key. */
  *all(): Generator<[string, Obj]> {
    for (const [k, b] of this.data) for (const o of b.values()) yield [k, o];
  }

  findByUid(uid: string): Obj | undefined {
    for (const [, o] of this.all()) if (o.metadata?.uid === uid) return o;
    return undefined;
  }

  subscribe(fn: (e: WatchEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(e: WatchEvent): void {
    this.history.push(e);
    // The history is bounded: what falls off is forgotten, so a watch from before it answers 410, never a gap.
    const oldest = this.history[this.history.length - HISTORY - 1];
    if (oldest !== undefined) this.forget(oldest.rv);
    for (const l of this.listeners) l(e);
  }
}

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function nowTimestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}
