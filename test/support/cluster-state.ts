// What a run leaves on the test API server, read from the server's store and never through the plugin: the stored
// objects the plugin may write (compared across servers), the foreign objects it must never change (by uid and
// resourceVersion), and a small seeded PRNG for the property tests. Shared by the fault, concurrency and signal
// tests of issue #12.
import type { TestApiServer } from '../apiserver/server.js';

type Obj = Record<string, any>;

export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY = { [MANAGED_BY_LABEL]: 'kubectl-crossplane-rbac' } as const;
export const RBAC_V1 = 'rbac.authorization.k8s.io/v1';

/** The resources a plugin command may write: RBAC objects, and namespaces (enable-xrd's annotations). */
const WRITABLE = ['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings', 'namespaces'] as const;
const RESOURCE_OF_KIND: Readonly<Record<string, string>> = {
  ClusterRole: 'clusterroles',
  ClusterRoleBinding: 'clusterrolebindings',
  Role: 'roles',
  RoleBinding: 'rolebindings',
  Namespace: 'namespaces',
};

export function keyOf(o: Obj): string {
  const ns = o.metadata?.namespace as string | undefined;
  return `${String(o.kind)}/${ns !== undefined && ns !== '' ? `${ns}/` : ''}${String(o.metadata?.name)}`;
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, canonical((v as Obj)[k])]),
  );
}

/** One stored object without what its server chose (uid, resourceVersion, creationTimestamp), as stable JSON. */
function comparable(o: Obj): string {
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields: _m, ...metadata } = o.metadata;
  return JSON.stringify(canonical({ ...o, metadata }));
}

/**
 * Every object the plugin may write, as the server stores it once its aggregation controller has run, by key:
 * comparable across servers.
 */
export function storedState(server: TestApiServer): Map<string, string> {
  server.setAggregation(true);
  const state = new Map<string, string>();
  for (const resource of WRITABLE) {
    for (const o of server.list(resource) as Obj[]) state.set(keyOf(o), comparable(o));
  }
  return state;
}

/** How GOT differs from WANT, one line per object (at most LIMIT lines, then a count): empty when equal. */
export function diffStates(
  got: ReadonlyMap<string, string>,
  want: ReadonlyMap<string, string>,
  limit = 8,
): string[] {
  const lines: string[] = [];
  for (const [key, w] of want) {
    const g = got.get(key);
    if (g === undefined) lines.push(`missing ${key}`);
    else if (g !== w) lines.push(`differs ${key}:\n  got  ${g}\n  want ${w}`);
  }
  for (const key of got.keys()) if (!want.has(key)) lines.push(`unexpected ${key}`);
  return lines.length > limit ? [...lines.slice(0, limit), `... and ${lines.length - limit} more`] : lines;
}

/** Who a stored object is: its uid and resourceVersion. */
export interface Identity {
  readonly uid: string;
  readonly resourceVersion: string;
}

function storedObject(server: TestApiServer, o: Obj): Obj | undefined {
  const resource = RESOURCE_OF_KIND[String(o.kind)];
  if (resource === undefined) throw new Error(`no resource for kind ${String(o.kind)}`);
  return server.get(resource, String(o.metadata.name), o.metadata.namespace as string | undefined) as
    Obj | undefined;
}

/** The identities of OBJECTS as stored now, by key; every one of them must be there. */
export function identities(server: TestApiServer, objects: readonly Obj[]): Map<string, Identity> {
  const out = new Map<string, Identity>();
  for (const o of objects) {
    const stored = storedObject(server, o);
    if (stored === undefined) throw new Error(`${keyOf(o)} is not stored`);
    out.set(keyOf(o), { uid: stored.metadata.uid, resourceVersion: stored.metadata.resourceVersion });
  }
  return out;
}

/** The objects among RECORDED that were deleted, replaced (another uid) or changed (another resourceVersion). */
export function changedObjects(
  server: TestApiServer,
  objects: readonly Obj[],
  recorded: ReadonlyMap<string, Identity>,
): string[] {
  const changed: string[] = [];
  for (const o of objects) {
    const was = recorded.get(keyOf(o));
    const now = storedObject(server, o);
    if (was === undefined) throw new Error(`${keyOf(o)} was not recorded`);
    if (now === undefined) changed.push(`${keyOf(o)} was deleted`);
    else if (now.metadata.uid !== was.uid) changed.push(`${keyOf(o)} was replaced`);
    else if (now.metadata.resourceVersion !== was.resourceVersion) changed.push(`${keyOf(o)} was changed`);
  }
  return changed;
}

/** An owner reference that makes OWNER the controller. */
export function controllerRef(apiVersion: string, kind: string, name: string, uid: string): Obj {
  return { apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: true };
}

export const ARGO_APPLICATION = controllerRef(
  'argoproj.io/v1alpha1',
  'Application',
  'platform-rbac',
  '4a1c0f52-8f6e-4c55-9d3e-a0c5d0a1e001',
);
export const OTHER_CONTROLLER = controllerRef(
  'v1',
  'ConfigMap',
  'other-owner',
  'b7f0e0d4-2f7a-4f7e-8f5e-c1d2e3f4a002',
);

export function clusterRole(name: string, metadata: Obj = {}): Obj {
  return {
    apiVersion: RBAC_V1,
    kind: 'ClusterRole',
    metadata: { name, ...metadata },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
  };
}

export function clusterRoleBinding(name: string, metadata: Obj = {}): Obj {
  return {
    apiVersion: RBAC_V1,
    kind: 'ClusterRoleBinding',
    metadata: { name, ...metadata },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'someone-else' }],
  };
}

/** A name of a Crossplane type: its plural and kind, as an XRD's spec.names and spec.claimNames give them. */
interface TypeNames {
  readonly plural: string;
  readonly kind: string;
}

/**
 * A CompositeResourceDefinition named as Crossplane requires (`<plural>.<group>`) of GROUP and NAMES, offering a
 * claim when CLAIM is given, with one served and referenceable VERSION: the XRDs the access tests create (as a user
 * or seeded), so that each states only what it is about.
 */
export function xrd(group: string, names: TypeNames, claim?: TypeNames, version = 'v1'): Obj {
  return {
    apiVersion: 'apiextensions.crossplane.io/v1',
    kind: 'CompositeResourceDefinition',
    metadata: { name: `${names.plural}.${group}` },
    spec: {
      group,
      names: { kind: names.kind, plural: names.plural },
      ...(claim !== undefined ? { claimNames: { kind: claim.kind, plural: claim.plural } } : {}),
      versions: [{ name: version, served: true, referenceable: true }],
    },
  };
}

/** The lines of a command's stderr that report errors (`error: ...`). */
export function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.startsWith('error: '));
}

/**
 * mulberry32: a small, fast 32-bit PRNG, so that a failing property run can be replayed from its printed seed.
 */
export class Prng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}
