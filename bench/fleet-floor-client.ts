/**
 * The floor of a fleet run's reads, as a whole process (`npm run bench -- fleet`, informational: no target): a bare
 * Node client that starts and, for every context of a fleet kubeconfig, sends the LISTs `sync --check` sends (read
 * from its own -v=8 request log: paths and Accept headers), PARALLEL contexts at a time with CONNECTIONS keep-alive
 * connections each (as the plugin's fleet holds each context to 4 requests in flight). Every page is gunzipped when
 * compressed and decoded (JSON.parse: any client must decode what it read to compare it with what it wants), and
 * kept until its context's reads are done. No command line, no kubeconfig resolution beyond the servers' addresses,
 * CAs and tokens, no validation, render, plan or output: what no fleet run that reads and decodes every context can
 * go under. bench/fleet.ts bundles it with esbuild and runs it with plain node, timed from spawn to exit.
 *
 *   node fleet-floor-client.mjs KUBECONFIG PLAN PARALLEL CONNECTIONS
 *
 * KUBECONFIG: the bench's fleet kubeconfig (JSON; a context per server, each with its cluster and user of the same
 * name). PLAN: lines `L <path>` (a LIST) or `M <path>` (a metadata-only one, as sync lists CRDs).
 */
import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { getBody } from './floor-answer.js';

/** The Accept of a metadata-only list, as client-go's metadata client sends it (and sync, for CRDs). */
const METADATA_ACCEPT =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1,application/json';

interface FleetKubeconfig {
  readonly clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
  readonly users: { name: string; user: { token: string } }[];
}

const [kubeconfig = '', planFile = '', parallel = '8', connections = '4'] = process.argv.slice(2);
const config = JSON.parse(readFileSync(kubeconfig, 'utf8')) as FleetKubeconfig;
const lists = readFileSync(planFile, 'utf8')
  .split('\n')
  .filter((l) => l.startsWith('L ') || l.startsWith('M '))
  .map((l) => ({ path: l.slice(2), metadataOnly: l[0] === 'M' }));

/** Reads every list of one context, decoding each page; resolves with the number of items once all are read. */
async function readContext(index: number): Promise<number> {
  const cluster = config.clusters[index]?.cluster;
  const token = config.users[index]?.user.token ?? '';
  if (cluster === undefined) throw new Error(`no cluster ${String(index)} in ${kubeconfig}`);
  const agent = new Agent({
    keepAlive: true,
    maxSockets: Number(connections),
    ca: Buffer.from(cluster['certificate-authority-data'], 'base64'),
  });
  const get = (path: string, accept: string): Promise<Buffer> =>
    getBody(agent, `${cluster.server}${path}`, token, accept);
  // Kept until the context is done, as a client holds what it read until it has compared it.
  const pages: unknown[][] = [];
  await Promise.all(
    lists.map(async ({ path, metadataOnly }) => {
      let token = '';
      do {
        const body = await get(
          token === '' ? path : `${path}&continue=${encodeURIComponent(token)}`,
          metadataOnly ? METADATA_ACCEPT : 'application/json',
        );
        const page = JSON.parse(body.toString('utf8')) as {
          items?: unknown[];
          metadata?: { continue?: string };
        };
        pages.push(page.items ?? []);
        token = page.metadata?.continue ?? '';
      } while (token !== '');
    }),
  );
  agent.destroy();
  return pages.reduce((n, p) => n + p.length, 0);
}

let next = 0;
await Promise.all(
  Array.from({ length: Number(parallel) }, async () => {
    while (next < config.clusters.length) await readContext(next++);
  }),
);
