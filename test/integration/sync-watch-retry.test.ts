// sync --watch when a write or the start-up permission check fails: failed writes, and a reconcile the permission
// check denied, are reconciled again with client-go's per-item backoff (no change needed), and a connection that fails while the permissions are checked
// reconnects as a dropped watch does, while a refusal still ends the watch. What was written is read at the server.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/port/cluster.js';
import type { TestApiServer } from '../apiserver/server.js';
import { loadSeedFiles } from '../apiserver/seed.js';
import { ADMIN_TOKEN } from '../apiserver/types.js';
import { exampleCluster } from './harness.js';
import { freshServer, startWatch, stopAll, until, type Watching } from './watch-harness.js';

type Obj = Record<string, any>;

/** CLUSTER whose first permission check (a SelfSubjectAccessReview) fails with ERROR; the rest go through. */
function failingFirstCheck(cluster: Cluster, error: Error): Cluster {
  let failed = false;
  return new Proxy(cluster, {
    get(target, key) {
      if (key === 'canI' && !failed) {
        return () => {
          failed = true;
          return Promise.reject(error);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('sync --watch retries', () => {
  let server: TestApiServer;
  let kubeconfig: string;
  let watch: Watching | undefined;

  beforeEach(async () => {
    ({ server, kubeconfig } = await freshServer(loadSeedFiles([exampleCluster])));
  });
  afterEach(async () => {
    await stopAll(watch, server);
    watch = undefined;
  });

  const role = (name: string): Obj | undefined => server.get('clusterroles', name) as Obj | undefined;

  it('writes again after failed writes, with backoff and without waiting for a change, one reconcile per retry', async () => {
    watch = startWatch(kubeconfig);
    const w = watch;
    await until(() => w.reconciles.length >= 1, 'the first reconcile');
    const victim = (server.list('clusterroles') as Obj[]).find(
      (o) => o.metadata?.labels?.['app.kubernetes.io/managed-by'] === 'kubectl-crossplane-rbac',
    );
    if (victim === undefined) throw new Error('the first reconcile made no ClusterRole');
    const name = String(victim.metadata.name);
    const n0 = w.reconciles.length;
    // The next two creates fail with an answer no transport retries; nothing else changes after the delete.
    server.faults.failNext = { count: 2, code: 422, verbs: ['create'], resources: ['clusterroles'] };
    const r = await fetch(`${server.url}/apis/rbac.authorization.k8s.io/v1/clusterroles/${name}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(r.status).toBe(200);
    await until(() => role(name) !== undefined, 'the role recreated');
    await until(() => w.reconciles.slice(n0).some((x) => x.created === 1), 'the reconcile that wrote it');
    // The delete's reconcile (named by its first change), then one per retry: 5ms, then 10ms after the failure.
    // Before it, the aggregation controller's update of `crossplane` (its sources were created by the first
    // reconcile) may have come in a reconcile of its own, which writes nothing: it is no part of the retries.
    const since = w.reconciles.slice(n0);
    const first = since.findIndex((x) => x.failed.length > 0);
    expect(
      since.slice(0, first).map((x) => [x.trigger.kind, x.trigger.name, x.created, x.failed.length]),
    ).toStrictEqual(since.slice(0, first).map(() => ['ClusterRole', 'crossplane', 0, 0]));
    const after = since.slice(first);
    expect(
      after.map((x) => [x.trigger.change === 'retried', x.retry, x.created, x.failed.length, x.retryInMs]),
    ).toStrictEqual([
      [false, undefined, 0, 1, 5],
      [true, 1, 0, 1, 10],
      [true, 2, 1, 0, undefined],
    ]);
    expect(server.counters.get('create', 'clusterroles')).toBeGreaterThan(0);
    expect(role(name)?.rules).toStrictEqual(victim.rules);
  });

  it('connects again when the permission check before the first writes loses its connection (a TLS timeout)', async () => {
    const timeout = Object.assign(new Error('TLS handshake with 127.0.0.1:6443 timed out after 10s'), {
      name: 'DialError',
      code: 'ETLSTIMEDOUT',
    });
    let connections = 0;
    watch = startWatch(kubeconfig, undefined, undefined, (c) =>
      ++connections === 1 ? failingFirstCheck(c, timeout) : c,
    );
    const w = watch;
    const ended = w.done.then((end) => `ended: ${end.reason}`);
    const first = until(() => w.reconciles.length >= 1, 'a reconcile').then(() => 'reconciled');
    expect(await Promise.race([ended, first])).toBe('reconciled');
    expect(w.events.find((e) => e.type === 'reconnecting')).toMatchObject({
      reason: expect.stringMatching(/while checking permissions: TLS handshake .* timed out/),
    });
    expect(connections).toBe(2);
    expect(w.reconciles[0]?.created).toBeGreaterThan(0);
  });

  it('retries a reconcile the permission check denied: a right granted meanwhile, with no event, converges it', async () => {
    const rbac = 'rbac.authorization.k8s.io';
    const clusterRole = (name: string, rules: Obj[]): Obj => ({
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name },
      rules,
    });
    const bind = (name: string, subject: Obj): Obj => ({
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name },
      subjects: [{ apiGroup: rbac, ...subject }],
    });
    // The plugin's user reads everything; only the group it joins later may write RBAC.
    server.seed([
      clusterRole('xrbac-watch-reader', [
        { apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] },
      ]),
      bind('xrbac-watch-reader', { kind: 'User', name: 'watcher' }),
      clusterRole('xrbac-late-writers', [
        {
          apiGroups: [rbac],
          resources: ['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings'],
          verbs: ['*'],
        },
        // Owner references that block deletion (Crossplane's, on the roles of XRDs, revisions and namespaces).
        {
          apiGroups: ['', 'apiextensions.crossplane.io', 'pkg.crossplane.io'],
          resources: [
            'namespaces/finalizers',
            'compositeresourcedefinitions/finalizers',
            'providerrevisions/finalizers',
          ],
          verbs: ['update'],
        },
      ]),
      bind('xrbac-late-writers', { kind: 'Group', name: 'late-writers' }),
    ]);
    server.addUser('token-watcher', 'watcher');
    const userKubeconfig = `${kubeconfig}.watcher`;
    server.writeKubeconfig(userKubeconfig, { token: 'token-watcher' });
    watch = startWatch(userKubeconfig);
    const w = watch;
    await until(() => w.reconciles.length >= 1, 'the first reconcile');
    expect(w.reconciles[0]).toMatchObject({ status: 'denied', created: 0, retryInMs: 5 });
    expect(server.counters.get('create', 'clusterroles')).toBe(0);
    // Joining a group is no object the watch sees: only a retry can notice the right.
    server.addUser('token-watcher', 'watcher', ['late-writers']);
    await until(() => w.reconciles.some((x) => x.status === 'applied'), 'a retry that writes');
    const applied = w.reconciles.findIndex((x) => x.status === 'applied');
    expect(w.reconciles[applied]?.retryInMs).toBeUndefined();
    expect(w.reconciles[applied]?.created).toBeGreaterThan(0);
    // Every reconcile after the first is a retry (none was started by an event), each denied one requeued with a
    // doubled delay, as the work queue's per-item backoff (5ms, 10ms, 20ms, ...).
    const after = w.reconciles.slice(1, applied + 1);
    expect(after.map((x) => [x.trigger.change, x.retry])).toStrictEqual(
      after.map((_, i) => ['retried', i + 1]),
    );
    expect(w.reconciles.slice(0, applied).map((x) => [x.status, x.retryInMs])).toStrictEqual(
      w.reconciles.slice(0, applied).map((_, i) => ['denied', 5 * 2 ** i]),
    );
  });

  it('ends the watch when the permission check is refused (403): no retry mends that', async () => {
    const { ApiError } = await import('../../src/port/translate-error.js');
    const forbidden = new ApiError(
      403,
      { message: 'selfsubjectaccessreviews is forbidden', code: 403 },
      undefined,
    );
    watch = startWatch(kubeconfig, undefined, undefined, (c) => failingFirstCheck(c, forbidden));
    await expect(watch.done).rejects.toThrow(/forbidden while checking permissions/);
    expect(watch.events.some((e) => e.type === 'reconnecting')).toBe(false);
  });
});
