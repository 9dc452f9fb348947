/**
 * The floor of who-can's default read, as a whole process (`npm run bench -- who-can`, its second line): a bare Node
 * client that starts and sends what who-can sends to answer on a live cluster, the same requests in the same order
 * of dependence: the aggregated discovery documents (/api, /apis) beside the ClusterRoleBindings, the namespace's
 * RoleBindings and Roles; then one GET per ClusterRole the bindings reach, CONCURRENCY in flight on keep-alive
 * connections. Each body is read as bytes (gunzipped when compressed) and never parsed, but the bindings' (their
 * roleRefs name the roles). No command line, no kubeconfig, no validation, no answer: what no who-can that reads every bound role can go under.
 * bench/live.ts bundles it with esbuild and runs it with plain node; the parent times the process from spawn to exit.
 *
 *   node who-can-floor-client.mjs URL NAMESPACE CONCURRENCY
 */
import { Agent } from 'node:https';
import { ADMIN_TOKEN } from '../test/apiserver/types.js';
import { TEST_CERT } from '../test/apiserver/tls.js';
import { getBody } from './floor-answer.js';

/** The Accept kubectl (and the plugin) send for /api and /apis: the aggregated discovery document first. */
const DISCOVERY_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const RBAC = '/apis/rbac.authorization.k8s.io/v1';

const [url = '', namespace = 'default', inFlight = '16'] = process.argv.slice(2);
const concurrency = Number(inFlight);
const agent = new Agent({ keepAlive: true, maxSockets: 32, ca: TEST_CERT });

function get(path: string, accept = 'application/json'): Promise<Buffer> {
  return getBody(agent, `${url}${path}`, ADMIN_TOKEN, accept);
}

/** The ClusterRoles a list of bindings names (every page: the bench's cluster holds fewer than 500 of each). */
function boundRoles(body: Buffer): string[] {
  const list = JSON.parse(body.toString('utf8')) as {
    items: { roleRef: { kind: string; name: string } }[];
    metadata: { continue?: string };
  };
  if ((list.metadata.continue ?? '') !== '') throw new Error('more than one page of bindings');
  return list.items.filter((b) => b.roleRef.kind === 'ClusterRole').map((b) => b.roleRef.name);
}

const [, , crbs, rbs] = await Promise.all([
  get('/api', DISCOVERY_ACCEPT),
  get('/apis', DISCOVERY_ACCEPT),
  get(`${RBAC}/clusterrolebindings?limit=500`),
  get(`${RBAC}/namespaces/${namespace}/rolebindings?limit=500`),
  get(`${RBAC}/namespaces/${namespace}/roles?limit=500`),
]);
const names = [...new Set([...boundRoles(crbs), ...boundRoles(rbs)])];
let next = 0;
let bytes = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < names.length) {
      const name = names[next++] ?? '';
      const body = await get(`${RBAC}/clusterroles/${encodeURIComponent(name)}`);
      bytes += body.length;
    }
  }),
);
agent.destroy();
process.stdout.write(`${String(names.length)} ${String(bytes)}\n`);
