// Loads the chart fixtures: the charts as rendered upstream from test/fixtures/real/ (test/fixtures/README.md), the
// renderings derived from them from test/fixtures/fidelity/ (test/fixtures/README-fidelity.md).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { ClusterRole, ClusterRoleBinding, KubeObject } from '../../../src/kube/types.js';

const REAL = fileURLToPath(new URL('../../fixtures/real/', import.meta.url));
const DERIVED = fileURLToPath(new URL('../../fixtures/fidelity/', import.meta.url));
const DERIVED_FILES: ReadonlySet<string> = new Set([
  'crossplane-chart-rbac-name-override.yaml',
  'crossplane-chart-rbac-skip-aggregated.yaml',
]);

export type ChartFixture =
  | 'crossplane-chart-rbac.yaml'
  | 'crossplane-chart-rbac-no-rbac-manager.yaml'
  | 'crossplane-chart-rbac-name-override.yaml'
  | 'crossplane-chart-rbac-skip-aggregated.yaml'
  | 'crossplane-chart-v1.20-rbac.yaml';

export function loadFixture(file: ChartFixture): KubeObject[] {
  return parseAllDocuments(readFileSync((DERIVED_FILES.has(file) ? DERIVED : REAL) + file, 'utf8'))
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null && typeof o === 'object');
}

export function chartClusterRoles(file: ChartFixture): ClusterRole[] {
  return loadFixture(file).filter((o) => o.kind === 'ClusterRole') as unknown as ClusterRole[];
}

export function chartClusterRoleBindings(file: ChartFixture): ClusterRoleBinding[] {
  return loadFixture(file).filter((o) => o.kind === 'ClusterRoleBinding') as unknown as ClusterRoleBinding[];
}
