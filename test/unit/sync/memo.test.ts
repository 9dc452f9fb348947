// sync --watch plans with a memo (src/sync/memo.ts): each owner's roles kept by the objects they were rendered from,
// each comparison by the desired and live objects compared. The reference is the full computation: after each event
// of a table (applied as a watch applies it: the changed object replaced, the others the same objects), the render
// and the plan with the memo must equal those without it, field for field.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSeedFiles } from '../../apiserver/seed.js';
import type { KubeObject, RbacObject } from '../../../src/kube/types.js';
import { snapshotFromObjects } from '../../../src/crossplane/snapshot.js';
import { renderSync } from '../../../src/sync/render.js';
import { newSyncMemo, type SyncMemo } from '../../../src/sync/memo.js';
import type { SyncOptions } from '../../../src/sync/settings.js';
import { planChanges, type Plan } from '../../../src/plan/plan.js';

type Obj = Record<string, any>;

/** An XRD of examples/cluster that sync renders roles for (not held). */
const XRD = 'xbuckets.storage.platform.acme.io';

const CLUSTER = join(
  resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..'),
  'examples',
  'cluster',
);

const keyOf = (o: Obj): string =>
  `${String(o.kind)}/${String(o.metadata.namespace ?? '')}/${String(o.metadata.name)}`;

/** The objects a watch holds, by key: an event replaces or removes one, every other object stays the same. */
class State {
  readonly objects = new Map<string, Obj>();
  private version = 1;

  constructor(objects: readonly Obj[]) {
    for (const o of objects) this.objects.set(keyOf(o), o);
  }

  find(pick: (o: Obj) => boolean): Obj {
    const found = [...this.objects.values()].find(pick);
    if (found === undefined) throw new Error(`nothing in the state is ${String(pick)}`);
    return found;
  }

  /** A new object for O's key (a MODIFIED or ADDED event): a new version, as the server answers it. */
  put(o: Obj): void {
    this.objects.set(keyOf(o), {
      ...o,
      metadata: { ...o.metadata, resourceVersion: String(this.version++) },
    });
  }

  remove(o: Obj): void {
    this.objects.delete(keyOf(o));
  }

  /** The writes of PLAN done, as the server stores them (a new version each). */
  apply(plan: Plan): void {
    for (const e of plan.entries) {
      if (e.action === 'delete' && e.live !== undefined) this.remove(e.live);
      else if ((e.action === 'create' || e.action === 'update') && e.object !== undefined) {
        this.put(
          structuredClone({ ...e.object, metadata: { ...e.object.metadata, uid: `uid-${keyOf(e.object)}` } }),
        );
      }
    }
  }
}

/** Render and plan STATE with MEMO and without; both, for the comparison. */
function planBoth(state: State, memo: SyncMemo, opts: SyncOptions) {
  const snapshot = snapshotFromObjects([...state.objects.values()] as KubeObject[]);
  const run = (m: SyncMemo | undefined) => {
    const desired = renderSync(snapshot, { ...opts, ...(m !== undefined ? { memo: m } : {}) });
    const plan = planChanges(desired.objects, snapshot, {
      prune: true,
      pruneScope: desired.scope,
      ...(m !== undefined ? { memo: m.plan } : {}),
    });
    return { desired, plan };
  };
  return { memo: run(memo), full: run(undefined) };
}

const isRevision = (o: Obj): boolean => o.kind === 'ProviderRevision';
const inFamily = (o: Obj): boolean =>
  isRevision(o) && o.metadata.labels?.['pkg.crossplane.io/provider-family'] !== undefined;
/** An XRD whose roles the state holds (one sync renders roles for). */
const hasRoles = (o: Obj): boolean => o.kind === 'CompositeResourceDefinition' && o.metadata.name === XRD;
const withRefs = (o: Obj): boolean => inFamily(o) && (o.status?.objectRefs?.length ?? 0) > 0;

/** Events as a watch sees them, each applied to the state before the next (reasons say what each one touches). */
const EVENTS: { reason: string; event: (s: State) => void; opts?: SyncOptions; writes?: boolean }[] = [
  { reason: 'nothing changed: everything from the memo', event: () => undefined, writes: false },
  {
    reason: "a ProviderRevision's CRDs change: its whole family's roles change",
    event: (s) => {
      const r = s.find(withRefs);
      const refs = r.status.objectRefs as Obj[];
      s.put({ ...r, status: { ...r.status, objectRefs: refs.slice(1) } });
    },
  },
  {
    reason: 'a ProviderRevision joins a family (a new revision of one of its providers)',
    event: (s) => {
      const r = s.find(withRefs);
      s.put({
        ...r,
        metadata: { ...r.metadata, name: `${String(r.metadata.name)}-next`, uid: 'uid-next-revision' },
        spec: { ...r.spec, desiredState: 'Inactive' },
      });
    },
  },
  {
    reason: 'a ProviderRevision of the family is deleted',
    event: (s) => {
      s.remove(s.find((o) => isRevision(o) && String(o.metadata.name).endsWith('-next')));
    },
  },
  {
    reason: "a provider Deployment's service account changes: that revision's binding",
    event: (s) => {
      const d = s.find((o) => o.kind === 'Deployment' && (o.metadata.ownerReferences?.length ?? 0) > 0);
      const spec = d.spec.template.spec as Obj;
      s.put({
        ...d,
        spec: {
          ...d.spec,
          template: { ...d.spec.template, spec: { ...spec, serviceAccountName: 'renamed' } },
        },
      });
    },
  },
  {
    reason: "a Deployment's status only: nothing to write",
    event: (s) => {
      const d = s.find((o) => o.kind === 'Deployment');
      s.put({ ...d, status: { ...d.status, readyReplicas: 7 } });
    },
    writes: false,
  },
  {
    reason: "an XRD's names change: its roles",
    event: (s) => {
      const x = s.find(hasRoles);
      s.put({
        ...x,
        spec: { ...x.spec, names: { ...x.spec.names, plural: `${String(x.spec.names.plural)}x` } },
      });
    },
  },
  {
    reason:
      'an XRD is deleted: nothing to write (its roles are controlled by it: the garbage collector deletes them)',
    event: (s) => {
      s.remove(s.find(hasRoles));
    },
    writes: false,
  },
  {
    reason: 'a Namespace stops accepting XRDs: its namespace roles',
    event: (s) => {
      const n = s.find((o) => o.kind === 'Namespace' && Object.keys(o.metadata.annotations ?? {}).length > 0);
      s.put({ ...n, metadata: { ...n.metadata, annotations: {} } });
    },
  },
  {
    reason: 'an owned ClusterRole deleted: recreated',
    event: (s) => {
      s.remove(
        s.find((o) => o.kind === 'ClusterRole' && String(o.metadata.name).startsWith('crossplane:provider:')),
      );
    },
  },
  {
    reason: 'an owned ClusterRole relabelled: repaired',
    event: (s) => {
      const r = s.find(
        (o) => o.kind === 'ClusterRole' && String(o.metadata.name).startsWith('crossplane:composite:'),
      );
      s.put({ ...r, metadata: { ...r.metadata, labels: { ...r.metadata.labels, drifted: 'yes' } } });
    },
  },
  {
    reason: "an owned ClusterRole's rules edited: repaired",
    event: (s) => {
      const r = s.find(
        (o) => o.kind === 'ClusterRole' && String(o.metadata.name).startsWith('crossplane:provider:'),
      );
      s.put({ ...r, rules: [] });
    },
  },
  {
    reason: 'Crossplane v1 instead of v2: every owner rendered again',
    event: () => undefined,
    opts: { crossplaneVersion: 'v1' },
  },
  { reason: 'back to v2', event: () => undefined, opts: { crossplaneVersion: 'v2' } },
  {
    reason:
      '--allow-privileged: the privileged checks answered again (nothing privileged here: nothing to write)',
    event: () => undefined,
    opts: { allowPrivileged: true },
    writes: false,
  },
  {
    reason: '--provider-binding-scope namespace',
    event: () => undefined,
    opts: { providerBindingScope: 'namespace' },
  },
];

describe('sync memo: the incremental plan equals the full plan', () => {
  const state = new State(loadSeedFiles([CLUSTER]) as Obj[]);
  const memo = newSyncMemo();
  // The cluster as a first sync leaves it, then the events one after another, each plan written before the next.
  state.apply(planBoth(state, memo, {}).full.plan);

  it.each(EVENTS.map((e, i) => ({ ...e, i })))('$i: $reason', ({ event, opts = {}, writes = true }) => {
    event(state);
    const { memo: incremental, full } = planBoth(state, memo, opts);
    expect(incremental.desired).toStrictEqual(full.desired);
    expect(incremental.plan).toStrictEqual(full.plan);
    const { create, update, delete: deletes } = full.plan.counts;
    expect(create + update + deletes > 0).toBe(writes);
    state.apply(full.plan);
    // Once written, nothing is left to write, with the memo as without.
    const again = planBoth(state, memo, opts);
    expect(again.memo.plan).toStrictEqual(again.full.plan);
    expect(again.full.plan.counts).toMatchObject({ create: 0, update: 0, delete: 0 });
  });

  it('uses the memo: a second render of the same state gives the very same provider and XRD roles', () => {
    const snapshot = snapshotFromObjects([...state.objects.values()] as KubeObject[]);
    const first = renderSync(snapshot, { memo });
    const second = renderSync(snapshot, { memo });
    const reused = (o: RbacObject): boolean => second.objects.includes(o);
    const provider = first.objects.filter((o) => o.metadata.name.startsWith('crossplane:provider:'));
    const composite = first.objects.filter((o) => o.metadata.name.startsWith('crossplane:composite:'));
    expect(provider.length).toBeGreaterThan(10);
    expect(composite.length).toBeGreaterThan(4);
    expect(provider.every(reused)).toBe(true);
    expect(first.objects.filter((o) => o.kind === 'ClusterRoleBinding' && reused(o)).length).toBeGreaterThan(
      10,
    );
    // Without the memo, every object is new.
    expect(renderSync(snapshot, {}).objects.some((o) => first.objects.includes(o))).toBe(false);
  });
});
