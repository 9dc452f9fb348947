/**
 * What `bind` warns about the bindings as they are: the account still bound to cluster-admin (not by a binding
 * the run deletes), and roles its bindings refer to that do not exist.
 */
import type { ClusterSnapshot } from '../kube/types.js';
import type { Plan } from '../plan/plan.js';
import { findClusterAdminBindings } from './render.js';
import type { Binding, ServiceAccountRef } from './target.js';

/**
 * The warnings for ServiceAccount SA given the bindings that grant it a role (`granting`) and the run's plan.
 * A missing Role is reported only from files (`fromFiles`): from a cluster, bind reads only the Roles it binds.
 */
export function bindWarnings(
  sa: ServiceAccountRef,
  granting: readonly Binding[],
  plan: Plan,
  snapshot: ClusterSnapshot,
  fromFiles: boolean,
): string[] {
  const refKey = (r: { kind: string; name: string; namespace?: string | undefined }): string =>
    `${r.kind}/${r.namespace ?? ''}/${r.name}`;
  const deleted = new Set(plan.entries.filter((e) => e.action === 'delete').map(refKey));
  const stillBound = findClusterAdminBindings(sa, snapshot).filter((ref) => !deleted.has(refKey(ref)));
  const out = stillBound.map((ref) => {
    const id =
      ref.namespace !== undefined ? `${ref.kind} ${ref.namespace}/${ref.name}` : `${ref.kind} ${ref.name}`;
    return `ServiceAccount ${sa.namespace}/${sa.name} is still bound to cluster-admin by ${id}: least privilege is moot until that binding is gone`;
  });
  const clusterRoles = new Set(snapshot.clusterRoles.map((r) => r.metadata.name));
  const roles = new Set(
    snapshot.others
      .filter((o) => o.kind === 'Role')
      .map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`),
  );
  const missing = new Set<string>();
  for (const b of granting) {
    if (b.roleRef.kind === 'ClusterRole' && !clusterRoles.has(b.roleRef.name)) {
      missing.add(`ClusterRole ${b.roleRef.name}`);
    } else if (b.roleRef.kind === 'Role' && fromFiles) {
      const ns = b.metadata.namespace ?? '';
      if (!roles.has(`${ns}/${b.roleRef.name}`)) missing.add(`Role ${ns}/${b.roleRef.name}`);
    }
  }
  for (const m of missing) out.push(`${m} does not exist: its binding grants nothing until it does`);
  return out;
}
