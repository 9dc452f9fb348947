/**
 * `--after-sync` through the real kubectl, against the test API server seeded with examples/cluster (its own
 * aggregation controller and authorizer, no code shared with the plugin). The oracle is the cluster after a real
 * `sync --yes`: what `who-can` and `explain` answer there, once the server's aggregation controller has caught up,
 * must be what `--after-sync` answered before the sync; every subject the answer adds must be denied by `kubectl
 * auth can-i` before the sync and allowed after it; and nothing may be written by the question itself.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeedFiles } from '../apiserver/seed.js';
import { startApiServer, type TestApiServer } from '../apiserver/server.js';
import { assertBuilt, discoveryCache, kubectl, repoRoot, tempDir, type RunResult } from './harness.js';

const EXAMPLES = join(repoRoot, 'examples', 'cluster');
const BUCKETS = 'buckets.s3.aws.upbound.io';
const NOTE = 'answering for the cluster after sync (nothing was written)';
const MANAGED = 'app.kubernetes.io/managed-by=kubectl-crossplane-rbac';
/** A user name no binding names: impersonated with --as-group to ask about a Group alone. */
const PROBE_USER = 'xrbac-probe';

interface SubjectId {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

interface WhoCanJson {
  readonly subjects: readonly (SubjectId & { readonly paths: readonly { readonly stored: boolean }[] })[];
}

interface ExplainJson {
  readonly effectiveRules: readonly unknown[];
  readonly drift: unknown;
}

const servers: TestApiServer[] = [];

/** A fresh test API server seeded with examples/cluster, and `kubectl ARGS` against it. */
async function seededCluster(): Promise<(args: readonly string[]) => Promise<RunResult>> {
  const server = await startApiServer({ aggregation: true, seed: loadSeedFiles([EXAMPLES]) });
  servers.push(server);
  const kubeconfig = join(tempDir('xrbac-e2e-after-sync-'), 'kubeconfig');
  server.writeKubeconfig(kubeconfig);
  return (args) =>
    kubectl(args, { env: { KUBECONFIG: kubeconfig, KUBECACHEDIR: discoveryCache(kubeconfig) } });
}

beforeAll(() => {
  assertBuilt();
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

function ok(r: RunResult, what: string): RunResult {
  expect(r.code, `${what}\n${r.stderr}`).toBe(0);
  return r;
}

/** Runs `kubectl crossplane-rbac ARGS -o json` and parses it; with --after-sync the note must come first. */
async function answer<T>(
  run: (args: readonly string[]) => Promise<RunResult>,
  args: readonly string[],
): Promise<T> {
  const r = ok(await run(['crossplane-rbac', ...args, '-o', 'json']), args.join(' '));
  if (args.includes('--after-sync')) expect(r.stderr.split('\n')[0]).toBe(NOTE);
  else expect(r.stderr).not.toContain(NOTE);
  return JSON.parse(r.stdout) as T;
}

/** The plugin's objects on the server, as kubectl lists them. */
async function managedObjects(run: (args: readonly string[]) => Promise<RunResult>): Promise<string[]> {
  const r = ok(
    await run(['get', 'clusterroles,clusterrolebindings,rolebindings', '-A', '-l', MANAGED, '-o', 'name']),
    'kubectl get',
  );
  return r.stdout.split('\n').filter((l) => l !== '');
}

/** The aggregation controller runs asynchronously: asks until the answer equals WANT, or 10 s pass; the last answer. */
async function eventually<T>(ask: () => Promise<T>, want: T): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const got = await ask();
    if (JSON.stringify(got) === JSON.stringify(want) || Date.now() > deadline) return got;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const keyOf = (s: SubjectId): string =>
  [s.kind, ...(s.namespace !== undefined ? [s.namespace] : []), s.name].join('/');

/** `kubectl auth can-i VERB RESOURCE -A` (or -n NS) as exactly the subject. */
async function canI(
  run: (args: readonly string[]) => Promise<RunResult>,
  verb: string,
  resource: string,
  namespace: string | undefined,
  s: SubjectId,
): Promise<boolean> {
  const as =
    s.kind === 'User'
      ? ['--as', s.name]
      : s.kind === 'Group'
        ? ['--as', PROBE_USER, '--as-group', s.name]
        : ['--as', `system:serviceaccount:${s.namespace ?? ''}:${s.name}`];
  const scope = namespace !== undefined ? ['-n', namespace] : ['-A'];
  const r = await run(['auth', 'can-i', verb, resource, ...scope, ...as]);
  if (r.code !== 0 && r.code !== 1)
    throw new Error(`kubectl auth can-i failed (${String(r.code)}): ${r.stderr}`);
  expect(r.stderr).not.toMatch(/doesn't have a resource type/);
  return r.code === 0;
}

describe('--after-sync through the real kubectl', () => {
  it('answers before sync what who-can and explain answer after a real sync, and writes nothing', async () => {
    const run = await seededCluster();
    // --converged: --after-sync answers in the convergence view, so the live answers it is compared with do too.
    const question = ['who-can', 'delete', BUCKETS, '-A', '--converged'];
    const before = await answer<WhoCanJson>(run, question);
    const afterSync = await answer<WhoCanJson>(run, [...question, '--after-sync']);
    const explainAfterSync = await answer<ExplainJson>(run, ['explain', 'crossplane-edit', '--after-sync']);
    const explainBefore = await answer<ExplainJson>(run, ['explain', 'crossplane-edit']);
    const offline = await answer<ExplainJson>(run, [
      'explain',
      'crossplane-edit',
      '-f',
      EXAMPLES,
      '--after-sync',
    ]);
    expect(await managedObjects(run), 'a question wrote to the cluster').toEqual([]);

    // The answers differ from today's: the provider and XRD roles sync makes aggregate into crossplane-edit.
    const added = afterSync.subjects.filter((s) => !before.subjects.some((b) => keyOf(b) === keyOf(s)));
    expect(added.map(keyOf)).toContain('Group/crossplane:masters');
    expect(explainAfterSync.effectiveRules.length).toBeGreaterThan(explainBefore.effectiveRules.length);
    // As the aggregation controller will store them: every path stored, no drift.
    expect(afterSync.subjects.flatMap((s) => s.paths).every((p) => p.stored)).toBe(true);
    expect(explainAfterSync.drift).toBeNull();
    // Offline, from the same objects as files: the same rules.
    expect(offline.effectiveRules).toEqual(explainAfterSync.effectiveRules);
    for (const s of added) expect(await canI(run, 'delete', BUCKETS, undefined, s), keyOf(s)).toBe(false);

    const sync = await run(['crossplane-rbac', 'sync', '--yes']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(await managedObjects(run)).not.toEqual([]);

    expect(await eventually(() => answer<WhoCanJson>(run, question), afterSync)).toEqual(afterSync);
    expect(
      await eventually(() => answer<ExplainJson>(run, ['explain', 'crossplane-edit']), explainAfterSync),
    ).toEqual(explainAfterSync);
    for (const s of added) expect(await canI(run, 'delete', BUCKETS, undefined, s), keyOf(s)).toBe(true);
    // Once synced, asking after sync changes nothing.
    expect(await answer<WhoCanJson>(run, [...question, '--after-sync'])).toEqual(afterSync);
  });

  it('--only with composed: the account of Crossplane as sync --only ...,composed leaves it', async () => {
    const run = await seededCluster();
    const only = 'providers,composites,namespaces,base,composed';
    const question = ['who-can', 'patch', 'cronjobs.batch', '-n', 'team-a', '--converged'];
    const crossplane = { kind: 'ServiceAccount', name: 'crossplane', namespace: 'crossplane-system' };
    const r = ok(
      await run(['crossplane-rbac', ...question, '--after-sync', '--only', only, '-o', 'json']),
      'who-can --after-sync --only',
    );
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe(NOTE);
    // The privileged kind sync holds is named as sync names it.
    expect(r.stderr).toMatch(
      /^held ClusterRole "crossplane:composed:rbac\.authorization\.k8s\.io": .*--allow-privileged/m,
    );
    const afterSync = JSON.parse(r.stdout) as WhoCanJson;
    expect(afterSync.subjects.map(keyOf)).toContain(keyOf(crossplane));
    expect(await canI(run, 'patch', 'cronjobs.batch', 'team-a', crossplane)).toBe(false);
    // Without composed, sync does not grant it.
    const plain = await answer<WhoCanJson>(run, [...question, '--after-sync']);
    expect(plain.subjects.map(keyOf)).not.toContain(keyOf(crossplane));
    expect(await managedObjects(run)).toEqual([]);

    const sync = await run(['crossplane-rbac', 'sync', '--only', only, '--yes']);
    expect(sync.code, sync.stderr).toBe(2); // the held role
    expect(await eventually(() => answer<WhoCanJson>(run, question), afterSync)).toEqual(afterSync);
    expect(await canI(run, 'patch', 'cronjobs.batch', 'team-a', crossplane)).toBe(true);
  });
});
