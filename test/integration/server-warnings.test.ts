// The API server's warnings through the plugin, in-process over HTTP: the test API server sends them as
// kube-apiserver does (a deprecated CRD version on every request it serves; an admission webhook's warnings on a
// write) and the CLI prints each once on stderr as kubectl does, never on stdout; --warnings-as-errors then fails a
// run that succeeded with kubectl's words. test/e2e/sync-explain.test.ts compares the lines with the real kubectl's.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import type { WarningHeader } from '../../src/kube/warning-header.js';
import { Kinds } from '../../src/port/cluster.js';
import { connect } from '../support/connect.js';
import { runPlugin, startSeeded } from './harness.js';

const XRD_CRD = 'compositeresourcedefinitions.apiextensions.crossplane.io';
const POLICY = '[crossplane-rbac-guard] ClusterRole "x" grants "*": allowed in dryrun mode';
// kube-apiserver's default text for a deprecated CRD version (apiextensions-apiserver defaultDeprecationWarning).
const DEPRECATED =
  'apiextensions.crossplane.io/v1 CompositeResourceDefinition is deprecated; use apiextensions.crossplane.io/v2 CompositeResourceDefinition';

describe('server warnings', () => {
  let server: TestApiServer;
  let kubeconfig: string;
  let dir: string;

  beforeAll(async () => {
    ({ server, kubeconfig, dir } = await startSeeded());
    const crd = structuredClone(server.get('customresourcedefinitions', XRD_CRD)) as {
      spec: { versions: { name: string; deprecated?: boolean }[] };
    };
    for (const v of crd.spec.versions) if (v.name === 'v1') v.deprecated = true;
    server.seed([crd]);
    server.admissionWarnings = [
      { resource: 'clusterroles', warnings: [POLICY, 'second "quoted" \\ warning'] },
    ];
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints each warning once on stderr, kubectl-style, keeps -o json clean; --warnings-as-errors fails after', async () => {
    // One run for both (the gate is tight): without warnings, sync.test.ts's runs show stderr stays empty.
    const r = await runPlugin([
      'sync',
      '--kubeconfig',
      kubeconfig,
      '--dry-run=server',
      '-o',
      'json',
      '--warnings-as-errors',
    ]);
    expect(r.stderr).toBe(
      `Warning: ${DEPRECATED}\nWarning: ${POLICY}\nWarning: second "quoted" \\ warning\nerror: 3 warnings received\n`,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('Warning');
    expect(() => JSON.parse(r.stdout) as unknown).not.toThrow();
  });

  it("hands a watch's answer's warnings to the connection's sink too, not only a read's", async () => {
    const got: WarningHeader[][] = [];
    const cluster = connect({ kubeconfig, serverWarnings: (w) => got.push([...w]) }, {});
    const stop = new AbortController();
    try {
      for await (const event of cluster.watch(Kinds.xrd, { timeoutSeconds: 30 }, stop.signal)) {
        if (event.type === 'SYNCED') {
          // The list was answered (one warning); now a change, which only the watch's stream can bring.
          const xrd = structuredClone(server.list('compositeresourcedefinitions')[0]) as {
            metadata: { labels?: Record<string, string> };
          };
          xrd.metadata.labels = { ...xrd.metadata.labels, touched: 'yes' };
          server.seed([xrd]);
        } else break;
      }
    } finally {
      stop.abort();
      cluster.close?.();
    }
    // The list's answer and the watch's (the list is one page: the example has a handful of XRDs).
    expect(got).toStrictEqual([
      [{ code: 299, agent: '-', text: DEPRECATED }],
      [{ code: 299, agent: '-', text: DEPRECATED }],
    ]);
  });
});
