import type {
  ClusterRoleBinding,
  Deployment,
  OwnerReference,
  ProviderRevision,
  RoleBinding,
  Subject,
} from '../../kube/types.js';
import {
  LABEL_MANAGED_BY,
  MANAGED_BY_VALUE,
  PROVIDER_REVISION_API_VERSION,
  PROVIDER_REVISION_KIND,
  PROVIDER_ROLE_PREFIX,
  PROVIDER_ROLE_SUFFIX_SYSTEM,
} from '../names.js';
import { buildClusterRoleBinding, buildRoleBinding, controllerRef } from '../object-builders.js';
import { compareStrings } from '../../kube/order.js';

/** The name of a revision's system ClusterRole (and of its binding). */
export function providerSystemRoleName(revisionName: string): string {
  return PROVIDER_ROLE_PREFIX + revisionName + PROVIDER_ROLE_SUFFIX_SYSTEM;
}

/** The controller owner reference Crossplane sets on a revision's roles and binding. */
export function revisionOwner(rev: ProviderRevision): OwnerReference[] {
  return [
    controllerRef(PROVIDER_REVISION_API_VERSION, PROVIDER_REVISION_KIND, rev.metadata.name, rev.metadata.uid),
  ];
}

/** Deployments controlled or owned by the revision (an owner reference with its UID), in namespace/name order. */
function ownedDeployments(rev: ProviderRevision, deployments: readonly Deployment[]): Deployment[] {
  const uid = rev.metadata.uid;
  if (uid === undefined || uid === '') return [];
  return [...deployments]
    .sort(
      (a, b) =>
        compareStrings(a.metadata.namespace ?? '', b.metadata.namespace ?? '') ||
        compareStrings(a.metadata.name, b.metadata.name),
    )
    .filter((d) => (d.metadata.ownerReferences ?? []).some((r) => r.uid === uid));
}

/** One ServiceAccount subject per owner reference with the revision's UID, as crossplane's binding reconciler. */
export function providerSubjects(rev: ProviderRevision, deployments: readonly Deployment[]): Subject[] {
  const out: Subject[] = [];
  for (const d of ownedDeployments(rev, deployments)) {
    for (const r of d.metadata.ownerReferences ?? []) {
      if (r.uid !== rev.metadata.uid) continue;
      const sa = d.spec?.template?.spec?.serviceAccountName;
      out.push({
        kind: 'ServiceAccount',
        name: sa !== undefined && sa !== '' ? sa : 'default',
        namespace: d.metadata.namespace ?? 'default',
      });
    }
  }
  return out;
}

/** The ClusterRoleBinding of the system role (made for inactive revisions too, then without subjects). */
export function renderProviderClusterRoleBinding(
  rev: ProviderRevision,
  deployments: readonly Deployment[],
): ClusterRoleBinding {
  const name = providerSystemRoleName(rev.metadata.name);
  return buildClusterRoleBinding({
    name,
    ownerReferences: revisionOwner(rev),
    roleName: name,
    subjects: providerSubjects(rev, deployments),
  });
}

/**
 * `providerBindingScope: namespace`: one RoleBinding per namespace that runs the revision's Deployments, binding
 * the system ClusterRole there only. Plugin-owned (labelled), owned by the revision.
 */
export function renderProviderRoleBindings(
  rev: ProviderRevision,
  deployments: readonly Deployment[],
): RoleBinding[] {
  const name = providerSystemRoleName(rev.metadata.name);
  const byNs = new Map<string, Subject[]>();
  for (const s of providerSubjects(rev, deployments)) {
    const ns = s.namespace ?? 'default';
    const list = byNs.get(ns) ?? [];
    list.push(s);
    byNs.set(ns, list);
  }
  return [...byNs.keys()].sort(compareStrings).map((ns) =>
    buildRoleBinding({
      name,
      namespace: ns,
      labels: { [LABEL_MANAGED_BY]: MANAGED_BY_VALUE },
      ownerReferences: revisionOwner(rev),
      roleName: name,
      subjects: byNs.get(ns) ?? [],
    }),
  );
}
