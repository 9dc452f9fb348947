import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { ClusterRole, LabelSelector, PolicyRule } from '../../../src/kube/types.js';

/** Every object in a YAML file, `kind: List` items flattened. */
export function readObjects(file: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
    const value: unknown = doc.toJS();
    if (value === null || typeof value !== 'object') continue;
    const obj = value as Record<string, unknown>;
    if (Array.isArray(obj.items)) out.push(...(obj.items as Record<string, unknown>[]));
    else out.push(obj);
  }
  return out;
}

export function readClusterRoles(file: string): ClusterRole[] {
  return readObjects(file).filter((o) => o.kind === 'ClusterRole') as unknown as ClusterRole[];
}

export function role(
  name: string,
  labels: Record<string, string>,
  rules: readonly PolicyRule[] = [],
  selectors?: readonly LabelSelector[],
): ClusterRole {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, labels },
    rules,
    ...(selectors !== undefined ? { aggregationRule: { clusterRoleSelectors: selectors } } : {}),
  };
}

export const rule = (verb: string, resource: string, group = ''): PolicyRule => ({
  apiGroups: [group],
  resources: [resource],
  verbs: [verb],
});

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
