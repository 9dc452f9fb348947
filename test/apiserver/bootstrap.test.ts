/**
 * The bootstrap policy every user is authorized by is stored, as kube-apiserver stores it at its start, and
 * authorizes only while stored: checked with the real kubectl against Kubernetes' golden files
 * (test/fixtures/kubernetes/bootstrap-cluster-roles.yaml and bootstrap-cluster-role-bindings.yaml).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { TestApiServer } from './server.js';
import { startApiServer } from './server.js';
import { fixturePath } from '../support/fixtures.js';

type Obj = Record<string, any>;

const EVERY_USER = ['system:basic-user', 'system:discovery', 'system:public-info-viewer'];

function golden(file: string, name: string): Obj {
  const list = YAML.parse(readFileSync(fixturePath('kubernetes', file), 'utf8')) as { items: Obj[] };
  const found = list.items.find((o) => o.metadata?.name === name);
  if (found === undefined) throw new Error(`${file} has no ${name}`);
  return found;
}

let server: TestApiServer;
let dir: string;

function kubectl(args: string[], kubeconfig: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    execFile(
      'kubectl',
      ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args],
      { timeout: 30_000 },
      (e, out, err) => {
        done({ code: e === null ? 0 : typeof e.code === 'number' ? e.code : 1, out, err });
      },
    );
  });
}

const admin = (args: string[]) => kubectl(args, join(dir, 'admin.kubeconfig'));
const erin = (args: string[]) => kubectl(args, join(dir, 'erin.kubeconfig'));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'apiserver-bootstrap-'));
  server = await startApiServer();
  server.writeKubeconfig(join(dir, 'admin.kubeconfig'));
  server.addUser('erin-token', 'erin');
  server.writeKubeconfig(join(dir, 'erin.kubeconfig'), { token: 'erin-token', context: 'erin' });
});

afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the bootstrap policy every user relies on', () => {
  it('is stored at start as the golden files have it, and nothing else is', async () => {
    const bindings = await admin(['get', 'clusterrolebindings', '-o', 'json']);
    expect(bindings.code).toBe(0);
    const items = (JSON.parse(bindings.out) as { items: Obj[] }).items;
    expect(items.map((b) => String(b.metadata.name))).toStrictEqual(EVERY_USER);
    for (const b of items) {
      const want = golden('bootstrap-cluster-role-bindings.yaml', b.metadata.name);
      expect(b.subjects, b.metadata.name).toStrictEqual(want.subjects);
      expect(b.roleRef, b.metadata.name).toStrictEqual(want.roleRef);
      expect(b.metadata.labels).toStrictEqual(want.metadata.labels);
      expect(b.metadata.annotations).toStrictEqual(want.metadata.annotations);
    }
    const roles = await admin(['get', 'clusterroles', '-o', 'json']);
    const stored = (JSON.parse(roles.out) as { items: Obj[] }).items;
    expect(stored.map((r) => String(r.metadata.name))).toStrictEqual(EVERY_USER);
    for (const r of stored) {
      expect(r.rules, r.metadata.name).toStrictEqual(
        golden('bootstrap-cluster-roles.yaml', r.metadata.name).rules,
      );
    }
  });

  it('authorizes a user with no binding of their own only while it is stored', async () => {
    expect((await erin(['auth', 'can-i', 'create', 'selfsubjectrulesreviews'])).out).toBe('yes\n');
    expect((await erin(['auth', 'can-i', 'get', '/livez'])).out).toBe('yes\n');
    expect((await erin(['get', '--raw', '/version'])).code).toBe(0);
    expect((await erin(['auth', 'can-i', 'list', 'pods'])).out).toBe('no\n');

    // Without them erin may not even ask what she may do, nor read the version, as on a real cluster.
    expect((await admin(['delete', 'clusterrolebinding', ...EVERY_USER])).code).toBe(0);
    const review = await erin(['auth', 'can-i', 'list', 'pods']);
    expect(review.code).toBe(1);
    expect(review.err).toBe(
      'Error from server (Forbidden): selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "erin" cannot create resource "selfsubjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope\n',
    );
    for (const path of ['/version', '/livez', '/apis']) {
      const read = await erin(['get', '--raw', path]);
      expect(read.code, path).toBe(1);
      expect(read.err, path).toContain(`User "erin" cannot get path "${path}"`);
    }
  });
});
