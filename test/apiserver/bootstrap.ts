/**
 * The bootstrap policy the server stores at its start, as kube-apiserver's rbac/bootstrap-roles post-start hook
 * stores it (pkg/registry/rbac/rest/storage_rbac.go): the ClusterRoleBindings that reach every user
 * (system:authenticated or system:unauthenticated: system:basic-user, system:discovery, system:public-info-viewer)
 * and the ClusterRoles they refer to, read from Kubernetes' golden files in test/fixtures/kubernetes/. Every user
 * relies on them: kubectl's discovery and `auth can-i` are authorized through them, as on a real cluster.
 *
 * Only these: the rest of the bootstrap set (cluster-admin to system:masters, the kube-scheduler's and
 * kube-controller-manager's bindings, ...) is left to the seed, so that a seeded cluster answers about its own
 * objects and the few every user needs.
 */
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { fixturePath } from '../support/fixtures.js';
import type { Obj } from './types.js';

const EVERYONE = new Set(['system:authenticated', 'system:unauthenticated']);

function items(file: string): Obj[] {
  const list = YAML.parse(readFileSync(fixturePath('kubernetes', file), 'utf8')) as { items: Obj[] };
  return list.items;
}

/** What the API server stores as it starts: copies, with the golden files' `creationTimestamp: null` dropped. */
export function bootstrapPolicy(): Obj[] {
  const bindings = items('bootstrap-cluster-role-bindings.yaml').filter((b) =>
    ((b.subjects ?? []) as Obj[]).some((s) => s.kind === 'Group' && EVERYONE.has(String(s.name))),
  );
  const roleNames = new Set(bindings.map((b) => String(b.roleRef?.name)));
  const roles = items('bootstrap-cluster-roles.yaml').filter((r) => roleNames.has(String(r.metadata?.name)));
  for (const role of roleNames) {
    if (!roles.some((r) => r.metadata?.name === role))
      throw new Error(`bootstrap: no ClusterRole ${role} in the golden file`);
  }
  return [...roles, ...bindings].map((o) => {
    const metadata = { ...(o.metadata as Obj) };
    delete metadata.creationTimestamp;
    return { ...o, metadata };
  });
}
