import { isDeleting } from '../kube/meta.js';
import { UsageError, UserError } from '../errors.js';
import type { PlanEntry } from '../plan/plan.js';
import type { EnableXrdPlan } from '../enable-xrd/plan.js';
import type { ClusterSnapshot, KubeObject, LabelSelector, Namespace } from '../kube/types.js';
import type { Operation } from './apply-operations.js';
import type { Cluster } from '../port/cluster.js';
import type { AppDeps } from './deps.js';
import { readInput, type Input, type InputSource } from './read-input.js';
import { renderDesired } from './sync.js';
import { writePlan, type WriteOptions, type WriteOutcome } from './write.js';

/** Which XRDs, in which namespaces: names (-n), or a label selector (-l). */
export interface Selection {
  readonly xrds: readonly string[];
  readonly namespaces: readonly string[];
  readonly selector: LabelSelector | undefined;
}

export interface EnableXrdRunOptions extends Selection {
  readonly source: InputSource;
  /** The -l text as given, for messages. */
  readonly selectorText: string;
  /** false: --disable. */
  readonly enable: boolean;
  /** -i: choose what the flags did not say, preview, confirm. */
  readonly interactive: boolean;
  /** Sync the namespaces' edit/view roles (--no-sync: only annotate). */
  readonly sync: boolean;
  readonly adopt: boolean;
  readonly allowPrivileged: boolean;
  readonly write: WriteOptions;
}

/**
 * `enable-xrd`: annotate the namespaces with the XRDs they may use and sync their crossplane-ns-<ns>-edit/view
 * roles. The Namespace patches are written first (pre-writes), then the roles' plan.
 */
export async function runEnableXrd(options: EnableXrdRunOptions, deps: AppDeps): Promise<WriteOutcome> {
  const input = await readInput(options.source, deps, [
    'xrds',
    'namespaces',
    'deployments',
    'clusterRoles',
    'configMaps',
    'crdOwners',
  ]);
  for (const i of input.invalidOwners) {
    if (options.xrds.includes(i.object.metadata.name)) {
      throw new UserError(
        `${i.origin}: CompositeResourceDefinition "${i.object.metadata.name}": ${i.problem}`,
        {
          hint: 'fix the XRD first: the plugin never renders roles from an invalid one',
        },
      );
    }
  }
  const { planEnableXrd } = await import('../enable-xrd/plan.js');
  const given =
    options.namespaces.length === 0 &&
    options.selector === undefined &&
    !options.interactive &&
    input.cluster !== undefined
      ? { ...options, namespaces: [contextNamespace(deps, input.cluster, options.enable)] }
      : options;
  const chosen = options.interactive ? await choose(deps, input.snapshot, given) : given;
  const nsPlan = planEnableXrd(input.snapshot, {
    xrds: chosen.xrds,
    enable: options.enable,
    ...(chosen.selector !== undefined
      ? { selector: chosen.selector, selectorText: options.selectorText }
      : { namespaces: chosen.namespaces }),
  });
  return applyNamespaces(deps, options, input, nsPlan);
}

/**
 * With no -n, -l or -i: the namespace the kubeconfig context names, said before the plan and the prompt. enable-xrd
 * grants access there, so it never falls back to "default" as kubectl's reads do: a context without a namespace is
 * refused.
 */
function contextNamespace(deps: AppDeps, cluster: Cluster, enable: boolean): string {
  if (cluster.namespaceSource !== 'context') {
    throw new UsageError('no namespace given: pass -n NAMESPACE... or -l SELECTOR', {
      hint: `the context names no namespace, and enable-xrd grants access: it does not fall back to "default" (${cluster.describe})`,
    });
  }
  deps.warn({
    kind: 'context-namespace',
    enable,
    namespace: cluster.defaultNamespace,
    cluster: cluster.describe,
  });
  return cluster.defaultNamespace;
}

/** -i: asks for what the flags did not say (TTY only; checkFlags made sure). */
async function choose(deps: AppDeps, snapshot: ClusterSnapshot, given: Selection): Promise<Selection> {
  const { eligibleXrds } = await import('../enable-xrd/plan.js');
  const { enabledXrdsOf } = await import('../crossplane/namespace/roles.js');
  let xrds = given.xrds;
  if (xrds.length === 0) {
    const names = eligibleXrds(snapshot.xrds);
    if (names.length === 0)
      throw new UserError('no CompositeResourceDefinition offers claims or namespaced XRs');
    xrds = await deps.choose(
      'CompositeResourceDefinitions',
      names.map((n) => ({ name: n, value: n })),
    );
  }
  if (given.namespaces.length > 0 || given.selector !== undefined) return { ...given, xrds };
  const choices = snapshot.namespaces
    .filter((n) => !isDeleting(n))
    .map((n) => {
      const on = enabledXrdsOf(n).filter((x) => xrds.includes(x));
      const note = on.length > 0 ? ` (enables ${on.join(', ')})` : '';
      return { name: `${n.metadata.name}${note}`, value: n.metadata.name };
    });
  if (choices.length === 0) throw new UserError('there are no namespaces');
  const namespaces = await deps.choose('Namespaces', choices);
  return { xrds, namespaces, selector: undefined };
}

/** The namespace patches and, with sync, the namespaces' roles: planned, then written. */
async function applyNamespaces(
  deps: AppDeps,
  options: EnableXrdRunOptions,
  input: Input,
  nsPlan: EnableXrdPlan,
): Promise<WriteOutcome> {
  for (const c of nsPlan.changes) {
    for (const xrd of c.alreadyInState) {
      deps.warn({ kind: 'already', enable: options.enable, namespace: c.namespace.metadata.name, xrd });
    }
  }
  const [{ planChanges, wouldPrune }, { describeHeld }, { replanOne }] = await Promise.all([
    import('../plan/plan.js'),
    import('../sync/held.js'),
    import('../plan/replan.js'),
  ]);
  let plan = planChanges([], input.snapshot, { prune: false });
  let mayDelete: ((live: KubeObject) => boolean) | undefined;
  let held: string[] = [];
  if (options.sync) {
    const desired = await renderDesired(
      input,
      { only: ['namespaces'], namespaces: nsPlan.namespaces, allowPrivileged: options.allowPrivileged },
      deps,
      nsPlan.snapshot,
    );
    held = desired.held.map(describeHeld);
    if (desired.settings.manage !== 'all') {
      deps.warn({ kind: 'not-synced', manage: desired.settings.manage });
    }
    plan = planChanges(desired.objects, input.snapshot, {
      prune: true,
      pruneScope: desired.scope,
      adopt: options.adopt,
    });
    mayDelete = (live) => wouldPrune(live, desired.scope);
  }
  const preWrites: Operation[] = nsPlan.changes
    .filter((c) => c.patch !== null)
    .map((c) => ({ action: 'patch', object: namespaceRef(c.namespace), patch: c.patch ?? {} }));
  return writePlan(deps, input.cluster, input.source, plan, options.write, {
    replan: (live, want) => replanOne(want, live, options.adopt),
    mayDelete,
    preWrites,
    preWritesShown: { entries: nsPlan.changes.map(namespaceEntry), objects: patchedNamespaces(nsPlan) },
    held,
  });
}

function namespaceRef(ns: Namespace): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns.metadata.name } };
}

/** A Namespace shaped like a plan entry, so the plan formatters show it with the roles. */
function namespaceEntry(c: EnableXrdPlan['changes'][number]): PlanEntry<Namespace> {
  const name = c.namespace.metadata.name;
  return {
    action: c.patch === null ? 'unchanged' : 'update',
    key: `Namespace/${name}`,
    kind: 'Namespace',
    name,
    live: c.namespace,
    ...(c.patch !== null ? { object: c.after, changed: ['annotations'] } : {}),
  };
}

/** The Namespaces that change, as written by the patch (name, labels, annotations). */
function patchedNamespaces(nsPlan: EnableXrdPlan): unknown[] {
  return nsPlan.changes
    .filter((c) => c.patch !== null)
    .map((c) => {
      const { name, labels, annotations } = c.after.metadata;
      return {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name,
          ...(labels !== undefined ? { labels } : {}),
          ...(annotations !== undefined ? { annotations } : {}),
        },
      };
    });
}
