// The example cluster's objects, read as the fixtures of the validator's tests (validate-input.test.ts and its
// fuzz, validate-input-fuzz.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_SCHEMA, loadAll } from 'js-yaml';
import type { KubeObject } from '../../../src/kube/types.js';
import { exampleCluster } from '../cli/bind-fakes.js';

export function readExamples(): KubeObject[] {
  const out: KubeObject[] = [];
  for (const f of readdirSync(exampleCluster).sort()) {
    const docs = loadAll(readFileSync(join(exampleCluster, f), 'utf8'), null, { schema: CORE_SCHEMA });
    for (const d of docs) if (d !== null && d !== undefined) out.push(d as KubeObject);
  }
  return out;
}

/** Every part of the snapshot the validator checks. */
export const ALL_PARTS = [
  'xrds',
  'providerRevisions',
  'deployments',
  'namespaces',
  'clusterRoles',
  'clusterRoleBindings',
  'roleBindings',
  'configMaps',
  'rootSyncs',
] as const;
