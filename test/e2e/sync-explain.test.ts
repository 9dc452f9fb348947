import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { assertBuilt, discoveryCache, kubectl, onPty, repoRoot, scriptPath, tempDir } from './harness.js';

const examples = join(repoRoot, 'examples', 'cluster');

describe('sync and explain through the real kubectl', () => {
  let server: TestApiServer;
  let kubeconfig: string;

  beforeAll(async () => {
    assertBuilt();
    server = await startApiServer({ seed: loadSeedFiles([examples]) });
    kubeconfig = join(tempDir(), 'kubeconfig');
    server.writeKubeconfig(kubeconfig);
  });
  afterAll(async () => {
    await server.stop();
  });

  const run = (args: string[], input?: string) =>
    kubectl(args, {
      env: { KUBECONFIG: kubeconfig, KUBECACHEDIR: discoveryCache(kubeconfig) },
      ...(input !== undefined ? { input } : {}),
    });

  it('runs the README quick start on the examples without a cluster', async () => {
    const r = await kubectl(['crossplane-rbac', 'sync', '-f', examples]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^KIND\s+TO CREATE\s+TO UPDATE\s+UNCHANGED\s+TO DELETE\s+REFUSED\s+FAILED\n/);
    expect(r.stdout).toMatch(/ClusterRole\s+212\s+0\s+0\s+0\s+0\s+0/);
    expect(r.stderr).toContain('nothing was written');
  });

  it('refuses to write without --yes when not on a terminal', async () => {
    const r = await run(['crossplane-rbac', 'sync']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: refusing to apply the Crossplane RBAC without confirmation: not running on a terminal\nhint: pass --yes/,
    );
    expect(server.list('clusterroles').length).toBeLessThan(100);
  });

  it('applies, then kubectl sees the roles, and a second run changes nothing', async () => {
    const r = await run(['crossplane-rbac', 'sync', '--yes']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ClusterRole\s+212\s+0\s+0\s+0\s+0\s+0/);
    const get = await run([
      'get',
      'clusterrole',
      'crossplane:composite:xnopresources.nop.example.org:aggregate-to-view',
      '-o',
      'yaml',
    ]);
    expect(get.code).toBe(0);
    const role = parse(get.stdout) as { metadata: { labels: Record<string, string> }; rules: unknown[] };
    expect(role.metadata.labels).toEqual({
      'rbac.crossplane.io/aggregate-to-ns-view': 'true',
      'rbac.crossplane.io/aggregate-to-view': 'true',
    });
    const again = await run(['crossplane-rbac', 'sync', '--check']);
    expect(again.code).toBe(0);
  });

  it('explains a live role as a tree and as a graph', async () => {
    const tree = await run(['crossplane-rbac', 'explain', 'crossplane-view']);
    expect(tree.code).toBe(0);
    expect(tree.stdout).toMatch(/^crossplane-view \(aggregated, \d+ rules\)\n/);
    expect(tree.stdout).toContain('crossplane:composite:xnopresources.nop.example.org:aggregate-to-view');
    const dot = await run(['crossplane-rbac', 'explain', 'crossplane-view', '-o', 'dot']);
    expect(dot.stdout).toMatch(/^digraph /);
  });

  // A real terminal of 100 columns (util-linux script gives the command a pty).
  it.skipIf(scriptPath === undefined)(
    'on a terminal, explain --for answers first and folds to its width; piped -o wide is complete',
    async () => {
      const explain =
        'kubectl crossplane-rbac explain crossplane-edit --for s3.aws.upbound.io/buckets --verb delete';
      const onTerminal = async (args: string): Promise<string[]> => {
        // stdout on the terminal; stderr (where the read spinner would draw) away from it.
        const r = await onPty(`stty cols 100; ${explain} ${args} 2>/dev/null`, { KUBECONFIG: kubeconfig });
        expect(r.code, r.stderr).toBe(0);
        return r.stdout.replace(/\r/g, '').split('\n');
      };
      // The rule that grants it, as kubectl reads it from the stored role.
      const stored = JSON.parse(
        (await run(['get', 'clusterrole', 'crossplane-edit', '-o', 'json'])).stdout,
      ) as {
        rules: { apiGroups?: string[]; resources?: string[]; verbs: string[] }[];
      };
      const granting = stored.rules.filter(
        (r) =>
          (r.apiGroups ?? []).includes('s3.aws.upbound.io') &&
          (r.resources ?? []).includes('buckets') &&
          r.verbs.includes('*'),
      );
      expect(granting).toHaveLength(1);
      const resources = new Set(granting[0]?.resources);

      const tree = await onTerminal('');
      expect(tree[0]).toBe('delete s3.aws.upbound.io/buckets: allowed by 1 rule');
      const m = /^ {2}s3\.aws\.upbound\.io: (buckets(?:,[a-z/]+)*) … and (\d+) more \[\*\]$/.exec(
        tree[1] ?? '',
      );
      expect(m, tree[1]).not.toBeNull();
      expect((m?.[1] ?? '').split(',').length + Number(m?.[2])).toBe(resources.size);
      // Where it came from; too long for 100 columns, the chain breaks before its arrow (names are never cut).
      expect(tree[2]).toMatch(
        /^ {4}from crossplane:provider:upbound-provider-aws-[a-z0-9-]+:aggregate-to-edit$/,
      );
      expect(tree[3]).toBe('      →[0] crossplane-edit');
      // Every other role that carries the same rule, as kubectl lists them: a provider family's members.
      const all = JSON.parse((await run(['get', 'clusterroles', '-o', 'json'])).stdout) as {
        items: { aggregationRule?: unknown; rules?: unknown[] }[];
      };
      const same = JSON.stringify(granting[0]);
      const carriers = all.items.filter(
        (r) => r.aggregationRule === undefined && (r.rules ?? []).some((x) => JSON.stringify(x) === same),
      );
      expect(carriers.length).toBeGreaterThan(2);
      expect(tree[4]).toBe(
        `    and ${String(carriers.length - 1)} more roles of the provider-family-aws family: provider families share their rules`,
      );
      expect(tree[6]).toMatch(/^crossplane-edit \(aggregated, \d+ rules\)$/);
      // The answer's lines and every line of -o table fit; the tree's role names are printed whole.
      for (const line of [...tree.slice(0, 5), ...(await onTerminal('-o table'))]) {
        // Terminal columns: one per grapheme (the output's only non-ASCII characters are …, │, ├, └, ─ and →).
        const columns = [...new Intl.Segmenter().segment(line)].length;
        expect(columns, line).toBeLessThanOrEqual(100);
      }

      const wide = await run(['crossplane-rbac', ...explain.split(' ').slice(2), '-o', 'wide']);
      const row = wide.stdout.split('\n').find((l) => l.includes(' buckets,') || l.includes(',buckets,'));
      const listed = new Set((row ?? '').split(/\s{3,}/)[2]?.split(','));
      expect(listed).toStrictEqual(resources);
    },
  );

  it('who-can credits a rule to every role that carries it: the family folded in the table, listed in -o wide and json', async () => {
    const binding = 'xrbac-e2e-edit-carriers';
    const made = await run([
      'create',
      'clusterrolebinding',
      binding,
      '--clusterrole',
      'crossplane-edit',
      '--user',
      'carol',
    ]);
    expect(made.code, made.stderr).toBe(0);
    try {
      // The rule of crossplane-edit that grants it, and every role kubectl lists that holds it as its own rule.
      const all = JSON.parse((await run(['get', 'clusterroles', '-o', 'json'])).stdout) as {
        items: {
          metadata: { name: string };
          aggregationRule?: unknown;
          rules?: { apiGroups?: string[]; resources?: string[]; verbs: string[] }[];
        }[];
      };
      const edit = all.items.find((r) => r.metadata.name === 'crossplane-edit');
      const granting = (edit?.rules ?? []).filter(
        (r) => (r.apiGroups ?? []).includes('s3.aws.upbound.io') && (r.resources ?? []).includes('buckets'),
      );
      expect(granting).toHaveLength(1);
      const same = JSON.stringify(granting[0]);
      const carriers = all.items
        .filter(
          (r) => r.aggregationRule === undefined && (r.rules ?? []).some((x) => JSON.stringify(x) === same),
        )
        .map((r) => r.metadata.name)
        .sort();
      expect(carriers.length).toBeGreaterThan(2);

      // --converged: the carriers are the roles aggregated into the bound one, which the convergence view reads.
      const ask = ['crossplane-rbac', 'who-can', 'delete', 'buckets.s3.aws.upbound.io', '--converged'];
      const json = await run([...ask, '-o', 'json']);
      expect(json.code, json.stderr).toBe(0);
      const carol = (
        JSON.parse(json.stdout) as {
          subjects: { name: string; paths: { chain: string[]; sharedWith?: string[]; family?: string }[] }[];
        }
      ).subjects.find((s) => s.name === 'carol');
      expect(carol?.paths).toHaveLength(1);
      const path = carol?.paths[0];
      const credited = path?.chain[path.chain.length - 1] ?? '';
      expect([credited, ...(path?.sharedWith ?? [])].sort()).toStrictEqual(carriers);
      expect(path?.family).toBe('provider-family-aws');

      // The table: one line for carol, the family folded after the role the chain ends at.
      const table = (await run(ask)).stdout.split('\n').filter((l) => l.startsWith('carol '));
      expect(table).toHaveLength(1);
      expect(table[0]).toMatch(
        new RegExp(
          `→ ${credited.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\+${String(carriers.length - 1)} more \\(provider-family-aws\\)$`,
        ),
      );
      // -o wide: the carriers listed, each once.
      const wide = (await run([...ask, '-o', 'wide'])).stdout
        .split('\n')
        .filter((l) => l.startsWith('carol '));
      expect(wide).toHaveLength(1);
      const listed = (wide[0] ?? '').trimEnd().split(/\s+/).pop()?.split(',');
      expect(listed).toStrictEqual([credited, ...carriers.filter((c) => c !== credited)]);
    } finally {
      expect((await run(['delete', 'clusterrolebinding', binding])).code).toBe(0);
    }
  });

  it('reads objects from stdin with -f -', async () => {
    const roles = await run(['get', 'clusterroles', '-o', 'yaml']);
    const r = await kubectl(['crossplane-rbac', 'explain', 'admin', '-f', '-', '-o', 'json'], {
      input: roles.stdout,
    });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { effectiveRules: unknown[] }).effectiveRules.length).toBeGreaterThan(20);
  });

  it("prints the server's warnings as kubectl does: an admission warning on a write, a deprecated version on a read", async () => {
    // The test API server warns as kube-apiserver does (test/apiserver/router.ts); kubectl's lines are the reference.
    const xrdCrd = 'compositeresourcedefinitions.apiextensions.crossplane.io';
    type Crd = { spec: { versions: { name: string; deprecated?: boolean }[] } };
    const original = structuredClone(server.get('customresourcedefinitions', xrdCrd)) as Crd;
    const deprecated = structuredClone(original);
    for (const v of deprecated.spec.versions) if (v.name === 'v1') v.deprecated = true;
    const policy =
      '[k8srequiredlabels] ClusterRole "warned" must have label "owner" (enforcementAction: warn)';
    const recreated = 'crossplane:composite:xnopresources.nop.example.org:aggregate-to-view';
    expect((await run(['delete', 'clusterrole', recreated])).code).toBe(0);
    server.seed([deprecated]);
    server.admissionWarnings = [{ resource: 'clusterroles', warnings: [policy] }];
    try {
      const read = await run([
        'get',
        'compositeresourcedefinitions.v1.apiextensions.crossplane.io',
        '-o',
        'name',
      ]);
      const write = await run(['create', 'clusterrole', 'warned', '--verb=get', '--resource=pods']);
      expect([read.code, write.code]).toStrictEqual([0, 0]);
      expect(read.stderr).toMatch(
        /^Warning: apiextensions\.crossplane\.io\/v1 CompositeResourceDefinition is deprecated/,
      );
      expect(write.stderr).toBe(`Warning: ${policy}\n`);
      // sync reads the XRDs at v1, then writes the role deleted above: both lines, each once, as kubectl printed them.
      const ours = await run(['crossplane-rbac', 'sync', '--yes']);
      expect(ours.code).toBe(0);
      expect(ours.stderr).toBe(read.stderr + write.stderr);
      // --warnings-as-errors: kubectl's message and exit code (nothing to write now: the read's warning only).
      // kubectl logs the failure through klog (`E... run.go:72] "command failed" err="1 warning received"`); the
      // plugin says it as every error of its own, one `error:` line.
      const strictKubectl = await run([
        'get',
        'compositeresourcedefinitions.v1.apiextensions.crossplane.io',
        '--warnings-as-errors',
      ]);
      const strictOurs = await run(['crossplane-rbac', 'sync', '--dry-run=server', '--warnings-as-errors']);
      expect(strictKubectl.stderr).toMatch(/^Warning: .*\n.*"command failed" err="1 warning received"\n$/);
      expect(strictKubectl.stderr.startsWith(read.stderr)).toBe(true);
      expect([strictOurs.code, strictOurs.stderr]).toStrictEqual([
        strictKubectl.code,
        `${read.stderr}error: 1 warning received\n`,
      ]);
    } finally {
      server.admissionWarnings = [];
      server.seed([original]);
      await run(['delete', 'clusterrole', 'warned']);
    }
  });

  it('names the file and line of malformed input', async () => {
    const dir = tempDir();
    const file = join(dir, 'bad.yaml');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, 'apiVersion: v1\nkind: List\nitems:\n  - {a: [\n');
    const r = await kubectl(['crossplane-rbac', 'sync', '-f', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: malformed YAML\/JSON in .*bad\.yaml at line \d+: /);
  });
});
