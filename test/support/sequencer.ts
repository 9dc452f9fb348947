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
 * of 2026-11-28 22:33 UTC (640 s of vitest). An order for a run with no durations of its own (the cache of a
 * previous run takes precedence), not a bound on anything. Files not here count by size. faults.test.ts and
 * write-races.test.ts were timed in the faults project and now run in integration; in the faults group of
 * three, what matters is that fault-injection and faults-mix start first.
 */
const SECONDS: Readonly<Record<string, number>> = {
  'e2e:test/e2e/who-can.test.ts': 98.5,
  'faults:test/integration/fault-injection.test.ts': 91.8,
  'e2e:test/e2e/resource-syntax.test.ts': 82.5,
  'faults:test/integration/faults-mix.test.ts': 81.4,
  // The output corpus moved in-process after that gate (33 CPU-s in one thread, alone): a guess, not yet timed.
  'integration:test/integration/output-corpus.test.ts': 50,
  'e2e:test/e2e/output-corpus.test.ts': 78.9,
  'e2e:test/e2e/signals.test.ts': 61.5,
  'integration:test/integration/faults.test.ts': 60.8,
  'e2e:test/e2e/docs.test.ts': 51.5,
  'e2e:test/e2e/connection.test.ts': 46.2,
  'e2e:test/e2e/composed.test.ts': 37.6,
  'e2e:test/e2e/help.test.ts': 35.5,
  'e2e-standalone:test/e2e/connection.test.ts': 30.2,
  'integration:test/integration/foreign-property.test.ts': 28.7,
  'e2e:test/e2e/output-dir-safety.test.ts': 27.5,
  'e2e:test/e2e/lookup.test.ts': 27.4,
  'e2e:test/e2e/audit-live.test.ts': 25.1,
  'e2e:test/e2e/enable-xrd.test.ts': 24.4,
  'e2e:test/e2e/audit-contract.test.ts': 24.0,
  'integration:test/integration/sync-watch.test.ts': 22.3,
  'e2e-standalone:test/e2e/output-dir-safety.test.ts': 22.1,
  'integration:test/integration/paging.test.ts': 18.6,
  'e2e-standalone:test/e2e/smoke.test.ts': 17.8,
  'integration:test/integration/required-role.test.ts': 14.8,
  'unit:test/unit/cli/table.test.ts': 14.6,
  'e2e:test/e2e/output-dir.test.ts': 14.2,
  'e2e:test/e2e/after-sync.test.ts': 13.9,
  'unit:test/unit/cli/output-flags.test.ts': 13.8,
  'e2e:test/e2e/readme.test.ts': 13.6,
  'e2e:test/e2e/sync-explain.test.ts': 13.4,
  'integration:test/integration/flag-values.test.ts': 12.8,
  'e2e:test/e2e/fleet.test.ts': 12.7,
  'e2e:test/e2e/audit-bindings.test.ts': 12.6,
  'integration:test/integration/watch.test.ts': 12.0,
  'e2e-standalone:test/e2e/output-dir.test.ts': 11.9,
  'e2e:test/e2e/audit-exit.test.ts': 11.8,
  'e2e:test/e2e/bind-bootstrap.test.ts': 11.8,
  'e2e:test/e2e/composed-forgery.test.ts': 11.2,
  'e2e:test/e2e/bad-client-certificate.test.ts': 11.2,
  'e2e-standalone:test/e2e/fleet.test.ts': 11.1,
  'e2e:test/e2e/silent-server.test.ts': 11.0,
  'e2e-standalone:test/e2e/silent-server.test.ts': 10.9,
  'integration:test/integration/who-can.test.ts': 10.3,
  'e2e:test/e2e/matrix.test.ts': 10.1,
  'unit:test/unit/lint/streams.test.ts': 9.7,
  'unit:test/unit/crossplane/validate-input-fuzz.test.ts': 9.0,
  'unit:test/unit/packaging/release.test.ts': 8.8,
  'faults:test/integration/sync-v1-large.test.ts': 8.5,
  'integration:test/integration/write-races.test.ts': 8.4,
  'e2e-standalone:test/e2e/signals.test.ts': 8.1,
  'apiserver:test/apiserver/cli.test.ts': 7.9,
  'integration:test/integration/sync-watch-retry.test.ts': 7.7,
  'e2e-standalone:test/e2e/bad-client-certificate.test.ts': 6.9,
  'integration:test/integration/fleet.test.ts': 6.6,
  'e2e:test/e2e/graph-browser.test.ts': 6.3,
  'e2e:test/e2e/audit-classic.test.ts': 6.2,
  'e2e:test/e2e/packaging.test.ts': 6.1,
  'e2e:test/e2e/shell.test.ts': 6.0,
  'integration:test/integration/who-can-impersonate.test.ts': 5.9,
  'integration:test/integration/exec-credential.test.ts': 5.3,
  'e2e:test/e2e/bad-input.test.ts': 5.0,
  'apiserver:test/apiserver/kubectl.test.ts': 4.6,
  'e2e:test/e2e/escalation.test.ts': 4.5,
  'e2e:test/e2e/audit-crossplane.test.ts': 4.5,
  'e2e:test/e2e/bootstrap-policy.test.ts': 4.5,
  'unit:test/unit/examples.test.ts': 4.4,
  'e2e:test/e2e/sync-watch.test.ts': 4.4,
  'e2e:test/e2e/audit-graph.test.ts': 4.3,
  'unit:test/unit/cli/bad-input.test.ts': 4.1,
  'integration:test/integration/fleet-share.test.ts': 3.9,
  'integration:test/integration/app.test.ts': 3.8,
  'unit:test/unit/cli/bind.test.ts': 3.8,
  'integration:test/integration/sync.test.ts': 3.8,
  'e2e:test/e2e/bind.test.ts': 3.7,
  'integration:test/integration/enable-xrd.test.ts': 3.6,
  'integration:test/integration/kubeconfig-fields.test.ts': 3.6,
  'integration:test/integration/bind-missing.test.ts': 3.6,
  'unit:test/unit/explain/pathological-rbac.test.ts': 3.6,
  'integration:test/integration/proxies.test.ts': 3.5,
  'unit:test/unit/cluster/exec-credential.test.ts': 3.4,
  'integration:test/integration/after-sync.test.ts': 3.4,
  'integration:test/integration/explain.test.ts': 3.2,
  'unit:test/unit/authz/aggregate.test.ts': 3.0,
  'unit:test/unit/app/fleet.test.ts': 3.0,
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
