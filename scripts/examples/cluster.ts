// The small example cluster's own objects: its namespaces, Config Sync, and the CRDs of the kinds it uses.
import type { KubeObject } from '../../src/kube/types.js';
import { CROSSPLANE_INSTALLED, CROSSPLANE_NS, XRDS_CREATED, uid } from './ids.js';
import { R, accept, clusterRoleBinding, namespace, serviceAccount, type Doc } from './objects.js';
import { configSyncRole } from './reference-roles.js';

export function clusterNamespaces(): KubeObject[] {
  return [
    namespace('default'),
    namespace('kube-system'),
    namespace('kube-public'),
    namespace('kube-node-lease'),
    namespace(CROSSPLANE_NS, { created: CROSSPLANE_INSTALLED }),
    namespace('config-management-system', { created: CROSSPLANE_INSTALLED }),
    namespace('team-a', {
      labels: { 'acme.io/team': 'a' },
      annotations: accept(
        'xpostgresqlinstances.database.platform.acme.io',
        'xbuckets.storage.platform.acme.io',
        'apps.platform.acme.io',
        'databases.platform.acme.io',
      ),
    }),
    namespace('team-b', {
      labels: { 'acme.io/team': 'b' },
      annotations: accept('xsqlinstances.aws.platform.upbound.io', 'networks.aws.platform.upbound.io'),
    }),
    namespace('payments', {
      labels: { 'acme.io/team': 'payments' },
      annotations: accept(
        'xpostgresqlinstances.database.platform.acme.io',
        'xredisclusters.cache.platform.acme.io',
        'caches.platform.acme.io',
        'topics.messaging.acme.io',
      ),
    }),
    namespace('analytics', {
      labels: { 'acme.io/team': 'analytics' },
      annotations: accept('buckets.storage.acme.io', 'xqueues.messaging.platform.acme.io'),
    }),
    namespace('staging', { annotations: accept('webservices.platform.acme.io') }),
    namespace('production'),
    namespace('sandbox', { labels: { 'acme.io/ephemeral': 'true' } }),
  ];
}

// Config Sync (kpt-config-sync): the RootSync, its reconciler ServiceAccount, the base ClusterRole, and the legacy
// cluster-admin binding reconciler-manager made before roleRefs were set.

export function configSync(): Doc[] {
  const ns = 'config-management-system';
  return [
    {
      apiVersion: 'configsync.gke.io/v1beta1',
      kind: 'RootSync',
      metadata: {
        name: 'root-sync',
        namespace: ns,
        uid: uid('RootSync', ns, 'root-sync'),
        creationTimestamp: CROSSPLANE_INSTALLED,
      },
      spec: {
        sourceFormat: 'unstructured',
        sourceType: 'git',
        git: {
          repo: 'https://github.com/acme/platform-config',
          branch: 'main',
          dir: 'clusters/prod-eu-1',
          auth: 'none',
        },
        override: {
          roleRefs: [
            { kind: 'ClusterRole', name: 'crossplane-edit' },
            { kind: 'ClusterRole', name: 'view' },
            { kind: 'ClusterRole', name: 'edit', namespace: 'team-a' },
            { kind: 'Role', name: 'gitops-deployer', namespace: 'team-b' },
          ],
        },
      },
    },
    {
      ...serviceAccount(
        ns,
        'root-reconciler',
        {
          'configsync.gke.io/sync-kind': 'RootSync',
          'configsync.gke.io/sync-name': 'root-sync',
          'configsync.gke.io/sync-namespace': ns,
        },
        CROSSPLANE_INSTALLED,
      ),
    },
    // VERBATIM from Config Sync's manifests/root-reconciler-base-cluster-role.yaml (test/fixtures/real/configsync.yaml).
    configSyncRole('configsync.gke.io:root-reconciler'),
    clusterRoleBinding(
      'configsync.gke.io:root-reconciler',
      'cluster-admin',
      [{ kind: 'ServiceAccount', name: 'root-reconciler', namespace: ns }],
      {
        'configsync.gke.io/managed-by': 'reconciler-manager',
        'configsync.gke.io/sync-kind': 'RootSync',
        'configsync.gke.io/sync-namespace': ns,
      },
      CROSSPLANE_INSTALLED,
    ),
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: {
        name: 'gitops-deployer',
        namespace: 'team-b',
        uid: uid('Role', 'team-b', 'gitops-deployer'),
        creationTimestamp: CROSSPLANE_INSTALLED,
      },
      rules: [
        R(['apps'], ['deployments'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
        R([''], ['configmaps', 'services'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
      ],
    },
  ];
}

/** A CustomResourceDefinition as a real cluster has it (schema elided); a status subresource unless `status` is false. */
function crd(
  group: string,
  plural: string,
  kind: string,
  scope: string,
  versions: readonly string[],
  extra: Readonly<Record<string, unknown>> = {},
  { status = true }: { status?: boolean } = {},
): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}`, uid: uid('crd', plural, group) },
    spec: {
      group,
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List`, ...extra },
      scope,
      versions: versions.map((name, i) => ({
        name,
        served: true,
        storage: i === versions.length - 1,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        subresources: status ? { status: {} } : {},
      })),
    },
  };
}

/** The CustomResourceDefinitions of the kinds the examples use, as a real cluster has them. */
export function crossplaneCrds(): KubeObject[] {
  return [
    crd(
      'apiextensions.crossplane.io',
      'compositeresourcedefinitions',
      'CompositeResourceDefinition',
      'Cluster',
      ['v1', 'v2'],
      {
        shortNames: ['xrd', 'xrds'],
        categories: ['crossplane'],
      },
    ),
    crd('pkg.crossplane.io', 'providers', 'Provider', 'Cluster', ['v1'], {
      categories: ['crossplane', 'pkg'],
    }),
    crd('pkg.crossplane.io', 'providerrevisions', 'ProviderRevision', 'Cluster', ['v1'], {
      categories: ['crossplane', 'pkg'],
    }),
    crd('configsync.gke.io', 'rootsyncs', 'RootSync', 'Namespaced', ['v1beta1']),
  ];
}

/**
 * The CRDs of the kinds in 60-compositions.yaml (small cluster only): Composition, which has no status
 * subresource, and WatchOperation (cluster/crds/ of crossplane/crossplane v2.1.0).
 */
export function compositionCrds(): KubeObject[] {
  return [
    crd(
      'apiextensions.crossplane.io',
      'compositions',
      'Composition',
      'Cluster',
      ['v1'],
      { shortNames: ['comp'], categories: ['crossplane'] },
      { status: false },
    ),
    crd('ops.crossplane.io', 'watchoperations', 'WatchOperation', 'Cluster', ['v1alpha1'], {
      shortNames: ['watchops'],
      categories: ['crossplane'],
    }),
  ];
}

/**
 * What many platform teams do on a default install, and what `audit` is for: a group bound to the chart's
 * crossplane-edit in every namespace (examples/audit, read with examples/cluster).
 */
export function platformTeamBinding(): KubeObject[] {
  return [
    clusterRoleBinding(
      'platform-engineers',
      'crossplane-edit',
      [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'platform-engineers' }],
      undefined,
      XRDS_CREATED,
    ),
  ];
}

// RBAC a team made in its own namespace: ns-reader may read the Roles and RoleBindings of sandbox and nothing
// cluster-wide (docs/guides/namespace-only-rights.md asks as ns-reader), and the team's group is bound to edit there.

/** A namespaced RBAC object as the API server stores it, created with Crossplane. */
function namespaced(kind: 'Role' | 'RoleBinding', namespace: string, name: string): KubeObject['metadata'] {
  return { name, namespace, uid: uid(kind, namespace, name), creationTimestamp: CROSSPLANE_INSTALLED };
}

export function tenantRbac(): KubeObject[] {
  const ns = 'sandbox';
  const rbac = 'rbac.authorization.k8s.io';
  return [
    {
      apiVersion: `${rbac}/v1`,
      kind: 'Role',
      metadata: namespaced('Role', ns, 'rbac-reader'),
      rules: [R([rbac], ['roles', 'rolebindings'], ['get', 'list', 'watch'])],
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: namespaced('RoleBinding', ns, 'rbac-reader'),
      roleRef: { apiGroup: rbac, kind: 'Role', name: 'rbac-reader' },
      subjects: [{ apiGroup: rbac, kind: 'User', name: 'ns-reader' }],
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: namespaced('RoleBinding', ns, 'edit'),
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'edit' },
      subjects: [{ apiGroup: rbac, kind: 'Group', name: 'sandbox-devs' }],
    },
  ] as KubeObject[];
}
