/**
 * `audit`'s steps through Crossplane (compose-as-crossplane, operate-as-crossplane, runtime-config, install-package,
 * provider-identity, compose-through-xr, define-api) through the real kubectl, on the cluster audit-cluster.ts sets
 * up: a finding per mechanism, what a provider installed now holds, the transitive case, what an XR composes, and
 * crossplane-edit's paths with their fix.
 */
import { describe, expect, it } from 'vitest';
import {
  auditCluster,
  CLASSIC,
  EXPECTED,
  expectFindingBy,
  NS,
  type Named,
  type Ref,
} from './audit-cluster.js';
import { ok } from './seeded-cluster.js';

const c = auditCluster('xrbac-e2e-audit-crossplane-');

describe('audit’s steps through Crossplane', () => {
  it.each(EXPECTED.filter(([, m]) => !CLASSIC.has(m)))(
    '%s: a finding that starts with %s and reaches %s',
    (user, mechanism, capability) => {
      expectFindingBy(c, user, mechanism, capability);
    },
  );

  it('a provider installed now gets what an installed provider’s account holds: Secrets in every namespace', async () => {
    const sa = c.report.byDesign.find((b) => b.reason.includes('provider'))?.subject;
    expect(sa).toBeDefined();
    expect(await c.canI(sa as Ref, 'list', 'secrets')).toBe(true);
  });

  it('the transitive case: writing Compositions reaches cluster-admin through Crossplane’s account', () => {
    const f = c.findingsOf('composer').find((x) => x.steps[0]?.mechanism === 'compose-as-crossplane');
    expect(f?.steps.length).toBeGreaterThan(1);
    expect(f?.steps[0]?.actsAs).toStrictEqual({ kind: 'ServiceAccount', name: 'crossplane', namespace: NS });
    expect(f?.steps[0]?.via).toStrictEqual([
      'ClusterRoleBinding/audit:composer',
      'ClusterRole/audit:compose',
    ]);
    expect(f?.steps[0]?.source).toMatch(/composition_functions\.go/);
  });

  it('compose-through-xr: the App’s Composition composes Deployments, which its author may not create', async () => {
    const f = c.findingsOf('app-maker').find((x) => x.steps[0]?.mechanism === 'compose-through-xr');
    const step = f?.steps[0];
    expect(step?.trigger).toStrictEqual({
      verb: 'create',
      resource: 'apps.platform.acme.io',
      namespace: 'kube-system',
    });
    expect(step?.actsAs.namespace).toBe('kube-system');
    expect(step?.source).toMatch(/composition_render\.go/);
    // What composes an App, read from the server: the Compositions whose compositeTypeRef is App.
    const list = JSON.parse(
      ok(await c.run(['get', 'compositions', '-o', 'json']), 'get compositions').stdout,
    ) as {
      items: { metadata: Named; spec: { compositeTypeRef: { kind: string }; pipeline?: unknown[] } }[];
    };
    const forApp = list.items.filter((c) => c.spec.compositeTypeRef.kind === 'App');
    expect(forApp.map((c) => c.metadata.name)).toStrictEqual(['app-web']);
    expect(JSON.stringify(forApp[0]?.spec.pipeline)).toContain('"kind":"Deployment"');
    expect(
      await c.canI({ kind: 'User', name: 'app-maker' }, 'create', 'deployments.apps', 'kube-system'),
    ).toBe(false);
    expect(await c.canI({ kind: 'User', name: 'app-maker' }, 'create', 'pods', 'kube-system')).toBe(false);
    // Negative control: who may create the composed kinds itself gains nothing through the XR.
    expect(
      await c.canI({ kind: 'User', name: 'app-deployer' }, 'create', 'apps.platform.acme.io', 'team-a'),
    ).toBe(true);
    expect(
      c.findingsOf('app-deployer').filter((x) => x.steps[0]?.mechanism === 'compose-through-xr'),
    ).toStrictEqual([]);
  });

  it('crossplane-edit (examples/audit): paths to cluster-admin, fixed by binding crossplane-view instead', () => {
    const group = c.report.findings.filter(
      (f) => f.subject.kind === 'Group' && f.subject.name === 'platform-engineers',
    );
    expect(group.map((f) => f.steps[0]?.mechanism)).toContain('compose-as-crossplane');
    expect(group.map((f) => f.steps[0]?.mechanism)).toContain('runtime-config');
    // The RBAC manager runs here: an XRD in any group aggregates every verb on it into crossplane-edit.
    expect(group.map((f) => f.steps[0]?.mechanism)).toContain('define-api');
    for (const f of group) {
      expect(f.capability).toBe('cluster-admin');
      expect(f.steps[0]?.via.slice(0, 2)).toStrictEqual([
        'ClusterRoleBinding/platform-engineers',
        'ClusterRole/crossplane-edit',
      ]);
      expect(f.fix, f.steps[0]?.mechanism).toMatch(
        /^bind crossplane-view \(or crossplane-browse\) to Group\/platform-engineers instead of crossplane-edit/,
      );
    }
    const runtime = group.find((f) => f.steps[0]?.mechanism === 'runtime-config');
    expect(runtime?.fix).toContain('kind: ValidatingAdmissionPolicy');
  });
});
