// Mutation testing of the pure core: `npm run mutate` (not part of `npm test`). One folder at a time, each with
// its own incremental file (a run keeps only the results of the files it mutates):
//   npm run mutate -- --mutate 'src/plan/**/*.ts' --incrementalFile reports/stryker-incremental-plan.json
// Incremental: the results of the last run are kept in reports/ (git-ignored: a local cache of several MB that
// changes with every edit of src/ or test/) and a re-run tests only the mutants whose code or tests changed.
const config = {
  mutate: ['src/kube/**/*.ts', 'src/crossplane/**/*.ts', 'src/authz/**/*.ts', 'src/plan/**/*.ts'],
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts' },
  coverageAnalysis: 'perTest',
  // Two cores, shared with whoever else runs tests on the machine.
  concurrency: 1,
  // A mutant covered only while test files load (module constants, fixtures built in describe bodies or beforeAll)
  // would need the whole unit run, a minute, each: such mutants are ignored (they show as "ignored" in the report).
  // One also covered inside a test runs those tests.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  // Nothing the unit tests read lives in these; dist/ would make the sandbox copy slow.
  ignorePatterns: ['dist', 'coverage', '.bench-out', 'reports'],
  thresholds: { high: 90, low: 80, break: null },
};

export default config;
