/**
 * `audit -o json`'s contract through the real kubectl, on the cluster audit-cluster.ts sets up: the AuditReport's
 * shape and by-design list, and, for every step of every finding, the server's own answer (kubectl auth can-i
 * --as): its trigger is allowed to the identity the step starts from, the identity the path ends at holds the
 * capability, and the subject itself is denied it.
 */
import { describe, expect, it } from 'vitest';
import { auditCluster, CAPABILITY_CHECK, EXPECTED, NS, type Ref } from './audit-cluster.js';

const c = auditCluster('xrbac-e2e-audit-contract-');

describe('audit -o json', () => {
  it('prints the AuditReport contract', () => {
    expect(c.report.apiVersion).toBe('crossplane-rbac/v1');
    expect(c.report.kind).toBe('AuditReport');
    expect(c.report.accepted).toStrictEqual([]);
    expect(c.report.unseen).toStrictEqual([]);
    const byDesign = c.report.byDesign.map(
      (b) => `${b.subject.kind}/${b.subject.namespace ?? ''}/${b.subject.name}`,
    );
    expect(byDesign).toContain(`ServiceAccount/${NS}/crossplane`);
    expect(byDesign).toContain(`ServiceAccount/${NS}/rbac-manager`);
    expect(byDesign).toContain('Group//crossplane:masters');
    expect(
      c.report.findings.some((f) =>
        byDesign.includes(`${f.subject.kind}/${f.subject.namespace ?? ''}/${f.subject.name}`),
      ),
    ).toBe(false);
  });

  it('every step of every finding holds as the server decides, and the subject lacks the capability', async () => {
    expect(c.report.findings.length).toBeGreaterThanOrEqual(EXPECTED.length);
    for (const f of c.report.findings) {
      let from: Ref = f.subject;
      for (const s of f.steps) {
        const t = s.trigger;
        const what = `${JSON.stringify(from)} ${s.mechanism}: ${t.verb} ${t.resource} ${t.name ?? ''} -n ${t.namespace ?? '-A'}`;
        expect(await c.canI(from, t.verb, t.resource, t.namespace, t.name), what).toBe(true);
        from = s.actsAs;
      }
      const check = CAPABILITY_CHECK[f.capability];
      expect(check, f.capability).toBeDefined();
      const [verb, resource, ns] = check ?? ['', ''];
      expect(await c.canI(from, verb, resource, ns), `${JSON.stringify(from)} holds ${f.capability}`).toBe(
        true,
      );
      expect(
        await c.canI(f.subject, verb, resource, ns),
        `${JSON.stringify(f.subject)} lacks ${f.capability}`,
      ).toBe(false);
    }
  }, 300_000);
});
