/**
 * `audit`'s two paths through what Crossplane composes, through the real kubectl, on the test API server seeded with
 * examples/cluster (the chart's real RBAC, Crossplane 2.1.0) after `sync --yes`:
 *
 * - binding through Crossplane: an XR whose Composition composes ClusterRoleBindings or RoleBindings has Crossplane's
 *   account create them, and the API server checks a binding against its creator's rights (kubernetes
 *   pkg/registry/rbac/rolebinding/policybased/storage.go@008b3652959ca58af8be3fb5b6ecfe9ae7638282 Create, and
 *   clusterrolebinding's: allowed when the creator may `bind` the role,
 *   pkg/registry/rbac/escalation_check.go@00bdb3fade2ef1ada898bd8fae2c6a1958da3a5d BindingAuthorized, or holds every
 *   rule of it, pkg/registry/rbac/validation/rule.go ConfirmNoEscalation);
 * - a provider's managed resource as a composed kind, resolved live through its ProviderRevision: examples/cluster's
 *   Composition database-backups composes provider-kubernetes' namespaced Object, which the provider applies as its
 *   own account.
 *
 * The oracle is the server's own authorizer and escalation check (test/apiserver, no code shared with the plugin):
 * every trigger is asked with `kubectl auth can-i --as` as the identity the step starts from; a binding Crossplane
 * would compose is created by `kubectl create --as` Crossplane's account, so the server decides whether that account
 * may bind the role; the capability is asked as the identity reached, and denied to the subject itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from './harness.js';
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
}

interface Finding {
  readonly capability: string;
  readonly severity: string;
  readonly subject: Ref;
  readonly steps: readonly Step[];
  readonly fix: string;
}

const NS = 'crossplane-system';
const RBAC = 'rbac.authorization.k8s.io';
const GROUP = 'access.acme.io';
const CROSSPLANE: Ref = { kind: 'ServiceAccount', name: 'crossplane', namespace: NS };
const PROBE_USER = 'xrbac-audit-bindings-probe';

let cluster: SeededCluster;
let findings: readonly Finding[];

const run = (args: readonly string[], input?: string): Promise<RunResult> => cluster.run(args, input);
const asFlags = (s: Ref): string[] => asFlagsOf(s, PROBE_USER);

function clusterRole(name: string, rules: object[], labels?: Record<string, string>): object {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name, ...(labels !== undefined ? { labels } : {}) },
    rules,
  };
}

function bindUserIn(namespace: string | undefined, name: string, role: string, user: string): object {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: namespace === undefined ? 'ClusterRoleBinding' : 'RoleBinding',
    metadata: { name, ...(namespace !== undefined ? { namespace } : {}) },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
  };
}

/** A Crossplane v2 XRD of GROUP (and the CRD Crossplane would make for it, so that kubectl resolves its XRs). */
function xrd(kind: string, plural: string, scope: 'Cluster' | 'Namespaced'): object[] {
  return [
    {
      apiVersion: 'apiextensions.crossplane.io/v2',
      kind: 'CompositeResourceDefinition',
      metadata: { name: `${plural}.${GROUP}` },
      spec: {
        group: GROUP,
        names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` },
        scope,
        versions: [
          {
            name: 'v1alpha1',
            served: true,
            referenceable: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    },
    crd(GROUP, plural, kind, scope),
  ];
}

/** A Composition of KIND whose patch-and-transform step composes one object, BASE. */
function composition(name: string, kind: string, base: object): object {
  return {
    apiVersion: 'apiextensions.crossplane.io/v1',
    kind: 'Composition',
    metadata: { name },
    spec: {
      compositeTypeRef: { apiVersion: `${GROUP}/v1alpha1`, kind },
      mode: 'Pipeline',
      pipeline: [
        {
          step: 'patch-and-transform',
          functionRef: { name: 'function-patch-and-transform' },
          input: {
            apiVersion: 'pt.fn.crossplane.io/v1beta1',
            kind: 'Resources',
            resources: [
              {
                name: 'binding',
                base,
                patches: [
                  {
                    type: 'FromCompositeFieldPath',
                    fromFieldPath: 'spec.user',
                    toFieldPath: 'subjects[0].name',
                  },
                ],
              },
            ],
          },
        },
      ],
    },
  };
}

const bindingBase = (kind: 'ClusterRoleBinding' | 'RoleBinding', role: string): object => ({
  apiVersion: `${RBAC}/v1`,
  kind,
  roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
  subjects: [{ apiGroup: RBAC, kind: 'User', name: 'set-by-the-xr' }],
});

const SETUP: object[] = [
  // What a platform team adds so that Crossplane may compose bindings: create them, and bind cluster-admin.
  clusterRole(
    'audit:crossplane-binds',
    [
      {
        apiGroups: [RBAC],
        resources: ['clusterrolebindings', 'rolebindings'],
        verbs: ['create', 'update', 'patch', 'delete'],
      },
      { apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['cluster-admin'] },
    ],
    { 'rbac.crossplane.io/aggregate-to-crossplane': 'true' },
  ),
  // A role Crossplane's account neither may bind nor holds the rules of (nodes/proxy).
  clusterRole('audit:node-proxy', [{ apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] }]),
  // AccessGrant (cluster-scoped) composes a ClusterRoleBinding; TeamAccess (namespaced) a RoleBinding; Note a ConfigMap.
  ...xrd('AccessGrant', 'accessgrants', 'Cluster'),
  composition('access-grant', 'AccessGrant', bindingBase('ClusterRoleBinding', 'cluster-admin')),
  ...xrd('TeamAccess', 'teamaccesses', 'Namespaced'),
  composition('team-access', 'TeamAccess', bindingBase('RoleBinding', 'edit')),
  ...xrd('Note', 'notes', 'Namespaced'),
  composition('note', 'Note', { apiVersion: 'v1', kind: 'ConfigMap', data: { text: '' } }),
  clusterRole('audit:grants', [{ apiGroups: [GROUP], resources: ['accessgrants'], verbs: ['create'] }]),
  bindUserIn(undefined, 'audit:granter', 'audit:grants', 'granter'),
  clusterRole('audit:team-access', [{ apiGroups: [GROUP], resources: ['teamaccesses'], verbs: ['create'] }]),
  bindUserIn('kube-system', 'audit:team-granter', 'audit:team-access', 'team-granter'),
  // Negative control: a Composition without bindings (a ConfigMap), in kube-system too.
  clusterRole('audit:notes', [{ apiGroups: [GROUP], resources: ['notes'], verbs: ['create'] }]),
  bindUserIn('kube-system', 'audit:note-taker', 'audit:notes', 'note-taker'),
  // The plain case: who may write Compositions has Crossplane's account itself (compose-as-crossplane).
  clusterRole('audit:compose', [
    { apiGroups: ['apiextensions.crossplane.io'], resources: ['compositions'], verbs: ['create', 'update'] },
  ]),
  bindUserIn(undefined, 'audit:composer', 'audit:compose', 'composer'),
  // examples/cluster's Database (namespaced) composes a CronJob and provider-kubernetes' namespaced Object.
  clusterRole('audit:databases', [
    { apiGroups: ['platform.acme.io'], resources: ['databases'], verbs: ['create'] },
  ]),
  bindUserIn('team-a', 'audit:db-maker', 'audit:databases', 'db-maker'),
];

/** A role named in a binding step's sentence: `ClusterRole/NAME (bind)` or `(holds every rule)`. */
const NAMED_ROLE = /(ClusterRole|Role)\/([^\s,()]+) \((bind|holds every rule)\)/g;

/** The made-up identities: Crossplane's account limited to the kinds composed, or the roles it may bind. */
const COMPOSING = /^crossplane:composing:<(.*)>$/;
const BINDABLE = /^crossplane:bindable(-in:.*)?$/;

/** Creates (or with DRY_RUN, only asks the server to check) a binding as Crossplane's account would compose it. */
async function bindAsCrossplane(
  role: string,
  user: string,
  namespace: string | undefined,
  dryRun: boolean,
): Promise<RunResult> {
  const kind = namespace === undefined ? 'clusterrolebinding' : 'rolebinding';
  const name = `xrbac-probe-${user}-${role.replace(/[^a-z0-9-]/g, '-')}`;
  return run([
    'create',
    kind,
    name,
    `--clusterrole=${role}`,
    `--user=${user}`,
    ...(namespace !== undefined ? ['-n', namespace] : []),
    ...(dryRun ? ['--dry-run=server'] : []),
    ...asFlags(CROSSPLANE),
  ]);
}

async function canI(
  who: Ref,
  verb: string,
  resource: string,
  namespace?: string,
  name?: string,
): Promise<boolean> {
  let as = asFlags(who);
  const composing = who.kind === 'ClusterRole' ? COMPOSING.exec(who.name) : null;
  if (composing !== null) {
    // Asked as Crossplane's own account, only about a kind it composes, only where it composes it.
    expect(composing[1]?.split('+'), `${who.name} composes ${resource}`).toContain(resource);
    if (who.namespace !== undefined) expect(namespace).toBe(who.namespace);
    as = asFlags(CROSSPLANE);
  } else if (who.kind === 'ClusterRole') {
    throw new Error(`no way to ask as ${JSON.stringify(who)}`);
  }
  const scope = namespace !== undefined ? ['-n', namespace] : ['-A'];
  const [type = '', subresource] = resource.split('/');
  const target = name !== undefined ? `${type}/${name}` : type;
  const sub = subresource !== undefined ? [`--subresource=${subresource}`] : [];
  const args = ['auth', 'can-i', verb, target, ...sub, ...scope, ...as];
  const r = await run(args);
  if (r.code !== 0 && r.code !== 1) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  expect(r.stderr, `kubectl ${args.join(' ')}`).not.toMatch(/doesn't have a resource type/);
  return r.stdout.trim() === 'yes';
}

/** The request that proves each capability, as kubectl asks it. */
const CAPABILITY_CHECK: Readonly<Record<string, [string, string, string?]>> = {
  'cluster-admin': ['*', '*'],
  'read-secrets': ['list', 'secrets'],
  'run-anywhere': ['create', 'deployments.apps', 'kube-system'],
};

const findingsOf = (user: string): Finding[] =>
  findings.filter((f) => f.subject.kind === 'User' && f.subject.name === user);

beforeAll(async () => {
  cluster = await startSeeded('xrbac-e2e-audit-bindings-', ['cluster']);
  ok(await run(['crossplane-rbac', 'sync', '--yes']), 'sync --yes');
  await applyList(cluster, SETUP, 'setup');
  const r = ok(await run(['crossplane-rbac', 'audit', '-o', 'json']), 'audit -o json');
  findings = (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
}, 180_000);

afterAll(async () => {
  await cluster.server.stop();
});

/**
 * Walks a finding as the server decides it: each trigger allowed to the identity the step starts from; a binding
 * step's roles bound to the subject by Crossplane's account (the server's escalation check decides), after which the
 * subject itself holds the capability; else the capability asked as the identity reached. Returns the bindings made.
 */
async function walk(f: Finding): Promise<void> {
  let from: Ref = f.subject;
  const made: [string, string | undefined][] = [];
  for (const s of f.steps) {
    const t = s.trigger;
    const what = `${JSON.stringify(from)} ${s.mechanism}: ${t.verb} ${t.resource} -n ${t.namespace ?? '-A'}`;
    expect(await canI(from, t.verb, t.resource, t.namespace, t.name), what).toBe(true);
    if (BINDABLE.test(s.actsAs.name)) {
      // Crossplane's account binds every role the step names to the subject, as the XR would have it compose.
      expect(from, 'a binding step starts at the subject').toStrictEqual(f.subject);
      const roles = [...s.why.matchAll(NAMED_ROLE)]
        .filter((m) => m[1] === 'ClusterRole')
        .map((m) => m[2] ?? '');
      expect(roles.length, s.why).toBeGreaterThan(0);
      for (const role of roles) {
        ok(await bindAsCrossplane(role, f.subject.name, s.actsAs.namespace, false), `bind ${role}`);
        made.push([role, s.actsAs.namespace]);
      }
      from = f.subject;
    } else {
      from = s.actsAs;
    }
  }
  const [verb, resource, ns] = CAPABILITY_CHECK[f.capability] ?? ['', ''];
  expect(await canI(from, verb, resource, ns), `${JSON.stringify(from)} holds ${f.capability}`).toBe(true);
  for (const [role, namespace] of made) {
    const kind = namespace === undefined ? 'clusterrolebinding' : 'rolebinding';
    const name = `xrbac-probe-${f.subject.name}-${role.replace(/[^a-z0-9-]/g, '-')}`;
    ok(
      await run(['delete', kind, name, ...(namespace !== undefined ? ['-n', namespace] : [])]),
      `unbind ${role}`,
    );
  }
}

describe('audit: a binding Crossplane composes', () => {
  it('ClusterRoleBinding: the XR’s author may have cluster-admin bound to itself, which Crossplane may bind', async () => {
    const f = findingsOf('granter');
    expect(f.map((x) => [x.capability, x.severity, x.steps.map((s) => s.mechanism)])).toStrictEqual([
      ['cluster-admin', 'critical', ['compose-through-xr']],
    ]);
    const step = f[0]?.steps[0];
    expect(step?.trigger).toStrictEqual({ verb: 'create', resource: `accessgrants.${GROUP}` });
    expect(step?.actsAs).toStrictEqual({ kind: 'ClusterRole', name: 'crossplane:bindable' });
    expect(step?.via).toStrictEqual(['ClusterRoleBinding/audit:granter', 'ClusterRole/audit:grants']);
    expect(step?.why).toContain('ClusterRole/cluster-admin (bind)');
    expect(step?.why).toMatch(/compose ClusterRoleBindings, which Crossplane creates with its own account/);
    // The fix names what lets Crossplane write bindings, besides the subject's own trigger: by default the role the
    // binding names, whose stored rules the authorizer uses; with --converged, the aggregated role that holds it.
    expect(f[0]?.fix).toContain(
      'or take "create clusterrolebindings" from Crossplane\'s account (ClusterRoleBinding/crossplane → ClusterRole/crossplane)',
    );
    const converged = ok(
      await run(['crossplane-rbac', 'audit', '--converged', '-o', 'json']),
      'audit --converged',
    );
    const fc = (JSON.parse(converged.stdout) as { findings: Finding[] }).findings.filter(
      (x) => x.subject.kind === 'User' && x.subject.name === 'granter',
    );
    expect(fc[0]?.fix).toContain(
      'or take "create clusterrolebindings" from Crossplane\'s account (ClusterRoleBinding/crossplane → ClusterRole/crossplane → audit:crossplane-binds)',
    );
    // The server: the subject is denied the capability; Crossplane's account may bind cluster-admin.
    expect(await canI({ kind: 'User', name: 'granter' }, '*', '*')).toBe(false);
    expect(await canI(CROSSPLANE, 'bind', 'clusterroles', undefined, 'cluster-admin')).toBe(true);
    await walk(f[0] as Finding);
    expect(await canI({ kind: 'User', name: 'granter' }, '*', '*'), 'the probe binding is gone').toBe(false);
  });

  it('every role a binding step names is one the server lets Crossplane’s account bind; others are not named', async () => {
    const steps = findings.flatMap((f) => f.steps).filter((s) => BINDABLE.test(s.actsAs.name));
    expect(steps.length).toBeGreaterThan(0);
    for (const s of steps) {
      for (const m of s.why.matchAll(NAMED_ROLE)) {
        if (m[1] !== 'ClusterRole') continue;
        const r = await bindAsCrossplane(m[2] ?? '', 'xrbac-nobody', s.actsAs.namespace, true);
        expect(
          r.code,
          `${m[2] ?? ''} (${m[3] ?? ''}) in ${s.actsAs.namespace ?? 'every namespace'}: ${r.stderr}`,
        ).toBe(0);
      }
      // Held by every-rule: Crossplane's own aggregated role is among them (it holds its own rules).
      expect(s.why).toMatch(/ClusterRole\/crossplane[^\s]* \(holds every rule\)/);
      // Negative control: neither bind on it nor its rules: the server refuses, and the step does not name it.
      expect(s.why).not.toContain('audit:node-proxy');
    }
    const refused = await bindAsCrossplane('audit:node-proxy', 'xrbac-nobody', undefined, true);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/attempting to grant RBAC permissions not currently held/);
  });

  it('RoleBinding: a namespaced XR’s binding grants only in its namespace (kube-system: run-anywhere or more)', async () => {
    const f = findingsOf('team-granter');
    expect(f).toHaveLength(1);
    const first = f[0]?.steps[0];
    expect(first?.mechanism).toBe('compose-through-xr');
    expect(first?.trigger).toStrictEqual({
      verb: 'create',
      resource: `teamaccesses.${GROUP}`,
      namespace: 'kube-system',
    });
    expect(first?.actsAs).toStrictEqual({
      kind: 'ClusterRole',
      name: 'crossplane:bindable-in:kube-system',
      namespace: 'kube-system',
    });
    expect(first?.why).toMatch(
      /compose RoleBindings, .* in kube-system: ClusterRole\/cluster-admin \(bind\)/,
    );
    expect(
      await canI({ kind: 'User', name: 'team-granter' }, 'create', 'deployments.apps', 'kube-system'),
    ).toBe(false);
    await walk(f[0] as Finding);
  });

  it('negative control: an XR whose Composition composes no binding (a ConfigMap) gives nothing', async () => {
    expect(await canI({ kind: 'User', name: 'note-taker' }, 'create', `notes.${GROUP}`, 'kube-system')).toBe(
      true,
    );
    expect(findingsOf('note-taker')).toStrictEqual([]);
  });

  it('the plain case: who writes Compositions has one finding, through Crossplane’s own account', () => {
    expect(findingsOf('composer').map((x) => [x.capability, x.steps[0]?.mechanism])).toStrictEqual([
      ['cluster-admin', 'compose-as-crossplane'],
    ]);
    expect(findingsOf('composer')[0]?.steps[0]?.actsAs).toStrictEqual(CROSSPLANE);
  });
});

describe('audit: a provider’s managed resource as a composed kind (live, through its ProviderRevision)', () => {
  it('Database → provider-kubernetes Object → the provider’s account → cluster-admin, each step as the server decides', async () => {
    const f = findingsOf('db-maker');
    expect(f.map((x) => x.capability)).toStrictEqual(['cluster-admin']);
    const steps = f[0]?.steps ?? [];
    expect(steps.map((s) => s.mechanism).slice(0, 2)).toStrictEqual([
      'compose-through-xr',
      'provider-identity',
    ]);
    expect(steps[0]?.actsAs).toStrictEqual({
      kind: 'ClusterRole',
      name: 'crossplane:composing:<objects.kubernetes.m.crossplane.io>',
      namespace: 'team-a',
    });
    expect(steps[1]?.trigger).toStrictEqual({
      verb: 'create',
      resource: 'objects.kubernetes.m.crossplane.io',
      namespace: 'team-a',
    });
    expect(steps[1]?.actsAs.name).toMatch(/^crossplane-contrib-provider-kubernetes-/);
    // What composes a Database, read from the server: an Object of kubernetes.m.crossplane.io.
    const c = JSON.parse(
      ok(await run(['get', 'composition', 'database-backups', '-o', 'json']), 'get').stdout,
    ) as object;
    expect(JSON.stringify(c)).toContain('"apiVersion":"kubernetes.m.crossplane.io/v1beta1","kind":"Object"');
    expect(
      await canI(
        { kind: 'User', name: 'db-maker' },
        'create',
        'objects.kubernetes.m.crossplane.io',
        'team-a',
      ),
    ).toBe(false);
    expect(await canI({ kind: 'User', name: 'db-maker' }, '*', '*')).toBe(false);
    await walk(f[0] as Finding);
  });
});
