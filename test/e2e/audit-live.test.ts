/**
 * `audit` live as users who may read only part of the cluster, through the real kubectl, on the test API server
 * seeded with examples/cluster and examples/audit after `sync --yes`. The oracles: what real `kubectl auth can-i`
 * says each user may list (the audit's `unseen` must name exactly the reads it may not make), and an administrator's
 * audit of exactly that data, fetched with real `kubectl get` as the administrator and given with -f (the partial
 * audit must find what an audit of the data it could read finds, no more, and say "may" where the RBAC read is
 * partial). The exit code of a partial audit is compared with `kubectl get`'s when a list it is asked for is
 * forbidden.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResult } from './harness.js';
import { applyList, ok, startSeeded, type SeededCluster } from './seeded-cluster.js';

interface Step {
  readonly mechanism: string;
  readonly via: readonly string[];
  readonly why: string;
}
interface Finding {
  readonly subject: { kind: string; name: string; namespace?: string };
  readonly capability: string;
  readonly steps: readonly Step[];
}
interface Unseen {
  readonly part: string;
  readonly what: string;
  readonly verb?: string;
  readonly readIn?: string;
  readonly reason: string;
}
interface Report {
  readonly findings: readonly Finding[];
  readonly unseen: readonly Unseen[];
}

const RBAC = 'rbac.authorization.k8s.io';
const NS = 'team-a';

/** What audit lists, as kubectl names each resource (the test's own table), and whether it is namespaced. */
const READS: readonly { part: string; resource: string; namespaced: boolean }[] = [
  { part: 'clusterRoleBindings', resource: `clusterrolebindings.${RBAC}`, namespaced: false },
  { part: 'roleBindings', resource: `rolebindings.${RBAC}`, namespaced: true },
  { part: 'roles', resource: `roles.${RBAC}`, namespaced: true },
  { part: 'xrds', resource: 'compositeresourcedefinitions.apiextensions.crossplane.io', namespaced: false },
  { part: 'providerRevisions', resource: 'providerrevisions.pkg.crossplane.io', namespaced: false },
  { part: 'deployments', resource: 'deployments.apps', namespaced: true },
  { part: 'compositions', resource: 'compositions.apiextensions.crossplane.io', namespaced: false },
  {
    part: 'compositionRevisions',
    resource: 'compositionrevisions.apiextensions.crossplane.io',
    namespaced: false,
  },
];

const binding = (kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, role: object, user: string) => ({
  apiVersion: `${RBAC}/v1`,
  kind,
  metadata: kind === 'RoleBinding' ? { name, namespace: NS } : { name },
  roleRef: { apiGroup: RBAC, ...role },
  subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
});

const SUBJECTS: object[] = [
  // tenant: the chart-less everyday case, `view` in one namespace.
  binding('RoleBinding', 'tenant-view', { kind: 'ClusterRole', name: 'view' }, 'tenant'),
  // auditor: view in team-a, the cluster's ClusterRoleBindings and ClusterRoles, RoleBindings and Roles of team-a.
  binding('RoleBinding', 'auditor-view', { kind: 'ClusterRole', name: 'view' }, 'auditor'),
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name: 'live:cluster-rbac-reader' },
    rules: [
      { apiGroups: [RBAC], resources: ['clusterrolebindings', 'clusterroles'], verbs: ['get', 'list'] },
    ],
  },
  binding(
    'ClusterRoleBinding',
    'live:auditor',
    { kind: 'ClusterRole', name: 'live:cluster-rbac-reader' },
    'auditor',
  ),
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'Role',
    metadata: { name: 'rbac-reader', namespace: NS },
    rules: [{ apiGroups: [RBAC], resources: ['rolebindings', 'roles'], verbs: ['get', 'list'] }],
  },
  binding('RoleBinding', 'auditor-rbac', { kind: 'Role', name: 'rbac-reader' }, 'auditor'),
  // A path the auditor can see whole: dev may exec into pods of team-a, where web runs as ServiceAccount web, which
  // may read Secrets everywhere.
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'Role',
    metadata: { name: 'exec', namespace: NS },
    rules: [
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] },
    ],
  },
  binding('RoleBinding', 'dev-exec', { kind: 'Role', name: 'exec' }, 'dev'),
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'live:web-secrets' },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'live:secret-reader' },
    subjects: [{ kind: 'ServiceAccount', name: 'web', namespace: NS }],
  },
  {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name: 'live:secret-reader' },
    rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }],
  },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: NS },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { serviceAccountName: 'web', containers: [{ name: 'web', image: 'nginx' }] },
      },
    },
  },
];

let cluster: SeededCluster;
const run = (args: readonly string[], input?: string): Promise<RunResult> => cluster.run(args, input);

beforeAll(async () => {
  cluster = await startSeeded('xrbac-e2e-audit-live-', ['cluster', 'audit']);
  ok(await run(['crossplane-rbac', 'sync', '--yes']), 'sync --yes');
  await applyList(cluster, SUBJECTS, 'subjects');
}, 180_000);

afterAll(async () => {
  await cluster.server.stop();
});

async function canI(user: string, verb: string, resource: string, namespace?: string): Promise<boolean> {
  const scope = namespace !== undefined ? ['-n', namespace] : ['-A'];
  // kubectl reads TYPE/NAME (cmd/auth/cani.go, Complete): a subresource goes in --subresource.
  const [type = '', sub] = resource.split('/');
  const subresource = sub !== undefined ? [`--subresource=${sub}`] : [];
  const r = await run(['auth', 'can-i', verb, type, ...subresource, ...scope, '--as', user]);
  if (r.code !== 0 && r.code !== 1) throw new Error(`can-i ${verb} ${resource}: ${r.stderr}`);
  return r.stdout.trim() === 'yes';
}

/** The user's live audit (-n team-a), as JSON, with its exit code and stderr. */
async function liveAudit(
  user: string,
  extra: readonly string[] = [],
): Promise<RunResult & { report: Report }> {
  const r = await run(['crossplane-rbac', 'audit', '-n', NS, '--as', user, '-o', 'json', ...extra]);
  return { ...r, report: JSON.parse(r.stdout) as Report };
}

/**
 * The administrator's audit of exactly what USER may list (as kubectl auth can-i says): each kind cluster-wide where
 * USER may list it so, else in team-a where it may list it there, fetched with kubectl get as the administrator.
 */
async function adminAuditOfWhatUserReads(user: string): Promise<Report> {
  const docs: string[] = [];
  const kinds = [...READS, { part: 'clusterRoles', resource: `clusterroles.${RBAC}`, namespaced: false }];
  for (const k of kinds) {
    const verb = k.part === 'clusterRoles' ? 'get' : 'list';
    let scope: string[] | undefined;
    if (await canI(user, verb, k.resource)) scope = k.namespaced ? ['-A'] : [];
    else if (k.namespaced && (await canI(user, 'list', k.resource, NS))) scope = ['-n', NS];
    if (scope === undefined) continue;
    docs.push(ok(await run(['get', k.resource, ...scope, '-o', 'yaml']), `get ${k.resource}`).stdout);
  }
  const file = join(cluster.dir, `${user}-readable.yaml`);
  writeFileSync(file, docs.join('\n---\n'));
  const r = ok(await run(['crossplane-rbac', 'audit', '-f', file, '-o', 'json']), 'audit -f');
  return JSON.parse(r.stdout) as Report;
}

/**
 * What a finding claims, without the "may" its first step says when the RBAC read was partial: live, audit reads the
 * rules each bound role stores (as the authorizer), so a step's `via` ends at the bound role; from -f it follows
 * the aggregation chain below it (the sources are at hand), which the comparison leaves out.
 */
function claim(f: Finding): object {
  return {
    subject: f.subject,
    capability: f.capability,
    steps: f.steps.map((s) => ({
      ...s,
      via: s.via.slice(0, 2),
      why: s.why.replace(/ \(may: [^)]*\)$/, ''),
    })),
  };
}

describe('audit live with namespace-only rights', () => {
  it('a user bound to view in one namespace: unseen names exactly the reads kubectl auth can-i refuses it', async () => {
    const r = await liveAudit('tenant');
    for (const k of READS) {
      const all = await canI('tenant', 'list', k.resource);
      const here = k.namespaced && (await canI('tenant', 'list', k.resource, NS));
      const u = r.report.unseen.find((x) => x.part === k.part);
      expect(u !== undefined, `${k.resource} unseen`).toBe(!all);
      expect(u?.readIn, `${k.resource} read in ${NS}`).toBe(here ? NS : undefined);
      if (u !== undefined) expect(u.reason).toMatch(/forbidden/);
    }
    // kubectl auth can-i --list agrees: in team-a it may list Deployments (read there), no RBAC object.
    const list = ok(
      await run(['auth', 'can-i', '--list', '-n', NS, '--as', 'tenant']),
      'can-i --list',
    ).stdout;
    const listable = list
      .split('\n')
      .filter((l) => /\[[^\]]*\blist\b[^\]]*\]\s*$/.test(l))
      .map((l) => l.split(/\s+/)[0]);
    expect(listable).toContain('deployments.apps');
    expect(listable).not.toContain(`rolebindings.${RBAC}`);
    // What it could read (the Deployments of team-a) gives the findings an administrator's audit of it gives.
    expect(r.report.findings.map(claim)).toStrictEqual(
      (await adminAuditOfWhatUserReads('tenant')).findings.map(claim),
    );
  });

  it('a user who may read the cluster’s RBAC but team-a’s bindings only: the findings of the data it read, each "may"', async () => {
    const r = await liveAudit('auditor');
    const admin = await adminAuditOfWhatUserReads('auditor');
    expect(r.report.findings.map(claim)).toStrictEqual(admin.findings.map(claim));
    // The path inside team-a it could read whole: exec into web's pods, then ServiceAccount web's Secrets.
    const dev = r.report.findings.find((f) => f.subject.name === 'dev');
    expect(dev?.capability).toBe('read-secrets');
    expect(dev?.steps.map((s) => s.mechanism)).toStrictEqual(['run-as']);
    expect(await canI('dev', 'create', 'pods/exec', NS)).toBe(true);
    expect(await canI('system:serviceaccount:team-a:web', 'list', 'secrets')).toBe(true);
    // Its RoleBindings outside team-a were not read: every finding may be granted already.
    expect(r.report.unseen.map((u) => [u.part, u.readIn])).toContainEqual(['roleBindings', NS]);
    for (const f of r.report.findings)
      expect(f.steps[0]?.why).toMatch(/\(may: RoleBindings, Roles could not be read/);
    // And an administrator's live audit holds it too.
    const full = JSON.parse(
      ok(await run(['crossplane-rbac', 'audit', '-o', 'json']), 'audit').stdout,
    ) as Report;
    expect(full.unseen).toStrictEqual([]);
    expect(full.findings.map((f) => [f.subject.name, f.capability])).toContainEqual(['dev', 'read-secrets']);
  });

  it('table output: one kubectl-style warning line per read it could not make', async () => {
    const r = await run(['crossplane-rbac', 'audit', '-n', NS, '--as', 'tenant']);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('Warning: '));
    expect(warnings).toHaveLength((await liveAudit('tenant')).report.unseen.length);
    expect(warnings).toContain(
      'Warning: audit could not list Deployments cluster-wide (read in namespace team-a only): run-as, token-request, secret-token, impersonate, runtime-config, define-api, provider-identity steps are looked for in what was read only',
    );
    // As kubectl's "No resources found", on stderr.
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('No findings.');
  });

  it('exit code: as kubectl get ends when a list it is asked for is forbidden, after printing what it could read', async () => {
    // kubectl prints the Deployments of team-a, refuses the RoleBindings, and exits non-zero.
    const k = await run(['get', 'deployments.apps,rolebindings', '-n', NS, '--as', 'tenant', '-o', 'name']);
    expect(k.stdout).toContain('deployment.apps/web');
    expect(k.stderr).toMatch(/Error from server \(Forbidden\)/);
    expect(k.code).not.toBe(0);
    // The audit prints its report, then the plugin's error line and error code, --fail-on or not.
    for (const extra of [[], ['--fail-on', 'low']]) {
      const r = await liveAudit('auditor', extra);
      expect(r.report.findings.length).toBeGreaterThan(0);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: the audit is partial: \d+ reads were forbidden/m);
    }
  });

  it('--as nobody: no crash, every read unseen, no finding', async () => {
    const r = await liveAudit('nobody');
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/TypeError|at .*\.js:\d+/);
    expect(r.report.findings).toStrictEqual([]);
    for (const k of READS) {
      expect(await canI('nobody', 'list', k.resource)).toBe(false);
      expect(r.report.unseen.map((u) => u.part)).toContain(k.part);
    }
  });
});

describe('audit reads what the authorizer uses; --converged every ClusterRole', () => {
  it('by default only the ClusterRoles the bindings reach, one GET each; --converged one LIST; the same findings', async () => {
    const bindings = JSON.parse(
      ok(await run(['get', 'clusterrolebindings,rolebindings', '-A', '-o', 'json']), 'get bindings').stdout,
    ) as { items: { roleRef: { kind: string; name: string } }[] };
    const bound = new Set(
      bindings.items.filter((b) => b.roleRef.kind === 'ClusterRole').map((b) => b.roleRef.name),
    );
    const all = ok(await run(['get', 'clusterroles', '-o', 'name']), 'get clusterroles')
      .stdout.trim()
      .split('\n');
    expect(bound.size).toBeLessThan(all.length / 2);
    const server = cluster.server;
    server.counters.reset();
    const stored = JSON.parse(
      ok(await run(['crossplane-rbac', 'audit', '-o', 'json']), 'audit').stdout,
    ) as Report;
    expect(server.counters.get('list', 'clusterroles')).toBe(0);
    expect(server.counters.get('get', 'clusterroles')).toBe(bound.size);
    server.counters.reset();
    const r = ok(await run(['crossplane-rbac', 'audit', '--converged', '-o', 'json']), 'audit --converged');
    expect(server.counters.get('list', 'clusterroles')).toBe(1);
    expect(server.counters.get('get', 'clusterroles')).toBe(0);
    // After sync the controller has stored what it converges to: the paths are the same, only `via` goes deeper.
    expect(stored.findings.map(claim)).toStrictEqual((JSON.parse(r.stdout) as Report).findings.map(claim));
  });
});
