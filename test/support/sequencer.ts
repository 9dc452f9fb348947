// Vitest's file order (vitest.config.ts, sequence.sequencer): within a group (sequence.groupOrder), the longest
// files first, whatever their project. Vitest's own order runs the projects of a group one after another (apiserver,
// e2e, e2e-standalone, integration, unit, by name) and, without the durations of a previous run (a fresh clone),
// the larger files first: a two-minute file of the last project (the release tests) then started last and ran
// alone at the end. The order changes no test, only when each file starts.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each file of 3 s or more took, by project and path (as vitest's cache keys them: a file run by two
 * projects takes different times in each), in one `npm test` of a fresh clone on a 2-core machine: the quiet gate
 * of 2026-11-29 00:28 UTC (566 s of vitest; each file's wall time as TEST_CPU_LOG recorded it). An order for a run
 * with no durations of its own (the cache of a previous run takes precedence), not a bound on anything. Files not
 * here count by size.
 */
const SECONDS: Readonly<Record<string, number>> = {
  'faults:test/integration/fault-injection.test.ts': 92.4,
  'faults:test/integration/faults-mix.test.ts': 76.1,
  'integration:test/integration/faults.test.ts': 64.7,
  'e2e:test/e2e/resource-syntax.test.ts': 60.0,
  'e2e:test/e2e/who-can.test.ts': 58.1,
  'e2e:test/e2e/docs.test.ts': 48.6,
  'integration:test/integration/output-corpus.test.ts': 36.3,
  'e2e:test/e2e/signals.test.ts': 34.5,
  'e2e:test/e2e/connection.test.ts': 31.8,
  'e2e:test/e2e/help.test.ts': 29.5,
  'e2e-standalone:test/e2e/connection.test.ts': 29.1,
  'e2e:test/e2e/audit-live.test.ts': 28.8,
  'integration:test/integration/sync-watch.test.ts': 26.7,
  'e2e-standalone:test/e2e/smoke.test.ts': 25.8,
  'e2e:test/e2e/output-dir-safety.test.ts': 24.7,
  'e2e:test/e2e/output-corpus.test.ts': 23.9,
  'integration:test/integration/foreign-property.test.ts': 23.8,
  'e2e:test/e2e/audit-contract.test.ts': 22.7,
  'e2e:test/e2e/lookup.test.ts': 21.9,
  'integration:test/integration/required-role.test.ts': 21.2,
  'e2e:test/e2e/sync-explain.test.ts': 21.2,
  'e2e:test/e2e/enable-xrd.test.ts': 20.3,
  'e2e-standalone:test/e2e/output-dir-safety.test.ts': 20.1,
  'unit:test/unit/cli/output-flags.test.ts': 18.3,
  'e2e:test/e2e/output-dir.test.ts': 18.1,
  'e2e:test/e2e/after-sync.test.ts': 17.2,
  'e2e:test/e2e/audit-exit.test.ts': 17.1,
  'integration:test/integration/paging.test.ts': 16.8,
  'unit:test/unit/crossplane/validate-input-fuzz.test.ts': 15.9,
  'unit:test/unit/cli/table.test.ts': 14.8,
  'e2e:test/e2e/composed.test.ts': 14.8,
  'e2e:test/e2e/audit-bindings.test.ts': 14.2,
  'e2e:test/e2e/fleet.test.ts': 14.1,
  'e2e:test/e2e/bind-bootstrap.test.ts': 13.9,
  'e2e:test/e2e/bad-client-certificate.test.ts': 13.9,
  'integration:test/integration/watch.test.ts': 13.8,
  'integration:test/integration/write-races.test.ts': 13.8,
  'faults:test/integration/sync-v1-large.test.ts': 13.7,
  'unit:test/unit/lint/streams.test.ts': 12.9,
  'integration:test/integration/fleet.test.ts': 12.7,
  'integration:test/integration/flag-values.test.ts': 12.2,
  'e2e-standalone:test/e2e/output-dir.test.ts': 11.8,
  'e2e:test/e2e/silent-server.test.ts': 10.9,
  'e2e-standalone:test/e2e/fleet.test.ts': 10.8,
  'e2e:test/e2e/composed-forgery.test.ts': 10.7,
  'e2e-standalone:test/e2e/silent-server.test.ts': 10.4,
  'e2e:test/e2e/readme.test.ts': 9.7,
  'integration:test/integration/sync-watch-retry.test.ts': 9.6,
  'e2e-standalone:test/e2e/bad-client-certificate.test.ts': 9.5,
  'apiserver:test/apiserver/cli.test.ts': 9.4,
  'integration:test/integration/who-can.test.ts': 9.3,
  'unit:test/unit/packaging/release.test.ts': 9.0,
  'e2e:test/e2e/matrix.test.ts': 9.0,
  'integration:test/integration/who-can-impersonate.test.ts': 8.8,
  'integration:test/integration/enable-xrd.test.ts': 8.3,
  'e2e:test/e2e/graph-browser.test.ts': 8.2,
  'unit:test/unit/lint/tsc-diagnostics.test.ts': 8.1,
  'e2e:test/e2e/packaging.test.ts': 7.7,
  'e2e-standalone:test/e2e/signals.test.ts': 7.6,
  'unit:test/unit/examples.test.ts': 7.2,
  'integration:test/integration/exec-credential.test.ts': 7.2,
  'e2e:test/e2e/escalation.test.ts': 7.1,
  'integration:test/integration/bind.test.ts': 6.5,
  'e2e:test/e2e/shell.test.ts': 6.1,
  'integration:test/integration/sync.test.ts': 6.0,
  'integration:test/integration/bind-missing.test.ts': 6.0,
  'e2e:test/e2e/audit-classic.test.ts': 5.9,
  'e2e:test/e2e/bind.test.ts': 5.9,
  'integration:test/integration/fleet-share.test.ts': 5.8,
  'e2e:test/e2e/audit-graph.test.ts': 5.7,
  'integration:test/integration/kubeconfig-fields.test.ts': 5.5,
  'e2e:test/e2e/bootstrap-policy.test.ts': 5.5,
  'unit:test/unit/app/fleet.test.ts': 5.3,
  'unit:test/unit/explain/pathological-rbac.test.ts': 5.2,
  'apiserver:test/apiserver/kubectl.test.ts': 5.0,
  'e2e:test/e2e/bad-input.test.ts': 5.0,
  'integration:test/integration/proxies.test.ts': 4.9,
  'integration:test/integration/app.test.ts': 4.8,
  'integration:test/integration/explain.test.ts': 4.7,
  'unit:test/unit/sync/memo.test.ts': 4.7,
  'e2e:test/e2e/audit-crossplane.test.ts': 4.7,
  'e2e:test/e2e/sync-watch.test.ts': 4.5,
  'integration:test/integration/who-can-reads.test.ts': 4.5,
  'unit:test/unit/app/render-share.test.ts': 4.4,
  'unit:test/unit/cli/safety.test.ts': 4.2,
  'integration:test/integration/fleet-snapshots.test.ts': 4.0,
  'unit:test/unit/cli/unknown-args.test.ts': 3.7,
  'unit:test/unit/sync/v1-label-values.test.ts': 3.5,
  'unit:test/unit/cli/bind.test.ts': 3.5,
  'integration:test/integration/helm-owned.test.ts': 3.4,
  'unit:test/unit/cluster/exec-credential.test.ts': 3.4,
  'integration:test/integration/authorizer-view.test.ts': 3.3,
  'e2e-standalone:test/e2e/shell.test.ts': 3.2,
  'integration:test/integration/namespace-only.test.ts': 3.2,
  'integration:test/integration/audit-provider-configs.test.ts': 3.2,
  'integration:test/integration/connection-flags.test.ts': 3.1,
  'unit:test/unit/lint/layers.test.ts': 3.1,
  'integration:test/integration/file-view.test.ts': 3.0,
};

export class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const expected = new Map<TestSpecification, number>();
    for (const spec of files) {
      const path = relative(config.root, spec.moduleId);
      const ran = cache.getFileTestResults(`${spec.project.name}:${path}`)?.duration;
      // A file's size in bytes, as milliseconds: only orders the files no run has timed, after the slow ones.
      const size = cache.getFileStats(`${spec.project.name}:${path}`)?.size ?? 0;
      const seconds = SECONDS[`${spec.project.name}:${path}`];
      expected.set(spec, ran ?? (seconds !== undefined ? seconds * 1000 : size));
    }
    const order = (spec: TestSpecification): number => spec.project.config.sequence.groupOrder;
    return Promise.resolve(
      [...files].sort((a, b) => order(a) - order(b) || (expected.get(b) ?? 0) - (expected.get(a) ?? 0)),
    );
  }
}
