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

/**
 * Deployments controlled or owned by the revision (an owner reference with its UID), in namespace/name order as the
 * API server lists them; one without namespace (an object of a file) is in "default", as its subject says.
 */
function ownedDeployments(rev: ProviderRevision, deployments: readonly Deployment[]): Deployment[] {
  const uid = rev.metadata.uid;
  if (uid === undefined || uid === '') return [];
  // Filtered before sorting: a revision owns a few of the cluster's Deployments, and every revision is asked.
  return deployments
    .filter((d) => (d.metadata.ownerReferences ?? []).some((r) => r.uid === uid))
    .sort(
      (a, b) =>
        compareStrings(a.metadata.namespace ?? 'default', b.metadata.namespace ?? 'default') ||
        compareStrings(a.metadata.name, b.metadata.name),
    );
}

/** How sync binds a revision's system ClusterRole: one ClusterRoleBinding, or RoleBindings where it runs. */
export type ProviderBindingScope = 'cluster' | 'namespace';

/**
 * One ServiceAccount subject per owner reference with the revision's UID, as crossplane's binding reconciler
 * (internal/controller/rbac/provider/binding/reconciler.go Reconcile) makes them: the name is the Deployment's
 * spec.template.spec.serviceAccountName as it is, empty when unset.
 */
function providerSubjects(rev: ProviderRevision, deployments: readonly Deployment[]): Subject[] {
  const out: Subject[] = [];
  for (const d of ownedDeployments(rev, deployments)) {
    // Stryker disable next-line ArrayDeclaration: ownedDeployments keeps only Deployments with owner references
    for (const r of d.metadata.ownerReferences ?? []) {
      if (r.uid !== rev.metadata.uid) continue;
      out.push({
        kind: 'ServiceAccount',
        // Stryker disable next-line StringLiteral: an unset name gives no binding at all (the unnamed check below), so this subject is never used
        name: d.spec?.template?.spec?.serviceAccountName ?? '',
        namespace: d.metadata.namespace ?? 'default',
      });
    }
  }
  return out;
}

/** The ClusterRoleBinding of the system role (made for inactive revisions too, then without subjects). */
function renderProviderClusterRoleBinding(rev: ProviderRevision, subjects: Subject[]): ClusterRoleBinding {
  const name = providerSystemRoleName(rev.metadata.name);
  return buildClusterRoleBinding({ name, ownerReferences: revisionOwner(rev), roleName: name, subjects });
}

/**
 * `providerBindingScope: namespace`: one RoleBinding per namespace that runs the revision's Deployments, binding
 * the system ClusterRole there only. Plugin-owned (labelled), owned by the revision.
 */
function renderProviderRoleBindings(rev: ProviderRevision, subjects: Subject[]): RoleBinding[] {
  const name = providerSystemRoleName(rev.metadata.name);
  const byNs = new Map<string, Subject[]>();
  for (const s of subjects) {
    // Stryker disable next-line StringLiteral: providerSubjects always sets the namespace
    const ns = s.namespace ?? 'default';
    const list = byNs.get(ns) ?? [];
    list.push(s);
    byNs.set(ns, list);
  }
  // Stryker disable next-line MethodExpression: the subjects come in namespace order (ownedDeployments), so the keys already are
  return [...byNs.keys()].sort(compareStrings).map((ns) =>
    buildRoleBinding({
      name,
      namespace: ns,
      labels: { [LABEL_MANAGED_BY]: MANAGED_BY_VALUE },
      ownerReferences: revisionOwner(rev),
      roleName: name,
      // Stryker disable next-line ArrayDeclaration: every key of byNs has a list
      subjects: byNs.get(ns) ?? [],
    }),
  );
}

export interface ProviderBindings {
  readonly objects: (ClusterRoleBinding | RoleBinding)[];
  /** Set when the revision gets no binding: says which of its Deployments names no service account. */
  readonly warning?: string;
}

/**
 * The binding of a revision's system ClusterRole, as crossplane's binding reconciler makes it for every revision
 * (inactive ones too, then without subjects). None when a Deployment of the revision sets no serviceAccountName:
 * Crossplane's binding then names the ServiceAccount "" and the API server refuses it, so the revision has no
 * binding; binding "default" instead would give the provider's permissions to every pod of that namespace that
 * runs as "default". The warning names the revision and the Deployments.
 */
export function renderProviderBindings(
  rev: ProviderRevision,
  deployments: readonly Deployment[],
  // Stryker disable next-line StringLiteral: any scope but 'namespace' binds cluster-wide
  scope: ProviderBindingScope = 'cluster',
): ProviderBindings {
  const subjects = providerSubjects(rev, deployments);
  const unnamed = ownedDeployments(rev, deployments)
    .filter((d) => (d.spec?.template?.spec?.serviceAccountName ?? '') === '')
    .map((d) => `${d.metadata.namespace ?? 'default'}/${d.metadata.name}`);
  if (unnamed.length > 0) {
    const which = unnamed.length === 1 ? `Deployment ${unnamed[0]}` : `Deployments ${unnamed.join(', ')}`;
    return {
      objects: [],
      warning:
        `ProviderRevision "${rev.metadata.name}": ${which} set${unnamed.length === 1 ? 's' : ''} no ` +
        `serviceAccountName, so its system ClusterRole is bound to nothing (binding the "default" ServiceAccount ` +
        `would grant it to every pod that runs as "default")`,
    };
  }
  if (scope === 'namespace') return { objects: renderProviderRoleBindings(rev, subjects) };
  return { objects: [renderProviderClusterRoleBinding(rev, subjects)] };
}
