/**
 * `audit` through the real kubectl, on the test API server seeded with examples/cluster (the chart's real RBAC,
 * Crossplane 2.1.0) after `sync --yes`, plus one subject per mechanism. The oracle is the server's own authorizer
 * (test/apiserver/authz.ts, no code shared with the plugin), asked through `kubectl auth can-i --as`: for every step
 * of every finding, its trigger is allowed to the identity the step starts from; the identity the path ends at holds
 * the capability; the subject itself is denied it. Negative controls: a subject without any trigger, a holder of
 * crossplane-view, and a holder of cluster-admin have no finding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { join } from 'node:path';
import { discoveryCache, kubectl, type RunResult } from './harness.js';
import {
  applyList,
  asFlags as asFlagsOf,
  crd,
  ok,
  startSeeded,
  type SeededCluster,
} from './seeded-cluster.js';

interface Ref {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

interface Step {
  readonly mechanism: string;
  readonly trigger: { verb: string; resource: string; namespace?: string; name?: string };
  readonly via: readonly string[];
  readonly actsAs: Ref;
  readonly why: string;
  readonly source?: string;
}

interface Finding {
  readonly capability: string;
  readonly severity: string;
  readonly subject: Ref;
  readonly steps: readonly Step[];
  readonly fix: string;
}

interface Named {
  readonly name: string;
}

interface Report {
  readonly apiVersion: string;
  readonly kind: string;
  readonly findings: readonly Finding[];
  readonly accepted: readonly (Finding & { reason: string })[];
  readonly byDesign: readonly { subject: Ref; reason: string }[];
  readonly unseen: readonly unknown[];
}

const NS = 'crossplane-system';
const RBAC = 'rbac.authorization.k8s.io';
/** A user no binding names: impersonated with --as-group to ask about a Group alone. */
const PROBE_USER = 'xrbac-audit-probe';

let cluster: SeededCluster;
let kubeconfig: string;
let dir: string;
let report: Report;

const run = (args: readonly string[], input?: string): Promise<RunResult> => cluster.run(args, input);

function clusterRole(name: string, rules: object[]): object {
  return { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules };
}

function bindUser(name: string, role: string, user: string): object {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
  };
}

function bindUserIn(namespace: string, name: string, role: string, user: string): object {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
  };
}

/** One user per mechanism, each allowed exactly its trigger (and what the mechanism needs with it). */
const SUBJECTS: object[] = [
  clusterRole('audit:compose', [
    { apiGroups: ['apiextensions.crossplane.io'], resources: ['compositions'], verbs: ['create', 'update'] },
  ]),
  bindUser('audit:composer', 'audit:compose', 'composer'),
  clusterRole('audit:operate', [
    { apiGroups: ['ops.crossplane.io'], resources: ['operations'], verbs: ['create'] },
  ]),
  bindUser('audit:operator', 'audit:operate', 'operator'),
  clusterRole('audit:runtime', [
    {
      apiGroups: ['pkg.crossplane.io'],
      resources: ['deploymentruntimeconfigs'],
      resourceNames: ['default'],
      verbs: ['get', 'update'],
    },
  ]),
  bindUser('audit:runtime', 'audit:runtime', 'runtimer'),
  clusterRole('audit:install', [
    { apiGroups: ['pkg.crossplane.io'], resources: ['providers'], verbs: ['create'] },
  ]),
  bindUser('audit:installer', 'audit:install', 'installer'),
  clusterRole('audit:bind', [
    { apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['cluster-admin'] },
    { apiGroups: [RBAC], resources: ['clusterrolebindings'], verbs: ['create'] },
  ]),
  bindUser('audit:binder', 'audit:bind', 'binder'),
  clusterRole('audit:escalate', [
    {
      apiGroups: [RBAC],
      resources: ['clusterroles'],
      verbs: ['escalate', 'update'],
      resourceNames: ['audit:escalate'],
    },
  ]),
  bindUser('audit:escalator', 'audit:escalate', 'escalator'),
  clusterRole('audit:webhook', [
    {
      apiGroups: ['admissionregistration.k8s.io'],
      resources: ['mutatingwebhookconfigurations'],
      verbs: ['create'],
    },
  ]),
  bindUser('audit:hooker', 'audit:webhook', 'hooker'),
  clusterRole('audit:deploy', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }]),
  bindUserIn(NS, 'audit:deployer', 'audit:deploy', 'deployer'),
  clusterRole('audit:token', [{ apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] }]),
  bindUserIn(NS, 'audit:tokener', 'audit:token', 'tokener'),
  clusterRole('audit:secrets', [{ apiGroups: [''], resources: ['secrets'], verbs: ['create', 'get'] }]),
  bindUserIn(NS, 'audit:secreter', 'audit:secrets', 'secreter'),
  clusterRole('audit:impersonate', [
    {
      apiGroups: [''],
      resources: ['serviceaccounts'],
      verbs: ['impersonate'],
      resourceNames: ['rbac-manager'],
    },
  ]),
  bindUserIn(NS, 'audit:impersonator', 'audit:impersonate', 'impersonator'),
  clusterRole('audit:objects', [
    { apiGroups: ['kubernetes.crossplane.io'], resources: ['objects'], verbs: ['create'] },
  ]),
  bindUser('audit:objector', 'audit:objects', 'objector'),
  // compose-through-xr: Apps (a namespaced XRD of examples/cluster, composed by Composition app-web) in kube-system.
  clusterRole('audit:apps', [{ apiGroups: ['platform.acme.io'], resources: ['apps'], verbs: ['create'] }]),
  bindUserIn('kube-system', 'audit:app-maker', 'audit:apps', 'app-maker'),
  // Negative control: may create Apps and the Deployments they compose itself (and the rest), in team-a.
  clusterRole('audit:apps-and-kinds', [
    { apiGroups: ['platform.acme.io'], resources: ['apps'], verbs: ['create'] },
    { apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] },
    {
      apiGroups: ['', 'networking.k8s.io', 'policy'],
      resources: ['configmaps', 'ingresses', 'networkpolicies', 'poddisruptionbudgets'],
      verbs: ['create'],
    },
  ]),
  bindUserIn('team-a', 'audit:app-deployer', 'audit:apps-and-kinds', 'app-deployer'),
  // Negative controls: a trigger's neighbour that is no trigger, and crossplane-view.
  clusterRole('audit:read-compositions', [
    { apiGroups: ['apiextensions.crossplane.io'], resources: ['compositions'], verbs: ['get', 'list'] },
  ]),
  bindUser('audit:reader', 'audit:read-compositions', 'reader'),
  bindUser('audit:viewer', 'crossplane-view', 'viewer'),
  // The chart's RBAC manager, running (examples/cluster has its account and role, not its Deployment).
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'crossplane-rbac-manager', namespace: NS },
    spec: {
      selector: { matchLabels: { app: 'crossplane-rbac-manager' } },
      template: {
        metadata: { labels: { app: 'crossplane-rbac-manager' } },
        spec: {
          serviceAccountName: 'rbac-manager',
          containers: [{ name: 'rbac-manager', image: 'crossplane/crossplane' }],
        },
      },
    },
  },
];

/** The mechanism each user's finding must start with, and the capability. */
const EXPECTED: readonly [string, string, string][] = [
  ['composer', 'compose-as-crossplane', 'cluster-admin'],
  ['operator', 'operate-as-crossplane', 'cluster-admin'],
  ['runtimer', 'runtime-config', 'cluster-admin'],
  // The new provider's account may create and read Secrets anywhere: a token of any account (secret-token).
  ['installer', 'install-package', 'cluster-admin'],
  ['binder', 'bind', 'cluster-admin'],
  ['escalator', 'escalate', 'cluster-admin'],
  ['hooker', 'webhook', 'cluster-admin'],
  ['deployer', 'run-as', 'cluster-admin'],
  ['tokener', 'token-request', 'cluster-admin'],
  ['secreter', 'secret-token', 'cluster-admin'],
  ['impersonator', 'impersonate', 'cluster-admin'],
  // provider-kubernetes' account (no ProviderConfig read: "may") edits Secrets everywhere once sync bound its role.
  ['objector', 'provider-identity', 'cluster-admin'],
  // Crossplane's account creates the Deployments of an App in kube-system: pods there, run-anywhere.
  ['app-maker', 'compose-through-xr', 'run-anywhere'],
];

/** The made-up identity of compose-through-xr: Crossplane's account limited to the kinds its name lists. */
const COMPOSING = /^crossplane:composing:<(.*)>$/;

const asFlags = (s: Ref): string[] => asFlagsOf(s, PROBE_USER);

/** kubectl auth can-i, as the identity: a ClusterRole's rights are asked through a probe user bound to it. */
async function canI(
  asked: Ref,
  verb: string,
  resource: string,
  namespace?: string,
  name?: string,
): Promise<boolean> {
  let who = asked;
  let as = asFlags(who);
  if (who.kind === 'ClusterRole' && who.name.includes('<new-provider>')) {
    // What a provider installed now gets: a system role as every installed provider's (one rendered by sync here).
    who = { kind: 'ClusterRole', name: await installedProviderSystemRole() };
  }
  const composing = who.kind === 'ClusterRole' ? COMPOSING.exec(who.name) : null;
  if (composing !== null) {
    // Asked as Crossplane's own account, only about a kind it composes, only where it composes it.
    expect(composing[1]?.split('+'), `${who.name} composes ${resource}`).toContain(resource);
    if (who.namespace !== undefined) expect(namespace).toBe(who.namespace);
    as = asFlags({ kind: 'ServiceAccount', name: 'crossplane', namespace: NS });
  } else if (who.kind === 'ClusterRole') {
    const user = `xrbac-audit-holder-${who.name.replace(/[^a-z0-9-]/g, '-')}`;
    await run(['apply', '-f', '-'], JSON.stringify(bindUser(`audit-probe:${who.name}`, who.name, user)));
    as = ['--as', user];
  }
  const scope = namespace !== undefined ? ['-n', namespace] : ['-A'];
  // kubectl reads TYPE/NAME (cmd/auth/cani.go, Complete): a subresource goes in --subresource.
  const [type = '', subresource] = resource.split('/');
  const target = name !== undefined ? `${type}/${name}` : type;
  const sub = subresource !== undefined ? [`--subresource=${subresource}`] : [];
  const args = ['auth', 'can-i', verb, target, ...sub, ...scope, ...as];
  const r = await run(args);
  if (r.code !== 0 && r.code !== 1) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  expect(r.stderr, `kubectl ${args.join(' ')}`).not.toMatch(/doesn't have a resource type/);
  return r.stdout.trim() === 'yes';
}

async function installedProviderSystemRole(): Promise<string> {
  const names = ok(await run(['get', 'clusterroles', '-o', 'name']), 'get clusterroles').stdout.split('\n');
  const role = names
    .map((n) => n.replace(/^clusterrole\.rbac\.authorization\.k8s\.io\//, ''))
    .find((n) => /^crossplane:provider:.*:system$/.test(n));
  expect(role).toBeDefined();
  return role ?? '';
}

/** The request that proves each capability, as kubectl asks it. */
const CAPABILITY_CHECK: Readonly<Record<string, [string, string, string?]>> = {
  'cluster-admin': ['*', '*'],
  'read-secrets': ['list', 'secrets'],
  // Pods (or a workload's) in kube-system.
  'run-anywhere': ['create', 'deployments.apps', 'kube-system'],
};

async function audit(args: readonly string[] = []): Promise<RunResult> {
  return run(['crossplane-rbac', 'audit', ...args]);
}

beforeAll(async () => {
  cluster = await startSeeded('xrbac-e2e-audit-', ['cluster', 'audit']);
  ({ kubeconfig, dir } = cluster);
  const crds = [
    crd('pkg.crossplane.io', 'deploymentruntimeconfigs', 'DeploymentRuntimeConfig'),
    crd('ops.crossplane.io', 'operations', 'Operation'),
    crd('ops.crossplane.io', 'cronoperations', 'CronOperation'),
  ];
  await applyList(cluster, crds, 'CRDs');
  ok(await run(['crossplane-rbac', 'sync', '--yes']), 'sync --yes');
  await applyList(cluster, SUBJECTS, 'subjects');
  const r = ok(await audit(['-o', 'json']), 'audit -o json');
  report = JSON.parse(r.stdout) as Report;
}, 180_000);

afterAll(async () => {
  await cluster.server.stop();
});

const findingsOf = (user: string): Finding[] =>
  report.findings.filter((f) => f.subject.kind === 'User' && f.subject.name === user);

describe('audit on the chart’s RBAC', () => {
  it('prints the AuditReport contract', () => {
    expect(report.apiVersion).toBe('crossplane-rbac/v1');
    expect(report.kind).toBe('AuditReport');
    expect(report.accepted).toStrictEqual([]);
    expect(report.unseen).toStrictEqual([]);
    const byDesign = report.byDesign.map(
      (b) => `${b.subject.kind}/${b.subject.namespace ?? ''}/${b.subject.name}`,
    );
    expect(byDesign).toContain(`ServiceAccount/${NS}/crossplane`);
    expect(byDesign).toContain(`ServiceAccount/${NS}/rbac-manager`);
    expect(byDesign).toContain('Group//crossplane:masters');
    expect(
      report.findings.some((f) =>
        byDesign.includes(`${f.subject.kind}/${f.subject.namespace ?? ''}/${f.subject.name}`),
      ),
    ).toBe(false);
  });

  it.each(EXPECTED)('%s: a finding that starts with %s and reaches %s', (user, mechanism, capability) => {
    const found = findingsOf(user).find((f) => f.steps[0]?.mechanism === mechanism);
    expect(found, JSON.stringify(findingsOf(user), null, 1)).toBeDefined();
    expect(found?.capability).toBe(capability);
    expect(found?.severity).toBe(capability === 'cluster-admin' ? 'critical' : 'high');
    expect(found?.fix).not.toBe('');
  });

  it('every step of every finding holds as the server decides, and the subject lacks the capability', async () => {
    expect(report.findings.length).toBeGreaterThanOrEqual(EXPECTED.length);
    for (const f of report.findings) {
      let from: Ref = f.subject;
      for (const s of f.steps) {
        const t = s.trigger;
        const what = `${JSON.stringify(from)} ${s.mechanism}: ${t.verb} ${t.resource} ${t.name ?? ''} -n ${t.namespace ?? '-A'}`;
        expect(await canI(from, t.verb, t.resource, t.namespace, t.name), what).toBe(true);
        from = s.actsAs;
      }
      const check = CAPABILITY_CHECK[f.capability];
      expect(check, f.capability).toBeDefined();
      const [verb, resource, ns] = check ?? ['', ''];
      expect(await canI(from, verb, resource, ns), `${JSON.stringify(from)} holds ${f.capability}`).toBe(
        true,
      );
      expect(
        await canI(f.subject, verb, resource, ns),
        `${JSON.stringify(f.subject)} lacks ${f.capability}`,
      ).toBe(false);
    }
  }, 300_000);

  it('a provider installed now gets what an installed provider’s account holds: Secrets in every namespace', async () => {
    const sa = report.byDesign.find((b) => b.reason.includes('provider'))?.subject;
    expect(sa).toBeDefined();
    expect(await canI(sa as Ref, 'list', 'secrets')).toBe(true);
  });

  it('the transitive case: writing Compositions reaches cluster-admin through Crossplane’s account', () => {
    const f = findingsOf('composer').find((x) => x.steps[0]?.mechanism === 'compose-as-crossplane');
    expect(f?.steps.length).toBeGreaterThan(1);
    expect(f?.steps[0]?.actsAs).toStrictEqual({ kind: 'ServiceAccount', name: 'crossplane', namespace: NS });
    expect(f?.steps[0]?.via).toStrictEqual([
      'ClusterRoleBinding/audit:composer',
      'ClusterRole/audit:compose',
    ]);
    expect(f?.steps[0]?.source).toMatch(/composition_functions\.go/);
  });

  it('compose-through-xr: the App’s Composition composes Deployments, which its author may not create', async () => {
    const f = findingsOf('app-maker').find((x) => x.steps[0]?.mechanism === 'compose-through-xr');
    const step = f?.steps[0];
    expect(step?.trigger).toStrictEqual({
      verb: 'create',
      resource: 'apps.platform.acme.io',
      namespace: 'kube-system',
    });
    expect(step?.actsAs.namespace).toBe('kube-system');
    expect(step?.source).toMatch(/composition_render\.go/);
    // What composes an App, read from the server: the Compositions whose compositeTypeRef is App.
    const list = JSON.parse(
      ok(await run(['get', 'compositions', '-o', 'json']), 'get compositions').stdout,
    ) as {
      items: { metadata: Named; spec: { compositeTypeRef: { kind: string }; pipeline?: unknown[] } }[];
    };
    const forApp = list.items.filter((c) => c.spec.compositeTypeRef.kind === 'App');
    expect(forApp.map((c) => c.metadata.name)).toStrictEqual(['app-web']);
    expect(JSON.stringify(forApp[0]?.spec.pipeline)).toContain('"kind":"Deployment"');
    expect(await canI({ kind: 'User', name: 'app-maker' }, 'create', 'deployments.apps', 'kube-system')).toBe(
      false,
    );
    expect(await canI({ kind: 'User', name: 'app-maker' }, 'create', 'pods', 'kube-system')).toBe(false);
    // Negative control: who may create the composed kinds itself gains nothing through the XR.
    expect(
      await canI({ kind: 'User', name: 'app-deployer' }, 'create', 'apps.platform.acme.io', 'team-a'),
    ).toBe(true);
    expect(
      findingsOf('app-deployer').filter((x) => x.steps[0]?.mechanism === 'compose-through-xr'),
    ).toStrictEqual([]);
  });

  it('crossplane-edit (examples/audit): paths to cluster-admin, fixed by binding crossplane-view instead', () => {
    const group = report.findings.filter(
      (f) => f.subject.kind === 'Group' && f.subject.name === 'platform-engineers',
    );
    expect(group.map((f) => f.steps[0]?.mechanism)).toContain('compose-as-crossplane');
    expect(group.map((f) => f.steps[0]?.mechanism)).toContain('runtime-config');
    // The RBAC manager runs here: an XRD in any group aggregates every verb on it into crossplane-edit.
    expect(group.map((f) => f.steps[0]?.mechanism)).toContain('define-api');
    for (const f of group) {
      expect(f.capability).toBe('cluster-admin');
      expect(f.steps[0]?.via.slice(0, 2)).toStrictEqual([
        'ClusterRoleBinding/platform-engineers',
        'ClusterRole/crossplane-edit',
      ]);
      expect(f.fix, f.steps[0]?.mechanism).toMatch(
        /^bind crossplane-view \(or crossplane-browse\) to Group\/platform-engineers instead of crossplane-edit/,
      );
    }
    const runtime = group.find((f) => f.steps[0]?.mechanism === 'runtime-config');
    expect(runtime?.fix).toContain('kind: ValidatingAdmissionPolicy');
  });

  it('negative controls: no trigger, crossplane-view, and cluster-admin holders have no finding', async () => {
    expect(
      await canI({ kind: 'User', name: 'reader' }, 'get', 'compositions.apiextensions.crossplane.io'),
    ).toBe(true);
    expect(findingsOf('reader')).toStrictEqual([]);
    expect(
      await canI({ kind: 'User', name: 'viewer' }, 'list', 'compositions.apiextensions.crossplane.io'),
    ).toBe(true);
    expect(findingsOf('viewer')).toStrictEqual([]);
    const reconciler = {
      kind: 'ServiceAccount',
      name: 'root-reconciler',
      namespace: 'config-management-system',
    };
    expect(await canI(reconciler, '*', '*')).toBe(true);
    expect(report.findings.filter((f) => f.subject.name === 'root-reconciler')).toStrictEqual([]);
  });
});

describe('audit flags', () => {
  it('--subject audits one subject; --fail-on exits 1 while a finding at or above remains', async () => {
    const one = ok(await audit(['--subject', 'User:binder', '-o', 'json']), 'audit --subject');
    const parsed = JSON.parse(one.stdout) as Report;
    expect(parsed.findings.map((f) => f.subject.name)).toStrictEqual(['binder']);
    expect((await audit(['--subject', 'User:binder', '--fail-on', 'critical'])).code).toBe(1);
    expect((await audit(['--subject', 'User:reader', '--fail-on', 'low'])).code).toBe(0);
  });

  it('--accept moves accepted findings apart, so --fail-on passes', async () => {
    const file = join(dir, 'accepted.yaml');
    writeFileSync(
      file,
      '- subject: User:binder\n  capability: cluster-admin\n  firstStep: bind\n  reason: break-glass account\n',
    );
    const r = await audit([
      '--subject',
      'User:binder',
      '--accept',
      file,
      '--fail-on',
      'critical',
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const parsed = JSON.parse(r.stdout) as Report;
    expect(parsed.findings).toStrictEqual([]);
    expect(parsed.accepted.map((f) => [f.subject.name, f.steps[0]?.mechanism, f.reason])).toStrictEqual([
      ['binder', 'bind', 'break-glass account'],
    ]);
  });

  it('--contexts: one run per context, merged; --fail-on counts every context', async () => {
    // Two contexts of the same server, as two clusters.
    const k = parse(readFileSync(kubeconfig, 'utf8')) as { clusters: Named[]; users: Named[] };
    const cluster = k.clusters[0] as Named;
    const user = k.users[0] as Named;
    const fleet = join(dir, 'fleet.kubeconfig');
    writeFileSync(
      fleet,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: ['one', 'two'].map((name) => ({ ...cluster, name })),
        users: [{ ...user, name: 'admin' }],
        contexts: ['one', 'two'].map((name) => ({ name, context: { cluster: name, user: 'admin' } })),
        'current-context': 'one',
      }),
    );
    const env = { env: { KUBECONFIG: fleet, KUBECACHEDIR: discoveryCache(fleet) } };
    const args = ['crossplane-rbac', 'audit', '--contexts', 'one,two', '--subject', 'User:binder'];
    const r = await kubectl([...args, '-o', 'json'], env);
    expect(r.code, r.stderr).toBe(0);
    const list = JSON.parse(r.stdout) as { items: { context: string; result: Report }[] };
    expect(
      list.items.map((i) => [i.context, i.result.findings.map((f) => f.steps[0]?.mechanism)]),
    ).toStrictEqual([
      ['one', ['bind']],
      ['two', ['bind']],
    ]);
    const table = await kubectl(args, env);
    expect(table.stdout).toMatch(/^CONTEXT +SEVERITY +SUBJECT/);
    expect((await kubectl([...args, '--fail-on', 'critical'], env)).code).toBe(1);
    expect((await kubectl([...args, '-o', 'sarif'], env)).code).toBe(2);
  });

  it('bad input: one error line, exit 2', async () => {
    const r = await audit(['--subject', 'alice']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --subject "alice" is not KIND:NAME/m);
    const bad = join(dir, 'bad-accept.yaml');
    writeFileSync(bad, '- subject: User:binder\n  capability: root\n  firstStep: bind\n  reason: x\n');
    const a = await audit(['--accept', bad]);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/^error: .*entry 1: unknown capability "root"/m);
    const severe = await audit(['--fail-on', 'severe']);
    expect(severe.code).toBe(2);
    // A severity, not an output format: the error names what the flag takes.
    expect(severe.stderr).toBe(
      'error: --fail-on "severe" is not a severity\nhint: use one of: critical, high, medium, low\n',
    );
  });
});
