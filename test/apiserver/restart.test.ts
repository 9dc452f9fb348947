import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startApiServer, type TestApiServer } from './server.js';

let server: TestApiServer;

beforeAll(async () => {
  server = await startApiServer();
});
afterAll(async () => {
  await server.stop();
});

function request(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

const ROLES = '/apis/rbac.authorization.k8s.io/v1/clusterroles';

function role(name: string): object {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules: [] };
}

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe('stopping and restarting the test API server', () => {
  it('refuses connections while stopped, then serves the same store on the same port', async () => {
    const created = (await (await request('POST', ROLES, role('kept'))).json()) as any;
    const url = server.url;
    await server.stop();
    await expect(request('GET', `${ROLES}/kept`)).rejects.toThrow();
    await server.restart();
    expect(server.url).toBe(url);
    const again = (await (await request('GET', `${ROLES}/kept`)).json()) as any;
    expect(again.metadata.uid).toBe(created.metadata.uid);
    expect(again.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    const next = (await (await request('POST', ROLES, role('after'))).json()) as any;
    expect(Number(next.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
  });

  it('stores a write it was serving when stopped, though its answer is lost', async () => {
    server.faults.latencyMs = 300;
    const before = server.counters.get('create', 'clusterroles');
    const pending = request('POST', ROLES, role('in-flight'));
    await waitFor(() => server.counters.get('create', 'clusterroles') > before);
    await server.stop();
    await expect(pending).rejects.toThrow();
    expect(server.get('clusterroles', 'in-flight')).toBeUndefined();
    await new Promise((r) => setTimeout(r, 400));
    expect(server.get('clusterroles', 'in-flight')).toMatchObject({ metadata: { name: 'in-flight' } });
    server.faults.latencyMs = 0;
    await server.restart();
    expect((await request('GET', `${ROLES}/in-flight`)).status).toBe(200);
  });

  it('refuses to restart while listening', async () => {
    await expect(server.restart()).rejects.toThrow(/still listening/);
  });
});
