/**
 * What `audit` reads from a live cluster: what the API server's authorizer uses (the bindings, then only the
 * ClusterRoles they reach, with their stored rules; every ClusterRole with --converged) and what the steps need
 * (Deployments, XRDs, ProviderRevisions, Compositions and their revisions), as far as the caller may read it. A LIST
 * the caller may not make cluster-wide is made again in each namespace it may list (else in -n's, or the context's);
 * every read that still could not be made is `unseen`, with the steps it decides, and the audit goes on without it.
 */
import type { DiscoveredResource, KubeObject, ProviderRevision } from '../kube/types.js';
import { IN_CLUSTER_KINDS, inClusterConfigCrds } from '../audit/in-cluster.js';
import { isBindingObject } from '../kube/rbac-guards.js';
import type { SnapshotPart } from '../crossplane/validate-input.js';
import type { Mechanism } from '../audit/catalogue.js';
import {
  Kinds,
  type Cluster,
  type ListOptions,
  type ResourceKind,
  type RulesReview,
} from '../port/cluster.js';
import { ruleAllows } from '../authz/authorize.js';
import { pathNamespace } from '../port/connection-flags.js';
import { ApiError, translateError } from '../port/translate-error.js';
import type { AppDeps } from './deps.js';
import { partList, type Unseen } from './read-snapshot.js';
import { boundClusterRoleNames, readBoundClusterRoles } from './read-bound-roles.js';
import { clusterInput, warnInvalidOwners, type Input, type InputSource } from './read-input.js';
import { AUDIT_PARTS } from './resource-catalogue.js';

/**
 * The steps each part decides besides RBAC (cluster-context.ts reads them): the accounts known and what runs as
 * them (Deployments), whether packages run and which providers act as their own account (ProviderRevisions), what
 * an XR composes (XRDs, Compositions, CompositionRevisions). An RBAC part decides every step: RBAC_GAP.
 */
const DECIDES: Partial<Record<SnapshotPart, readonly Mechanism[]>> = {
  deployments: [
    'run-as',
    'token-request',
    'secret-token',
    'impersonate',
    'runtime-config',
    'define-api',
    'provider-identity',
  ],
  providerRevisions: ['runtime-config', 'provider-identity'],
  providerConfigs: ['provider-identity'],
  crds: ['provider-identity'],
  xrds: ['compose-through-xr'],
  compositions: ['compose-through-xr'],
  compositionRevisions: ['compose-through-xr'],
};

const RBAC_PARTS: ReadonlySet<SnapshotPart> = new Set<SnapshotPart>([
  'clusterRoles',
  'clusterRoleBindings',
  'roleBindings',
  'roles',
]);

/** The steps an unseen part decides; 'rbac' for the RBAC objects, which decide every step and every capability. */
export function unseenDecides(part: SnapshotPart): readonly Mechanism[] | 'rbac' {
  return RBAC_PARTS.has(part) ? 'rbac' : (DECIDES[part] ?? []);
}

/** Whether a part of the RBAC was left unseen: then what a finding's subject holds already is not known. */
export function rbacUnseen(unseen: readonly Unseen[]): boolean {
  return unseen.some((u) => RBAC_PARTS.has(u.part));
}

/**
 * The live input of an audit: CONVERGED reads every ClusterRole (the aggregation sources too), else the bound ones.
 * Warnings: one per invalid XRD or ProviderRevision; the unseen reads are the caller's to report (audit words them).
 */
export async function readAuditInput(
  source: InputSource,
  deps: Pick<AppDeps, 'connect' | 'warn'> & Partial<Pick<AppDeps, 'startProgress'>>,
  converged: boolean,
): Promise<Input> {
  const cluster = await deps.connect(source.connection);
  const fallback = pathNamespace(cluster.defaultNamespace);
  const progress = await deps.startProgress?.(`reading ${cluster.describe}`);
  let objects: KubeObject[];
  let input: Input;
  const unseen: Unseen[] = [];
  try {
    const namespaces = fallbackReads(cluster, fallback);
    const parts = AUDIT_PARTS.filter((p) => converged || p !== 'clusterRoles');
    const reads = await Promise.all(parts.map((p) => readPart(cluster, p, namespaces)));
    objects = reads.flatMap((r) => r.objects);
    for (const r of reads) if (r.unseen !== undefined) unseen.push(r.unseen);
    if (!converged) {
      const names = boundClusterRoleNames(objects.filter(isBindingObject));
      const bound = await readBoundClusterRoles(cluster, names);
      objects.push(...bound.roles);
      unseen.unshift(...bound.unseen);
    }
    const read = await clusterInput(cluster, objects, AUDIT_PARTS);
    // The in-cluster providers' CRDs (whose controller is the revision serving them), then their ProviderConfigs,
    // decide their provider-identity steps: read once the revisions are.
    const revisions = read.snapshot.providerRevisions;
    const crds = await readInClusterCrds(cluster, revisions);
    const configs = await readProviderConfigs(cluster, revisions, crds.objects, namespaces);
    input = {
      ...read,
      snapshot: {
        ...read.snapshot,
        others: [...read.snapshot.others, ...crds.objects, ...configs.objects],
      },
      unseen: [...unseen, ...crds.unseen, ...configs.unseen],
    };
  } finally {
    progress?.stop();
  }
  warnInvalidOwners(deps, input);
  return input;
}

/** Where a kind the caller may not list cluster-wide is listed instead (readKind). */
interface Fallback {
  /** The namespaces the caller may list, else the command's (-n, or the context's). */
  readonly namespaces: () => Promise<string[]>;
  /**
   * Whether the caller may list KIND in NAMESPACE, as its SelfSubjectRulesReview there says (one per namespace,
   * shared by every kind, as `kubectl auth can-i --list` asks): true when the review is incomplete (an authorizer
   * that cannot list its rules) or cannot be made, so that no namespace the caller may read is left out.
   */
  readonly mayList: (kind: ResourceKind, namespace: string) => Promise<boolean>;
}

function fallbackReads(cluster: Cluster, fallback: string): Fallback {
  let names: Promise<string[]> | undefined;
  const reviews = new Map<string, Promise<RulesReview | undefined>>();
  return {
    namespaces: () =>
      (names ??= cluster.list(Kinds.namespace).then(
        (list) => list.map((n) => n.metadata.name),
        (err: unknown) => {
          if (err instanceof ApiError && err.code === 403) return [fallback];
          throw translateError(err, 'listing Namespaces', cluster.describe);
        },
      )),
    mayList: async (kind, namespace) => {
      let review = reviews.get(namespace);
      if (review === undefined) {
        review = cluster.rulesReview(namespace).catch(() => undefined);
        reviews.set(namespace, review);
      }
      const rules = await review;
      if (rules === undefined || rules.incomplete) return true;
      const attrs = { verb: 'list', apiGroup: kind.group, resource: kind.plural, namespace };
      return rules.resourceRules.some((r) => ruleAllows(r, attrs));
    },
  };
}

/**
 * The CRDs of the in-cluster providers' managed resources (four names, one GET each, only where a revision is active):
 * their controller references say which revision serves each kind. One that may not be read is unseen by name.
 */
async function readInClusterCrds(
  cluster: Cluster,
  revisions: readonly ProviderRevision[],
): Promise<{ objects: KubeObject[]; unseen: Unseen[] }> {
  if (!revisions.some((r) => (r.spec.desiredState ?? 'Active') === 'Active'))
    return { objects: [], unseen: [] };
  const reads = await Promise.all(
    IN_CLUSTER_KINDS.map(async (name): Promise<{ object?: KubeObject; unseen?: Unseen }> => {
      try {
        const object = await cluster.get(Kinds.customResourceDefinition, name);
        return object === undefined ? {} : { object };
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 403))
          throw translateError(err, `getting CustomResourceDefinition ${name}`, cluster.describe);
        const reason = err.status?.message ?? 'forbidden';
        return { unseen: { part: 'crds', what: `CustomResourceDefinition ${name}`, reason, verb: 'get' } };
      }
    }),
  );
  return {
    objects: reads.flatMap((r) => (r.object !== undefined ? [r.object] : [])),
    unseen: reads.flatMap((r) => (r.unseen !== undefined ? [r.unseen] : [])),
  };
}

/**
 * The ProviderConfigs of the in-cluster providers among REVISIONS (provider-kubernetes,
 * provider-helm, as the CRDs they control, their objectRefs or their package say): each of their kinds, as discovery serves it (its version and scope), listed
 * as a part is. A kind discovery does not serve has no object; what may not be read is unseen, named `plural.group`.
 */
async function readProviderConfigs(
  cluster: Cluster,
  revisions: readonly ProviderRevision[],
  inClusterCrds: readonly KubeObject[],
  namespaces: Fallback,
): Promise<{ objects: KubeObject[]; unseen: Unseen[] }> {
  const crds = inClusterConfigCrds(revisions, inClusterCrds);
  if (crds.length === 0) return { objects: [], unseen: [] };
  let served: DiscoveredResource[];
  try {
    served = await cluster.discoverResources();
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 403))
      throw translateError(err, 'discovery', cluster.describe);
    const reason = err.status?.message ?? 'forbidden';
    return { objects: [], unseen: crds.map((what) => ({ part: 'providerConfigs', what, reason })) };
  }
  const reads = await Promise.all(
    crds.map(async (name): Promise<{ objects: KubeObject[]; unseen?: Unseen }> => {
      const r = served.find((d) => `${d.name}.${d.group}` === name);
      // Not served (yet): none can exist.
      if (r === undefined) return { objects: [] };
      const kind = {
        group: r.group,
        version: r.version,
        plural: r.name,
        kind: r.kind,
        namespaced: r.namespaced,
      };
      return readKind(cluster, 'providerConfigs', { kind, what: `listing ${name}` }, namespaces);
    }),
  );
  return {
    objects: reads.flatMap((r) => r.objects),
    unseen: reads.flatMap((r) => (r.unseen !== undefined ? [r.unseen] : [])),
  };
}

/** One part: a LIST cluster-wide, else (403, a namespaced kind) one LIST per namespace the caller may read. */
async function readPart(
  cluster: Cluster,
  part: SnapshotPart,
  namespaces: Fallback,
): Promise<{ objects: KubeObject[]; unseen?: Unseen }> {
  return readKind(cluster, part, partList(part), namespaces);
}

/**
 * SPEC's kind, listed for PART: cluster-wide, else (403, a namespaced kind) in each namespace the caller may list it
 * in (NAMESPACES: those it may list, each asked of its rules first).
 */
async function readKind(
  cluster: Cluster,
  part: SnapshotPart,
  spec: { readonly kind: ResourceKind; readonly what: string; readonly opts?: ListOptions | undefined },
  namespaces: Fallback,
): Promise<{ objects: KubeObject[]; unseen?: Unseen }> {
  const what = spec.what.replace(/^listing (the )?/, '');
  try {
    return { objects: await cluster.list(spec.kind, spec.opts) };
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 403))
      throw translateError(err, spec.what, cluster.describe);
    const reason = err.status?.message ?? 'forbidden';
    if (!spec.kind.namespaced) return { objects: [], unseen: { part, what, reason } };
    const inEach = await Promise.all(
      (await namespaces.namespaces()).map(async (namespace) => {
        // A namespace whose rules refuse the list is not asked (600 namespaces: 600 refused LISTs per kind).
        if (!(await namespaces.mayList(spec.kind, namespace))) return undefined;
        try {
          return { namespace, objects: await cluster.list(spec.kind, { ...spec.opts, namespace }) };
        } catch (again) {
          if (again instanceof ApiError && again.code === 403) return undefined;
          throw translateError(again, `${spec.what} in ${namespace}`, cluster.describe);
        }
      }),
    );
    const read = inEach.filter((r) => r !== undefined);
    const readIn = read.map((r) => r.namespace).join(',');
    return {
      objects: read.flatMap((r) => r.objects),
      unseen: { part, what, reason, ...(readIn !== '' ? { readIn } : {}) },
    };
  }
}
