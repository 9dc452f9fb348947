/** The ownership rule: which live objects a run may change or prune, and why it leaves the others alone. */
import type { KubeObject, OwnerReference, RbacObject } from '../kube/types.js';
import { LABEL_MANAGED_BY, MANAGED_BY_VALUE } from '../crossplane/names.js';
import { isInPruneScope, type PruneScope } from '../crossplane/owned-objects.js';

/** Whether a live object is the caller's to change, and if not, why it is left alone. */
export type Ownership =
  { readonly ours: true; readonly adopt: boolean } | { readonly ours: false; readonly reason: string };

/** The ownership rule a plan is made with: which live objects the caller may change, and which it may prune. */
export interface OwnershipRule {
  /** Whether LIVE, the live object with the key of DESIRED, may be changed; `adopt` is the --adopt flag. */
  readonly owns: (desired: RbacObject, live: RbacObject, adopt: boolean) => Ownership;
  /** Whether pruning deletes LIVE, a live object no longer desired. */
  readonly prunes: (live: RbacObject) => boolean;
}

// ---- Helm (helm/helm pkg/action/validate.go@0a0eaff3da1ac671894fdc39c616834836bfd38b, Helm 3) ----
// setMetadataVisitor writes the managed-by label and both release annotations on every object a release installs;
// charts add `helm.sh/chart` themselves (Crossplane's: cluster/charts/crossplane/templates/_helpers.tpl
// crossplane.labels). The annotations and the chart label survive a managed-by label rewritten to the plugin's.
const HELM_RELEASE_NAME_ANNOTATION = 'meta.helm.sh/release-name';
const HELM_RELEASE_NAMESPACE_ANNOTATION = 'meta.helm.sh/release-namespace';
const HELM_CHART_LABEL = 'helm.sh/chart';
const HELM_MANAGED_BY_VALUE = 'Helm';

/**
 * How O shows that a Helm release installed it (its release annotations, the `helm.sh/chart` label or
 * `app.kubernetes.io/managed-by: Helm`), or undefined when nothing does. Such an object is never the plugin's,
 * whatever other labels it carries: Helm would put it back, and pruning it would delete a chart's object.
 */
export function helmInstalled(o: KubeObject): string | undefined {
  const annotations = o.metadata.annotations ?? {};
  const labels = o.metadata.labels ?? {};
  const release = annotations[HELM_RELEASE_NAME_ANNOTATION];
  const releaseNs = annotations[HELM_RELEASE_NAMESPACE_ANNOTATION];
  if (release !== undefined || releaseNs !== undefined) {
    return `release "${release ?? ''}" in namespace "${releaseNs ?? ''}"`;
  }
  const chart = labels[HELM_CHART_LABEL];
  if (chart !== undefined) return `chart "${chart}"`;
  if (labels[LABEL_MANAGED_BY] === HELM_MANAGED_BY_VALUE)
    return `${LABEL_MANAGED_BY}=${HELM_MANAGED_BY_VALUE}`;
  return undefined;
}

function helmRefusal(by: string): Ownership {
  return {
    ours: false,
    reason: `installed by Helm (${by}); the plugin never changes or prunes what Helm installed, whatever its labels, and --adopt does not take it over`,
  };
}

/** RULE, except that an object Helm installed is never the caller's to change or prune (see `helmInstalled`). */
export function refusingHelm(rule: OwnershipRule): OwnershipRule {
  return {
    owns: (desired, live, adopt) => {
      const by = helmInstalled(live);
      return by !== undefined ? helmRefusal(by) : rule.owns(desired, live, adopt);
    },
    prunes: (live) => helmInstalled(live) === undefined && rule.prunes(live),
  };
}

export function isOwned(o: KubeObject): boolean {
  return o.metadata.labels?.[LABEL_MANAGED_BY] === MANAGED_BY_VALUE;
}

export function controllerOf(o: KubeObject): OwnerReference | undefined {
  // Stryker disable next-line ArrayDeclaration: a list of a string finds no controller either
  return (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);
}

/** The owner kinds the plugin ever sets as controller: Crossplane's and the Namespace's. */
const PLUGIN_CONTROLLER_KINDS: ReadonlySet<string> = new Set([
  'pkg.crossplane.io/ProviderRevision',
  'apiextensions.crossplane.io/CompositeResourceDefinition',
  '/Namespace',
]);

function groupOf(apiVersion: string): string {
  // Stryker disable next-line StringLiteral: split always yields a first part, so the ?? '' fallback is never taken
  return apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';
}

export function sameOwner(a: OwnerReference, b: OwnerReference): boolean {
  return (
    a.kind === b.kind &&
    a.name === b.name &&
    a.uid === b.uid &&
    groupOf(a.apiVersion) === groupOf(b.apiVersion)
  );
}

function describeOwner(r: OwnerReference): string {
  return `${r.kind} "${r.name}" (uid ${r.uid})`;
}

/**
 * Whether the live object is the plugin's to change: its controller owner reference is exactly the one the plugin
 * would set (same kind, name and uid), or it has no controller and carries the plugin's managed-by label. An object
 * nobody owns (no label, no controller) is taken over only with --adopt. Anything else is refused, untouched, and so
 * is anything Helm installed, even with the plugin's label or --adopt.
 */
export function ownership(desired: RbacObject, live: RbacObject, adopt: boolean): Ownership {
  const helm = helmInstalled(live);
  if (helm !== undefined) return helmRefusal(helm);
  const liveCtrl = controllerOf(live);
  const wantCtrl = controllerOf(desired);
  if (liveCtrl !== undefined) {
    if (wantCtrl !== undefined && sameOwner(liveCtrl, wantCtrl)) return { ours: true, adopt: false };
    const want = wantCtrl !== undefined ? `controller ${describeOwner(wantCtrl)}` : `no controller`;
    return {
      ours: false,
      reason: `controlled by ${describeOwner(liveCtrl)}; the plugin would write it with ${want}`,
    };
  }
  if (isOwned(live)) return { ours: true, adopt: false };
  if (adopt) return { ours: true, adopt: true };
  const want =
    wantCtrl !== undefined
      ? `controller ${describeOwner(wantCtrl)}`
      : `${LABEL_MANAGED_BY}=${MANAGED_BY_VALUE}`;
  return {
    ours: false,
    reason: `exists, made by someone else (no ${LABEL_MANAGED_BY}=${MANAGED_BY_VALUE} label, no controller); the plugin would write it with ${want} (--adopt takes it over)`,
  };
}

/**
 * True when pruning may delete this live object: labelled by the plugin, no controller but one the plugin sets, and
 * not installed by Helm (a chart's object with a forged or copied label stays).
 */
export function isPrunable(live: KubeObject): boolean {
  if (!isOwned(live) || helmInstalled(live) !== undefined) return false;
  const ctrl = controllerOf(live);
  return ctrl === undefined || PLUGIN_CONTROLLER_KINDS.has(`${groupOf(ctrl.apiVersion)}/${ctrl.kind}`);
}

/** Whether pruning deletes LIVE, an object no longer desired: the plugin's to prune, and in the run's prune scope. */
export function wouldPrune(live: KubeObject, pruneScope: PruneScope | undefined): boolean {
  return isPrunable(live) && (pruneScope === undefined || isInPruneScope(live, pruneScope));
}

/** The plugin's ownership rule (`ownership`, `wouldPrune`), pruning only in `pruneScope` when it is set. */
export function pluginOwnership(pruneScope?: PruneScope): OwnershipRule {
  return { owns: ownership, prunes: (live) => wouldPrune(live, pruneScope) };
}
