// --after-sync against the test API server seeded with examples/cluster, in-process with the real client: it reads
// what the question reads and what sync reads, one LIST per kind, and writes nothing (the server counts requests).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { runPlugin, startSeeded } from './harness.js';

/** What sync reads (docs/commands/sync.md): owners, the Crossplane Deployment, namespaces, RBAC, its ConfigMap, CRD owners. */
const SYNC_LISTS = {
  'list compositeresourcedefinitions': 1,
  'list providerrevisions': 1,
  'list deployments': 1,
  'list namespaces': 1,
  'list clusterroles': 1,
  'list clusterrolebindings': 1,
  'list rolebindings': 1,
  'list configmaps': 1,
  'list customresourcedefinitions': 1,
};

describe('--after-sync against the test API server', () => {
  let server: TestApiServer;
  let kubeconfig: string;

  beforeAll(async () => {
    ({ server, kubeconfig } = await startSeeded());
  });
  afterAll(async () => {
    await server.stop();
  });

  const lists = (): Record<string, number> =>
    Object.fromEntries(Object.entries(server.counters.snapshot()).filter(([k]) => k.startsWith('list ')));

  it.each([
    ['who-can', ['who-can', 'delete', 'buckets.s3.aws.upbound.io', '-A'], { 'list roles': 1 }],
    ['explain ROLE', ['explain', 'crossplane-edit'], {}],
    [
      'explain --subject',
      [
        'explain',
        '--subject',
        'Group:crossplane:masters',
        '--for',
        'buckets.s3.aws.upbound.io',
        '--verb',
        'delete',
      ],
      { 'list roles': 1 },
    ],
  ])('%s reads one LIST per kind, its own and sync’s, and writes nothing', async (_what, argv, own) => {
    server.counters.reset();
    const r = await runPlugin([...argv, '--after-sync', '--kubeconfig', kubeconfig]);
    expect(r.code, r.stderr).toBe(0);
    expect(lists()).toEqual({ ...SYNC_LISTS, ...own });
    expect(server.counters.writes(), JSON.stringify(server.counters.snapshot())).toBe(0);
  });

  it('with --only ...,composed also reads what compositions need, and still writes nothing', async () => {
    server.counters.reset();
    const r = await runPlugin([
      'who-can',
      'patch',
      'cronjobs.batch',
      '-n',
      'team-a',
      '--after-sync',
      '--only',
      'providers,composites,namespaces,base,composed',
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^crossplane-system\/crossplane\s+ServiceAccount\s.*crossplane:composed:batch/m);
    const read = lists();
    for (const kind of [
      'compositions',
      'compositionrevisions',
      'operations',
      'cronoperations',
      'watchoperations',
      'events',
      'roles',
    ])
      expect(read[`list ${kind}`]).toBe(1);
    expect(server.counters.writes(), JSON.stringify(server.counters.snapshot())).toBe(0);
  });
});
