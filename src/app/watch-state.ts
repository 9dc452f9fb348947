/**
 * What sync --watch holds in memory and plans against: each watched part's objects by key, kept up to date by the
 * watch's events and by the watch's own writes, and each object's field check, made once.
 */
import { objectKey } from '../kube/meta.js';
import type { KubeObject } from '../kube/types.js';
import type { SnapshotPart } from '../crossplane/validate-input.js';
import type { WatchEvent } from '../port/cluster.js';
import type { OperationResult } from './apply-operations.js';

/** The RBAC kinds sync writes, by the part that watches them (what a write changes in memory). */
export const WRITTEN_PARTS: Readonly<Record<string, SnapshotPart>> = {
  ClusterRole: 'clusterRoles',
  ClusterRoleBinding: 'clusterRoleBindings',
  RoleBinding: 'roleBindings',
};
/** The parts sync writes. */
export const WRITTEN: ReadonlySet<SnapshotPart> = new Set(Object.values(WRITTEN_PARTS));

/**
 * Puts what was just written into the stores, unless a newer version already came back from the watch: the next
 * plan then never writes an object again because its own event is still on its way.
 */
export function rememberWrites(
  stores: ReadonlyMap<SnapshotPart, Map<string, KubeObject>>,
  planned: ReadonlyMap<string, string | undefined>,
  results: readonly OperationResult[],
): void {
  for (const r of results) {
    if (r.error !== undefined || r.notAttempted === true) continue;
    const { object } = r.operation;
    const part = WRITTEN_PARTS[object.kind];
    const store = part !== undefined ? stores.get(part) : undefined;
    if (store === undefined) continue;
    const key = objectKey(object);
    if (store.get(key)?.metadata.resourceVersion !== planned.get(key)) continue;
    if (r.operation.action === 'delete') store.delete(key);
    else store.set(key, object);
  }
}

/** A watch event applied to one kind's objects (CRDs: only their metadata, as sync reads them). */
export function applyEvent(store: Map<string, KubeObject>, event: WatchEvent, metadataOnly: boolean): void {
  const keep = (o: KubeObject): KubeObject =>
    metadataOnly ? { apiVersion: o.apiVersion, kind: o.kind, metadata: o.metadata } : o;
  if (event.type === 'SYNCED') {
    store.clear();
    for (const o of event.objects) store.set(objectKey(o), keep(o));
  } else if (event.type === 'DELETED') store.delete(objectKey(event.object));
  else store.set(objectKey(event.object), keep(event.object));
}
