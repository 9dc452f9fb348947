// Vitest's file order (vitest.config.ts, sequence.sequencer): within a group (sequence.groupOrder), the longest
// files first, whatever their project. Vitest's own order runs the projects of a group one after another (apiserver,
// e2e, e2e-standalone, integration, unit, by name) and, without the durations of a previous run (a fresh clone),
// the larger files first: a two-minute file of the last project (the release tests) then started last and ran
// alone at the end. The order changes no test, only when each file starts.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each slow file took in one `npm test` on a 2-core machine: an order for a run with no durations of its
 * own (the cache of a previous run takes precedence), not a bound on anything. Files not here count by size.
 * Measured 2026-11-28 in one run on a busy machine (load 7 to 20, so about three times the quiet figures): the
 * table before it lacked the files added since (output-corpus, docs, resource-syntax, help, smoke, audit-*), which
 * then started last by their size and ran alone for minutes at the end. The fault suites stopped in their set-up
 * in that run (out of hook time under that load): their figures are guesses (they run in a group of their own, last).
 */
const SECONDS: Readonly<Record<string, number>> = {
  'test/e2e/output-corpus.test.ts': 394,
  'test/e2e/docs.test.ts': 333,
  'test/e2e/resource-syntax.test.ts': 217,
  'test/e2e/who-can.test.ts': 152,
  'test/integration/fault-injection.test.ts': 150,
  'test/integration/faults-mix.test.ts': 150,
  'test/e2e/signals.test.ts': 97,
  'test/integration/foreign-property.test.ts': 87,
  'test/integration/faults.test.ts': 87,
  'test/e2e/audit-contract.test.ts': 87,
  'test/unit/cli/table.test.ts': 76,
  'test/e2e/smoke.test.ts': 72,
  'test/e2e/help.test.ts': 72,
  'test/e2e/audit-live.test.ts': 59,
  'test/e2e/composed.test.ts': 57,
  'test/unit/crossplane/validate-input-fuzz.test.ts': 53,
  'test/e2e/enable-xrd.test.ts': 52,
  'test/integration/required-role.test.ts': 47,
  'test/e2e/connection.test.ts': 47,
  'test/unit/cli/output-flags.test.ts': 46,
  'test/e2e/after-sync.test.ts': 43,
  'test/e2e/audit-exit.test.ts': 42,
  'test/e2e/output-dir.test.ts': 40,
  'test/apiserver/cli.test.ts': 39,
  'test/e2e/lookup.test.ts': 39,
  'test/e2e/bind-bootstrap.test.ts': 37,
  'test/integration/paging.test.ts': 35,
  'test/integration/sync-watch.test.ts': 35,
  'test/integration/sync-v1-large.test.ts': 35,
  'test/unit/packaging/release.test.ts': 35,
  'test/e2e/sync-explain.test.ts': 31,
  'test/e2e/output-dir-safety.test.ts': 30,
  'test/integration/flag-values.test.ts': 29,
  'test/integration/sync-watch-retry.test.ts': 29,
  'test/e2e/bad-client-certificate.test.ts': 28,
  'test/integration/write-races.test.ts': 26,
  'test/e2e/readme.test.ts': 26,
  'test/unit/lint/layers.test.ts': 25,
  'test/e2e/composed-forgery.test.ts': 25,
  'test/e2e/sync-watch.test.ts': 24,
  'test/e2e/bad-input.test.ts': 23,
  'test/e2e/audit-bindings.test.ts': 23,
  'test/e2e/fleet.test.ts': 22,
  'test/integration/who-can-impersonate.test.ts': 20,
  'test/integration/who-can.test.ts': 20,
  'test/e2e/shell.test.ts': 19,
  'test/e2e/matrix.test.ts': 19,
  'test/integration/exec-credential.test.ts': 18,
  'test/e2e/silent-server.test.ts': 17,
  'test/integration/app.test.ts': 16,
  'test/integration/fleet-share.test.ts': 15,
  'test/e2e/bind.test.ts': 15,
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
      expected.set(spec, ran ?? (SECONDS[path] !== undefined ? SECONDS[path] * 1000 : size));
    }
    const order = (spec: TestSpecification): number => spec.project.config.sequence.groupOrder;
    return Promise.resolve(
      [...files].sort((a, b) => order(a) - order(b) || (expected.get(b) ?? 0) - (expected.get(a) ?? 0)),
    );
  }
}
