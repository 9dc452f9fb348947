/**
 * Renders shared across the contexts of one fleet run. Fleets of Crossplane clusters are mostly alike (the same
 * providers and XRDs everywhere), so sync's render (and its privileged-rule check) is done once per distinct input
 * and the result handed to every context whose input is the same by content.
 *
 * The key is one hash of everything the renderer is given: the snapshot parts it reads (RENDER_PARTS: it is handed
 * a snapshot holding only those, its Deployments only with the fields it reads, so it cannot read another unkeyed),
 * the options, the owners to hold and the live CRDs. Two things differ between clusters without changing what is rendered, and are left out of the hash:
 * - what the API server stamps on every object and the renderer never reads (SERVER_FIELDS);
 * - uids, which the renderer compares (ownership, families, CRDs' controllers) and copies into owner references:
 *   each (but an empty one) is replaced in the hash by its place in order of first appearance, so two inputs hash
 *   alike only when their uids are equal in the same places. On a hit the result's owner references are given this context's uids,
 *   place for place.
 */
import { createHash } from 'node:crypto';
import type { ClusterSnapshot, Deployment, KubeObject, ObjectMeta, RbacObject } from '../kube/types.js';
import type { DesiredState } from '../sync/render.js';
import type { SyncOptions } from '../sync/settings.js';

/** The parts of the snapshot sync's renderer reads (src/sync/render.ts, settings.ts, crossplane/provider/family.ts). */
const RENDER_PARTS = [
  'xrds',
  'providerRevisions',
  'deployments',
  'namespaces',
  'clusterRoles',
  'configMaps',
] as const satisfies readonly (keyof ClusterSnapshot)[];

/** Metadata the API server sets on every object that nothing in the renderer reads or copies. */
const SERVER_FIELDS = ['resourceVersion', 'creationTimestamp', 'managedFields', 'generation', 'selfLink'];

/** A `"uid":"…"` member as JSON.stringify writes it (a quote inside a string is always escaped, so never matches). */
const UID_MEMBER = /"uid":"((?:[^"\\]|\\.)*)"/g;

type Render = (snapshot: ClusterSnapshot, opts: SyncOptions) => DesiredState;

interface Entry {
  /** The uids of the input rendered, by place. */
  readonly uids: readonly string[];
  readonly desired: DesiredState;
}

/** What the run shared: renders done, and renders answered from one done for another context. */
export interface ShareCounts {
  readonly rendered: number;
  readonly shared: number;
}

/** An object as JSON without the fields the server stamps on it. */
function contentText(o: KubeObject): string {
  const meta = o.metadata as ObjectMeta & Record<string, unknown>;
  if (!SERVER_FIELDS.some((f) => f in meta)) return JSON.stringify(o);
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta)) if (!SERVER_FIELDS.includes(k)) kept[k] = v;
  return JSON.stringify({ ...o, metadata: kept });
}

/** The hash of the render's input by content, and its uids by place. */
function keyOf(snapshot: ClusterSnapshot, opts: SyncOptions): { key: string; uids: string[] } {
  const { hold, liveCrds, ...flags } = opts;
  const texts: string[] = [JSON.stringify(flags)];
  for (const part of RENDER_PARTS) {
    texts.push(`\n${part}`);
    for (const o of snapshot[part]) texts.push(contentText(o));
  }
  texts.push('\nhold');
  for (const h of hold ?? []) texts.push(contentText(h.object), JSON.stringify([h.reason, h.origin]));
  texts.push(liveCrds === undefined ? '\nno live CRDs' : '\nlive CRDs');
  for (const c of liveCrds ?? []) texts.push(contentText(c));
  const places = new Map<string, number>();
  const uids: string[] = [];
  const text = texts.join('\n').replace(UID_MEMBER, (member, uid: string) => {
    // An empty uid is no uid to the renderer (bindings.ts): it stays as it is in the hash.
    if (uid === '') return member;
    let place = places.get(uid);
    if (place === undefined) {
      place = uids.length;
      places.set(uid, place);
      uids.push(JSON.parse(`"${uid}"`) as string);
    }
    return `"uid":#${String(place)}`;
  });
  return { key: createHash('sha256').update(text).digest('hex'), uids };
}

/** OBJECT with its owner references' uids mapped by TO (undefined: a uid the rendered input did not hold). */
function withUids(o: RbacObject, to: ReadonlyMap<string, string>): RbacObject | undefined {
  const refs = o.metadata.ownerReferences;
  if (refs === undefined || refs.every((r) => r.uid === undefined || to.get(r.uid) === r.uid)) return o;
  const mapped = [];
  for (const r of refs) {
    const uid = r.uid === undefined ? undefined : to.get(r.uid);
    if (r.uid !== undefined && uid === undefined) return undefined;
    mapped.push(uid === undefined ? r : { ...r, uid });
  }
  return { ...o, metadata: { ...o.metadata, ownerReferences: mapped } };
}

/**
 * One run's shared renders. render() renders SNAPSHOT as RENDER would, or, when an input equal by content was
 * rendered before in this run, gives that result with this input's uids. A render that throws is not kept. At most
 * KEEP renders are held (the least recently used goes), so a fleet of unlike clusters holds no more than that.
 */
export class RenderShare {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly keep = 4) {}

  private done = { rendered: 0, shared: 0 };

  render(snapshot: ClusterSnapshot, opts: SyncOptions, render: Render): DesiredState {
    const input = renderInput(snapshot);
    const { key, uids } = keyOf(input, opts);
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      const to = new Map(hit.uids.map((u, i) => [u, uids[i] ?? u]));
      const objects: RbacObject[] = [];
      for (const o of hit.desired.objects) {
        const mapped = withUids(o, to);
        if (mapped === undefined) break;
        objects.push(mapped);
      }
      if (objects.length === hit.desired.objects.length) {
        this.entries.delete(key);
        this.entries.set(key, hit);
        this.done = { ...this.done, shared: this.done.shared + 1 };
        return { ...hit.desired, objects };
      }
    }
    const desired = render(input, opts);
    this.done = { ...this.done, rendered: this.done.rendered + 1 };
    if (hit === undefined) {
      this.entries.set(key, { uids, desired });
      const oldest = this.entries.keys().next().value;
      if (this.entries.size > this.keep && oldest !== undefined) this.entries.delete(oldest);
    }
    return desired;
  }

  counts(): ShareCounts {
    return this.done;
  }
}

/** Each Deployment's projection (the same object for the same Deployment: sync --watch's memo compares by identity). */
const projected = new WeakMap<Deployment, Deployment>();

/**
 * A Deployment with only what the renderer reads of it (crossplane/provider/bindings.ts: the owner references, name
 * and namespace, the pod template's serviceAccountName; sync/settings.ts detectCrossplane: the containers' images):
 * its metadata, and of its spec the template's serviceAccountName and containers' names and images. Its status,
 * replicas, selector, pod labels and the rest change with every rollout and never change a render, so two
 * clusters whose Deployments differ only there share it.
 */
function projectDeployment(d: Deployment): Deployment {
  const had = projected.get(d);
  if (had !== undefined) return had;
  const pod = d.spec?.template?.spec;
  const sa = pod?.serviceAccountName;
  const containers = pod?.containers?.map((c) => ({
    name: c.name,
    ...(c.image !== undefined ? { image: c.image } : {}),
  }));
  // The renderer reads these through optional chains only: an absent spec or template reads as an empty one.
  const out: Deployment = {
    apiVersion: d.apiVersion,
    kind: d.kind,
    metadata: d.metadata,
    spec: {
      template: {
        spec: {
          ...(sa !== undefined ? { serviceAccountName: sa } : {}),
          ...(containers !== undefined ? { containers } : {}),
        },
      },
    },
  };
  projected.set(d, out);
  return out;
}

/**
 * SNAPSHOT with only the parts the renderer reads, its Deployments only with the fields it reads: what the key
 * covers is all it can see.
 */
export function renderInput(snapshot: ClusterSnapshot): ClusterSnapshot {
  return {
    ...snapshot,
    deployments: snapshot.deployments.map(projectDeployment),
    clusterRoleBindings: [],
    roleBindings: [],
    others: [],
  };
}
