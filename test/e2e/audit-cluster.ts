/**
 * The cluster the audit e2e tests share (audit-classic, audit-crossplane, audit-contract, audit-exit): the test API
 * server seeded with examples/cluster (the chart's real RBAC, Crossplane 2.1.0) and examples/audit after `sync
 * --yes`, plus one subject per mechanism (SUBJECTS), audited once with `-o json`. The oracle is the server's own
 * authorizer (test/apiserver/authz.ts, no code shared with the plugin), asked through `kubectl auth can-i --as`
 * (AuditCluster.canI).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunResult } from './harness.js';
import {
  applyList,
  asFlags as asFlagsOf,
  bindUser,
  bindUserIn,
  clusterRole,
  crd,
  ok,
  startSeeded,
  type SeededCluster,
  RBAC,
} from './seeded-cluster.js';

export interface Ref {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

export interface Step {
  readonly mechanism: string;
  readonly trigger: { verb: string; resource: string; namespace?: string; name?: string };
  readonly via: readonly string[];
  readonly actsAs: Ref;
  readonly why: string;
  readonly source?: string;
}

export interface Finding {
  readonly capability: string;
  readonly severity: string;
  readonly subject: Ref;
  readonly steps: readonly Step[];
  readonly fix: string;
}

export interface Named {
  readonly name: string;
}

export interface Report {
  readonly apiVersion: string;
  readonly kind: string;
  readonly findings: readonly Finding[];
  readonly accepted: readonly (Finding & { reason: string })[];
  readonly byDesign: readonly { subject: Ref; reason: string }[];
  readonly unseen: readonly unknown[];
}

export const NS = 'crossplane-system';
/** A user no binding names: impersonated with --as-group to ask about a Group alone. */
const PROBE_USER = 'xrbac-audit-probe';

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
export const EXPECTED: readonly [string, string, string][] = [
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

/** The classic mechanisms (the rest of EXPECTED go through Crossplane). */
export const CLASSIC = new Set([
  'bind',
  'escalate',
  'webhook',
  'run-as',
  'token-request',
  'secret-token',
  'impersonate',
]);

/** The made-up identity of compose-through-xr: Crossplane's account limited to the kinds its name lists. */
const COMPOSING = /^crossplane:composing:<(.*)>$/;

const asFlags = (s: Ref): string[] => asFlagsOf(s, PROBE_USER);

/** The request that proves each capability, as kubectl asks it. */
export const CAPABILITY_CHECK: Readonly<Record<string, [string, string, string?]>> = {
  'cluster-admin': ['*', '*'],
  'read-secrets': ['list', 'secrets'],
  // Pods (or a workload's) in kube-system.
  'run-anywhere': ['create', 'deployments.apps', 'kube-system'],
};

/** One test file's audited cluster: filled in by its beforeAll, stopped by its afterAll. */
export class AuditCluster {
  cluster!: SeededCluster;
  report!: Report;

  run = (args: readonly string[], input?: string): Promise<RunResult> => this.cluster.run(args, input);

  audit = (args: readonly string[] = []): Promise<RunResult> =>
    this.run(['crossplane-rbac', 'audit', ...args]);

  findingsOf = (user: string): Finding[] =>
    this.report.findings.filter((f) => f.subject.kind === 'User' && f.subject.name === user);

  /** kubectl auth can-i, as the identity: a ClusterRole's rights are asked through a probe user bound to it. */
  async canI(
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
      who = { kind: 'ClusterRole', name: await this.installedProviderSystemRole() };
    }
    const composing = who.kind === 'ClusterRole' ? COMPOSING.exec(who.name) : null;
    if (composing !== null) {
      // Asked as Crossplane's own account, only about a kind it composes, only where it composes it.
      expect(composing[1]?.split('+'), `${who.name} composes ${resource}`).toContain(resource);
      if (who.namespace !== undefined) expect(namespace).toBe(who.namespace);
      as = asFlags({ kind: 'ServiceAccount', name: 'crossplane', namespace: NS });
    } else if (who.kind === 'ClusterRole') {
      const user = `xrbac-audit-holder-${who.name.replace(/[^a-z0-9-]/g, '-')}`;
      await this.run(
        ['apply', '-f', '-'],
        JSON.stringify(bindUser(`audit-probe:${who.name}`, who.name, user)),
      );
      as = ['--as', user];
    }
    const scope = namespace !== undefined ? ['-n', namespace] : ['-A'];
    // kubectl reads TYPE/NAME (cmd/auth/cani.go, Complete): a subresource goes in --subresource.
    const [type = '', subresource] = resource.split('/');
    const target = name !== undefined ? `${type}/${name}` : type;
    const sub = subresource !== undefined ? [`--subresource=${subresource}`] : [];
    const args = ['auth', 'can-i', verb, target, ...sub, ...scope, ...as];
    const r = await this.run(args);
    if (r.code !== 0 && r.code !== 1) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
    expect(r.stderr, `kubectl ${args.join(' ')}`).not.toMatch(/doesn't have a resource type/);
    return r.stdout.trim() === 'yes';
  }

  async installedProviderSystemRole(): Promise<string> {
    const names = ok(await this.run(['get', 'clusterroles', '-o', 'name']), 'get clusterroles').stdout.split(
      '\n',
    );
    const role = names
      .map((n) => n.replace(/^clusterrole\.rbac\.authorization\.k8s\.io\//, ''))
      .find((n) => /^crossplane:provider:.*:system$/.test(n));
    expect(role).toBeDefined();
    return role ?? '';
  }
}

/** The audited cluster of one test file (PREFIX: its temporary directory's), set up before its tests. */
export function auditCluster(prefix: string): AuditCluster {
  const c = new AuditCluster();
  beforeAll(async () => {
    c.cluster = await startSeeded(prefix, ['cluster', 'audit']);
    const crds = [
      crd('pkg.crossplane.io', 'deploymentruntimeconfigs', 'DeploymentRuntimeConfig'),
      crd('ops.crossplane.io', 'operations', 'Operation'),
      crd('ops.crossplane.io', 'cronoperations', 'CronOperation'),
    ];
    await applyList(c.cluster, crds, 'CRDs');
    ok(await c.run(['crossplane-rbac', 'sync', '--yes']), 'sync --yes');
    await applyList(c.cluster, SUBJECTS, 'subjects');
    const r = ok(await c.audit(['-o', 'json']), 'audit -o json');
    c.report = JSON.parse(r.stdout) as Report;
  }, 180_000);
  afterAll(async () => {
    await c.cluster.server.stop();
  });
  return c;
}

/** The finding of USER that starts with MECHANISM: there, reaching CAPABILITY at its severity, with a fix. */
export function expectFindingBy(c: AuditCluster, user: string, mechanism: string, capability: string): void {
  const found = c.findingsOf(user).find((f) => f.steps[0]?.mechanism === mechanism);
  expect(found, JSON.stringify(c.findingsOf(user), null, 1)).toBeDefined();
  expect(found?.capability).toBe(capability);
  expect(found?.severity).toBe(capability === 'cluster-admin' ? 'critical' : 'high');
  expect(found?.fix).not.toBe('');
}
