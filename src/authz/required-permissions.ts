import type { ClusterRole, PolicyRule, RbacObject } from '../kube/types.js';
import { RBAC_API_GROUP, RBAC_API_VERSION } from '../kube/api-names.js';

/** One permission a write needs: a verb on a resource (optionally a subresource, a name, a namespace). */
export interface Permission {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
}

export interface PlannedWrite {
  readonly action: 'create' | 'update' | 'delete';
  readonly object: RbacObject;
}

const OWNER_RESOURCES: Readonly<Record<string, { group: string; resource: string }>> = {
  CompositeResourceDefinition: {
    group: 'apiextensions.crossplane.io',
    resource: 'compositeresourcedefinitions',
  },
  ProviderRevision: { group: 'pkg.crossplane.io', resource: 'providerrevisions' },
  Namespace: { group: '', resource: 'namespaces' },
};

const PLURAL: Readonly<Record<RbacObject['kind'], string>> = {
  ClusterRole: 'clusterroles',
  Role: 'roles',
  ClusterRoleBinding: 'clusterrolebindings',
  RoleBinding: 'rolebindings',
};

/**
 * The permissions the writes need, de-duplicated in a stable order: the verb on each kind (per namespace for
 * namespaced kinds), and `update` on the owners' finalizers where an owner reference blocks owner deletion (the
 * OwnerReferencesPermissionEnforcement admission plugin requires it).
 */
export function requiredPermissions(writes: readonly PlannedWrite[]): Permission[] {
  const out = new Map<string, Permission>();
  const add = (p: Permission): void => {
    out.set(`${p.verb} ${p.group}/${p.resource}/${p.subresource ?? ''} ${p.namespace ?? ''}`, p);
  };
  for (const w of writes) {
    const ns = w.object.metadata.namespace;
    add({
      verb: w.action,
      group: RBAC_API_GROUP,
      resource: PLURAL[w.object.kind],
      ...(ns !== undefined ? { namespace: ns } : {}),
    });
    if (w.action === 'delete') continue;
    // Stryker disable next-line ArrayDeclaration: a placeholder string is no owner reference: its kind is undefined, no owner kind
    for (const ref of w.object.metadata.ownerReferences ?? []) {
      const owner = OWNER_RESOURCES[ref.kind];
      if (owner !== undefined && ref.blockOwnerDeletion === true) {
        add({ verb: 'update', group: owner.group, resource: owner.resource, subresource: 'finalizers' });
      }
    }
  }
  return [...out.values()];
}

/** The rules of the roles being written; the caller must hold them all unless it has `escalate`. */
export function rulesGranted(writes: readonly PlannedWrite[]): PolicyRule[] {
  return writes.flatMap((w) =>
    w.action !== 'delete' && (w.object.kind === 'ClusterRole' || w.object.kind === 'Role')
      ? (w.object.rules ?? [])
      : [],
  );
}

/** Whether any role being written aggregates: that needs `escalate` or full authority. */
export function writesAggregationRule(writes: readonly PlannedWrite[]): boolean {
  return writes.some(
    (w) => w.action !== 'delete' && w.object.kind === 'ClusterRole' && w.object.aggregationRule !== undefined,
  );
}

/** `kubectl auth can-i` style text of a permission. */
export function formatPermission(p: Permission): string {
  const res = `${p.resource}${p.subresource !== undefined ? `/${p.subresource}` : ''}${p.group !== '' ? `.${p.group}` : ''}`;
  return `${p.verb} ${res}${p.namespace !== undefined ? ` in namespace ${p.namespace}` : ''}`;
}

/** The ClusterRole a caller needs to run `sync` at every level, with pruning. */
export function renderSyncRequiredRole(name = 'crossplane-rbac-sync'): ClusterRole {
  const read = ['get', 'list', 'watch'];
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRole',
    metadata: { name },
    rules: [
      {
        verbs: read,
        apiGroups: ['apiextensions.crossplane.io'],
        resources: ['compositeresourcedefinitions'],
      },
      { verbs: read, apiGroups: ['pkg.crossplane.io'], resources: ['providerrevisions'] },
      // Live, whose CRDs an XRD or revision names (metadata only): sync holds one whose CRDs are not its own.
      { verbs: read, apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'] },
      { verbs: read, apiGroups: ['apps'], resources: ['deployments'] },
      { verbs: read, apiGroups: [''], resources: ['namespaces', 'configmaps'] },
      {
        verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'],
        apiGroups: [RBAC_API_GROUP],
        resources: ['clusterroles', 'clusterrolebindings', 'rolebindings'],
      },
      { verbs: ['escalate', 'bind'], apiGroups: [RBAC_API_GROUP], resources: ['clusterroles'] },
      {
        verbs: ['update'],
        apiGroups: ['apiextensions.crossplane.io'],
        resources: ['compositeresourcedefinitions/finalizers'],
      },
      { verbs: ['update'], apiGroups: ['pkg.crossplane.io'], resources: ['providerrevisions/finalizers'] },
      { verbs: ['update'], apiGroups: [''], resources: ['namespaces/finalizers'] },
      {
        verbs: ['create'],
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
      },
    ],
  };
}

/**
 * A ClusterRole with `list` on RESOURCES, one rule per API group in the order given. Discovery (/api, /apis) is not
 * in it: Kubernetes grants it to every authenticated user (ClusterRole system:discovery), as kubectl needs it too.
 */
export function renderReadRole(
  name: string,
  resources: readonly { readonly group: string; readonly resource: string }[],
): ClusterRole {
  const byGroup = new Map<string, string[]>();
  for (const r of resources) {
    const list = byGroup.get(r.group) ?? [];
    if (!list.includes(r.resource)) list.push(r.resource);
    byGroup.set(r.group, list);
  }
  const rules: PolicyRule[] = [...byGroup].map(([group, res]) => ({
    verbs: ['list'],
    apiGroups: [group],
    resources: res,
  }));
  return { apiVersion: RBAC_API_VERSION, kind: 'ClusterRole', metadata: { name }, rules };
}
