// The plugin's Cluster over HTTP for tests: connect() with the process's own streams (the -v log, an exec plugin's
// stderr), as composition-root.ts wires them. src/cluster/connect.ts holds no stream of its own: only the CLI and the
// two entry files write to one (test/unit/lint/streams.test.ts).
import { connect as connectCluster } from '../../src/cluster/connect.js';
import type { Cluster } from '../../src/port/cluster.js';
import type { ConnectionFlags } from '../../src/port/connection-flags.js';

export function connect(flags: ConnectionFlags, env: NodeJS.ProcessEnv): Cluster {
  return connectCluster(flags, env, {
    env,
    userAgent: 'kubectl-crossplane-rbac/v0.0.0-dev',
    log: (line) => process.stderr.write(line),
    pid: process.pid,
    execIo: { env, stdin: process.stdin, stdinIsTTY: false, stderr: process.stderr, now: () => Date.now() },
  });
}
