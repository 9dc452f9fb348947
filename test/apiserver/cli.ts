/**
 * `npm run apiserver -- [flags]`: the test API server for people. Prints the https URL its kubeconfigs use on
 * stdout and serves until SIGINT/SIGTERM. `--help` says how.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadSeedFiles } from './seed.js';
import { startApiServer } from './server.js';

const USAGE = `Serve a loopback Kubernetes API (the test API server) until Ctrl-C.

Usage:
  npm run apiserver -- [--seed PATH]... [--write-kubeconfig FILE] [flags]

Flags:
  --seed PATH              Store the objects of PATH first: a YAML or JSON file, or a directory of them (repeatable)
  --write-kubeconfig FILE  Write a kubeconfig to FILE: the https URL, its CA, an administrator's token
                           (user admin, group system:masters)
  --port N                 Listen on 127.0.0.1:N (default 0: a free port)
  --latency-ms N           Answer every request N ms late
  --no-aggregation         Do not run the clusterrole-aggregation controller
  --aggregation-delay-ms N Run it N ms after a ClusterRole changes, as a real controller lags
  --no-aggregated-discovery
                           Answer /api and /apis only in the legacy format (clients then read every group
                           version), as servers before Kubernetes 1.26 do
  -h, --help               Print this help

It prints its https URL on stdout once it listens, and stops on Ctrl-C or SIGTERM, or when what started it (npm,
under npm run) exits. It serves Kubernetes 1.32's core resources (pods, services,
namespaces, configmaps, secrets, ...), the apps and batch workloads, ingresses, network policies, pod disruption
budgets, RBAC with its aggregation controller, CustomResourceDefinitions and every resource a stored one defines,
and the authorization reviews. See test/apiserver/README.md.

Example:
  npm run apiserver -- --seed examples/cluster --write-kubeconfig /tmp/xrbac.kubeconfig
  KUBECONFIG=/tmp/xrbac.kubeconfig kubectl get pods -A
`;

class UsageError extends Error {}

/** A non-negative whole number, or a usage error naming the flag. */
function count(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${flag} takes a whole number, not "${value}"`);
  return Number(value);
}

async function main(): Promise<void> {
  const launchers = launchChain();
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        seed: { type: 'string', multiple: true },
        port: { type: 'string' },
        'write-kubeconfig': { type: 'string' },
        'latency-ms': { type: 'string' },
        'no-aggregation': { type: 'boolean' },
        'aggregation-delay-ms': { type: 'string' },
        'no-aggregated-discovery': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (values.help === true) {
    process.stdout.write(USAGE);
    return;
  }
  const port = count('port', values.port, 0);
  const latencyMs = count('latency-ms', values['latency-ms'], 0);
  const aggregationDelayMs = count('aggregation-delay-ms', values['aggregation-delay-ms'], 0);
  const seed = loadSeedFiles(values.seed ?? []);
  const server = await startApiServer({
    seed,
    port,
    latencyMs,
    aggregation: values['no-aggregation'] !== true,
    aggregationDelayMs,
    aggregatedDiscovery: values['no-aggregated-discovery'] !== true,
  });
  const kubeconfig = values['write-kubeconfig'];
  if (kubeconfig !== undefined) server.writeKubeconfig(kubeconfig);
  process.stdout.write(`${server.httpsUrl()}\n`);
  process.stderr.write(
    kubeconfig !== undefined
      ? `serving; kubeconfig: ${kubeconfig} (export KUBECONFIG=${kubeconfig}); Ctrl-C stops\n`
      : 'serving; give --write-kubeconfig FILE for a kubeconfig; Ctrl-C stops\n',
  );
  const shutdown = (): void => {
    void server.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  whenLauncherExits(launchers, () => {
    process.stderr.write('stopping: the process that started the test API server has exited\n');
    shutdown();
  });
}

/** The parent of process PID as /proc tells it (Linux), or undefined when it cannot be read (gone, or no /proc). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether process PID was started by `npm run` (its environment has npm's lifecycle variable), read from /proc. */
function underNpm(pid: number): boolean {
  try {
    return readFileSync(`/proc/${String(pid)}/environ`, 'utf8')
      .split('\0')
      .some((v) => v.startsWith('npm_lifecycle_event='));
  } catch {
    return false;
  }
}

/** A process of the chain that started this server, and the parent it had then. */
interface Launch {
  readonly pid: number;
  readonly parent: number;
}

/** This process and those that started it, up to npm under `npm run` (read first: before anyone could exit). */
function launchChain(): Launch[] {
  const chain: Launch[] = [{ pid: process.pid, parent: process.ppid }];
  for (let pid = process.ppid; chain.length < 8 && underNpm(pid);) {
    const parent = parentOf(pid);
    if (parent === undefined || parent <= 1) break;
    chain.push({ pid, parent });
    pid = parent;
  }
  return chain;
}

/**
 * Calls STOP once the process that started this server has exited: its parent, and under `npm run` every process
 * up to npm itself (npm → sh → tsx → this server). Started in the background (`npm run apiserver ... &`), killing
 * npm's PID otherwise leaves the server serving with nothing left to stop it. A process that exits has its children
 * handed to another parent, so the chain is watched by each member's parent staying the same. Without /proc
 * (macOS), only this process's own parent is watched.
 */
function whenLauncherExits(chain: readonly Launch[], stop: () => void): void {
  const timer = setInterval(() => {
    const gone = chain.some(
      ({ pid, parent }) => (pid === process.pid ? process.ppid : parentOf(pid)) !== parent,
    );
    if (!gone) return;
    clearInterval(timer);
    stop();
  }, 250);
  timer.unref();
}

main().catch((err: unknown) => {
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  if (err instanceof UsageError) process.stderr.write('hint: see npm run apiserver -- --help\n');
  process.exit(err instanceof UsageError ? 2 : 1);
});
