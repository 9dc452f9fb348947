import type { BindPlan, Binding, BindingRef } from './render.js';
import type { Plan, PlanAction, PlanEntry } from '../plan/plan.js';
import { compareStrings } from '../kube/order.js';
import { objectKey } from '../kube/meta.js';

const KIND_RANK: Readonly<Record<Binding['kind'], number>> = { ClusterRoleBinding: 0, RoleBinding: 1 };

function base(ref: BindingRef): Pick<PlanEntry, 'key' | 'kind' | 'name' | 'namespace'> {
  const meta =
    ref.namespace !== undefined ? { name: ref.name, namespace: ref.namespace } : { name: ref.name };
  return {
    key: objectKey({ kind: ref.kind, metadata: meta }),
    kind: ref.kind,
    name: ref.name,
    ...(ref.namespace !== undefined ? { namespace: ref.namespace } : {}),
  };
}

function refOf(b: Binding): BindingRef {
  const ns = b.metadata.namespace;
  return b.kind === 'RoleBinding' && ns !== undefined && ns !== ''
    ? { kind: b.kind, name: b.metadata.name, namespace: ns }
    : { kind: b.kind, name: b.metadata.name };
}

function byKindAndKey(a: PlanEntry, b: PlanEntry): number {
  const ka = a.kind === 'ClusterRoleBinding' || a.kind === 'RoleBinding' ? KIND_RANK[a.kind] : 2;
  const kb = b.kind === 'ClusterRoleBinding' || b.kind === 'RoleBinding' ? KIND_RANK[b.kind] : 2;
  return ka - kb || compareStrings(a.key, b.key);
}

/**
 * The plan of `bind` in the shape the write flow presents and applies: creates, updates, unchanged and refused
 * entries sorted by kind and key, then the deletes (with their uid preconditions) last.
 */
export function planFromBind(plan: BindPlan): Plan {
  const entries: PlanEntry[] = [
    ...plan.creates.map((b): PlanEntry => ({ action: 'create', ...base(refOf(b)), object: b })),
    ...plan.updates.map((u): PlanEntry => ({
      action: 'update',
      ...base(refOf(u.object)),
      object: u.object,
      live: u.live,
      changed: u.changes,
    })),
    ...plan.unchanged.map((b): PlanEntry => ({ action: 'unchanged', ...base(refOf(b)), live: b })),
    ...plan.refused.map((r): PlanEntry => ({ action: 'refused', ...base(r.ref), reason: r.reason })),
  ].sort(byKindAndKey);
  const deletes = plan.deletes
    .map((d): PlanEntry => ({
      action: 'delete',
      ...base(d.ref),
      live: d.live,
      ...(d.uid !== undefined ? { uid: d.uid } : {}),
      ...(d.live.metadata.resourceVersion !== undefined
        ? { resourceVersion: d.live.metadata.resourceVersion }
        : {}),
    }))
    .sort(byKindAndKey);
  const all = [...entries, ...deletes];
  const counts: Record<PlanAction, number> = { create: 0, update: 0, unchanged: 0, delete: 0, refused: 0 };
  for (const e of all) counts[e.action] += 1;
  return { entries: all, counts };
}
