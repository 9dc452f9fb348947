// Crossplane v1 mode on examples/large, whose XRDs include one named longer than 63 characters: every write of
// `sync` must pass the test API server's validation, which checks label values as apimachinery's IsLabelValue does
// (test/apiserver/label-values.test.ts). A label value the API server refuses would fail its write on every run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { runPlugin } from './harness.js';
import { LARGE, startLarge } from '../support/large-cluster.js';

type Obj = Record<string, any>;

const V1 = ['--crossplane-version', 'v1'];

describe('sync --crossplane-version v1 of examples/large', () => {
  let server: TestApiServer;
  let kubeconfig: string;

  beforeAll(async () => {
    ({ server, kubeconfig } = await startLarge());
  }, 120_000);
  afterAll(async () => {
    await server.stop();
  });

  it('applies every object with no failed write, and a second run finds nothing to do', async () => {
    const plan = await runPlugin(['sync', '-f', LARGE, ...V1, '--dry-run=client', '-o', 'json']);
    expect(plan.code).toBe(0);
    const wanted = (JSON.parse(plan.stdout) as { items: Obj[] }).items;
    const long = wanted.filter((o) => String(o.metadata.name).length > 'crossplane:composite:'.length + 63);
    expect(long.length, 'roles of the long-named XRD are among the writes').toBeGreaterThan(0);

    server.counters.reset();
    const r = await runPlugin(['sync', '--kubeconfig', kubeconfig, ...V1, '--yes']);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error'))).toEqual([]);
    expect(r.code).toBe(0);
    const resource = (kind: string): string =>
      kind === 'ClusterRole'
        ? 'clusterroles'
        : kind === 'ClusterRoleBinding'
          ? 'clusterrolebindings'
          : 'rolebindings';
    const missing = wanted.filter(
      (o) =>
        server.get(resource(String(o.kind)), String(o.metadata.name), o.metadata.namespace) === undefined,
    );
    expect(missing.map((o) => `${String(o.kind)}/${String(o.metadata.name)}`)).toEqual([]);

    const check = await runPlugin(['sync', '--kubeconfig', kubeconfig, ...V1, '--check']);
    expect(check.code, check.stdout + check.stderr).toBe(0);
  }, 300_000);
});
