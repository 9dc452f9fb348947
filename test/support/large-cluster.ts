// examples/large on the test API server, with the foreign objects the plugin must never change, for the fault,
// concurrency and signal tests of issue #12. The seed is read once per test file.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import {
  ARGO_APPLICATION,
  MANAGED_BY,
  OTHER_CONTROLLER,
  clusterRole,
  clusterRoleBinding,
  keyOf,
} from './cluster-state.js';

type Obj = Record<string, any>;

export const LARGE = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'examples', 'large');

let seedCache: readonly unknown[] | undefined;

/** examples/large as seed objects (the server clones what it stores, so they can be shared). */
export function largeSeed(): readonly unknown[] {
  seedCache ??= loadSeedFiles([LARGE]);
  return seedCache;
}

export interface Started {
  readonly server: TestApiServer;
  readonly kubeconfig: string;
  readonly dir: string;
}

/**
 * A fresh test API server holding BASE (examples/large unless told) and EXTRA, with an admin kubeconfig. Its
 * aggregation controller lags a second behind writes, as a real one does, rather than running before every read: over 3,000 ClusterRoles
 * that would cost most of a run.
 */
export async function startLarge(
  extra: readonly Obj[] = [],
  port?: number,
  base: readonly unknown[] = largeSeed(),
): Promise<Started> {
  const server = await startApiServer({
    seed: [...base, ...extra],
    aggregationDelayMs: 1000,
    ...(port !== undefined ? { port } : {}),
  });
  const dir = mkdtempSync(join(tmpdir(), 'xrbac-large-'));
  const kubeconfig = join(dir, 'admin.kubeconfig');
  server.writeKubeconfig(kubeconfig);
  return { server, kubeconfig, dir };
}

/** Objects that are not the plugin's, for a cluster where the plugin wants WANTED (from sync -o json). */
export interface ForeignSeeds {
  /** Names the plugin does not want, some in its prune scope: `sync --prune` must leave every one alone. */
  readonly spared: readonly Obj[];
  /** Names the plugin wants, made by someone else: refused, never changed (the run then exits 2). */
  readonly colliding: readonly Obj[];
  /** The plugin's own leftovers (labelled, no controller, not wanted): `sync --prune` deletes them. */
  readonly stale: readonly Obj[];
}

function firstNamed(wanted: readonly Obj[], kind: string, pattern: RegExp): string {
  const o = wanted.find((w) => w.kind === kind && pattern.test(String(w.metadata.name)));
  if (o === undefined) throw new Error(`no wanted ${kind} matches ${String(pattern)}`);
  return String(o.metadata.name);
}

export function foreignSeeds(wanted: readonly Obj[]): ForeignSeeds {
  const spared = [
    // Labelled as the plugin's, in its prune scope by name, but controlled by an Argo CD Application.
    clusterRole('crossplane-ns-argo-managed-edit', {
      labels: { ...MANAGED_BY },
      ownerReferences: [ARGO_APPLICATION],
    }),
    // Labelled, controlled by another owner.
    clusterRole('crossplane:composite:retired.example.org:aggregate-to-ns-edit', {
      labels: { ...MANAGED_BY },
      ownerReferences: [OTHER_CONTROLLER],
    }),
    // Hand-made with a name the plugin could have made, no label.
    clusterRole('crossplane-ns-handmade-view'),
    clusterRoleBinding('crossplane-admin-handmade'),
    clusterRoleBinding('crossplane:provider:retired-provider-0123456789ab:system', {
      labels: { ...MANAGED_BY },
      ownerReferences: [ARGO_APPLICATION],
    }),
  ];
  const colliding = [
    clusterRole(firstNamed(wanted, 'ClusterRole', /^crossplane:composite:.*:aggregate-to-edit$/)),
    clusterRoleBinding(firstNamed(wanted, 'ClusterRoleBinding', /^crossplane:provider:.*:system$/)),
    clusterRole(firstNamed(wanted, 'ClusterRole', /^crossplane:composite:.*:aggregate-to-view$/), {
      ownerReferences: [OTHER_CONTROLLER],
    }),
    clusterRole(firstNamed(wanted, 'ClusterRole', /^crossplane-ns-.*-edit$/), {
      labels: { ...MANAGED_BY },
      ownerReferences: [ARGO_APPLICATION],
    }),
  ];
  const stale = Array.from({ length: 24 }, (_, i) =>
    clusterRole(`crossplane-ns-stale-${String(i).padStart(2, '0')}-${i % 2 === 0 ? 'edit' : 'view'}`, {
      labels: { ...MANAGED_BY },
    }),
  );
  const wantedKeys = new Set(wanted.map(keyOf));
  for (const o of [...spared, ...stale]) {
    if (wantedKeys.has(keyOf(o))) throw new Error(`${keyOf(o)} is wanted: pick another name`);
  }
  return { spared, colliding, stale };
}

/**
 * The keys of what the test API server stores at start, as a kube-apiserver does: the bootstrap policy, labelled
 * kubernetes.io/bootstrapping=rbac-defaults (a label the plugin never writes). Neither seeded nor the plugin's.
 */
export function bootstrapKeys(server: TestApiServer): Set<string> {
  return new Set(
    ['clusterroles', 'clusterrolebindings']
      .flatMap((resource) => server.list(resource) as Obj[])
      .filter((o) => o.metadata.labels?.['kubernetes.io/bootstrapping'] === 'rbac-defaults')
      .map(keyOf),
  );
}

/**
 * A third of the plugin-made objects of a converged server (those neither in BASE nor in EXTRA), each
 * changed the way drift changes them: ClusterRoles gain a label under crossplane.io (the plugin's to remove),
 * bindings a subject, and some bindings another roleRef (which the plugin can only fix by deleting and creating
 * the binding again). A sync over them updates or recreates every one.
 */
export function drifted(
  server: TestApiServer,
  extra: readonly Obj[],
  base: readonly unknown[] = largeSeed(),
): Obj[] {
  const seeded = new Set([...(base as Obj[]), ...extra].map(keyOf));
  for (const key of bootstrapKeys(server)) seeded.add(key);
  const made = (resource: string): Obj[] =>
    (server.list(resource) as Obj[]).filter((o) => !seeded.has(keyOf(o)));
  const out: Obj[] = [];
  made('clusterroles').forEach((o, i) => {
    if (i % 3 !== 0) return;
    const labels = { ...o.metadata.labels, 'crossplane.io/drifted': 'true' };
    out.push({ ...o, metadata: { ...o.metadata, labels } });
  });
  made('clusterrolebindings').forEach((o, i) => {
    if (i % 3 === 0) {
      const subjects = [
        ...(o.subjects ?? []),
        { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'drifted' },
      ];
      out.push({ ...o, subjects });
    } else if (i % 6 === 4) {
      out.push({ ...o, roleRef: { ...o.roleRef, name: 'crossplane-drifted-role' } });
    }
  });
  return out;
}
