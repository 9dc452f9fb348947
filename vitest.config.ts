import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Most test time is waiting (the fault suites' backoffs and Retry-After, test API servers, kubectl and the plugin
// as child processes), not computing: one more worker than there are cores overlaps the waits. Vitest's default
// (cores - 1) runs every file one after another on a 2-core machine.
const WORKERS = availableParallelism() + 1;

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        test: {
          name: 'apiserver',
          include: ['test/apiserver/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
