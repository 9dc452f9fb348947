import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/sequencer.js';

// Most test time is waiting (test API servers, kubectl and the plugin as child processes), not computing: one more
// worker than there are cores overlaps the waits. Vitest's default (cores - 1) runs every file one after another
// on a 2-core machine.
const WORKERS = availableParallelism() + 1;

// The fault suites that drive thousands of writes through a hostile in-process server, many connections at once,
// need a core each: starved of CPU, that server cannot finish TLS handshakes within the plugin's 10 s and the runs
// fail for the load, not the product (a trial beside the other files on a busy machine, 2026-11-28: "TLS handshake
// timeout after 10s" under 503s with 64 writes in flight). They run after everything else, with no other work beside
// them. Each file runs the plugin in-process next to its server (runPlugin), one thread: one core busy, so as many
// at once as there are cores gives each its own core. (In the gate of 2026-11-28: fault-injection 92 s on one core,
// its server gone for good, 30 s of waiting, now started beside its reference run; faults-mix 81 s, then
// sync-v1-large 8.5 s on the other: the two workers end close together.)
//
// faults.test.ts and write-races.test.ts run with the integration files, in group 0: they are mostly waiting on
// examples/cluster (faults.test.ts: 61 s of wall time for ~8 CPU-s in the gate of 2026-11-28, the 30 s a server gone
// is waited for, a 10 s TLS handshake timeout, a 2 s request timeout; write-races.test.ts: requests held 150 ms),
// and nothing they assert breaks under load: the timeouts they check are lower bounds (a timeout cannot fire early;
// load only makes it later), kubectl's and the plugin's runs are compared by what they print, never by how long
// they took, their waits for the server to see N writes are hang guards with a deadline, and write-races' look at
// a held request runs on the thread that holds it, so it comes first however busy the machine. In group 1 they
// held a worker through their waits while a core idled. They join the integration project, whose files share a
// module graph, not a project of their own (an isolated file loads vitest, src/ and the client again).
const FAULT_WORKERS = availableParallelism();
const FAULTS = [
  'test/integration/faults-mix.test.ts',
  'test/integration/fault-injection.test.ts',
  'test/integration/sync-v1-large.test.ts',
];

// The unit files that replace modules (vi.mock): they run isolated, as a module graph shared with other files would
// carry their mocks into those files, or the real modules into theirs.
const MOCKING = [
  'test/unit/cli/terminal-escape.test.ts',
  'test/unit/cluster/kubeconfig-once.test.ts',
  'test/unit/app/plan-sync.test.ts',
];

// The standalone linux-amd64 executable, when npm test (its release, dist/release-test) or npm run
// test:e2e:standalone (npm run release:e2e, dist/release-e2e) points E2E_STANDALONE_DIR at it: the e2e files run a second time against it, as the
// e2e-standalone project, in the same run as the rest.
const STANDALONE = process.env.E2E_STANDALONE_DIR;
// What the standalone executable runs: the e2e files whose code differs between bun and Node (connections and TLS,
// exec credential plugins, proxies, signals, child processes, files, pipes and terminals), and smoke.test.ts, which
// runs every command once on each runtime and compares their bytes. Every other e2e file checks what the plugin
// answers, which is the same JavaScript on both: it runs once, on Node. (Every e2e file on both runtimes took the
// gate past 14 minutes on a 2-core machine.)
const STANDALONE_FILES = [
  'test/e2e/smoke.test.ts',
  'test/e2e/connection.test.ts',
  'test/e2e/bad-client-certificate.test.ts',
  'test/e2e/bad-input.test.ts',
  'test/e2e/silent-server.test.ts',
  'test/e2e/signals.test.ts',
  'test/e2e/shell.test.ts',
  'test/e2e/fleet.test.ts',
  'test/e2e/output-dir.test.ts',
  'test/e2e/output-dir-safety.test.ts',
];
// Every project's first setup file: with TEST_CPU_LOG=FILE, each test file appends the CPU seconds it cost to FILE
// (test/support/cpu-per-file.ts); without, it does nothing.
const CPU = 'test/support/cpu-per-file.ts';

const E2E = {
  include: ['test/e2e/**/*.test.ts'],
  // As the unit and integration files: the e2e files of a worker share one module graph, so a worker loads
  // vitest, the test API server and the harness once, not once per file (measured 2026-11-28 on a 2-core machine,
  // 10 e2e files on one worker: 64.9 -> 54.2 CPU-s). They keep no state in modules or globals between files: each
  // file stops its servers in its own afterAll, and test/e2e/setup.ts removes each file's temporary directories
  // after it (a hook in the shared harness would be registered for the first file only).
  isolate: false,
  setupFiles: [CPU, 'test/e2e/setup.ts'],
  // Several e2e tests run kubectl dozens of times against servers in this process: about a minute alone,
  // twice that on a 2-core machine doing other work. The timeout only stops a hung test.
  testTimeout: 240_000,
  hookTimeout: 240_000,
  sequence: { groupOrder: 0 },
};

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    // The longest files first, across the projects of a group: see test/support/sequencer.ts.
    sequence: { sequencer: LongestFirst },
    globalSetup: ['test/support/temp-root.ts'],
    projects: [
      {
        // Under a loaded CPU a CPU-bound unit test (the examples generator) can pass 5 s.
        test: {
          name: 'unit',
          setupFiles: [CPU],
          include: ['test/unit/**/*.test.ts'],
          exclude: MOCKING,
          // The unit files of a worker share one module graph: each file in a graph of its own evaluated src/ and
          // its libraries again, file after file. They keep no state between files in modules or globals.
          isolate: false,
          testTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'unit-isolated',
          setupFiles: [CPU],
          include: MOCKING,
          testTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'apiserver',
          setupFiles: [CPU],
          include: ['test/apiserver/**/*.test.ts'],
          // As the unit files: each file in a module graph of its own loaded vitest, the server and
          // @kubernetes/client-node again (measured 2026-11-28, the project alone: 20.4 -> 15.5 CPU-s). Each file
          // starts and stops its own servers; client-harness.ts's bindings are set again by each file's beforeAll.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          setupFiles: [CPU],
          include: ['test/integration/**/*.test.ts'],
          exclude: FAULTS,
          // As the unit files: each isolated file was a fresh child process that loaded vitest, src/ and the
          // client library again (a second of CPU and more per file). They run the plugin in-process against servers
          // of their own, and keep no state in modules or globals between files (a shared module's only state is
          // test/support/large-cluster.ts's cache of the generated seed, which sharing only saves).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      // smoke.test.ts compares the executable under test with the npm bundle: on Node they are one and the same.
      { test: { name: 'e2e', ...E2E, exclude: ['test/e2e/smoke.test.ts'] } },
      ...(STANDALONE !== undefined && STANDALONE !== ''
        ? [
            {
              test: {
                name: 'e2e-standalone',
                ...E2E,
                include: STANDALONE_FILES,
                env: { E2E_BIN_DIR: STANDALONE },
              },
            },
          ]
        : []),
      {
        test: {
          name: 'faults',
          setupFiles: [CPU],
          include: FAULTS,
          maxWorkers: FAULT_WORKERS,
          // Hundreds of writes per run, thousands for sync-v1-large: under a minute alone on 2 cores, more on a
          // busy one.
          testTimeout: 180_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
