/**
 * The seeding the e2e tests and scripts/output-corpus.ts share: the test API server seeded with folders of examples/
 * (examples/cluster by default), its admin kubeconfig written, and the live question several of them ask of it. No
 * vitest import: scripts/output-corpus.ts runs it outside a test run.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';

const examplesDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'examples');

/**
 * Starts the test API server (its aggregation controller on, as a real cluster's) seeded with the folders EXAMPLES
 * of examples/, and writes its admin kubeconfig to KUBECONFIG.
 */
export async function startExampleServer(
  kubeconfig: string,
  examples: readonly string[] = ['cluster'],
): Promise<TestApiServer> {
  const server = await startApiServer({
    seed: loadSeedFiles(examples.map((e) => join(examplesDir, e))),
  });
  server.writeKubeconfig(kubeconfig);
  return server;
}

/**
 * The plugin's arguments that ask why Crossplane's own account may (or may not) patch CronJobs in team-a of the
 * example cluster: a kind only a composed grant gives it (examples/cluster composes CronJobs there).
 */
export const CROSSPLANE_PATCH_CRONJOBS: readonly string[] = [
  'explain',
  '--subject',
  'ServiceAccount:crossplane-system/crossplane',
  '--for',
  'cronjobs.batch',
  '--verb',
  'patch',
  '-n',
  'team-a',
];
