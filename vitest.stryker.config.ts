import { defineConfig } from 'vitest/config';

// The tests Stryker runs against each mutant of the pure core (stryker.config.mjs, `npm run mutate`): the unit
// tables of the core and of the use cases built on it. Integration and e2e tests start servers and binaries, far too
// slow to run per mutant. Left out of test/unit as well, as slow and not about the core: the in-process CLI runs
// (cli/: seconds a file, and every core mutant is covered by them), the connection layer (cluster/), the lint
// probes (lint/), the examples generator (examples.test.ts) and the packaging tests (they build release archives);
// and the validator's fuzz (it renders hundreds of mutated clusters for seconds and covers nearly every mutant).
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    exclude: [
      'test/unit/cli/**',
      'test/unit/cluster/**',
      'test/unit/lint/**',
      'test/unit/packaging/**',
      'test/unit/examples.test.ts',
      'test/unit/crossplane/validate-input-fuzz.test.ts',
    ],
  },
});
