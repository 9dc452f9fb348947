// sync --watch against the test API server: the watch's reconciles are read through AppDeps.onProgress, what it
// wrote at the server (its store and its request counters), never through the plugin's own planning. Every wait is
// on a condition (an object at the server, a reconcile reported), never on a time.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Interrupt } from '../../src/app/interrupt.js';
import type { TestApiServer } from '../apiserver/server.js';
import { loadSeedFiles } from '../apiserver/seed.js';
import { ADMIN_TOKEN } from '../apiserver/types.js';
import { exampleCluster, runPlugin } from './harness.js';
import { freshServer, startWatch, stopAll, until, type Batching, type Watching } from './watch-harness.js';

type Obj = Record<string, any>;

/** The example's provider-kubernetes revision: left out of the seed, added while the watch runs. */
const REVISION = 'crossplane-contrib-provider-kubernetes-408e44da486e';
const MANAGED_BY = 'app.kubernetes.io/managed-by';

function exampleRevision(): Obj {
  const docs = parseAllDocuments(readFileSync(join(exampleCluster, '30-providers.yaml'), 'utf8'));
  const found = docs
    .map((d) => d.toJS() as Obj | null)
    .find((o) => o?.kind === 'ProviderRevision' && o.metadata?.name === REVISION);
  if (found == null) throw new Error(`no ProviderRevision ${REVISION} in the example`);
  return found;
}

describe('sync --watch', () => {
  let server: TestApiServer;
  let kubeconfig: string;
  let watch: Watching | undefined;
  const revision = exampleRevision();

  beforeEach(async () => {
    const seed = loadSeedFiles([exampleCluster]).filter(
      (o) => !((o as Obj).kind === 'ProviderRevision' && (o as Obj).metadata?.name === REVISION),
    );
    ({ server, kubeconfig } = await freshServer(seed));
  });
  afterEach(async () => {
    await stopAll(watch, server);
    watch = undefined;
  });

  const role = (name: string): Obj | undefined => server.get('clusterroles', name) as Obj | undefined;
  const ownedRoles = (): Obj[] =>
    (server.list('clusterroles') as Obj[]).filter(
      (o) => o.metadata?.labels?.[MANAGED_BY] === 'kubectl-crossplane-rbac',
    );
  const writes = (): number => server.counters.writes();

  /** Starts the watch and waits for its first reconcile (the sync of all it listed). */
  async function started(): Promise<Watching> {
    watch = startWatch(kubeconfig);
    const w = watch;
    await until(() => w.reconciles.length >= 1, 'the first reconcile');
    expect(w.reconciles[0]?.trigger.change).toBe('listed');
    expect(w.reconciles[0]?.created).toBeGreaterThan(0);
    return w;
  }

  const binding = (name: string): Obj | undefined =>
    server.get('clusterrolebindings', name) as Obj | undefined;
  /** The bindings of provider revisions' system roles (Crossplane's provider binding controller's, no labels). */
  const ownedBindings = (): Obj[] =>
    (server.list('clusterrolebindings') as Obj[]).filter((o) =>
      /^crossplane:provider:.*:system$/.test(String(o.metadata?.name)),
    );

  /** A write the test makes itself (plain HTTP, admin token): the server counts it like any other. */
  async function deleteRole(name: string, resource = 'clusterroles'): Promise<void> {
    const r = await fetch(`${server.url}/apis/rbac.authorization.k8s.io/v1/${resource}/${name}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(r.status).toBe(200);
  }

  it("adds a ProviderRevision's roles when it appears, as Crossplane's RBAC manager names and owns them", async () => {
    const w = await started();
    // crossplane/crossplane internal/controller/rbac/provider/roles/roles.go@a43cbf9a4de900e639dc3694c9542afb0fff494a:
    // namePrefix + revision + nameSuffixEdit/View/System, each controlled by the ProviderRevision.
    const names = ['aggregate-to-edit', 'aggregate-to-view', 'system'].map(
      (s) => `crossplane:provider:${REVISION}:${s}`,
    );
    expect(names.map(role)).toStrictEqual([undefined, undefined, undefined]);
    server.seed([revision]);
    await until(() => names.every((n) => role(n) !== undefined), 'the revision roles');
    for (const n of names) {
      const refs = role(n)?.metadata?.ownerReferences as Obj[];
      expect(refs).toStrictEqual([
        expect.objectContaining({
          kind: 'ProviderRevision',
          name: REVISION,
          uid: revision.metadata.uid,
          controller: true,
        }),
      ]);
    }
    // The roles grant on the revision's own groups (kubernetes.crossplane.io is one of provider-kubernetes').
    const groups = (role(names[2] ?? '')?.rules as Obj[]).flatMap((r) => r.apiGroups as string[]);
    expect(groups).toContain('kubernetes.crossplane.io');
    // The reconcile that wrote them is named by the revision, even if its batch also held other changes.
    await until(() => w.reconciles.some((r) => r.created >= 3 && r.number > 1), 'the reconcile');
    const r = w.reconciles.find((x) => x.created >= 3 && x.number > 1);
    expect(r?.trigger).toStrictEqual({
      kind: 'ProviderRevision',
      name: REVISION,
      namespace: undefined,
      change: 'added',
    });
    // The three roles and the binding of the system role to the provider (Crossplane's provider binding
    // controller names it after the role it binds: internal/controller/rbac/provider/binding).
    const binding = server.get('clusterrolebindings', `crossplane:provider:${REVISION}:system`) as Obj;
    expect(binding.roleRef).toStrictEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: `crossplane:provider:${REVISION}:system`,
    });
    expect([r?.created, r?.updated, r?.deleted, r?.failed]).toStrictEqual([4, 0, 0, []]);
  });

  it('recreates an owned ClusterRole that was deleted, and repairs one whose label was edited', async () => {
    const w = await started();
    const victim = ownedRoles()[0];
    if (victim === undefined) throw new Error('the first reconcile made no ClusterRole');
    const name = String(victim.metadata.name);
    const before = writes();
    const n0 = w.reconciles.length;
    await deleteRole(name);
    await until(() => role(name) !== undefined, 'the role recreated');
    expect(role(name)?.rules).toStrictEqual(victim.rules);
    expect(role(name)?.metadata.labels).toStrictEqual(victim.metadata.labels);
    await until(() => w.reconciles.slice(n0).some((r) => r.created === 1), 'the reconcile');
    // The test's delete, and one create: nothing else was written.
    expect(writes() - before).toBe(2);
    expect(server.counters.get('create', 'clusterroles')).toBeGreaterThan(0);

    const edited = role(name) as Obj;
    const labels = { ...edited.metadata.labels, 'rbac.crossplane.io/aggregate-to-edit': 'false' };
    const beforeEdit = writes();
    const n1 = w.reconciles.length;
    server.seed([{ ...edited, metadata: { ...edited.metadata, labels } }]);
    await until(
      () => JSON.stringify(role(name)?.metadata.labels) === JSON.stringify(victim.metadata.labels),
      'the label repaired',
    );
    await until(() => w.reconciles.slice(n1).some((r) => r.updated === 1), 'the reconcile');
    expect(writes() - beforeEdit).toBe(1);
  });

  /**
   * A cluster a one-shot sync has just made current: the watch's first reconcile writes nothing, so no echo of it and
   * no rules the server's aggregation controller fills are still on their way. Bindings are changed below: no
   * controller of the server writes them, so every event of one is the test's or the watch's own.
   */
  async function startedInStep(batching?: Batching): Promise<Watching> {
    const once = await runPlugin(['sync', '--yes', '--kubeconfig', kubeconfig]);
    expect(once.code, once.stderr).toBe(0);
    watch = startWatch(kubeconfig, undefined, batching);
    const w = watch;
    await until(() => w.reconciles.length >= 1, 'the first reconcile');
    expect([w.reconciles[0]?.created, w.reconciles[0]?.updated, w.reconciles[0]?.deleted]).toStrictEqual([
      0, 0, 0,
    ]);
    return w;
  }

  it('starts no reconcile for the echo of its own write: each reconcile takes in only the change that set it off', async () => {
    const w = await startedInStep();
    const [a, b] = ownedBindings().map((o) => String(o.metadata.name));
    if (a === undefined || b === undefined)
      throw new Error('the sync made fewer than two ClusterRoleBindings');
    const before = writes();
    await deleteRole(a, 'clusterrolebindings');
    await until(() => binding(a) !== undefined, 'the binding recreated');
    await until(() => w.reconciles.length >= 2, 'its reconcile');
    // The recreate's own ADDED event comes back; then another change: a subject added to the other binding.
    const edited = binding(b) as Obj;
    const subjects = (edited.subjects ?? []) as Obj[];
    server.seed([{ ...edited, subjects: [...subjects, { kind: 'User', name: 'mallory' }] }]);
    await until(
      () => ((binding(b)?.subjects ?? []) as Obj[]).length === subjects.length,
      'the subjects repaired',
    );
    await until(() => w.reconciles.some((r) => r.updated === 1), 'its reconcile');
    // Had the echo counted, it would be a change of a batch (a reconcile of its own, or one more change in the next).
    const seen = w.reconciles
      .slice(1)
      .map((r) => [r.trigger.kind, r.trigger.name, r.trigger.change, r.changes, r.created, r.updated]);
    expect(seen).toStrictEqual([
      ['ClusterRoleBinding', a, 'deleted', 1, 1, 0],
      ['ClusterRoleBinding', b, 'modified', 1, 0, 1],
    ]);
    // At the server: the test's delete, the watch's create and update (the edit is no HTTP request).
    expect(writes() - before).toBe(3);
  });

  it('reconciles a change that comes right after a reconcile once it settles, not a whole wait later', async () => {
    // An hour's bound: were reconciles spaced by it, the second one would never come within the test.
    const w = await startedInStep({ settleMs: 20, maxWaitMs: 3_600_000 });
    const [a] = ownedBindings().map((o) => String(o.metadata.name));
    if (a === undefined) throw new Error('the sync made no ClusterRoleBinding');
    await deleteRole(a, 'clusterrolebindings');
    await until(() => binding(a) !== undefined, 'the binding recreated');
    await until(() => w.reconciles.length >= 2, 'its reconcile');
    expect(w.reconciles.map((r) => r.trigger.change)).toStrictEqual(['listed', 'deleted']);
  });

  it('reconciles under changes that never settle, at the latest the bound after the first', async () => {
    // An hour's quiet period: only the bound can end the batch.
    const w = await startedInStep({ settleMs: 3_600_000, maxWaitMs: 50 });
    const [a] = ownedBindings().map((o) => String(o.metadata.name));
    if (a === undefined) throw new Error('the sync made no ClusterRoleBinding');
    await deleteRole(a, 'clusterrolebindings');
    await until(() => binding(a) !== undefined, 'the binding recreated');
    await until(() => w.reconciles.length >= 2, 'its reconcile');
    expect(w.reconciles[1]?.created).toBe(1);
  });

  it('holds an XRD in a Kubernetes group and goes on reconciling the rest', async () => {
    const w = await started();
    const xrd = {
      apiVersion: 'apiextensions.crossplane.io/v1',
      kind: 'CompositeResourceDefinition',
      metadata: { name: 'clusterroles.rbac.authorization.k8s.io', uid: 'held-xrd-uid' },
      spec: {
        group: 'rbac.authorization.k8s.io',
        names: { kind: 'ClusterRole', plural: 'clusterroles' },
        claimNames: { kind: 'ClusterRoleBinding', plural: 'clusterrolebindings' },
        versions: [{ name: 'v1', served: true, referenceable: true }],
      },
    };
    server.seed([xrd]);
    await until(
      () =>
        w.reconciles.some((r) => r.held.some((h) => h.includes('clusterroles.rbac.authorization.k8s.io'))),
      'the XRD held',
    );
    // Nothing rendered for it: no role of Crossplane's composite prefix names it.
    expect(
      (server.list('clusterroles') as Obj[]).filter((o) =>
        String(o.metadata.name).includes('rbac.authorization'),
      ),
    ).toStrictEqual([]);
    // The loop goes on: a revision added next gets its roles.
    server.seed([revision]);
    await until(() => role(`crossplane:provider:${REVISION}:system`) !== undefined, 'the revision roles');
    const last = w.reconciles.at(-1);
    expect(last?.status).toBe('applied');
  });

  it.each(['event', 'status'] as const)(
    'relists after the server forgot the watches (410, as %s) and writes only the drift made meanwhile',
    async (expiredAs) => {
      const w = await started();
      server.watchSettings.expiredAs = expiredAs;
      const victim = ownedRoles()[0] as Obj;
      const name = String(victim.metadata.name);
      await until(() => server.openWatchCount() >= 9, 'every watch open');
      const lists = server.counters.total('list');
      // While the server is down its store changes (a label edited) and its history is compacted away: the
      // watches resume from resourceVersions it no longer has.
      await server.stop();
      const labels = { ...victim.metadata.labels, edited: 'yes' };
      server.seed([{ ...role(name), metadata: { ...role(name)?.metadata, labels } }]);
      server.compact();
      server.counters.reset();
      await server.restart();
      await until(() => w.reconciles.some((r) => r.trigger.change === 'relisted'), 'a relist');
      await until(() => role(name)?.metadata.labels.edited === undefined, 'the label repaired');
      await until(() => server.openWatchCount() >= 9, 'every watch open again');
      // Each kind listed again; the only write is the repair (no object written twice, none written again).
      expect(server.counters.total('list')).toBeGreaterThanOrEqual(9);
      expect(lists).toBeGreaterThan(0);
      expect(server.counters.writes()).toBe(1);
      expect(server.counters.get('update', 'clusterroles')).toBe(1);
    },
  );

  it('resumes where the server closed the watches, without relisting or writing again', async () => {
    const w = await started();
    await until(() => server.openWatchCount() >= 9, 'every watch open');
    const victim = ownedRoles()[0] as Obj;
    const name = String(victim.metadata.name);
    await server.stop();
    server.counters.reset();
    await server.restart();
    await until(() => server.openWatchCount() >= 9, 'every watch open again');
    expect(server.counters.total('list')).toBe(0);
    const n0 = w.reconciles.length;
    await deleteRole(name);
    await until(() => role(name) !== undefined, 'the role recreated');
    await until(() => w.reconciles.slice(n0).some((r) => r.created === 1), 'the reconcile');
    expect(server.counters.total('list')).toBe(0);
    // The test's delete and one create.
    expect(server.counters.writes()).toBe(2);
  });

  it('stops after the writes in flight on Ctrl-C, says so, and a sync finishes the job', async () => {
    const interrupt = new Interrupt();
    // Each request waits 20 ms: the first reconcile's 237 creates are still being written when Ctrl-C comes.
    server.faults.latencyMs = 20;
    watch = startWatch(kubeconfig, interrupt);
    const w = watch;
    await until(() => server.counters.writes() >= 20, 'writes to begin');
    expect(interrupt.signal()).toBe('stop');
    const end = await w.done;
    expect(end.reason).toBe('interrupted');
    const [first] = w.reconciles;
    expect(first?.interrupted).toBe(true);
    expect(first?.notStarted).toBeGreaterThan(0);
    // Every write the server received was one the reconcile counts as done: none was cut off.
    expect(server.counters.writes()).toBe((first?.created ?? 0) + (first?.updated ?? 0));
    server.faults.latencyMs = 0;
    const again = await runPlugin(['sync', '--yes', '--kubeconfig', kubeconfig]);
    expect(again.code, again.stderr).toBe(0);
    const check = await runPlugin(['sync', '--check', '--kubeconfig', kubeconfig]);
    expect(check.code, check.stderr).toBe(0);
  });

  it('after churn (reconciles that reuse what did not change), sync --check still finds nothing to write', async () => {
    const w = await started();
    const owned = ownedRoles();
    for (let i = 0; i < 4; i++) {
      const n = w.reconciles.length;
      // A revision added then changed, owned roles deleted and relabelled, Namespaces added: one batch each.
      if (i === 0) server.seed([revision]);
      if (i === 2)
        server.seed([{ ...revision, metadata: { ...revision.metadata, labels: { churn: 'yes' } } }]);
      const victim = owned[i];
      const edited = owned[i + 4];
      if (victim === undefined || edited === undefined) throw new Error('too few owned ClusterRoles');
      await deleteRole(String(victim.metadata.name));
      server.seed([
        {
          ...edited,
          metadata: { ...edited.metadata, labels: { ...edited.metadata.labels, churn: String(i) } },
        },
      ]);
      server.seed([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `churn-${String(i)}` } }]);
      await until(
        () => role(String(victim.metadata.name)) !== undefined,
        `round ${String(i)}: the role recreated`,
      );
      await until(
        () => role(String(edited.metadata.name))?.metadata.labels?.churn === undefined,
        `round ${String(i)}: repaired`,
      );
      await until(() => w.reconciles.length > n, `round ${String(i)}: a reconcile`);
    }
    await until(() => role(`crossplane:provider:${REVISION}:system`) !== undefined, 'the revision roles');
    w.stop.abort();
    expect((await w.done).reason).toBe('stopped');
    expect(w.reconciles.every((r) => r.status === 'applied' && r.failed.length === 0)).toBe(true);
    const check = await runPlugin(['sync', '--check', '--kubeconfig', kubeconfig]);
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it('leaves the cluster as a one-shot sync would: sync --check finds nothing to write', async () => {
    const w = await started();
    server.seed([revision]);
    await until(() => role(`crossplane:provider:${REVISION}:system`) !== undefined, 'the revision roles');
    await until(() => w.reconciles.some((r) => r.trigger.kind === 'ProviderRevision'), 'the reconcile');
    w.stop.abort();
    expect((await w.done).reason).toBe('stopped');
    const check = await runPlugin(['sync', '--check', '--kubeconfig', kubeconfig]);
    expect(check.code, check.stderr).toBe(0);
  });
});

describe('sync --watch refuses what a long-lived watch of one cluster cannot do', () => {
  // Each refused before anything is read: no kubeconfig is needed to be told.
  const cases: Record<string, { args: string[]; why: RegExp }> = {
    Contexts: {
      args: ['--contexts', 'a,b'],
      why: /--contexts: a watch is a long-lived process; run one per cluster$/,
    },
    AllContexts: {
      args: ['--all-contexts'],
      why: /--all-contexts: a watch is a long-lived process; run one per cluster$/,
    },
    Files: { args: ['-f', exampleCluster], why: /-f: it watches a live cluster/ },
    DryRun: { args: ['--dry-run=server'], why: /--dry-run: a watch writes/ },
    Check: { args: ['--check'], why: /--check: a watch repairs drift/ },
    OutputDir: { args: ['--output-dir', 'out'], why: /--output-dir: a watch writes the cluster, not files/ },
    Yaml: { args: ['-o', 'yaml'], why: /-o yaml: a watch prints one line per reconcile/ },
    Diff: { args: ['-o', 'diff'], why: /-o diff: a watch prints one line per reconcile/ },
    Composed: { args: ['--only', 'providers,composed'], why: /--only composed: the composed part/ },
  };
  it.each(Object.entries(cases))('%s', async (_name, tc) => {
    const r = await runPlugin(['sync', '--watch', '--yes', ...tc.args]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: --watch cannot be used with /);
    expect(lines[0]).toMatch(tc.why);
  });
});
