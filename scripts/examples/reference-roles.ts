// The roles the example clusters share with Kubernetes, Crossplane and Config Sync, loaded from the vendored
// reference data in test/fixtures/ (its README names each file's upstream source and commit) instead of being
// copied into code, and aggregated by the product's own model of the clusterrole-aggregation controller.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { convergeClusterRoles } from '../../src/authz/aggregate.js';
import type { ClusterRole, ClusterRoleBinding, KubeObject, Labels } from '../../src/kube/types.js';
import { CROSSPLANE_INSTALLED } from './ids.js';
import { clusterRole, clusterRoleBinding } from './objects.js';

const fixtures = path.resolve(import.meta.dirname, '..', '..', 'test', 'fixtures');

/** Kubernetes' bootstrap roles (plugin/pkg/auth/authorizer/rbac/bootstrappolicy), as the API server creates them. */
export const BOOTSTRAP_ROLES_FILE = path.join(fixtures, 'kubernetes', 'bootstrap-cluster-roles.yaml');
/** The Crossplane Helm chart's RBAC objects, release crossplane in crossplane-system, rbacManager.deploy=true. */
export const CHART_RBAC_FILE = path.join(fixtures, 'real', 'crossplane-chart-rbac.yaml');
/** Config Sync's manifests: its reconcilers' base ClusterRoles, among others. */
export const CONFIG_SYNC_FILE = path.join(fixtures, 'real', 'configsync.yaml');

/** The bootstrap roles the examples hold, in the order of the example file. */
const BOOTSTRAP_ROLES = [
  'cluster-admin',
  'admin',
  'edit',
  'view',
  'system:aggregate-to-admin',
  'system:aggregate-to-edit',
  'system:aggregate-to-view',
];

function readDocuments(file: string): KubeObject[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => {
      if (d.errors.length > 0) throw new Error(`${file}: ${String(d.errors[0]?.message)}`);
      return d.toJS() as KubeObject | null;
    })
    .filter((o): o is KubeObject => o !== null);
}

/** The ClusterRole NAME of OBJECTS, made a live object of the examples with LABELS (default: its own). */
function liveRole(objects: readonly KubeObject[], name: string, file: string, labels?: Labels): ClusterRole {
  const found = objects.find((o) => o.kind === 'ClusterRole' && o.metadata.name === name) as
    | ClusterRole
    | undefined;
  if (found === undefined) throw new Error(`${file} has no ClusterRole ${name}`);
  return clusterRole(name, {
    labels: labels ?? found.metadata.labels,
    annotations: found.metadata.annotations,
    // Roles the controller fills are stored with `rules: null`; the examples get their rules by aggregation.
    rules: found.aggregationRule === undefined ? (found.rules ?? undefined) : undefined,
    aggregationRule: found.aggregationRule,
  });
}

/** Kubernetes' bootstrap cluster-admin, admin, edit, view and their aggregate-to roles (not yet aggregated). */
export function kubernetesBootstrapRoles(): ClusterRole[] {
  const list = parse(readFileSync(BOOTSTRAP_ROLES_FILE, 'utf8')) as { items: KubeObject[] };
  return BOOTSTRAP_ROLES.map((name) => liveRole(list.items, name, BOOTSTRAP_ROLES_FILE));
}

/** The labels of the Crossplane chart at VERSION (helm.sh/chart and app.kubernetes.io/version name it). */
export function chartLabels(labels: Labels, version: string): Labels {
  return Object.fromEntries(
    Object.entries(labels).map(([k, v]) => [
      k,
      k === 'helm.sh/chart' ? `crossplane-${version}` : k === 'app.kubernetes.io/version' ? version : v,
    ]),
  );
}

/** The chart's ClusterRoles and ClusterRoleBindings, their labels naming chart VERSION. */
export function crossplaneChartRbac(version: string): {
  roles: ClusterRole[];
  bindings: ClusterRoleBinding[];
} {
  const objects = readDocuments(CHART_RBAC_FILE);
  const roles = objects
    .filter((o) => o.kind === 'ClusterRole')
    .map((o) =>
      liveRole(objects, o.metadata.name, CHART_RBAC_FILE, chartLabels(o.metadata.labels ?? {}, version)),
    );
  const bindings = objects
    .filter((o): o is ClusterRoleBinding & KubeObject => o.kind === 'ClusterRoleBinding')
    .map((b) =>
      clusterRoleBinding(
        b.metadata.name,
        b.roleRef.name,
        b.subjects ?? [],
        chartLabels(b.metadata.labels ?? {}, version),
        CROSSPLANE_INSTALLED,
      ),
    );
  return { roles, bindings };
}

/** Config Sync's ClusterRole NAME, as its manifests install it. */
export function configSyncRole(name: string): ClusterRole {
  return liveRole(readDocuments(CONFIG_SYNC_FILE), name, CONFIG_SYNC_FILE);
}

/**
 * ROLES with the rules Kubernetes' clusterrole-aggregation controller stores in every aggregating role, computed
 * by src/authz/aggregate.ts; an aggregating role that selects no rules keeps none.
 */
export function aggregate(roles: readonly ClusterRole[]): ClusterRole[] {
  const { graph, rules } = convergeClusterRoles(roles);
  return roles.map((role) => {
    if (role.aggregationRule === undefined || !graph.matches.has(role.metadata.name)) return role;
    const aggregated = rules.get(role.metadata.name) ?? [];
    return aggregated.length === 0 ? role : { ...role, rules: aggregated };
  });
}

/** aggregate() over the roles of every group together, given back group by group. */
export function aggregateGroups(...groups: readonly (readonly ClusterRole[])[]): ClusterRole[][] {
  const all = aggregate(groups.flat());
  let at = 0;
  return groups.map((g) => all.slice(at, (at += g.length)));
}
