// Deterministic ids, times and orders: the same input gives the same example files in every run.
import { createHash } from 'node:crypto';
import { compareStrings } from '../../src/kube/order.js';
import type { ObjectMeta } from '../../src/kube/types.js';

/** A name-based (version 5 style) UUID: the same input gives the same uid in every run. */
export function uid(...parts: readonly string[]): string {
  const h = createHash('sha1')
    .update(`kubectl-crossplane-rbac/examples\u0000${parts.join('\u0000')}`)
    .digest();
  h[6] = ((h[6] ?? 0) & 0x0f) | 0x50;
  h[8] = ((h[8] ?? 0) & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** The 12 hex digits Crossplane appends to a package name to name a revision (here from the image). */
export function revisionHash(image: string): string {
  return createHash('sha256').update(image).digest('hex').slice(0, 12);
}

export const CLUSTER_CREATED = '2025-09-01T08:00:00Z';
export const CROSSPLANE_INSTALLED = '2025-11-04T09:15:00Z';
export const PROVIDERS_INSTALLED = '2025-11-04T09:20:00Z';
export const PROVIDERS_UPGRADED = '2026-01-12T14:05:00Z';
export const XRDS_CREATED = '2026-01-20T10:30:00Z';
export const PROVIDER_INSTALLING = '2026-01-21T08:40:00Z';
export const COMPOSITIONS_CREATED = '2026-01-20T10:45:00Z';
export const XRS_CREATED = '2026-01-22T09:10:00Z';

export const CROSSPLANE_NS = 'crossplane-system';

/** Objects in namespace/name order. */
export function byName(a: { readonly metadata: ObjectMeta }, b: { readonly metadata: ObjectMeta }): number {
  return compareStrings(
    `${a.metadata.namespace ?? ''}/${a.metadata.name}`,
    `${b.metadata.namespace ?? ''}/${b.metadata.name}`,
  );
}
