/**
 * `sync --prune` against the test API server never deletes, or changes, an object a Helm chart installed, even when
 * someone put the plugin's managed-by label on it. The chart's crossplane-edit is seeded as Helm 3 installs it: the
 * chart's labels (crossplane/crossplane cluster/charts/crossplane/templates/_helpers.tpl crossplane.labels, as in
 * examples/cluster/20-crossplane.yaml) and the release metadata Helm writes on every object of a release (helm/helm
 * pkg/action/validate.go@0a0eaff3da1ac671894fdc39c616834836bfd38b setMetadataVisitor: the meta.helm.sh/release-name
 * and meta.helm.sh/release-namespace annotations), with app.kubernetes.io/managed-by rewritten to the plugin's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { runPlugin, startSeeded } from './harness.js';

type Obj = Record<string, any>;

describe('sync --prune and what Helm installed', () => {
  let server: TestApiServer;
  let kubeconfig: string;

  beforeAll(async () => {
    ({ server, kubeconfig } = await startSeeded());
    // The roles sync makes first, so that the aggregation controller has filled crossplane-edit's rules already.
    const first = await runPlugin(['sync', '--yes', '--kubeconfig', kubeconfig]);
    expect(first.code, first.stderr).toBe(0);
  });
  afterAll(async () => {
    await server.stop();
  });

  it("keeps the chart's crossplane-edit with a forged managed-by label, byte for byte", async () => {
    const chartRole = server.get('clusterroles', 'crossplane-edit') as Obj;
    expect(chartRole.metadata.labels['helm.sh/chart']).toBe('crossplane-2.1.0');
    server.seed([
      {
        ...chartRole,
        metadata: {
          ...chartRole.metadata,
          labels: { ...chartRole.metadata.labels, 'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac' },
          annotations: {
            'meta.helm.sh/release-name': 'crossplane',
            'meta.helm.sh/release-namespace': 'crossplane-system',
          },
        },
      },
    ]);
    const before = JSON.stringify(server.get('clusterroles', 'crossplane-edit'));

    const r = await runPlugin(['sync', '--prune', '--yes', '--kubeconfig', kubeconfig]);
    expect(r.code, r.stderr).toBe(0);
    expect(server.get('clusterroles', 'crossplane-edit'), 'still there').toBeDefined();
    expect(JSON.stringify(server.get('clusterroles', 'crossplane-edit')), 'unchanged').toBe(before);

    // A second run converges without touching it either.
    server.counters.reset();
    const again = await runPlugin(['sync', '--prune', '--yes', '--kubeconfig', kubeconfig]);
    expect(again.code, again.stderr).toBe(0);
    expect(server.counters.writes()).toBe(0);
    expect(JSON.stringify(server.get('clusterroles', 'crossplane-edit'))).toBe(before);
  });

  it('refuses to update chart objects with the forged label, naming Helm, and leaves every one as it was', async () => {
    // Forged on every object of the chart: the plugin then renders the chart's user roles itself (no other
    // crossplane-admin aggregates them), and each of those it finds installed by Helm is refused.
    const chart = [
      ...(server.list('clusterroles') as Obj[]).map((o) => ['clusterroles', o] as const),
      ...(server.list('clusterrolebindings') as Obj[]).map((o) => ['clusterrolebindings', o] as const),
    ].filter(([, o]) => o.metadata.labels?.['helm.sh/chart'] !== undefined);
    server.seed(
      chart.map(([, o]) => ({
        ...o,
        metadata: {
          ...o.metadata,
          labels: { ...o.metadata.labels, 'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac' },
          annotations: {
            'meta.helm.sh/release-name': 'crossplane',
            'meta.helm.sh/release-namespace': 'crossplane-system',
          },
        },
      })),
    );
    const before = chart.map(([resource, o]) => JSON.stringify(server.get(resource, o.metadata.name)));

    const r = await runPlugin(['sync', '--prune', '--yes', '--kubeconfig', kubeconfig]);
    expect(r.code, 'refusals fail the run after everything else').toBe(2);
    expect(r.stderr).toContain(
      'refused ClusterRole/crossplane-admin: installed by Helm (release "crossplane" in namespace "crossplane-system")',
    );
    expect(r.stderr).toContain('refused ClusterRole/crossplane-edit: installed by Helm (');
    for (const line of r.stderr.split('\n').filter((l) => l.startsWith('refused '))) {
      expect(line).toMatch(/: installed by Helm \(release "crossplane" in namespace "crossplane-system"\);/);
    }
    const after = chart.map(([resource, o]) => JSON.stringify(server.get(resource, o.metadata.name)));
    expect(after).toStrictEqual(before);
    // Every refusal is Helm's, which --adopt does not take over: the hint does not offer it.
    const hint = r.stderr.split('\n').find((l) => l.startsWith('hint: ')) ?? '';
    expect(hint).toMatch(/^hint: leave them to the Helm release/);
    expect(hint).not.toMatch(/pass --adopt/);
  });
});
