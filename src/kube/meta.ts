/** What every object's metadata says about it, whatever its kind. */
import type { KubeObject, ObjectMeta, OwnerReference } from './types.js';

/** A stable identity for an object: `Kind/name` or `Kind/namespace/name`. */
export function objectKey(o: {
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string | undefined };
}): string {
  const ns = o.metadata.namespace;
  return ns !== undefined && ns !== ''
    ? `${o.kind}/${ns}/${o.metadata.name}`
    : `${o.kind}/${o.metadata.name}`;
}

/** The object is being deleted (it has a deletionTimestamp; a null one, as some tools write, means it is not). */
export function isDeleting(o: { readonly metadata: Pick<ObjectMeta, 'deletionTimestamp'> }): boolean {
  const t: unknown = o.metadata.deletionTimestamp;
  return t !== undefined && t !== null;
}

/** The object's controller: the owner reference with `controller: true` (at most one, as apimachinery validates). */
export function controllerOf(o: Pick<KubeObject, 'metadata'>): OwnerReference | undefined {
  // Stryker disable next-line ArrayDeclaration: a list of a string finds no controller either
  return (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);
}

/** The API group of an apiVersion (`group/version`; the core group's `v1` has none, so ''). */
export function groupOf(apiVersion: string): string {
  // Stryker disable next-line StringLiteral: split always yields a first part, so the ?? '' fallback is never taken
  return apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';
}
