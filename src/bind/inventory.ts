/**
 * How `bind` finds its bindings again: the inventory labels naming the target (for a RootSync, Config Sync's own),
 * the selector that lists them, and the ownership rule the planner applies to them (`bindOwnership`): a binding is
 * ours when it carries the target's inventory labels, no controller owner reference, and was not installed by Helm.
 */
import { LABEL_MANAGED_BY, MANAGED_BY_VALUE } from '../crossplane/names.js';
import type { Labels } from '../kube/types.js';
import { compareStrings } from '../kube/order.js';
import type { OwnershipRule } from '../plan/plan.js';
import { isSharedBaseBinding, prunesSharedBase, sharedBaseOwnership } from './base-binding.js';
import { refusingHelm } from '../plan/ownership.js';
import {
  CONFIGSYNC_MANAGER_VALUE,
  LABEL_CONFIGSYNC_MANAGED_BY,
  LABEL_SYNC_KIND,
  LABEL_SYNC_NAME,
  LABEL_SYNC_NAMESPACE,
} from './config-sync.js';
import { MAX_LABEL_VALUE_LENGTH } from './role-refs.js';
import {
  describeTarget,
  isBinding,
  type Binding,
  type BindTarget,
  type ServiceAccountRef,
} from './target.js';

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

/**
 * The labels reconciler-manager puts on the bindings of a RootSync's roleRefs and lists them by (kpt-config-sync
 * pkg/reconcilermanager/controllers reconciler_base.go ManagedObjectLabelMap; rootsync_controller.go
 * listCurrentRoleRefs). A name too long for a label value (Config Sync could not label it either) is shortened.
 */
export function configSyncLabels(target: Extract<BindTarget, { kind: 'RootSync' }>): Labels {
  return {
    [LABEL_CONFIGSYNC_MANAGED_BY]: CONFIGSYNC_MANAGER_VALUE,
    [LABEL_SYNC_NAMESPACE]: labelValue(target.namespace),
    [LABEL_SYNC_NAME]: labelValue(target.name),
    [LABEL_SYNC_KIND]: 'RootSync',
  };
}

/**
 * The labels of a binding bind makes for this target; also the inventory a re-run finds them by. For a RootSync:
 * Config Sync's own labels, so that its reconciler-manager finds them as its own, and the plugin's managed-by.
 */
export function inventoryLabels(target: BindTarget): Labels {
  if (target.kind === 'RootSync') {
    return { ...configSyncLabels(target), [LABEL_MANAGED_BY]: MANAGED_BY_VALUE };
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

type Labelled = {
  readonly metadata: {
    readonly labels?: Labels;
    readonly ownerReferences?: readonly { readonly controller?: boolean }[];
  };
};

function hasController(o: Labelled): boolean {
  return (o.metadata.ownerReferences ?? []).some((r) => r.controller === true);
}

function carries(o: Labelled, want: Labels): boolean {
  const labels = o.metadata.labels ?? {};
  return Object.entries(want).every(([k, v]) => labels[k] === v);
}

/**
 * True when the binding is bind's for this target: it carries the target's inventory labels and no controller.
 * Earlier versions of bind labelled a RootSync's bindings `configsync.gke.io/managed-by: kubectl-crossplane-rbac`;
 * those are bind's too, and an update relabels them.
 */
export function isOurBinding(binding: Labelled, target: BindTarget): boolean {
  // bind never sets a controller: a binding someone else controls (an Argo CD Application, say) is theirs,
  // whatever its labels.
  if (hasController(binding)) return false;
  if (carries(binding, inventoryLabels(target))) return true;
  return (
    target.kind === 'RootSync' &&
    carries(binding, {
      ...inventoryLabels(target),
      [LABEL_CONFIGSYNC_MANAGED_BY]: MANAGED_BY_VALUE,
    })
  );
}

/**
 * True when reconciler-manager made the binding for this RootSync (it carries Config Sync's labels of the target,
 * not the plugin's managed-by, and has no controller): bind uses it for its roleRef rather than make a second
 * binding of the same role, and never deletes it.
 */
export function isConfigSyncBinding(binding: Labelled, target: BindTarget): boolean {
  if (target.kind !== 'RootSync' || hasController(binding)) return false;
  return (
    carries(binding, configSyncLabels(target)) &&
    binding.metadata.labels?.[LABEL_MANAGED_BY] !== MANAGED_BY_VALUE
  );
}

/** True when nobody owns the binding: no controller and no managed-by label (the plugin's, Config Sync's, anyone's). */
function isUnowned(binding: Labelled): boolean {
  const labels = binding.metadata.labels ?? {};
  return (
    !hasController(binding) &&
    labels[LABEL_MANAGED_BY] === undefined &&
    labels[LABEL_CONFIGSYNC_MANAGED_BY] === undefined
  );
}

/**
 * True when a subject of the binding is the ServiceAccount itself, as bind writes it. The inventory labels alone do
 * not tell two accounts apart: a name longer than a label value (63 characters) is labelled with a shortened form,
 * and that form is a valid ServiceAccount name of its own, which a tenant who may create accounts in the namespace
 * can take. A binding of another subject is never pruned for this target, whatever its labels.
 */
function namesAccount(binding: Binding, sa: ServiceAccountRef): boolean {
  return (binding.subjects ?? []).some(
    (s) => s.kind === 'ServiceAccount' && s.name === sa.name && s.namespace === sa.namespace,
  );
}

/**
 * Bind's ownership rule for the planner. A live binding with a wanted name may be changed when it is ours
 * (`isOurBinding`); when reconciler-manager made it for this RootSync and bind writes it as Config Sync would
 * (`isConfigSyncBinding`, wanted with Config Sync's labels only); when it is Config Sync's shared base binding
 * (`sharedBaseOwnership`); or, with --adopt, when nobody owns it. Anything else is refused. Pruning deletes only our
 * bindings of this target, and the shared base binding only when the target's reconciler is its last subject. A
 * binding Helm installed is refused and kept whatever its labels (`refusingHelm`). A binding of ours is pruned only
 * when it names the target's ServiceAccount (`namesAccount`).
 */
export function bindOwnership(target: BindTarget): OwnershipRule {
  return refusingHelm({
    owns: (desired, live, adopt) => {
      if (target.kind === 'RootSync' && isSharedBaseBinding(live)) return sharedBaseOwnership(live, adopt);
      if (isOurBinding(live, target)) return { ours: true, adopt: false };
      // Config Sync's binding is written only as Config Sync's (`desiredBindings`), never relabelled as ours.
      const asConfigSyncs = desired.metadata.labels?.[LABEL_MANAGED_BY] !== MANAGED_BY_VALUE;
      if (asConfigSyncs && isConfigSyncBinding(live, target)) return { ours: true, adopt: false };
      const unowned = isUnowned(live);
      if (unowned && adopt) return { ours: true, adopt: true };
      return {
        ours: false,
        reason: `a ${live.kind} with this name exists but lacks the labels of ${describeTarget(target)} (${inventorySelector(target)}); it is not ours, so it is left alone${unowned ? ' (--adopt takes it over)' : ''}`,
      };
    },
    prunes: (live) =>
      isBinding(live) &&
      ((isOurBinding(live, target) && namesAccount(live, target.serviceAccount)) ||
        (target.kind === 'RootSync' && prunesSharedBase(live, target.serviceAccount))),
  });
}
