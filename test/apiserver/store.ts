/**
 * The object store: one map per group/resource (all versions share it), a global resourceVersion counter,
 * and a bounded event history for watches.
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
  readonly history: WatchEvent[] = [];
  private readonly listeners = new Set<(e: WatchEvent) => void>();

  currentRv(): number {
    return this.rv;
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
    if (this.history.length > HISTORY) this.history.splice(0, this.history.length - HISTORY);
    for (const l of this.listeners) l(e);
  }
}

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function nowTimestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}
