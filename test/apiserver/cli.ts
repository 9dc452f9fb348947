/**
 * npm run apiserver -- --seed PATH... [--port N] --write-kubeconfig FILE [--latency-ms N] [--no-aggregation]
 * Prints the URL on stdout and serves until SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { loadSeedFiles } from './seed.js';
import { startApiServer } from './server.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', multiple: true },
      port: { type: 'string' },
      'write-kubeconfig': { type: 'string' },
      'latency-ms': { type: 'string' },
      'no-aggregation': { type: 'boolean' },
      'aggregation-delay-ms': { type: 'string' },
    },
    allowPositionals: false,
  });
  const seed = loadSeedFiles(values.seed ?? []);
  const server = await startApiServer({
    seed,
    port: Number(values.port ?? '0'),
    latencyMs: Number(values['latency-ms'] ?? '0'),
    aggregation: values['no-aggregation'] !== true,
    aggregationDelayMs: Number(values['aggregation-delay-ms'] ?? '0'),
  });
  const kubeconfig = values['write-kubeconfig'];
  if (kubeconfig !== undefined) server.writeKubeconfig(kubeconfig);
  process.stdout.write(`${server.url}\n`);
  const shutdown = (): void => {
    void server.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
