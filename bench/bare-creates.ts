/**
 * The floor of a cold sync (`npm run bench -- floor`): a bare client that POSTs the objects of a List (sync's
 * `-o json` output) to the test API server at URL, as its administrator, on keep-alive connections with CONCURRENCY
 * requests in flight, in the List's order. Prints the milliseconds from the first request to the last answer.
 *
 *   node --import tsx bench/bare-creates.ts URL OBJECTS.json CONCURRENCY
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { ADMIN_TOKEN } from '../test/apiserver/types.js';
import { TEST_CERT } from '../test/apiserver/tls.js';

interface Item {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string };
}

const PLURALS: Readonly<Record<string, string>> = {
  ClusterRole: 'clusterroles',
  ClusterRoleBinding: 'clusterrolebindings',
  RoleBinding: 'rolebindings',
  Role: 'roles',
};

const [url = '', file = '', inFlight = '16'] = process.argv.slice(2);
const items = (JSON.parse(readFileSync(file, 'utf8')) as { items: Item[] }).items;
const concurrency = Number(inFlight);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency, ca: TEST_CERT });

function post(o: Item): Promise<void> {
  const plural = PLURALS[o.kind];
  if (plural === undefined) return Promise.reject(new Error(`no plural for ${o.kind}`));
  const ns = o.metadata.namespace !== undefined ? `/namespaces/${o.metadata.namespace}` : '';
  const body = JSON.stringify(o);
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/apis/${o.apiVersion}${ns}/${plural}`,
      {
        method: 'POST',
        agent,
        headers: {
          Authorization: `Bearer ${ADMIN_TOKEN}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 201) resolve();
          else reject(new Error(`create ${o.kind} ${o.metadata.name}: HTTP ${String(res.statusCode)}`));
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const start = process.hrtime.bigint();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await post(item);
    }
  }),
);
process.stdout.write(`${String(Number(process.hrtime.bigint() - start) / 1e6)}\n`);
agent.destroy();
