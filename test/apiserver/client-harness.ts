// The test server and clients shared by the client-node tests of the test API server (client*.test.ts): each test
// file calls useClientServer() once; server, rbac and core are live bindings set before its tests run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiException, CoreV1Api, KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { TestApiServer } from './server.js';
import { NO_FAULTS } from './faults.js';
import { ADMIN_TOKEN, startApiServer } from './server.js';

export const RBAC = 'rbac.authorization.k8s.io';
export let server: TestApiServer;
export let rbac: RbacAuthorizationV1Api;
export let core: CoreV1Api;
let dir: string;

export function clusterRole(name: string, extra: Record<string, unknown> = {}): any {
  return { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules: [], ...extra };
}

export async function raw(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export async function apiError(p: Promise<unknown>): Promise<{ code: number; body: any }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiException) return { code: e.code, body: JSON.parse(e.body as string) };
    throw e;
  }
  throw new Error('expected the call to fail');
}

/** Starts the server before the file's tests, stops it after them, and clears the faults before each test. */
export function useClientServer(): void {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiserver-client-'));
    server = await startApiServer();
    const file = join(dir, 'kubeconfig');
    server.writeKubeconfig(file);
    const kc = new KubeConfig();
    kc.loadFromFile(file);
    rbac = kc.makeApiClient(RbacAuthorizationV1Api);
    core = kc.makeApiClient(CoreV1Api);
  });

  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    server.faults = { ...NO_FAULTS };
  });
}
