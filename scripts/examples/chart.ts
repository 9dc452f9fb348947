// Crossplane as its Helm chart installs it (crossplane/crossplane cluster/charts/crossplane/templates), release
// "crossplane" in crossplane-system, rbacManager.deploy=true. The RBAC objects come from the vendored chart
// rendering (reference-roles.ts); the examples name chart version CROSSPLANE_VERSION in their labels.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { ClusterRole, ClusterRoleBinding, KubeObject, Labels } from '../../src/kube/types.js';
import { CROSSPLANE_INSTALLED, CROSSPLANE_NS, uid } from './ids.js';
import { serviceAccount } from './objects.js';
import { CHART_RBAC_FILE, chartLabels, crossplaneChartRbac } from './reference-roles.js';

export const CROSSPLANE_VERSION = '2.1.0';
const CROSSPLANE_IMAGE = `xpkg.crossplane.io/crossplane/crossplane:v${CROSSPLANE_VERSION}`;

export interface Chart {
  readonly serviceAccounts: readonly KubeObject[];
  readonly roles: readonly ClusterRole[];
  readonly bindings: readonly ClusterRoleBinding[];
  readonly deployment: KubeObject;
}

/** The labels the chart puts on every object: those of its ServiceAccounts in the vendored rendering. */
function labels(): Labels {
  const sa = parseAllDocuments(readFileSync(CHART_RBAC_FILE, 'utf8'))
    .map((d) => d.toJS() as KubeObject | null)
    .find((o) => o?.kind === 'ServiceAccount' && o.metadata.name === 'crossplane');
  if (sa?.metadata.labels === undefined) throw new Error(`${CHART_RBAC_FILE} has no crossplane ServiceAccount`);
  return chartLabels(sa.metadata.labels, CROSSPLANE_VERSION);
}

export function crossplaneChart(): Chart {
  const L = labels();
  const { app: _app, ...podLabels } = L;
  const { roles, bindings } = crossplaneChartRbac(CROSSPLANE_VERSION);
  return {
    serviceAccounts: [
      serviceAccount(CROSSPLANE_NS, 'rbac-manager', L, CROSSPLANE_INSTALLED),
      serviceAccount(CROSSPLANE_NS, 'crossplane', L, CROSSPLANE_INSTALLED),
    ],
    roles,
    bindings,
    deployment: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'crossplane',
        namespace: CROSSPLANE_NS,
        uid: uid('Deployment', CROSSPLANE_NS, 'crossplane'),
        creationTimestamp: CROSSPLANE_INSTALLED,
        labels: { ...L, release: 'crossplane' },
      },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'crossplane', release: 'crossplane' } },
        strategy: { type: 'RollingUpdate' },
        template: {
          metadata: { labels: { app: 'crossplane', release: 'crossplane', ...podLabels } },
          spec: {
            serviceAccountName: 'crossplane',
            containers: [
              {
                name: 'crossplane',
                image: CROSSPLANE_IMAGE,
                args: ['core', 'start'],
                ports: [
                  { name: 'readyz', containerPort: 8081 },
                  { name: 'webhooks', containerPort: 9443 },
                ],
              },
            ],
          },
        },
      },
    },
  };
}
