/**
 * `npm run apiserver -- [flags]`: the test API server for people. Prints the https URL its kubeconfigs use on
 * stdout and serves until SIGINT/SIGTERM. `--help` says how.
 */
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

It prints its https URL on stdout once it listens. It serves Kubernetes 1.32's core resources (pods, services,
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
}

main().catch((err: unknown) => {
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  if (err instanceof UsageError) process.stderr.write('hint: see npm run apiserver -- --help\n');
  process.exit(err instanceof UsageError ? 2 : 1);
});
