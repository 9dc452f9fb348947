/**
 * The floor of a cold sync, as a whole process (`npm run bench -- floor`): a bare Node client that starts, reads what
 * sync reads (the same LISTs, paged as sync pages them, each body read as bytes, gunzipped when compressed, never
 * parsed but for its continue token), then POSTs the objects sync creates, in sync's order, with CONCURRENCY requests
 * in flight on keep-alive connections. No rendering, no planning, no permission pre-flight: what no sync can go
 * under. bench/live.ts bundles it with esbuild and runs it with plain node, so loading it costs what loading a
 * compiled client costs; the parent times the process from spawn to exit, as it times sync.
 *
 *   node floor-client.mjs URL PLAN CONCURRENCY
 *
 * PLAN is a file of lines: `L <path>` a LIST (`M <path>` a metadata-only one, as sync lists CRDs), then `C <path>\t<json>`
 * a create.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { ADMIN_TOKEN } from '../test/apiserver/types.js';
import { TEST_CERT } from '../test/apiserver/tls.js';
import { ACCEPT_ENCODING, readAnswer } from './floor-answer.js';

/** The Accept of a metadata-only list, as client-go's metadata client sends it (and sync, for CRDs). */
const METADATA_ACCEPT =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1,application/json';

const [url = '', planFile = '', inFlight = '16'] = process.argv.slice(2);
const concurrency = Number(inFlight);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency, ca: TEST_CERT });

const lists: { path: string; metadataOnly: boolean }[] = [];
const creates: { path: string; body: string }[] = [];
for (const line of readFileSync(planFile, 'utf8').split('\n')) {
  if (line.startsWith('L ') || line.startsWith('M '))
    lists.push({ path: line.slice(2), metadataOnly: line[0] === 'M' });
  else if (line.startsWith('C ')) {
    const tab = line.indexOf('\t');
    creates.push({ path: line.slice(2, tab), body: line.slice(tab + 1) });
  }
}

function send(method: string, path: string, accept: string, body?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      Authorization: `Bearer ${ADMIN_TOKEN}`,
      Accept: accept,
      ...ACCEPT_ENCODING,
    };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = Buffer.byteLength(body);
    }
    const req = request(`${url}${path}`, { method, agent, headers }, (res) => {
      const want = method === 'POST' ? 201 : 200;
      readAnswer(res).then((body) => {
        if (res.statusCode === want) resolve(body);
        else reject(new Error(`${method} ${path}: HTTP ${String(res.statusCode)}`));
      }, reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Every page of one list: the continue token read from the start of each body, where the list's metadata is. */
async function list(path: string, metadataOnly: boolean): Promise<void> {
  let token = '';
  do {
    const page = await send(
      'GET',
      token === '' ? path : `${path}&continue=${encodeURIComponent(token)}`,
      metadataOnly ? METADATA_ACCEPT : 'application/json',
    );
    token = /"continue":"([^"]*)"/.exec(page.subarray(0, 4096).toString('latin1'))?.[1] ?? '';
  } while (token !== '');
}

await Promise.all(lists.map((l) => list(l.path, l.metadataOnly)));
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < creates.length) {
      const c = creates[next++];
      if (c !== undefined) await send('POST', c.path, 'application/json', c.body);
    }
  }),
);
agent.destroy();
