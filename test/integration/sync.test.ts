import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { TestApiServer } from '../apiserver/server.js';
import { runPlugin, startSeeded, userKubeconfig } from './harness.js';

type Obj = Record<string, any>;

describe('sync against the test API server', () => {
  let server: TestApiServer;
  let kubeconfig: string;
  let dir: string;
  let desiredCount = 0;

  beforeAll(async () => {
    ({ server, kubeconfig, dir } = await startSeeded());
  });
  afterAll(async () => {
    await server.stop();
  });

  it('stops a user without permissions before any write, listing what is missing', async () => {
    const limited = userKubeconfig(server, dir, 'limited');
    // Reading is allowed, writing RBAC is not.
    server.seed([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'test-read-all' },
        rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'test-read-all' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'test-read-all' },
        subjects: [{ kind: 'User', name: 'limited', apiGroup: 'rbac.authorization.k8s.io' }],
      },
    ]);
    server.counters.reset();
    const r = await runPlugin(['sync', '--kubeconfig', limited, '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: not allowed to apply the Crossplane RBAC, nothing was written; missing: /,
    );
    expect(r.stderr).toContain('create clusterroles.rbac.authorization.k8s.io');
    expect(r.stderr).toContain('create clusterrolebindings.rbac.authorization.k8s.io');
    expect(r.stderr).toContain('update compositeresourcedefinitions/finalizers.apiextensions.crossplane.io');
    expect(server.counters.writes()).toBe(0);
  });

  it('writes nothing with --dry-run=server, and the server validates every write', async () => {
    server.counters.reset();
    const r = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--dry-run=server']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ClusterRole\s+212\s+0\s+0\s+0\s+0\s+0/);
    expect(
      server
        .list('clusterroles')
        .some((o: any) => String(o.metadata.name).startsWith('crossplane:composite:')),
    ).toBe(false);
    expect(server.counters.get('create', 'clusterroles')).toBe(212);
  });

  it('on a terminal without --yes, shows the plan table and then asks; declining writes nothing', async () => {
    const asked: string[] = [];
    const prompter = {
      confirm: (message: string) => {
        asked.push(message);
        return Promise.resolve(false);
      },
      checkbox: () => Promise.reject(new Error('sync chooses nothing')),
    };
    server.counters.reset();
    // CI=1: no spinner (the fake terminal here cannot clear its line).
    const r = await runPlugin(['sync', '--kubeconfig', kubeconfig], {
      tty: true,
      prompter,
      env: { CI: '1' },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(asked).toStrictEqual([
      expect.stringMatching(/^apply the Crossplane RBAC: (\d+) writes on .*\. Continue\?$/),
    ]);
    // The plan is only printed before the question (a declined run prints no result table).
    const table = /^KIND\s+TO CREATE\s+TO UPDATE\s+UNCHANGED\s+TO DELETE\s+REFUSED\s+FAILED$/m;
    expect(r.stderr).toMatch(table);
    expect(r.stderr).toMatch(/^ClusterRole\s+212\s+0\s+0\s+0\s+0\s+0$/m);
    expect(r.stderr.indexOf('KIND')).toBeLessThan(r.stderr.indexOf('error: aborted'));
    expect(r.stdout).toBe('');
    expect(server.counters.writes()).toBe(0);
    // The question counts what the table shows.
    const rows = [...r.stderr.matchAll(/^\w+\s+(\d+)\s+(\d+)\s+\d+\s+(\d+)\s/gm)];
    const writes = rows.reduce((n, m) => n + Number(m[1]) + Number(m[2]) + Number(m[3]), 0);
    expect(asked[0]).toContain(`: ${writes} writes on`);

    // With --yes nobody is asked, so no plan is shown before writing; off a terminal the refusal shows none either.
    const refused = await runPlugin(['sync', '--kubeconfig', kubeconfig]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).not.toMatch(table);
    expect(refused.stderr).toMatch(/^error: refusing to apply the Crossplane RBAC without confirmation/m);
  });

  it('creates everything on a cold sync with LISTs plus one write per object', async () => {
    const plan = await runPlugin(['sync', '--kubeconfig', kubeconfig, '-o', 'json', '--dry-run=client']);
    desiredCount = (JSON.parse(plan.stdout) as { items: unknown[] }).items.length;
    expect(desiredCount).toBeGreaterThan(200);
    server.counters.reset();
    const r = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--yes']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(server.counters.get('list', 'clusterroles')).toBe(1);
    expect(
      server.counters.get('create', 'clusterroles') + server.counters.get('create', 'clusterrolebindings'),
    ).toBe(desiredCount);
    expect(server.counters.writes()).toBe(desiredCount);
    const edit = server.get(
      'clusterroles',
      'crossplane:composite:xnopresources.nop.example.org:aggregate-to-edit',
    ) as Obj;
    expect(edit.metadata.ownerReferences[0]).toMatchObject({
      apiVersion: 'apiextensions.crossplane.io/v1',
      kind: 'CompositeResourceDefinition',
      controller: true,
      blockOwnerDeletion: true,
    });
  });

  it('writes nothing on a second sync: only its LISTs', async () => {
    server.counters.reset();
    const r = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--yes']);
    expect(r.code).toBe(0);
    expect(server.counters.writes()).toBe(0);
    expect(server.counters.total('get')).toBe(0);
    // One per kind sync reads, the CRDs (metadata only) among them.
    expect(server.counters.total('list')).toBe(9);
    const check = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--check']);
    expect(check.code).toBe(0);
  });

  it('reports drift with --check (exit 1) and rewrites only the changed XRD roles', async () => {
    const xrd = server.get('compositeresourcedefinitions', 'xnopresources.nop.example.org') as Obj;
    const meta = xrd.metadata as { name: string; uid: string };
    // Offering a claim: Crossplane creates the claim's CRD, controlled by the XRD.
    const claimCrd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: {
        name: 'nopclaims.nop.example.org',
        ownerReferences: [
          {
            apiVersion: 'apiextensions.crossplane.io/v1',
            kind: 'CompositeResourceDefinition',
            name: meta.name,
            uid: meta.uid,
            controller: true,
          },
        ],
      },
      spec: {
        group: 'nop.example.org',
        scope: 'Namespaced',
        names: { plural: 'nopclaims', singular: 'nopclaim', kind: 'NopClaim', listKind: 'NopClaimList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    };
    server.seed([
      { ...xrd, spec: { ...xrd.spec, claimNames: { kind: 'NopClaim', plural: 'nopclaims' } } },
      claimCrd,
    ]);
    const check = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--check', '-o', 'name']);
    expect(check.code).toBe(1);
    expect(check.stdout.trim().split('\n').sort()).toEqual([
      'clusterrole.rbac.authorization.k8s.io/crossplane:composite:xnopresources.nop.example.org:aggregate-to-crossplane',
      'clusterrole.rbac.authorization.k8s.io/crossplane:composite:xnopresources.nop.example.org:aggregate-to-edit',
      'clusterrole.rbac.authorization.k8s.io/crossplane:composite:xnopresources.nop.example.org:aggregate-to-view',
    ]);
    server.counters.reset();
    const r = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--yes']);
    expect(r.code).toBe(0);
    expect(server.counters.writes()).toBe(3);
    expect(server.counters.get('update', 'clusterroles')).toBe(3);
  });

  it('refuses a role controlled by another owner and never touches it', async () => {
    const name = 'crossplane:composite:xnopresources.nop.example.org:aggregate-to-browse';
    const live = server.get('clusterroles', name) as Obj;
    const foreign = {
      ...live,
      metadata: {
        ...live.metadata,
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: 'other-uid', controller: true },
        ],
      },
      rules: [],
    };
    server.seed([foreign]);
    const before = JSON.stringify(server.get('clusterroles', name));
    server.counters.reset();
    try {
      const r = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--yes']);
      // Everything else is done, then the run fails so that CI notices the object it left alone.
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `refused ClusterRole/${name}: controlled by ConfigMap "other" (uid other-uid)`,
      );
      expect(r.stderr).toMatch(/\nerror: 1 object is not the plugin's to change and was left unchanged/);
      expect(r.stdout).toMatch(/ClusterRole\s+0\s+0\s+\d+\s+0\s+1\s+0/);
      expect(JSON.stringify(server.get('clusterroles', name))).toBe(before);
      expect(server.counters.writes()).toBe(0);
    } finally {
      server.seed([live]);
    }
  });

  it('retries an update on conflict and converges', async () => {
    const xrd = server.get('compositeresourcedefinitions', 'xnopresources.nop.example.org') as Obj;
    const { claimNames: _c, ...spec } = xrd.spec;
    server.seed([{ ...xrd, spec }]);
    server.faults.failNext = { count: 2, code: 409, verbs: ['update'] };
    const r = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--yes']);
    server.faults.failNext = undefined;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const again = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--check']);
    expect(again.code).toBe(0);
  });

  it('lists every failed write, writes the rest, and a re-run converges', async () => {
    // A label someone added to each of the XRD's four roles: four updates, one of which fails.
    const roles = ['crossplane', 'edit', 'view', 'browse'].map(
      (s) =>
        server.get(
          'clusterroles',
          `crossplane:composite:xnopresources.nop.example.org:aggregate-to-${s}`,
        ) as Obj,
    );
    server.seed(
      roles.map((r) => ({
        ...r,
        metadata: { ...r.metadata, labels: { ...r.metadata?.labels, extra: 'x' } },
      })),
    );
    server.faults.failNext = { count: 1, code: 422, verbs: ['update'] };
    const r = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--yes']);
    server.faults.failNext = undefined;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: 1 of 4 writes failed; everything else was written/);
    const again = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--yes']);
    expect(again.code).toBe(0);
    const check = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--check']);
    expect(check.code).toBe(0);
  });

  it('prints the objects it would write as a kind: List', async () => {
    const r = await runPlugin([
      'sync',
      '--kubeconfig',
      kubeconfig,
      '-o',
      'yaml',
      '--dry-run=client',
      '--xrd',
      'xnopresources.nop.example.org',
    ]);
    expect(r.code).toBe(0);
    const list = parse(r.stdout) as { kind: string; items: unknown[] };
    expect(list.kind).toBe('List');
    expect(list.items, JSON.stringify(list.items)).toEqual([]);
  });

  it('names unknown --xrd values in one error line', async () => {
    const r = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--xrd', 'nope.example.org']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*nope\.example\.org/);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
  });
});

describe('sync before recreating a binding', () => {
  let server: TestApiServer;
  let kubeconfig: string;
  let dir: string;

  beforeAll(async () => {
    ({ server, kubeconfig, dir } = await startSeeded());
  });
  afterAll(async () => {
    await server.stop();
  });

  it('checks delete and create before recreating a binding whose role changed, and stops before any write', async () => {
    const first = await runPlugin(['sync', '--kubeconfig', kubeconfig, '--yes']);
    expect(first.code, first.stderr).toBe(0);
    const binding = (server.list('clusterrolebindings') as Record<string, any>[]).find((b) =>
      /^crossplane:provider:.*:system$/.test(String(b.metadata.name)),
    );
    if (binding === undefined) throw new Error('no provider binding');
    server.seed([{ ...binding, roleRef: { ...binding.roleRef, name: 'view' } }]);
    // Everything sync needs, but bindings may be updated, not deleted.
    const role = await runPlugin(['sync', '--print-required-role', '--kubeconfig', kubeconfig]);
    const required = parse(role.stdout) as { rules: Record<string, any>[] };
    const rules = required.rules.flatMap((r) =>
      (r.resources as string[]).includes('clusterrolebindings')
        ? [
            { ...r, resources: (r.resources as string[]).filter((x) => x !== 'clusterrolebindings') },
            {
              ...r,
              resources: ['clusterrolebindings'],
              verbs: (r.verbs as string[]).filter((v) => v !== 'delete'),
            },
          ]
        : [r],
    );
    const noDelete = userKubeconfig(server, dir, 'no-delete');
    server.seed([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'test-no-delete' },
        rules,
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'test-no-delete' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'test-no-delete' },
        subjects: [{ kind: 'User', name: 'no-delete', apiGroup: 'rbac.authorization.k8s.io' }],
      },
    ]);
    server.counters.reset();
    const r = await runPlugin(['sync', '--kubeconfig', noDelete, '--yes']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /^error: not allowed to apply the Crossplane RBAC, nothing was written; missing: /m,
    );
    expect(r.stderr).toContain('delete clusterrolebindings.rbac.authorization.k8s.io');
    expect(server.counters.writes()).toBe(0);
    expect(
      (server.get('clusterrolebindings', String(binding.metadata.name)) as Record<string, any>).roleRef.name,
    ).toBe('view');
  });
});
