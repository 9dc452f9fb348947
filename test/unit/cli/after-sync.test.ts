// --after-sync through the command line, in-process, from hand-made files (-f: no cluster). A chart's
// crossplane-edit aggregates `rbac.crossplane.io/aggregate-to-edit`; a ProviderRevision defines widgets.example.org,
// and Crossplane's RBAC manager gives each revision an aggregate-to-edit role with every verb on its resources
// (crossplane internal/controller/rbac/provider/roles/roles.go: verbsEdit = ["*"], labelled aggregate-to-edit). So
// after sync the group bound to crossplane-edit may delete widgets; before, it may not.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCaptured, type CliResult } from '../../support/run-cli.js';

const NOTE = 'answering for the cluster after sync (nothing was written)';
const RBAC = 'rbac.authorization.k8s.io/v1';
const REVISION = 'acme-provider-widgets-1a2b3c';
const PROVIDER_EDIT = `crossplane:provider:${REVISION}:aggregate-to-edit`;
const EDIT_LABEL = { 'rbac.crossplane.io/aggregate-to-edit': 'true' };

const revision = {
  apiVersion: 'pkg.crossplane.io/v1',
  kind: 'ProviderRevision',
  metadata: { name: REVISION, uid: '11111111-2222-3333-4444-555555555555' },
  spec: { desiredState: 'Active', image: 'xpkg.crossplane.io/acme/provider-widgets:v1.0.0', revision: 1 },
  status: {
    objectRefs: [
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: 'widgets.example.org',
      },
    ],
  },
};

const crossplaneEdit = {
  apiVersion: RBAC,
  kind: 'ClusterRole',
  metadata: { name: 'crossplane-edit' },
  aggregationRule: { clusterRoleSelectors: [{ matchLabels: EDIT_LABEL }] },
  rules: [],
};

const devsBinding = {
  apiVersion: RBAC,
  kind: 'ClusterRoleBinding',
  metadata: { name: 'team-devs-edit' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'crossplane-edit' },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'team-devs' }],
};

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A directory holding OBJECTS as one YAML file (removed after the file's tests). */
function cluster(...objects: object[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'after-sync-unit-'));
  made.push(dir);
  writeFileSync(join(dir, 'cluster.yaml'), objects.map((o) => stringify(o)).join('---\n'));
  return dir;
}

const base = cluster(revision, crossplaneEdit, devsBinding);

function json(r: CliResult): unknown {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

interface WhoCanJson {
  readonly subjects: readonly { kind: string; name: string }[];
}
interface ExplainJson {
  readonly access: { allowed: boolean } | null;
}
interface SubjectJson {
  readonly access: { allowed: boolean; whyNot: readonly { message: string; fix?: string }[] };
}

const names = (answer: unknown): string[] =>
  (answer as WhoCanJson).subjects.map((s) => `${s.kind}/${s.name}`);

describe('--after-sync from files', () => {
  it("who-can: the group bound to crossplane-edit may delete the provider's resources once sync made its roles", async () => {
    const args = ['who-can', 'delete', 'widgets.example.org', '-A', '-f', base, '-o', 'json'];
    expect(names(json(await runCaptured(args)))).not.toContain('Group/team-devs');
    const after = await runCaptured([...args, '--after-sync']);
    expect(names(json(after))).toContain('Group/team-devs');
    expect(after.stderr.split('\n')[0]).toBe(NOTE);
  });

  it('explain ROLE: crossplane-edit holds the rules of the provider role', async () => {
    const args = [
      'explain',
      'crossplane-edit',
      '--for',
      'example.org/widgets',
      '--verb',
      'delete',
      '-f',
      base,
    ];
    expect((json(await runCaptured([...args, '-o', 'json'])) as ExplainJson).access?.allowed).toBe(false);
    const after = json(
      await runCaptured([...args, '--after-sync', '--only', 'providers', '-o', 'json']),
    ) as ExplainJson & { tree: { children: { role: string }[] } };
    expect(after.access?.allowed).toBe(true);
    expect(after.tree.children.map((c) => c.role)).toContain(PROVIDER_EDIT);
  });

  it('explain --subject: allowed after sync, denied before with sync as the fix', async () => {
    const args = [
      'explain',
      '--subject',
      'Group:team-devs',
      '--for',
      'widgets.example.org',
      '--verb',
      'delete',
    ];
    // Denied: exit 1, as kubectl auth can-i, with the answer printed.
    const denied = await runCaptured([...args, '-f', base, '-o', 'json']);
    expect(denied.code, denied.stderr).toBe(1);
    const before = JSON.parse(denied.stdout) as SubjectJson;
    expect(before.access.allowed).toBe(false);
    expect(before.access.whyNot.map((w) => w.fix).join('\n')).toMatch(/kubectl crossplane-rbac sync/);
    const after = json(await runCaptured([...args, '-f', base, '-o', 'json', '--after-sync'])) as SubjectJson;
    expect(after.access.allowed).toBe(true);
  });

  it('--only without composites, providers or base leaves the provider roles out', async () => {
    const r = await runCaptured([
      'who-can',
      'delete',
      'widgets.example.org',
      '-A',
      '-f',
      base,
      '-o',
      'json',
      '--after-sync',
      '--only',
      'composites,namespaces',
    ]);
    expect(names(json(r))).not.toContain('Group/team-devs');
  });

  it('keeps what sync refuses: a role Helm installed at a name sync wants', async () => {
    const helms = {
      apiVersion: RBAC,
      kind: 'ClusterRole',
      metadata: {
        name: PROVIDER_EDIT,
        labels: { ...EDIT_LABEL, 'app.kubernetes.io/managed-by': 'Helm' },
        annotations: { 'meta.helm.sh/release-name': 'widgets', 'meta.helm.sh/release-namespace': 'default' },
      },
      rules: [{ apiGroups: ['example.org'], resources: ['widgets'], verbs: ['get'] }],
    };
    const dir = cluster(revision, crossplaneEdit, devsBinding, helms);
    const r = await runCaptured(['who-can', 'get', 'widgets.example.org', '-A', '-f', dir, '--after-sync']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe(NOTE);
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^refused ClusterRole/${PROVIDER_EDIT}: .*Helm`)),
    );
    expect(r.stdout).toMatch(/^team-devs\s+Group\s/m);
    const del = await runCaptured([
      'who-can',
      'delete',
      'widgets.example.org',
      '-A',
      '-f',
      dir,
      '--after-sync',
      '-o',
      'json',
    ]);
    expect(names(json(del))).not.toContain('Group/team-devs');
  });

  it('keeps live objects sync no longer makes: a plain sync prunes nothing', async () => {
    const old = {
      apiVersion: RBAC,
      kind: 'ClusterRole',
      metadata: {
        name: 'crossplane:provider:acme-provider-gadgets-9f8e7d:aggregate-to-edit',
        labels: { ...EDIT_LABEL, 'app.kubernetes.io/managed-by': 'kubectl-crossplane-rbac' },
      },
      rules: [{ apiGroups: ['example.org'], resources: ['gadgets'], verbs: ['*'] }],
    };
    // The gadgets' CRD is still served (the revision no longer names it): --for resolves through it.
    const gadgets = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.org' },
      spec: {
        group: 'example.org',
        scope: 'Cluster',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
        versions: [{ name: 'v1', served: true, storage: true }],
      },
    };
    const dir = cluster(revision, crossplaneEdit, devsBinding, old, gadgets);
    const args = [
      'explain',
      'crossplane-edit',
      '--for',
      'example.org/gadgets',
      '--verb',
      'delete',
      '-f',
      dir,
    ];
    expect(
      (json(await runCaptured([...args, '--after-sync', '-o', 'json'])) as ExplainJson).access?.allowed,
    ).toBe(true);
  });

  it('names a held owner as sync does, once, and still answers', async () => {
    const badXrd = {
      apiVersion: 'apiextensions.crossplane.io/v1',
      kind: 'CompositeResourceDefinition',
      metadata: { name: 'wrong.example.org' },
      spec: { group: 'example.org', names: { kind: 'XThing', plural: 'xthings' } },
    };
    const dir = cluster(revision, crossplaneEdit, devsBinding, badXrd);
    const r = await runCaptured([
      'who-can',
      'delete',
      'widgets.example.org',
      '-A',
      '-f',
      dir,
      '--after-sync',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(lines[0]).toBe(NOTE);
    expect(lines.filter((l) => l.includes('wrong.example.org'))).toEqual([
      expect.stringMatching(/^held .*CompositeResourceDefinition "wrong\.example\.org": /),
    ]);
    expect(r.stdout).toMatch(/^team-devs\s+Group\s/m);
  });

  it.each([
    [
      'explain ROLE',
      ['explain', 'crossplane-edit'],
      ['tree', 'table', 'wide', 'yaml', 'json', 'dot', 'mermaid'],
    ],
    [
      'explain --subject',
      ['explain', '--subject', 'Group:team-devs'],
      ['text', 'wide', 'yaml', 'json', 'dot', 'mermaid', 'html'],
    ],
    [
      'who-can',
      ['who-can', 'delete', 'widgets.example.org', '-A'],
      ['table', 'wide', 'json', 'yaml', 'dot', 'mermaid', 'html'],
    ],
  ])('%s says first that the answer is hypothetical, with every -o', async (_what, argv, outputs) => {
    for (const o of outputs) {
      const r = await runCaptured([...argv, '-f', base, '--after-sync', '-o', o]);
      expect(r.code, `${o}: ${r.stderr}`).toBe(0);
      expect(r.stderr.split('\n')[0], o).toBe(NOTE);
      expect(r.stdout, o).not.toContain(NOTE);
      const plain = await runCaptured([...argv, '-f', base, '-o', o]);
      expect(plain.stderr, o).not.toContain(NOTE);
    }
  });

  it.each([
    ['explain', 'crossplane-edit'],
    ['explain', '--subject', 'Group:team-devs'],
    ['who-can', 'get', 'pods'],
  ])('%s %s: --only needs --after-sync; a bad --only is named', async (...argv) => {
    const alone = await runCaptured([...argv, '-f', base, '--only', 'providers']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe(
      'error: --only needs --after-sync\nhint: e.g. --after-sync --only providers,composites,namespaces,base,composed\n',
    );
    const bad = await runCaptured([...argv, '-f', base, '--after-sync', '--only', 'providers,rolez']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'error: invalid --only "providers,rolez"\nhint: use a comma-separated list of: providers, composites, namespaces, base, composed\n',
    );
  });
});
