/**
 * `audit`'s classic steps (bind, escalate, webhook, run-as, token-request, secret-token, impersonate) through the
 * real kubectl, on the cluster audit-cluster.ts sets up: a finding per mechanism, and the negative controls (a
 * subject without any trigger, a holder of crossplane-view, and a holder of cluster-admin have no finding).
 */
import { describe, expect, it } from 'vitest';
import { auditCluster, CLASSIC, EXPECTED, expectFindingBy } from './audit-cluster.js';

const c = auditCluster('xrbac-e2e-audit-classic-');

describe('audit’s classic steps', () => {
  it.each(EXPECTED.filter(([, m]) => CLASSIC.has(m)))(
    '%s: a finding that starts with %s and reaches %s',
    (user, mechanism, capability) => {
      expectFindingBy(c, user, mechanism, capability);
    },
  );

  it('negative controls: no trigger, crossplane-view, and cluster-admin holders have no finding', async () => {
    expect(
      await c.canI({ kind: 'User', name: 'reader' }, 'get', 'compositions.apiextensions.crossplane.io'),
    ).toBe(true);
    expect(c.findingsOf('reader')).toStrictEqual([]);
    expect(
      await c.canI({ kind: 'User', name: 'viewer' }, 'list', 'compositions.apiextensions.crossplane.io'),
    ).toBe(true);
    expect(c.findingsOf('viewer')).toStrictEqual([]);
    const reconciler = {
      kind: 'ServiceAccount',
      name: 'root-reconciler',
      namespace: 'config-management-system',
    };
    expect(await c.canI(reconciler, '*', '*')).toBe(true);
    expect(c.report.findings.filter((f) => f.subject.name === 'root-reconciler')).toStrictEqual([]);
  });
});
