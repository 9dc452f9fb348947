import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import type { TestApiServer } from '../apiserver/server.js';
import { fixturePath } from '../support/fixtures.js';
import { runPlugin, startSeeded } from './harness.js';

const computedBootstrap = fixturePath('kubernetes', 'computed-bootstrap-aggregated-admin-edit-view.yaml');

describe('explain against the test API server', () => {
  let server: TestApiServer;
  let kubeconfig: string;

  beforeAll(async () => {
    ({ server, kubeconfig } = await startSeeded());
  });
  afterAll(async () => {
    await server.stop();
  });

  it('computes the bootstrap admin role exactly as Kubernetes stores it', async () => {
    const r = await runPlugin(['explain', 'admin', '--kubeconfig', kubeconfig, '-o', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { effectiveRules: unknown[]; drift: unknown };
    const want = parseAllDocuments(readFileSync(computedBootstrap, 'utf8'))
      .map((d) => d.toJS() as { metadata: { name: string }; rules: Record<string, unknown>[] })
      .find((d) => d.metadata.name === 'admin');
    const strip = (rules: Record<string, unknown>[]): unknown[] =>
      rules.map((rule) => Object.fromEntries(Object.entries(rule).filter(([k]) => !k.startsWith('x-'))));
    expect(doc.effectiveRules).toEqual(strip(want?.rules ?? []));
    expect(doc.drift).toBeNull();
  });

  it('shows no drift while the aggregation controller runs, and the drift once it lags', async () => {
    const sync = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--yes']);
    expect(sync.code).toBe(0);
    const converged = await runPlugin([
      'explain',
      'crossplane-edit',
      '--kubeconfig',
      kubeconfig,
      '-o',
      'yaml',
    ]);
    expect(converged.code).toBe(0);
    expect((parse(converged.stdout) as { drift: unknown }).drift).toBeNull();

    server.setAggregation(false);
    server.seed([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'extra-edit', labels: { 'rbac.crossplane.io/aggregate-to-edit': 'true' } },
        rules: [{ apiGroups: ['example.org'], resources: ['widgets'], verbs: ['delete'] }],
      },
    ]);
    const lagging = await runPlugin(['explain', 'crossplane-edit', '--kubeconfig', kubeconfig, '-o', 'json']);
    server.setAggregation(true);
    const doc = JSON.parse(lagging.stdout) as { drift: { missing: unknown[]; extra: unknown[] } | null };
    expect(doc.drift?.missing).toEqual([
      { apiGroups: ['example.org'], resources: ['widgets'], verbs: ['delete'] },
    ]);
    expect(doc.drift?.extra).toEqual([]);
  });

  it('answers --for with the rules that grant it and where they came from', async () => {
    const r = await runPlugin([
      'explain',
      'crossplane-edit',
      '--kubeconfig',
      kubeconfig,
      '--for',
      'nop.example.org/xnopresources',
      '--verb',
      'delete',
      '-o',
      'json',
    ]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      access: { allowed: boolean; provenance: { source: string }[] };
    };
    expect(doc.access.allowed).toBe(true);
    expect(doc.access.provenance.map((p) => p.source)).toContain(
      'crossplane:composite:xnopresources.nop.example.org:aggregate-to-edit',
    );
    const view = await runPlugin([
      'explain',
      'crossplane-view',
      '--kubeconfig',
      kubeconfig,
      '--for',
      'nop.example.org/xnopresources',
      '--verb',
      'delete',
      '-o',
      'json',
    ]);
    expect((JSON.parse(view.stdout) as { access: { allowed: boolean } }).access.allowed).toBe(false);
  });

  it('reads one LIST of ClusterRoles and one of each binding kind, nothing else', async () => {
    server.counters.reset();
    const r = await runPlugin(['explain', 'crossplane-admin', '--kubeconfig', kubeconfig]);
    expect(r.code).toBe(0);
    expect(server.counters.snapshot()).toEqual({
      'list clusterroles': 1,
      'list clusterrolebindings': 1,
      'list rolebindings': 1,
    });
    expect(r.stdout).toMatch(/^crossplane-admin \(aggregated, \d+ rules\)/);
  });

  it('names close matches for an unknown role', async () => {
    const r = await runPlugin(['explain', 'crossplane-edt', '--kubeconfig', kubeconfig]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: clusterrole "crossplane-edt" not found\nhint: did you mean "crossplane-edit"?\n',
    );
  });

  it('reports a forbidden list in one line', async () => {
    server.addUser('token-nobody', 'nobody', []);
    const r = await runPlugin(['explain', 'admin', '--kubeconfig', kubeconfig, '--as', 'nobody']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: forbidden while listing ClusterRoles: clusterroles\.rbac\.authorization\.k8s\.io is forbidden: User "nobody" cannot list resource "clusterroles"/,
    );
    expect(r.stderr).toMatch(/\nhint: check what you may do with: kubectl auth can-i --list\n$/);
  });
});
