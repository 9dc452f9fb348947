/**
 * audit against who-can on the same server: the large example after sync (about 3,000 ClusterRoles, 600 namespaces),
 * 2 ms of latency. Target: audit within 3x of who-can's time and under 500 MB peak RSS (it reads the RBAC, the
 * Deployments, the ProviderRevisions, the Compositions and CompositionRevisions once, resolves each role's effective
 * rules once, and searches one graph per capability).
 */
import { join } from 'node:path';
import { loadSeedFiles } from '../test/apiserver/seed.js';
import { startApiServer } from '../test/apiserver/server.js';
import { fixed, median } from './figures.js';
import { mem, ratio, root, runAsync, work, type Measured } from './process.js';

export async function benchAudit(): Promise<void> {
  const server = await startApiServer({
    seed: loadSeedFiles([join(root, 'examples', 'large')]),
    latencyMs: 2,
  });
  const kc = join(work, 'kubeconfig-audit');
  server.writeKubeconfig(kc);
  try {
    await runAsync('kubectl', ['crossplane-rbac', 'sync', '--yes', '--kubeconfig', kc, '-o', 'name']);
    const runs = 3;
    const whoCan: number[] = [];
    const audit: number[] = [];
    let last: Measured | undefined;
    for (let i = 0; i < runs; i++) {
      const w = await runAsync('kubectl', [
        'crossplane-rbac',
        'who-can',
        'create',
        'pods',
        '-A',
        '-o',
        'json',
        '--kubeconfig',
        kc,
      ]);
      whoCan.push(w.ms);
      last = await runAsync(
        'kubectl',
        ['crossplane-rbac', 'audit', '-o', 'json', '--kubeconfig', kc],
        {},
        { peak: true },
      );
      audit.push(last.ms);
    }
    const findings =
      last !== undefined ? (JSON.parse(last.out) as { findings: unknown[] }).findings.length : 0;
    const a = median(audit);
    const b = median(whoCan);
    console.log(
      `audit (large example after sync, ${String(server.list('clusterroles').length)} ClusterRoles, 2 ms latency, ${String(findings)} findings): ${fixed(a / 1000)} s; who-can create pods -A: ${fixed(b / 1000)} s; ratio ${ratio(a, b)} (target <= 3.00x); ${last !== undefined ? mem(last) : ''} (target < 500 MB) (medians of ${String(runs)} paired runs)`,
    );
  } finally {
    await server.stop();
  }
}
