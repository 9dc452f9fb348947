/**
 * who-can -o wide on a provider family's rule: Crossplane's provider roles list the family's resources twice
 * (each kind and its /status, every member's kinds: a 96-name stored rule on examples/cluster). Each resource is printed
 * once; on a terminal the list folds to its width with the resource asked about first; piped it is complete.
 */
import { describe, expect, it } from 'vitest';
import { toPrinter } from '../../../src/cli/output/registry.js';
import type { WhoCanResult } from '../../../src/who-can/who-can.js';

const kinds = Array.from({ length: 48 }, (_, i) => `kind${String(i).padStart(2, '0')}s`);
const stored = [...kinds, ...kinds]; // each name twice, as the stored rule holds it
const result: WhoCanResult = {
  request: { verb: 'delete', apiGroup: 's3.aws.upbound.io', resource: 'kind40s' },
  resource: { kind: 'Kind40', namespaced: false },
  allNamespaces: false,
  drift: [],
  subjects: [
    {
      kind: 'Group',
      name: 'crossplane:masters',
      always: false,
      paths: [
        {
          binding: { kind: 'ClusterRoleBinding', name: 'crossplane-admin' },
          role: { kind: 'ClusterRole', name: 'crossplane-admin' },
          chain: ['crossplane-admin', 'crossplane:provider:acme:aggregate-to-edit'],
          rule: { apiGroups: ['s3.aws.upbound.io'], resources: stored, verbs: ['*'] },
          ruleIndex: 3,
          stored: true,
        },
      ],
    },
  ],
};

/** who-can -o wide as the registry prints it, piped (no width) or on a terminal WIDTH columns wide. */
async function wide(width?: number): Promise<string> {
  const print = await toPrinter('who-can', 'wide');
  return [...print(result, { color: false, headers: true, width, version: 'v0' }).out].join('');
}

describe('who-can -o wide', () => {
  it('prints each resource of a rule once, complete when piped', async () => {
    const out = await wide();
    const row = out.split('\n')[1] ?? '';
    expect(row.endsWith(`* s3.aws.upbound.io/${kinds.join(',')}`)).toBe(true);
    for (const k of kinds) expect(row.split(k).length - 1, k).toBe(1);
  });

  it('folds the resources to a terminal, the one asked about first', async () => {
    const out = await wide(200);
    const row = out.split('\n')[1] ?? '';
    expect(row.length).toBeLessThanOrEqual(200);
    expect(row).toMatch(/\* s3\.aws\.upbound\.io\/kind40s,kind00s,.* … and \d+ more$/);
  });
});
