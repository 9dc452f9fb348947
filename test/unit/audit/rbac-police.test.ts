/**
 * The classic steps against rbac-police's rules (test/fixtures/rbac-police/rules.yaml, derived from
 * PaloAltoNetworks/rbac-police lib/*.rego @ 1ec5d029f008e29869572157c9645ce6c21399c8): each rule, bound to a probe
 * user in kube-system (rbac-police's privileged namespace) or cluster-wide, on a cluster where kube-system runs a
 * Deployment as a cluster-admin service account and a user holds cluster-admin (so every rule has something to
 * reach). Where the policy flags the rule and the fixture names a step, audit must report a path to cluster-admin
 * that starts with it; where it does not (the policy's near misses, and the cases the fixture explains), audit must
 * report none.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { audit } from '../../../src/audit/audit.js';
import type { AuditInput } from '../../../src/audit/cluster-context.js';
import type { PolicyRule } from '../../../src/kube/types.js';
import { fixturePath } from '../../support/fixtures.js';

interface Case {
  readonly policy: string;
  readonly scope: 'kube-system' | 'cluster';
  readonly rule: PolicyRule;
  readonly flagged: boolean;
  readonly step: string | null;
  readonly why?: string;
}

const CASES = parse(readFileSync(fixturePath('rbac-police', 'rules.yaml'), 'utf8')) as Case[];
const RBAC = 'rbac.authorization.k8s.io';
const V1 = `${RBAC}/v1` as const;
const ref = (name: string) => ({ apiGroup: RBAC, kind: 'ClusterRole' as const, name });

function cluster(c: Case): AuditInput {
  return {
    clusterRoles: [
      {
        apiVersion: V1,
        kind: 'ClusterRole',
        metadata: { name: 'cluster-admin' },
        rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
      },
      { apiVersion: V1, kind: 'ClusterRole', metadata: { name: 'probe' }, rules: [c.rule] },
    ],
    clusterRoleBindings: [
      {
        apiVersion: V1,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'admins' },
        roleRef: ref('cluster-admin'),
        subjects: [
          { kind: 'ServiceAccount', name: 'admin-sa', namespace: 'kube-system' },
          { apiGroup: RBAC, kind: 'User', name: 'root-user' },
        ],
      },
      ...(c.scope === 'cluster'
        ? [
            {
              apiVersion: V1,
              kind: 'ClusterRoleBinding' as const,
              metadata: { name: 'probe' },
              roleRef: ref('probe'),
              subjects: [{ apiGroup: RBAC, kind: 'User', name: 'probe' }],
            },
          ]
        : []),
    ],
    roleBindings:
      c.scope === 'kube-system'
        ? [
            {
              apiVersion: V1,
              kind: 'RoleBinding',
              metadata: { name: 'probe', namespace: 'kube-system' },
              roleRef: ref('probe'),
              subjects: [{ apiGroup: RBAC, kind: 'User', name: 'probe' }],
            },
          ]
        : [],
    roles: [],
    deployments: [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'controller', namespace: 'kube-system' },
        spec: { template: { spec: { serviceAccountName: 'admin-sa' } } },
      },
    ],
    providerRevisions: [],
  };
}

describe("audit's classic steps against rbac-police's rules", () => {
  it('reads the fixture: every policy with a positive and a negative case', () => {
    expect(CASES.length).toBeGreaterThan(20);
    const policies = new Set(CASES.map((c) => c.policy));
    for (const p of policies) {
      expect(
        CASES.some((c) => c.policy === p && c.flagged),
        p,
      ).toBe(true);
      expect(
        CASES.some((c) => c.policy === p && !c.flagged),
        p,
      ).toBe(true);
    }
    // Where the fixture disagrees with the policy, it says why.
    for (const c of CASES.filter((x) => x.flagged && x.step === null)) expect(c.why, c.policy).toBeDefined();
  });

  it.each(CASES.map((c) => [`${c.policy} ${c.scope} ${JSON.stringify(c.rule)}`, c] as const))(
    '%s',
    (_, c) => {
      const user = { kind: 'User' as const, name: 'probe' };
      const found = audit(cluster(c), { subject: user }).findings.filter(
        (f) => f.capability === 'cluster-admin',
      );
      const first = found.map((f) => f.steps[0]?.mechanism);
      if (c.step === null) expect(first).toStrictEqual([]);
      else if (c.step === 'any') expect(first.length).toBeGreaterThan(0);
      else expect(first).toContain(c.step);
    },
  );
});
