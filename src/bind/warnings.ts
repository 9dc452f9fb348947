/**
 * What `bind` warns about the bindings as they are: the account still bound to cluster-admin (not by a binding the
 * run deletes). Roles, namespaces and the account that do not exist are bind's existence check (missing.ts).
 */
import type { ClusterSnapshot } from '../kube/types.js';
import type { Plan } from '../plan/plan.js';
import { findClusterAdminBindings } from './render.js';
import type { ServiceAccountRef } from './target.js';

/** The warnings for ServiceAccount SA given the run's plan. */
export function bindWarnings(sa: ServiceAccountRef, plan: Plan, snapshot: ClusterSnapshot): string[] {
  const refKey = (r: { kind: string; name: string; namespace?: string | undefined }): string =>
    `${r.kind}/${r.namespace ?? ''}/${r.name}`;
  const deleted = new Set(plan.entries.filter((e) => e.action === 'delete').map(refKey));
  const stillBound = findClusterAdminBindings(sa, snapshot).filter((ref) => !deleted.has(refKey(ref)));
  return stillBound.map((ref) => {
    const id =
      ref.namespace !== undefined ? `${ref.kind} ${ref.namespace}/${ref.name}` : `${ref.kind} ${ref.name}`;
    return `ServiceAccount ${sa.namespace}/${sa.name} is still bound to cluster-admin by ${id}: least privilege is moot until that binding is gone`;
  });
}
