import type {
  ClusterRole,
  ClusterRoleBinding,
  ClusterSnapshot,
  ConfigMap,
  Deployment,
  KubeObject,
  Namespace,
  ProviderRevision,
  RoleBinding,
  Xrd,
} from './types.js';

/** Sorts a list of objects into a snapshot by kind; anything else is kept in `others`. */
export function snapshotFromObjects(objects: readonly KubeObject[]): ClusterSnapshot {
  const s = {
    xrds: [] as Xrd[],
    providerRevisions: [] as ProviderRevision[],
    deployments: [] as Deployment[],
    namespaces: [] as Namespace[],
    clusterRoles: [] as ClusterRole[],
    clusterRoleBindings: [] as ClusterRoleBinding[],
    roleBindings: [] as RoleBinding[],
    configMaps: [] as ConfigMap[],
    others: [] as KubeObject[],
  };
  for (const obj of objects) {
    const group = obj.apiVersion.includes('/') ? obj.apiVersion.split('/')[0] : '';
    if (obj.kind === 'CompositeResourceDefinition' && group === 'apiextensions.crossplane.io') {
      s.xrds.push(obj as unknown as Xrd);
    } else if (obj.kind === 'ProviderRevision' && group === 'pkg.crossplane.io') {
      s.providerRevisions.push(obj as unknown as ProviderRevision);
    } else if (obj.kind === 'Deployment' && group === 'apps')
      s.deployments.push(obj as unknown as Deployment);
    else if (obj.kind === 'Namespace' && group === '') s.namespaces.push(obj as unknown as Namespace);
    else if (obj.kind === 'ClusterRole' && group === 'rbac.authorization.k8s.io') {
      s.clusterRoles.push(obj as unknown as ClusterRole);
    } else if (obj.kind === 'ClusterRoleBinding' && group === 'rbac.authorization.k8s.io') {
      s.clusterRoleBindings.push(obj as unknown as ClusterRoleBinding);
    } else if (obj.kind === 'RoleBinding' && group === 'rbac.authorization.k8s.io') {
      s.roleBindings.push(obj as unknown as RoleBinding);
    } else if (obj.kind === 'ConfigMap' && group === '') s.configMaps.push(obj as unknown as ConfigMap);
    else s.others.push(obj);
  }
  return s;
}

export const emptySnapshot: ClusterSnapshot = snapshotFromObjects([]);
