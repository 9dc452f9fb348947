/**
 * `--print-required-role` of the read-only commands: the ClusterRole that lets its holder run the command with
 * nothing left unseen, made from the very parts the command lists (so the two cannot drift apart): `list` on each.
 */
import type { ClusterRole } from '../kube/types.js';
import type { SnapshotPart } from '../crossplane/validate-input.js';
import { renderReadRole } from '../authz/required-permissions.js';
import type { AfterSyncOptions } from './after-sync.js';
import type { AppDeps } from './deps.js';
import { readInput, type InputSource } from './read-input.js';
import { partResources } from './read-snapshot.js';
import { ACCESS_PARTS, AUDIT_PARTS } from './resource-catalogue.js';
import { EXPLAIN_MATRIX_PARTS, EXPLAIN_ROLE_PARTS, EXPLAIN_SUBJECT_PARTS } from './explain-parts.js';
import { LOOKUP_PARTS } from './lookup.js';

/** The read-only commands, as --print-required-role names their roles. */
export type ReadCommand =
  'who-can' | 'explain' | 'explain-subject' | 'explain-matrix' | 'lookup' | 'composed' | 'audit';

const PARTS: Readonly<Record<ReadCommand, readonly SnapshotPart[]>> = {
  'who-can': ACCESS_PARTS,
  explain: EXPLAIN_ROLE_PARTS,
  'explain-subject': EXPLAIN_SUBJECT_PARTS,
  'explain-matrix': EXPLAIN_MATRIX_PARTS,
  lookup: LOOKUP_PARTS,
  composed: [],
  audit: AUDIT_PARTS,
};

/**
 * The ClusterRole COMMAND needs (with --after-sync, also what sync reads to plan). `composed` also lists the
 * composite resources and claims of every XRD: those kinds are read from SOURCE's XRDs (the cluster, or -f).
 */
export async function readRequiredRole(
  command: ReadCommand,
  afterSync: AfterSyncOptions | undefined,
  composites?: { readonly source: InputSource; readonly deps: AppDeps },
): Promise<ClusterRole> {
  const { syncParts } = await import('./sync.js');
  const parts = [
    ...PARTS[command],
    ...(command === 'composed' ? syncParts(['composed']) : []),
    ...(afterSync !== undefined ? syncParts(afterSync.only) : []),
  ];
  const resources = partResources(parts);
  if (command === 'audit') {
    // The in-cluster providers' ProviderConfigs (provider-identity), listed when such a provider runs.
    const { IN_CLUSTER_CONFIG_CRDS } = await import('../audit/in-cluster.js');
    for (const crd of IN_CLUSTER_CONFIG_CRDS) {
      const dot = crd.indexOf('.');
      resources.push({ group: crd.slice(dot + 1), resource: crd.slice(0, dot) });
    }
  }
  if (command === 'composed' && composites !== undefined) {
    const [{ compositeKinds }, input] = await Promise.all([
      import('./composed.js'),
      readInput(composites.source, composites.deps, ['xrds']),
    ]);
    for (const k of input.snapshot.xrds.flatMap(compositeKinds))
      resources.push({ group: k.group, resource: k.plural });
  }
  const role = renderReadRole(`crossplane-rbac-${command}`, resources);
  // who-can, explain --subject, lookup and audit GET the ClusterRoles the bindings reach, unless they read every one
  // (--converged, --after-sync), and who-can and explain --subject the XRDs of the group RESOURCE is served in
  // (resolve-live.ts).
  const getRoles = { verbs: ['get'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'] };
  if (command === 'lookup') return { ...role, rules: [...(role.rules ?? []), getRoles] };
  if (command === 'audit') {
    // audit also GETs, where a provider revision is active, the in-cluster providers' managed-resource CRDs by name
    // (audit-read.ts: their controller is the revision serving them).
    const { IN_CLUSTER_KINDS } = await import('../audit/in-cluster.js');
    const getCrds = {
      verbs: ['get'],
      apiGroups: ['apiextensions.k8s.io'],
      resources: ['customresourcedefinitions'],
      resourceNames: [...IN_CLUSTER_KINDS],
    };
    return { ...role, rules: [...(role.rules ?? []), getRoles, getCrds] };
  }
  if (command !== 'who-can' && command !== 'explain-subject') return role;
  const get = [
    getRoles,
    {
      verbs: ['get'],
      apiGroups: ['apiextensions.crossplane.io'],
      resources: ['compositeresourcedefinitions'],
    },
  ];
  return { ...role, rules: [...(role.rules ?? []), ...get] };
}
