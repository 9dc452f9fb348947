/**
 * The cluster the live audit of ProviderConfigs runs on (audit-provider-configs.test.ts), besides examples/cluster's
 * CRDs and namespaces: a provider-kubernetes revision whose objectRefs name its CRDs
 * (test/fixtures/real/provider-kubernetes-config-crds.yaml), the provider's Deployment running as an account bound to
 * cluster-admin, a user who may create Objects, and an auditor who may read everything an audit reads but
 * ProviderConfigs.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { fixturePath } from '../support/fixtures.js';

export const RBAC = 'rbac.authorization.k8s.io';
export const rbac = `${RBAC}/v1`;
export const REVISION = 'crossplane-contrib-provider-kubernetes-408e44da486e';
export const CRDS = parseAllDocuments(
  readFileSync(fixturePath('real', 'provider-kubernetes-config-crds.yaml'), 'utf8'),
).map((d) => d.toJSON() as { metadata: { name: string } });

/** The provider-kubernetes revision as installed: active, its status naming its CRDs. */
export function installedRevision(): Record<string, unknown> {
  return {
    apiVersion: 'pkg.crossplane.io/v1',
    kind: 'ProviderRevision',
    metadata: { name: REVISION },
    spec: {
      desiredState: 'Active',
      image: 'xpkg.crossplane.io/crossplane-contrib/provider-kubernetes:v1.2.1',
      revision: 1,
    },
    status: {
      objectRefs: CRDS.map((c) => ({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: c.metadata.name,
      })),
    },
  };
}

/** The provider's Deployment and account, the user who may create Objects, and the auditor. */
export function providerSeed(): Record<string, unknown>[] {
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: REVISION,
        namespace: 'crossplane-system',
        ownerReferences: [
          { apiVersion: 'pkg.crossplane.io/v1', kind: 'ProviderRevision', name: REVISION, uid: 'u1' },
        ],
      },
      spec: {
        selector: { matchLabels: { app: 'pk' } },
        template: {
          metadata: { labels: { app: 'pk' } },
          spec: { serviceAccountName: 'provider-kubernetes', containers: [{ name: 'p', image: 'p' }] },
        },
      },
    },
    {
      apiVersion: rbac,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'provider-kubernetes-admin' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: 'provider-kubernetes', namespace: 'crossplane-system' }],
    },
    {
      apiVersion: rbac,
      kind: 'ClusterRole',
      metadata: { name: 'object-creator' },
      rules: [
        {
          apiGroups: ['kubernetes.crossplane.io', 'kubernetes.m.crossplane.io'],
          resources: ['objects'],
          verbs: ['create'],
        },
      ],
    },
    {
      apiVersion: rbac,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'objector' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'object-creator' },
      subjects: [{ apiGroup: RBAC, kind: 'User', name: 'objector' }],
    },
    // The auditor may read everything an audit reads but ProviderConfigs.
    {
      apiVersion: rbac,
      kind: 'ClusterRole',
      metadata: { name: 'audit-reader-no-configs' },
      rules: [
        {
          apiGroups: [RBAC],
          resources: ['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings'],
          verbs: ['get', 'list'],
        },
        { apiGroups: ['', 'apps'], resources: ['namespaces', 'deployments'], verbs: ['list'] },
        {
          apiGroups: ['pkg.crossplane.io', 'apiextensions.crossplane.io'],
          resources: ['*'],
          verbs: ['list'],
        },
      ],
    },
    {
      apiVersion: rbac,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'auditor' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'audit-reader-no-configs' },
      subjects: [{ apiGroup: RBAC, kind: 'User', name: 'auditor' }],
    },
  ];
}
