// Issue #12: an object that changes hands between the moment the plugin reads it and the moment its delete (a
// prune, or the delete of a binding recreated for a new roleRef) reaches the server. The server holds the delete
// for a while (latency), and meanwhile another writer (Argo CD) takes the object over: the plugin must leave it
// alone. An object that merely changed but is still the plugin's is deleted all the same.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import {
  ARGO_APPLICATION,
  MANAGED_BY,
  changedObjects,
  clusterRole,
  identities,
  errorLines,
} from '../support/cluster-state.js';
import { runPlugin, startSeeded } from './harness.js';

type Obj = Record<string, any>;

let server: TestApiServer;
let kubeconfig: string;
let dir: string;

beforeEach(async () => {
  ({ server, kubeconfig, dir } = await startSeeded());
});
afterEach(async () => {
  await server.stop();
});

/**
 * Waits until CHECK holds, looking every 2 ms (a held request is held 150 ms: the look comes first, as the two
 * timers share this thread). The deadline guards against a hang only: this file runs beside others.
 */
async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

/** Stores OBJECT changed by CHANGE as another writer would: same uid, a new resourceVersion. */
function rewrite(resource: string, name: string, change: (o: Obj) => Obj, namespace?: string): Obj {
  const live = server.get(resource, name, namespace) as Obj;
  const next = change(structuredClone(live));
  server.seed([next]);
  return next;
}

/** Runs ARGV with every request held 150 ms; once a delete of RESOURCE is held, calls DURING. */
async function whileDeleting(
  argv: readonly string[],
  resource: string,
  during: () => void,
): Promise<ReturnType<typeof runPlugin>> {
  server.faults.latencyMs = 150;
  const pending = runPlugin([...argv, '--kubeconfig', kubeconfig]);
  await waitFor(() => server.counters.get('delete', resource) > 0, `a delete of ${resource}`);
  during();
  const r = await pending;
  server.faults.latencyMs = 0;
  return r;
}

const takeOver = (o: Obj): Obj => ({
  ...o,
  metadata: { ...o.metadata, ownerReferences: [ARGO_APPLICATION] },
});

describe('sync --prune', () => {
  const stale = clusterRole('crossplane-ns-retired-edit', { labels: { ...MANAGED_BY } });

  beforeEach(async () => {
    server.seed([stale]);
    // Everything else is in place, so the prune is the run's only write.
    const r = await runPlugin(['sync', '--yes', '--kubeconfig', kubeconfig]);
    expect(r.code, r.stderr).toBe(0);
  });

  it('leaves alone a stale object that Argo CD took over while the delete was on its way', async () => {
    let taken = new Map<string, { uid: string; resourceVersion: string }>();
    const r = await whileDeleting(['sync', '--yes', '--prune'], 'clusterroles', () => {
      rewrite('clusterroles', stale.metadata.name, takeOver);
      taken = identities(server, [stale]);
    });
    expect(changedObjects(server, [stale], taken), r.stderr).toEqual([]);
    expect(r.code, r.stderr).toBe(0);
  });

  it("still deletes a stale object that changed meanwhile but is still the plugin's", async () => {
    const r = await whileDeleting(['sync', '--yes', '--prune'], 'clusterroles', () => {
      rewrite('clusterroles', stale.metadata.name, (o) => ({
        ...o,
        metadata: { ...o.metadata, annotations: { note: 'touched' } },
      }));
    });
    expect(r.code, r.stderr).toBe(0);
    expect(server.get('clusterroles', stale.metadata.name)).toBeUndefined();
  });
});

describe('sync recreating a binding whose roleRef changed', () => {
  it('leaves alone a binding Argo CD took over while the delete was on its way', async () => {
    const first = await runPlugin(['sync', '--yes', '--kubeconfig', kubeconfig]);
    expect(first.code, first.stderr).toBe(0);
    const binding = (server.list('clusterrolebindings') as Obj[]).find((b) =>
      /^crossplane:provider:.*:system$/.test(String(b.metadata.name)),
    );
    if (binding === undefined) throw new Error('no provider binding');
    const name = String(binding.metadata.name);
    rewrite('clusterrolebindings', name, (o) => ({ ...o, roleRef: { ...o.roleRef, name: 'view' } }));
    let taken = new Map<string, { uid: string; resourceVersion: string }>();
    const r = await whileDeleting(['sync', '--yes'], 'clusterrolebindings', () => {
      rewrite('clusterrolebindings', name, takeOver);
      taken = identities(server, [binding]);
    });
    expect(changedObjects(server, [binding], taken), r.stderr).toEqual([]);
    expect(r.code, r.stderr).toBe(2);
    // Refused when its write was under way: reported as a write that failed, and the run exits 2.
    const errors = errorLines(r.stderr);
    expect(errors, r.stderr).toHaveLength(2);
    expect(errors[0]).toMatch(
      new RegExp(`^error: refused ClusterRoleBinding ${name}: controlled by Application "platform-rbac" `),
    );
    expect(errors[1]).toBe('error: 1 of 1 write failed; nothing was written');
  });
});

describe('sync creating a binding another writer made meanwhile with another role', () => {
  it("recreates it when it is the plugin's (a roleRef cannot be updated), and the run succeeds", async () => {
    const plan = await runPlugin(['sync', '--dry-run=client', '-o', 'json', '--kubeconfig', kubeconfig]);
    expect(plan.code, plan.stderr).toBe(0);
    const wanted = (JSON.parse(plan.stdout) as { items: Obj[] }).items.find(
      (o) =>
        o.kind === 'ClusterRoleBinding' && /^crossplane:provider:.*:system$/.test(String(o.metadata.name)),
    );
    if (wanted === undefined) throw new Error('sync plans no provider binding');
    const name = String(wanted.metadata.name);
    // The same binding, labels and controller included, bound to another role: what an older run might have made.
    const other = { ...structuredClone(wanted), roleRef: { ...wanted.roleRef, name: 'view' } };
    server.faults.latencyMs = 150;
    const pending = runPlugin(['sync', '--yes', '--kubeconfig', kubeconfig]);
    await waitFor(() => server.counters.get('create', 'clusterrolebindings') > 0, 'a create of a binding');
    server.seed([other]);
    const before = (server.get('clusterrolebindings', name) as Obj).metadata.uid as string;
    const r = await pending;
    server.faults.latencyMs = 0;
    expect(r.code, r.stderr).toBe(0);
    const after = server.get('clusterrolebindings', name) as Obj;
    expect(after.roleRef).toStrictEqual(wanted.roleRef);
    expect(after.metadata.uid).not.toBe(before);
  });
});

describe('bind --prune', () => {
  it('leaves alone a binding whose inventory labels were taken off while its delete was on its way', async () => {
    // Kubernetes' edit role may impersonate service accounts: binding it is privileged. The account is bound
    // ahead of its creation.
    const bind = [
      'bind',
      '--service-account',
      'crossplane-system/gitops',
      '--allow-privileged',
      '--allow-missing',
      '--yes',
    ];
    const two = await runPlugin([
      ...bind,
      '--role-ref',
      'ClusterRole/view',
      '--role-ref',
      'ClusterRole/edit@team-a',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(two.code, two.stderr).toBe(0);
    const made = (server.list('rolebindings', 'team-a') as Obj[]).find((b) => b.roleRef?.name === 'edit');
    if (made === undefined) throw new Error(`bind made no RoleBinding in team-a: ${dir}`);
    let taken = new Map<string, { uid: string; resourceVersion: string }>();
    const r = await whileDeleting([...bind, '--role-ref', 'ClusterRole/view'], 'rolebindings', () => {
      rewrite(
        'rolebindings',
        String(made.metadata.name),
        (o) => ({ ...o, metadata: { ...o.metadata, labels: {} } }),
        'team-a',
      );
      taken = identities(server, [made]);
    });
    expect(changedObjects(server, [made], taken), r.stderr).toEqual([]);
    expect(r.code, r.stderr).toBe(0);
  });
});
