import { defineConfig } from 'vitest/config';

// The tests Stryker runs against each mutant of the pure core (stryker.config.mjs, `npm run mutate`): the unit tests
// only. Integration and e2e tests start servers and binaries, far too slow to run per mutant. Left out too: the
// packaging tests (they build release archives and exercise scripts/, never the core) and the validator's fuzz (it
// renders hundreds of mutated clusters for seconds, covers nearly every mutant and so would run for each).
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    exclude: ['test/unit/packaging/**', 'test/unit/crossplane/validate-input-fuzz.test.ts'],
  },
});
