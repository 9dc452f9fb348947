/** What `bind` binds roles to: a Config Sync RootSync's reconciler, or any ServiceAccount. */
import type { ClusterRoleBinding, RbacObject, RoleBinding } from '../kube/types.js';

export type ServiceAccountRef = { namespace: string; name: string };

export type BindTarget =
  | { kind: 'RootSync'; name: string; namespace: string; serviceAccount: ServiceAccountRef }
  | { kind: 'ServiceAccount'; serviceAccount: ServiceAccountRef };

export type Binding = ClusterRoleBinding | RoleBinding;

/** Identifies one binding: its kind, name and (for a RoleBinding) namespace. */
export type BindingRef = { kind: Binding['kind']; name: string; namespace?: string };

/** The target as messages name it: `RootSync NS/NAME` or `ServiceAccount NS/NAME`. */
export function describeTarget(target: BindTarget): string {
  return target.kind === 'RootSync'
    ? `RootSync ${target.namespace}/${target.name}`
    : `ServiceAccount ${target.serviceAccount.namespace}/${target.serviceAccount.name}`;
}

/** True for the binding kinds, the only objects bind writes. */
export function isBinding(o: RbacObject): o is Binding {
  return o.kind === 'ClusterRoleBinding' || o.kind === 'RoleBinding';
}
