import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import type { Prompter } from '../../src/cli/output/prompt.js';
import { runPlugin, type CliResult } from './harness.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SQL = 'xsqlinstances.aws.platform.upbound.io'; // v1, claim sqlinstances.aws.platform.upbound.io
const APPS = 'apps.platform.acme.io'; // v2 Namespaced, XR apps.platform.acme.io

let server: TestApiServer;
let dir: string;
let admin: string;

function plugin(args: string[], kubeconfig = admin): Promise<CliResult> {
  return runPlugin(['enable-xrd', ...args, '--kubeconfig', kubeconfig]);
}

/** `kubectl auth can-i VERB RESOURCE -n NS --as USER` with the admin kubeconfig: true for "yes". */
function canI(verb: string, resource: string, namespace: string, user: string): Promise<boolean> {
  return new Promise((done) => {
    execFile(
      'kubectl',
      ['auth', 'can-i', verb, resource, '-n', namespace, '--as', user, '--kubeconfig', admin],
      { timeout: 30_000, env: { ...process.env, HOME: dir } },
      (_err, stdout) => {
        done(stdout.trim() === 'yes');
      },
    );
  });
}

/** The aggregation controller runs asynchronously: poll until the answer is the expected one (or give up). */
async function eventually(check: () => Promise<boolean>, want: boolean): Promise<boolean> {
  let got = await check();
  for (let i = 0; i < 20 && got !== want; i++) {
    await new Promise((r) => setTimeout(r, 100));
    got = await check();
  }
  return got;
}

function annotations(ns: string): Record<string, string> {
  const o = server.get('namespaces', ns) as { metadata: { annotations?: Record<string, string> } };
  return o.metadata.annotations ?? {};
}

function binding(namespace: string, user: string): object {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: `${user}-edit`, namespace },
    roleRef: {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: `crossplane-ns-${namespace}-edit`,
    },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'enable-xrd-int-'));
  server = await startApiServer({
    aggregation: true,
    seed: loadSeedFiles([join(repoRoot, 'examples', 'cluster')]),
  });
  admin = join(dir, 'admin.kubeconfig');
  server.writeKubeconfig(admin);
  // The claims' and XRs' CRDs come with the examples, made by their XRDs as Crossplane makes them.
  server.seed([
    binding('production', 'dev'),
    binding('sandbox', 'dev'),
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'reader' },
      rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'reader' }],
    },
  ]);
});

afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('enable-xrd against the test API server', () => {
  it('grants nowhere by default: a context without a namespace needs -n or -l; one with a namespace is named', async () => {
    server.counters.reset();
    const none = await plugin([SQL, '--yes']);
    expect(none.code).toBe(2);
    expect(none.stderr.split('\n')[0]).toBe('error: no namespace given: pass -n NAMESPACE... or -l SELECTOR');
    expect(server.counters.writes()).toBe(0);
    expect(annotations('default')).toStrictEqual({});

    // The same kubeconfig, its context naming a namespace (as `kubectl config set-context --namespace` writes it).
    const withNs = join(dir, 'context-namespace.kubeconfig');
    server.writeKubeconfig(withNs);
    await promisify(execFile)('kubectl', [
      'config',
      'set-context',
      '--current',
      '--namespace',
      'staging',
      '--kubeconfig',
      withNs,
    ]);
    const preview = await plugin([SQL, '--dry-run=client'], withNs);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stderr).toMatch(/^enabling in namespace "staging", the context's \(no -n or -l given\): /);
    expect(server.counters.writes()).toBe(0);
  });

  it('validates before writing: unknown XRD, cluster-scoped XRD, missing namespace write nothing', async () => {
    server.counters.reset();
    for (const args of [
      ['xsqlinstance.aws.platform.upbound.io', '-n', 'production'],
      ['tenants.platform.acme.io', '-n', 'production'],
      [SQL, '-n', 'nowhere'],
      [SQL, '-l', 'acme.io/team=nobody'],
    ]) {
      const r = await plugin([...args, '--yes']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
    }
    expect(server.counters.writes()).toBe(0);
  });

  it('refuses a forbidden patch before the first write', async () => {
    server.addUser('reader-token', 'reader');
    const kc = join(dir, 'reader.kubeconfig');
    server.writeKubeconfig(kc, { token: 'reader-token', context: 'reader' });
    server.counters.reset();
    const r = await plugin([SQL, '-n', 'production', '--yes'], kc);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: not allowed to enable XRDs in namespaces, nothing was written; missing: patch namespaces\/production/m,
    );
    expect(server.counters.writes()).toBe(0);
    expect(annotations('production')).toStrictEqual({});
  });

  it('names exactly the namespaces a patch is forbidden in when a rule allows some by name', async () => {
    server.seed([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'some-patcher' },
        rules: [
          { apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list'] },
          {
            apiGroups: [''],
            resources: ['namespaces'],
            resourceNames: ['team-a'],
            verbs: ['patch'],
          },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'some-patcher' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'some-patcher' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'some-patcher' }],
      },
    ]);
    server.addUser('some-patcher-token', 'some-patcher');
    const kc = join(dir, 'some-patcher.kubeconfig');
    server.writeKubeconfig(kc, { token: 'some-patcher-token', context: 'some-patcher' });
    server.counters.reset();
    // team-a, team-b, payments and analytics carry the label; team-b has the XRD already (no patch).
    const r = await plugin([SQL, '-l', 'acme.io/team', '--yes'], kc);
    expect(r.code).toBe(2);
    const denied = [...r.stderr.matchAll(/patch namespaces\/([a-z-]+)/g)].map((m) => m[1]).sort();
    expect(denied).toStrictEqual(['analytics', 'payments']);
    expect(server.counters.writes()).toBe(0);
  });

  it('--dry-run=server sends the writes as dry runs and persists nothing', async () => {
    const r = await plugin([SQL, '-n', 'production', '--dry-run=server', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Namespace\s+0\s+1/);
    expect(annotations('production')).toStrictEqual({});
    expect(server.get('clusterroles', 'crossplane-ns-production-edit')).toBeUndefined();
  });

  it('lets a user bound to crossplane-ns-<ns>-edit create the claim in that namespace only', async () => {
    const claim = 'sqlinstances.aws.platform.upbound.io';
    expect(await canI('create', claim, 'production', 'dev')).toBe(false);
    const r = await plugin([SQL, '-n', 'production', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(annotations('production')).toStrictEqual({ [`rbac.crossplane.io/${SQL}`]: 'xrd-claim-accepted' });
    expect(await eventually(() => canI('create', claim, 'production', 'dev'), true)).toBe(true);
    expect(await canI('create', claim, 'sandbox', 'dev')).toBe(false);
    expect(await canI('create', claim, 'team-b', 'dev')).toBe(false);
  });

  it('a second run is a no-op with zero writes', async () => {
    server.counters.reset();
    const r = await plugin([SQL, '-n', 'production', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`namespace/production: ${SQL} is already enabled`);
    expect(server.counters.writes()).toBe(0);
  });

  it('an XRD enabled later reaches the existing binding; --disable takes one away', async () => {
    const app = 'apps.platform.acme.io';
    expect(await canI('create', app, 'production', 'dev')).toBe(false);
    const r = await plugin([APPS, '-n', 'production', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(await eventually(() => canI('create', app, 'production', 'dev'), true)).toBe(true);

    const d = await plugin([SQL, '-n', 'production', '--disable', '--yes']);
    expect(d.code, d.stderr).toBe(0);
    expect(annotations('production')).toStrictEqual({ [`rbac.crossplane.io/${APPS}`]: 'xrd-claim-accepted' });
    expect(
      await eventually(
        () => canI('create', 'sqlinstances.aws.platform.upbound.io', 'production', 'dev'),
        false,
      ),
    ).toBe(false);
    expect(await canI('create', app, 'production', 'dev')).toBe(true);
  });

  it('--disable of the last XRD removes the namespace roles', async () => {
    const r = await plugin([APPS, '-n', 'production', '--disable', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(server.get('clusterroles', 'crossplane-ns-production-edit')).toBeUndefined();
    expect(server.get('clusterroles', 'crossplane-ns-production-view')).toBeUndefined();
    expect(await canI('create', 'apps.platform.acme.io', 'production', 'dev')).toBe(false);
  });

  it('asks about one write in the singular ("1 write", not "1 writes")', async () => {
    const asked: string[] = [];
    const prompter: Prompter = {
      confirm: (message) => {
        asked.push(message);
        return Promise.resolve(false);
      },
      checkbox: () => Promise.reject(new Error('XRD and namespace were given: nothing to choose')),
    };
    // --no-sync: the namespace's annotation only, one write.
    const r = await runPlugin(
      ['enable-xrd', SQL, '-n', 'staging', '--no-sync', '-i', '--kubeconfig', admin],
      {
        tty: true,
        prompter,
      },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^enable XRDs in namespaces: 1 write on .*\. Continue\?$/);
  });

  it('-i shows the plan after the permission check and asks even with --yes; declining writes nothing', async () => {
    const asked: string[] = [];
    const answering = (answer: boolean): Prompter => ({
      confirm: (message) => {
        asked.push(message);
        return Promise.resolve(answer);
      },
      checkbox: () => Promise.reject(new Error('XRD and namespace were given: nothing to choose')),
    });
    const before = annotations('staging');
    server.counters.reset();
    const no = await runPlugin(['enable-xrd', SQL, '-n', 'staging', '-i', '--yes', '--kubeconfig', admin], {
      tty: true,
      prompter: answering(false),
    });
    expect(no.code, no.stderr).toBe(2);
    expect(no.stderr).toMatch(/^error: aborted: nothing was written/m);
    expect(no.stderr).toMatch(/^Namespace\s+0\s+1\s/m);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^enable XRDs in namespaces: \d+ writes on .*\. Continue\?$/);
    expect(server.counters.writes()).toBe(0);
    expect(annotations('staging')).toStrictEqual(before);

    const yes = await runPlugin(['enable-xrd', SQL, '-n', 'staging', '-i', '--kubeconfig', admin], {
      tty: true,
      prompter: answering(true),
    });
    expect(yes.code, yes.stderr).toBe(0);
    expect(asked).toHaveLength(2);
    expect(annotations('staging')).toStrictEqual({
      ...before,
      [`rbac.crossplane.io/${SQL}`]: 'xrd-claim-accepted',
    });
    expect(server.get('clusterroles', 'crossplane-ns-staging-edit')).toBeDefined();
  });
});
