/**
 * How `bind` finds its bindings again: the inventory labels naming the target, the selector that lists them, and
 * the ownership rule the planner applies to them (`bindOwnership`): a binding is ours when it carries the
 * target's inventory labels, no controller owner reference, and was not installed by Helm.
 */
import { LABEL_MANAGED_BY, MANAGED_BY_VALUE } from '../crossplane/names.js';
import type { Labels } from '../kube/types.js';
import { compareStrings } from '../kube/order.js';
import type { OwnershipRule } from '../plan/plan.js';
import { refusingHelm } from '../plan/ownership.js';
import {
  LABEL_CONFIGSYNC_MANAGED_BY,
  LABEL_SYNC_KIND,
  LABEL_SYNC_NAME,
  LABEL_SYNC_NAMESPACE,
} from './config-sync.js';
import { MAX_LABEL_VALUE_LENGTH } from './role-refs.js';
import { describeTarget, isBinding, type BindTarget } from './target.js';

/** Our labels naming the ServiceAccount a `bind --service-account` binding belongs to. */
export const LABEL_BIND_SA_NAMESPACE = 'kubectl-crossplane-rbac/service-account-namespace';
export const LABEL_BIND_SA_NAME = 'kubectl-crossplane-rbac/service-account-name';

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** 32-bit FNV-1a over the UTF-16 code units of `s`, as 8 lower-case hex digits. */
export function fnv1a32(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** `s` when it is a valid label value, else a shortened valid form with a hash of the whole value. */
export function labelValue(s: string): string {
  if (s.length <= MAX_LABEL_VALUE_LENGTH && LABEL_VALUE.test(s)) return s;
  const hash = fnv1a32(s);
  const head = s
    .replace(/[^-A-Za-z0-9_.]+/g, '-')
    .slice(0, MAX_LABEL_VALUE_LENGTH - hash.length - 1)
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/[^A-Za-z0-9]+$/, '');
  return head === '' ? hash : `${head}-${hash}`;
}

/** The labels that mark a binding as ours for this target; also the inventory a re-run finds them by. */
export function inventoryLabels(target: BindTarget): Labels {
  if (target.kind === 'RootSync') {
    return {
      [LABEL_SYNC_KIND]: 'RootSync',
      [LABEL_SYNC_NAME]: labelValue(target.name),
      [LABEL_SYNC_NAMESPACE]: labelValue(target.namespace),
      [LABEL_CONFIGSYNC_MANAGED_BY]: MANAGED_BY_VALUE,
      [LABEL_MANAGED_BY]: MANAGED_BY_VALUE,
    };
  }
  return {
    [LABEL_MANAGED_BY]: MANAGED_BY_VALUE,
    [LABEL_BIND_SA_NAMESPACE]: labelValue(target.serviceAccount.namespace),
    [LABEL_BIND_SA_NAME]: labelValue(target.serviceAccount.name),
  };
}

/** The label selector (`k=v,…`) that lists our bindings for this target. */
export function inventorySelector(target: BindTarget): string {
  return Object.entries(inventoryLabels(target))
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

/** True when the binding carries every inventory label of this target. */
export function isOurBinding(
  binding: {
    readonly metadata: {
      readonly labels?: Labels;
      readonly ownerReferences?: readonly { readonly controller?: boolean }[];
    };
  },
  target: BindTarget,
): boolean {
  // bind never sets a controller: a binding someone else controls (an Argo CD Application, say) is theirs,
  // whatever its labels.
  if ((binding.metadata.ownerReferences ?? []).some((r) => r.controller === true)) return false;
  const labels = binding.metadata.labels ?? {};
  return Object.entries(inventoryLabels(target)).every(([k, v]) => labels[k] === v);
}

/**
 * Bind's ownership rule for the planner: a live binding with a wanted name is ours to change only if
 * `isOurBinding`; anything else is refused. Pruning deletes only our bindings of this target (bind never adopts).
 * A binding Helm installed is refused and kept whatever its labels (`refusingHelm`).
 */
export function bindOwnership(target: BindTarget): OwnershipRule {
  return refusingHelm({
    owns: (_desired, live) =>
      isOurBinding(live, target)
        ? { ours: true, adopt: false }
        : {
            ours: false,
            reason: `a ${live.kind} with this name exists but lacks the labels of ${describeTarget(target)} (${inventorySelector(target)}); it is not ours, so it is left alone`,
          },
    prunes: (live) => isBinding(live) && isOurBinding(live, target),
  });
}
