/**
 * Renders shared across the contexts of one fleet run. Fleets of Crossplane clusters are mostly alike (the same
 * providers and XRDs everywhere), so sync's render (and its privileged-rule check) is done once per distinct input
 * and the result handed to every context whose input is the same by content.
 *
 * The input is everything the renderer is given: the snapshot parts it reads (RENDER_PARTS: it is handed a snapshot
 * holding only those, its Deployments, XRDs and ProviderRevisions only with the fields it reads, so it cannot read
 * another unkept), the options, the owners to hold and the live CRDs. A render keeps its input, and a later input is
 * compared with it in place (same-content.ts: no copy, no serialisation, stopping at the first difference). What
 * differs between clusters without changing what is rendered is left out of the comparison:
 * - what the API server stamps on every object and the renderer never reads;
 * - what controllers stamp and the renderer never reads: the conditions of XRDs and ProviderRevisions (each with the
 *   time it last changed, which no two clusters share), the status, rollout, labels and annotations of
 *   Deployments (renderInput);
 * - what an XRD holds beyond its names and scope: its schemas, printer columns, connection secret keys and default
 *   composition (renderInput);
 * - the Namespaces that enable no XRD (each cluster's applications'), unless the render names namespaces (enable-xrd's
 *   -n: then every name counts, an unknown one being an error) (renderInput);
 * - the ClusterRoles the renderer never reads (an add-on's, another Kubernetes version's), and the rules the
 *   aggregation controller fills into roles such as admin, edit and view (projectClusterRoles);
 * - uids, which the renderer compares (ownership, families, CRDs' controllers) and copies into owner references:
 *   two inputs are alike only when one's uids map onto the other's one to one, place for place. On a hit the
 *   result's owner references are given this context's uids through that map.
 */
import type {
  ClusterRole,
  ClusterSnapshot,
  Deployment,
  Namespace,
  OwnerReference,
  ProviderRevision,
  RbacObject,
  Xrd,
} from '../kube/types.js';
import type { DesiredState } from '../sync/render.js';
import type { SyncOptions } from '../sync/settings.js';
import {
  ANNOTATION_XRD_PREFIX,
  LABEL_AGGREGATE_TO_ALLOWED_PROVIDER_PERMISSIONS,
  NS_BASE_ROLE_EDIT,
  NS_BASE_ROLE_VIEW,
} from '../crossplane/names.js';
import { UidMatch, sameObjects } from './same-content.js';

/** The parts of the snapshot sync's renderer reads (src/sync/render.ts, settings.ts, crossplane/provider/family.ts). */
const RENDER_PARTS = [
  'xrds',
  'providerRevisions',
  'deployments',
  'namespaces',
  'clusterRoles',
  'configMaps',
] as const satisfies readonly (keyof ClusterSnapshot)[];

type Render = (snapshot: ClusterSnapshot, opts: SyncOptions) => DesiredState;

/** A render's input as compared: the parts read, the options (as JSON), the owners held and the live CRDs. */
interface RenderKey {
  readonly input: ClusterSnapshot;
  readonly flags: string;
  readonly hold: NonNullable<SyncOptions['hold']>;
  readonly liveCrds: SyncOptions['liveCrds'];
}

interface Entry {
  readonly key: RenderKey;
  readonly desired: DesiredState;
}

/** What the run shared: renders done, and renders answered from one done for another context. */
export interface ShareCounts {
  readonly rendered: number;
  readonly shared: number;
}

/** The render key of INPUT (the renderer's snapshot) with OPTS. */
function keyOf(input: ClusterSnapshot, opts: SyncOptions): RenderKey {
  const { hold, liveCrds, ...flags } = opts;
  return { input, flags: JSON.stringify(flags), hold: hold ?? [], liveCrds };
}

/**
 * The map from A's uids to B's when the two render keys are the same by content (same-content.ts), else undefined.
 * The cheap differences (options, counts) are looked at first.
 */
function sameKey(a: RenderKey, b: RenderKey): ReadonlyMap<string, string> | undefined {
  if (a.flags !== b.flags || a.hold.length !== b.hold.length) return undefined;
  if ((a.liveCrds === undefined) !== (b.liveCrds === undefined)) return undefined;
  if (RENDER_PARTS.some((p) => a.input[p].length !== b.input[p].length)) return undefined;
  const m = new UidMatch();
  for (const part of RENDER_PARTS) if (!sameObjects(a.input[part], b.input[part], m)) return undefined;
  for (let i = 0; i < a.hold.length; i++) {
    const x = a.hold[i];
    const y = b.hold[i];
    if (x === undefined || y === undefined || x.reason !== y.reason || x.origin !== y.origin)
      return undefined;
    if (!sameObjects([x.object], [y.object], m)) return undefined;
  }
  if (!sameObjects(a.liveCrds ?? [], b.liveCrds ?? [], m)) return undefined;
  return m.forward;
}

/**
 * OBJECT with its owner references' uids mapped by TO (undefined: a uid the rendered input did not hold). Only what
 * changes is copied: the object, its metadata and the references whose uid is another.
 */
function withUids(o: RbacObject, to: ReadonlyMap<string, string>): RbacObject | undefined {
  const refs = o.metadata.ownerReferences;
  if (refs === undefined) return o;
  let mapped: OwnerReference[] | undefined;
  for (let i = 0; i < refs.length; i++) {
    const r = refs[i];
    if (r?.uid === undefined) continue;
    const uid = to.get(r.uid);
    if (uid === undefined) return undefined;
    if (uid === r.uid) continue;
    mapped ??= refs.slice();
    mapped[i] = copyWith(r, 'uid', uid);
  }
  if (mapped === undefined) return o;
  return copyWith(o, 'metadata', copyWith(o.metadata, 'ownerReferences', mapped));
}

/**
 * A copy of O with KEY's value VALUE (KEY a member of O: its place among the members is kept). A loop rather than a
 * spread: a fleet maps every rendered object of every context (some 3,000 each on the large example), and spreads of
 * these objects, whose shapes differ by kind and by the members present, took half as long again (measured on that
 * example's render, copies interleaved with the spreads in one process).
 */
function copyWith<T extends object, K extends keyof T>(o: T, key: K, value: T[K]): T {
  const out = {} as T;
  for (const k in o) out[k] = o[k];
  out[key] = value;
  return out;
}

/**
 * One run's shared renders. render() renders SNAPSHOT as RENDER would, or, when an input equal by content was
 * rendered before in this run, gives that result with this input's uids. A render that throws is not kept. At most
 * KEEP renders (and their inputs) are held (the least recently used goes), so a fleet of unlike clusters holds no
 * more than that.
 */
export class RenderShare {
  /** Least recently used first. */
  private readonly entries: Entry[] = [];

  constructor(private readonly keep = 4) {}

  private done = { rendered: 0, shared: 0 };

  render(snapshot: ClusterSnapshot, opts: SyncOptions, render: Render): DesiredState {
    const key = keyOf(renderInput(snapshot, opts), opts);
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const hit = this.entries[i];
      const to = hit === undefined ? undefined : sameKey(hit.key, key);
      if (hit === undefined || to === undefined) continue;
      const objects: RbacObject[] = [];
      for (const o of hit.desired.objects) {
        const mapped = withUids(o, to);
        if (mapped === undefined) break;
        objects.push(mapped);
      }
      if (objects.length !== hit.desired.objects.length) break;
      this.entries.splice(i, 1);
      this.entries.push(hit);
      this.done = { ...this.done, shared: this.done.shared + 1 };
      return { ...hit.desired, objects };
    }
    const desired = render(key.input, opts);
    this.done = { ...this.done, rendered: this.done.rendered + 1 };
    this.entries.push({ key, desired });
    if (this.entries.length > this.keep) this.entries.shift();
    return desired;
  }

  counts(): ShareCounts {
    return this.done;
  }
}

/**
 * Each object's projection, made once: the same object for the same input object (sync --watch's memo compares
 * XRDs, revisions and Deployments by identity), kept no longer than the input.
 */
const projections = new WeakMap<object, object>();

/** MAKE(O), or what it gave for O before. */
function projectOnce<T extends object>(o: T, make: (o: T) => T): T {
  const had = projections.get(o);
  if (had !== undefined) return had as T;
  const out = make(o);
  projections.set(o, out);
  return out;
}

/**
 * A Deployment with only what the renderer reads of it (crossplane/provider/bindings.ts: the owner references, name
 * and namespace, the pod template's serviceAccountName; sync/settings.ts detectCrossplane: the containers' images):
 * of its metadata the name, namespace, uid and owner references, and of its spec the template's serviceAccountName
 * and containers' names and images. Its status, replicas, selector, pod labels, its own labels and annotations (the
 * rollout's revision number, which the Deployment controller counts up in each cluster) and the rest change with
 * rollouts and never change a render, so two clusters whose Deployments differ only there share it.
 */
function projectDeployment(d: Deployment): Deployment {
  const pod = d.spec?.template?.spec;
  const sa = pod?.serviceAccountName;
  const containers = pod?.containers?.map((c) => ({
    name: c.name,
    ...(c.image !== undefined ? { image: c.image } : {}),
  }));
  const { name, namespace, uid, ownerReferences } = d.metadata;
  // The renderer reads these through optional chains only: an absent spec or template reads as an empty one.
  return {
    apiVersion: d.apiVersion,
    kind: d.kind,
    metadata: {
      name,
      ...(namespace !== undefined ? { namespace } : {}),
      ...(uid !== undefined ? { uid } : {}),
      ...(ownerReferences !== undefined ? { ownerReferences } : {}),
    },
    spec: {
      template: {
        spec: {
          ...(sa !== undefined ? { serviceAccountName: sa } : {}),
          ...(containers !== undefined ? { containers } : {}),
        },
      },
    },
  };
}

/** The status members of a ProviderRevision the renderer reads (its type's: crossplane/provider/roles.ts). */
const REVISION_STATUS_READ = ['objectRefs', 'capabilities', 'permissionRequests'] as const;

/**
 * An XRD with only what its type declares (crossplane/definition/roles.ts and namespace/roles.ts read its group,
 * names, claim names and scope): no status, and of its versions only their names and whether they are served and
 * referenceable. A ProviderRevision with only the status members the renderer reads (the objects it defines, its
 * capabilities, its permission requests). Their status also holds conditions, which each cluster's Crossplane sets
 * with the time they last changed (lastTransitionTime): keyed with them, no two real clusters would ever share a
 * render, however alike. An XRD's versions hold its schemas, often tens of kilobytes each, which the renderer never
 * reads and the comparison would walk for every context of a fleet.
 */
function projectOwner<T extends Xrd | ProviderRevision>(o: T): T {
  if (o.kind !== 'ProviderRevision') return projectXrd(o) as T;
  const status = (o as { readonly status?: Readonly<Record<string, unknown>> }).status;
  if (status === undefined) return o;
  const kept: Record<string, unknown> = {};
  for (const key of REVISION_STATUS_READ) if (status[key] !== undefined) kept[key] = status[key];
  return Object.keys(kept).length === Object.keys(status).length ? o : { ...o, status: kept };
}

/** XRD with its type's members only (projectOwner). */
function projectXrd(x: Xrd): Xrd {
  const { group, names, claimNames, scope, versions } = x.spec;
  return {
    apiVersion: x.apiVersion,
    kind: x.kind,
    metadata: x.metadata,
    spec: {
      group,
      names,
      ...(claimNames !== undefined ? { claimNames } : {}),
      ...(scope !== undefined ? { scope } : {}),
      ...(versions !== undefined
        ? {
            versions: versions.map((v) => ({
              name: v.name,
              ...(v.served !== undefined ? { served: v.served } : {}),
              ...(v.referenceable !== undefined ? { referenceable: v.referenceable } : {}),
            })),
          }
        : {}),
    },
  };
}

/**
 * Whether namespace N has an annotation of the plugin's (rbac.crossplane.io/...): all that enables an XRD in it
 * (crossplane/namespace/roles.ts enabledXrdsOf), and no more than that, checked without reading the values.
 */
function mayEnableXrds(n: Namespace): boolean {
  for (const key in n.metadata.annotations) if (key.startsWith(ANNOTATION_XRD_PREFIX)) return true;
  return false;
}

/** The ClusterRoles the renderer looks up by name, whatever else they are: the namespace base roles. */
const ROLES_LOOKED_UP: ReadonlySet<string> = new Set([NS_BASE_ROLE_EDIT, NS_BASE_ROLE_VIEW]);

/** An aggregating ClusterRole without its rules: its name, labels and aggregation rule. */
function withoutRules(r: ClusterRole): ClusterRole {
  const { name, labels } = r.metadata;
  return {
    apiVersion: r.apiVersion,
    kind: r.kind,
    metadata: { name, ...(labels !== undefined ? { labels } : {}) },
    ...(r.aggregationRule !== undefined ? { aggregationRule: r.aggregationRule } : {}),
  };
}

/** Whether any selector of ROLE's aggregation rule names LABEL. */
function aggregatesLabel(role: ClusterRole, label: string): boolean {
  return (role.aggregationRule?.clusterRoleSelectors ?? []).some((s) => s.matchLabels?.[label] !== undefined);
}

/**
 * The live ClusterRoles as the renderer reads them (sync/settings.ts, sync/render.ts, sync/render-namespaces.ts,
 * crossplane/base-roles.ts): by name the namespace base roles and the one --provider-clusterrole names, whole; the
 * roles that aggregate others (the chart's are found by what they aggregate), by their labels and aggregation rule,
 * and by their rules too when they aggregate the allowed provider permissions (Crossplane v1 checks permission
 * requests against those rules). No other ClusterRole is read: a cluster's own (an add-on's, another Kubernetes
 * version's) and the rules the aggregation controller fills in (every provider's, in admin, edit and view) differ
 * from cluster to cluster and never change a render, and on a synced cluster they are tens of megabytes to compare.
 */
function projectClusterRoles(
  roles: readonly ClusterRole[],
  providerClusterRole: string | undefined,
): ClusterRole[] {
  const out: ClusterRole[] = [];
  for (const r of roles) {
    const name = r.metadata.name;
    if (ROLES_LOOKED_UP.has(name) || name === providerClusterRole) out.push(r);
    else if (r.aggregationRule === undefined) continue;
    else if (r.rules === undefined || aggregatesLabel(r, LABEL_AGGREGATE_TO_ALLOWED_PROVIDER_PERMISSIONS))
      out.push(r);
    else out.push(projectOnce(r, withoutRules));
  }
  return out;
}

/**
 * SNAPSHOT with only the parts the renderer reads, its Deployments, XRDs and ProviderRevisions only with the fields
 * it reads (an XRD without its schemas), its ClusterRoles as it reads them (projectClusterRoles), and only the Namespaces that may enable an XRD (mayEnableXrds; sync/render-namespaces.ts renders nothing
 * for the others), all of them when OPTS names namespaces (enable-xrd's -n: a name the cluster lacks is an error):
 * what the key covers is all it can see. No two real clusters have the same namespaces (their applications'), while
 * those that enable XRDs are the platform's, alike across a fleet.
 */
export function renderInput(
  snapshot: ClusterSnapshot,
  opts: Pick<SyncOptions, 'namespaces' | 'providerClusterRole'> = {},
): ClusterSnapshot {
  const named = opts.namespaces !== undefined && opts.namespaces.length > 0;
  return {
    ...snapshot,
    clusterRoles: projectClusterRoles(snapshot.clusterRoles, opts.providerClusterRole),
    namespaces: named ? snapshot.namespaces : snapshot.namespaces.filter(mayEnableXrds),
    xrds: snapshot.xrds.map((x) => projectOnce(x, projectOwner)),
    providerRevisions: snapshot.providerRevisions.map((r) => projectOnce(r, projectOwner)),
    deployments: snapshot.deployments.map((d) => projectOnce(d, projectDeployment)),
    clusterRoleBindings: [],
    roleBindings: [],
    others: [],
  };
}
