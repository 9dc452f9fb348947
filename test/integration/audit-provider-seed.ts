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
    ...grantToUser('objector', 'object-creator', [
      {
        apiGroups: ['kubernetes.crossplane.io', 'kubernetes.m.crossplane.io'],
        resources: ['objects'],
        verbs: ['create'],
      },
    ]),
    // The auditor may read everything an audit reads but ProviderConfigs.
    ...grantToUser('auditor', 'audit-reader-no-configs', [
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
    ]),
  ];
}

/** The ClusterRole ROLE with RULES, and a ClusterRoleBinding named after USER that grants it to that user. */
export function grantToUser(user: string, role: string, rules: readonly object[]): Record<string, unknown>[] {
  return [
    { apiVersion: rbac, kind: 'ClusterRole', metadata: { name: role }, rules },
    {
      apiVersion: rbac,
      kind: 'ClusterRoleBinding',
      metadata: { name: user },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
      subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
    },
  ];
}
