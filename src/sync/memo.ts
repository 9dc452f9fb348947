/**
 * What sync keeps from one plan to the next when it plans again and again against a state that changes a little at a
 * time (`sync --watch`): each owner's rendered roles by the objects they were rendered from, and each planned
 * object's comparison by the desired and live objects compared. Everything is keyed weakly by those objects, never
 * by a name, uid or resourceVersion: an entry goes when the watch lets its object go (a deleted or replaced owner, a
 * role rendered again), so the memo holds no more than the state itself. A memo only ever answers what the full
 * computation would: an entry is used only when every object it was computed from is the very same object.
 */
import type { ClusterRole, Deployment, ProviderRevision, Xrd } from '../kube/types.js';
import type { ProviderBindings, ProviderBindingScope } from '../crossplane/provider/bindings.js';
import type { GranularRule } from '../crossplane/provider/permission-requests.js';
import type { PlanMemo } from '../plan/plan.js';

/** An XRD's roles and why they are privileged, as rendered for one Crossplane version. */
interface XrdEntry {
  readonly version: string | undefined;
  readonly allowPrivileged: boolean;
  readonly roles: ClusterRole[];
  readonly privileged: string | undefined;
}

/** A revision's roles, as rendered from its family (these very objects) and the policy's inputs. */
interface RevisionEntry {
  readonly members: readonly ProviderRevision[];
  readonly version: string | undefined;
  readonly providerClusterRole: ClusterRole | undefined;
  readonly allowPrivileged: boolean;
  readonly out: { roles: ClusterRole[]; rejected: GranularRule[] };
  readonly privileged: string | undefined;
}

/** A revision's bindings, as rendered from the Deployments it owns (these very objects) in one binding scope. */
interface BindingsEntry {
  readonly scope: ProviderBindingScope | undefined;
  readonly deployments: readonly Deployment[];
  readonly out: ProviderBindings;
}

export interface SyncMemo {
  readonly xrds: WeakMap<Xrd, XrdEntry>;
  readonly revisions: WeakMap<ProviderRevision, RevisionEntry>;
  readonly bindings: WeakMap<ProviderRevision, BindingsEntry>;
  readonly plan: PlanMemo;
}

export function newSyncMemo(): SyncMemo {
  return { xrds: new WeakMap(), revisions: new WeakMap(), bindings: new WeakMap(), plan: new WeakMap() };
}

/** The same objects in the same order (by identity). */
export function sameObjects(a: readonly object[], b: readonly object[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
