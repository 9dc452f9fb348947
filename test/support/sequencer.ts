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
 */
const SECONDS: Readonly<Record<string, number>> = {
  'test/e2e/who-can.test.ts': 166,
  'test/unit/packaging/release.test.ts': 111,
  'test/e2e/readme.test.ts': 108,
  'test/integration/fault-injection.test.ts': 91,
  'test/e2e/signals.test.ts': 77,
  'test/integration/faults-mix.test.ts': 75,
  'test/e2e/composed.test.ts': 71,
  'test/e2e/lookup.test.ts': 66,
  'test/e2e/connection.test.ts': 62,
  'test/integration/faults.test.ts': 61,
  'test/integration/foreign-property.test.ts': 48,
  // Not timed in an npm test yet: 33 CPU-s in one thread (its servers in-process), alone on this machine.
  'test/integration/output-corpus.test.ts': 50,
  'test/e2e/packaging.test.ts': 37,
  'test/unit/crossplane/validate-input-fuzz.test.ts': 32,
  'test/e2e/output-dir-safety.test.ts': 60,
  'test/e2e/output-dir.test.ts': 32,
  'test/unit/cli/output-flags.test.ts': 30,
  'test/e2e/after-sync.test.ts': 29,
  'test/integration/required-role.test.ts': 29,
  'test/e2e/bad-client-certificate.test.ts': 26,
  'test/e2e/enable-xrd.test.ts': 26,
  'test/integration/paging.test.ts': 25,
  'test/integration/flag-values.test.ts': 25,
  'test/e2e/matrix.test.ts': 22,
  'test/integration/who-can.test.ts': 22,
  'test/integration/who-can-impersonate.test.ts': 21,
  'test/e2e/sync-explain.test.ts': 19,
  'test/unit/lint/layers.test.ts': 18,
  'test/integration/fleet.test.ts': 15,
  'test/e2e/escalation.test.ts': 15,
  'test/integration/enable-xrd.test.ts': 15,
  'test/integration/sync-v1-large.test.ts': 14,
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
