import { describe, expect, it } from 'vitest';
import { audit } from '../../../src/audit/audit.js';
import type { AuditInput } from '../../../src/audit/cluster-context.js';
import type { ClusterRole, PolicyRule, ProviderRevision } from '../../../src/kube/types.js';
import { RBAC, NS, role, crb, rb, user, sa, deployment, ALL, input, crossplane } from './audit-fixtures.js';

function summary(result: ReturnType<typeof audit>): string[] {
  return result.findings.map(
    (f) =>
      `${f.subject.kind}/${f.subject.name} ${f.capability} ${f.severity}: ${f.steps
        .map((s) => `${s.mechanism}→${s.actsAs.kind}/${s.actsAs.namespace ?? ''}/${s.actsAs.name}`)
        .join(' ')}`,
  );
}

/** A crossplane-edit-like role (aggregating XRDs' edit roles) holding XRD create, bound to a user; and the manager. */
function xrdAuthor(managerRuns: boolean): AuditInput {
  const base = crossplane([]);
  const editor: ClusterRole = {
    ...role('xp-edit', []),
    aggregationRule: {
      clusterRoleSelectors: [{ matchLabels: { 'rbac.crossplane.io/aggregate-to-edit': 'true' } }],
    },
  };
  const source: ClusterRole = {
    ...role('xp-edit-base', [
      {
        apiGroups: ['apiextensions.crossplane.io'],
        resources: ['compositeresourcedefinitions'],
        verbs: ['create'],
      },
    ]),
    metadata: { name: 'xp-edit-base', labels: { 'rbac.crossplane.io/aggregate-to-edit': 'true' } },
  };
  return input({
    roles: [...base.roles, editor, source],
    crbs: [...base.crbs, crb('xp-edit', 'xp-edit', [user('xena')])],
    deployments: managerRuns ? [deployment(NS, 'crossplane-rbac-manager', 'rbac-manager')] : [],
  });
}

/** provider-kubernetes' active revision and its account, bound to cluster-admin (as many installs do); a user who may create Objects. */
function objectCreator(providerConfigs?: AuditInput['providerConfigs']): AuditInput {
  const revision: ProviderRevision = {
    apiVersion: 'pkg.crossplane.io/v1',
    kind: 'ProviderRevision',
    metadata: { name: 'provider-kubernetes-abc' },
    spec: { desiredState: 'Active' },
    status: {
      objectRefs: [
        {
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          name: 'objects.kubernetes.crossplane.io',
        },
      ],
    },
  };
  return {
    ...input({
      roles: [
        role('objects', [
          { apiGroups: ['kubernetes.crossplane.io'], resources: ['objects'], verbs: ['create'] },
        ]),
      ],
      crbs: [
        crb('provider-kubernetes-admin', 'cluster-admin', [sa(NS, 'provider-kubernetes-abc')]),
        crb('objects', 'objects', [user('oli')]),
      ],
    }),
    providerRevisions: [revision],
    ...(providerConfigs !== undefined ? { providerConfigs } : {}),
  };
}

/**
 * objectCreator's cluster, its revision also serving ProviderConfigs and the one there naming a Secret, where oli
 * may also VERBS ProviderConfigs.
 */
function configWriter(verbs: string[]): AuditInput {
  const base = objectCreator(config('Secret'));
  const [revision] = base.providerRevisions;
  if (revision === undefined) throw new Error('objectCreator has a revision');
  const refs = revision.status?.objectRefs ?? [];
  const crd = 'apiextensions.k8s.io/v1';
  const objectRefs = [
    ...refs,
    { apiVersion: crd, kind: 'CustomResourceDefinition', name: 'providerconfigs.kubernetes.crossplane.io' },
  ];
  const configs = { apiGroups: ['kubernetes.crossplane.io'], resources: ['providerconfigs'], verbs };
  return {
    ...base,
    providerRevisions: [{ ...revision, status: { ...revision.status, objectRefs } }],
    clusterRoles: base.clusterRoles.map((r) =>
      r.metadata.name === 'objects' ? { ...r, rules: [...(r.rules ?? []), configs] } : r,
    ),
  };
}

/** objectCreator's cluster, a ProviderConfig there using InjectedIdentity, where oli may VERBS Objects (not create). */
function objectEditor(verbs: string[]): AuditInput {
  const base = objectCreator(config('InjectedIdentity'));
  const objects = { apiGroups: ['kubernetes.crossplane.io'], resources: ['objects'], verbs };
  return {
    ...base,
    clusterRoles: base.clusterRoles.map((r) =>
      r.metadata.name === 'objects' ? { ...r, rules: [objects] } : r,
    ),
  };
}

const config = (source: string): AuditInput['providerConfigs'] => [
  {
    apiVersion: 'kubernetes.crossplane.io/v1alpha1',
    kind: 'ProviderConfig',
    metadata: { name: 'default' },
    spec: { credentials: { source } },
  },
];

const cases: Record<string, { reason: string; input: AuditInput; want: string[] }> = {
  ProviderIdentityMay: {
    reason:
      "with no ProviderConfig read, creating Objects may act as provider-kubernetes' own account (InjectedIdentity)",
    input: objectCreator(),
    want: [`User/oli cluster-admin critical: provider-identity→ServiceAccount/${NS}/provider-kubernetes-abc`],
  },
  ProviderIdentityInjected: {
    reason:
      'a ProviderConfig with InjectedIdentity: the provider uses rest.InClusterConfig (provider-kubernetes client.go)',
    input: objectCreator(config('InjectedIdentity')),
    want: [`User/oli cluster-admin critical: provider-identity→ServiceAccount/${NS}/provider-kubernetes-abc`],
  },
  ProviderIdentityRemoteOnly: {
    reason: 'every ProviderConfig read names a kubeconfig Secret (another cluster): no step',
    input: objectCreator(config('Secret')),
    want: [],
  },
  ProviderIdentityOwnConfig: {
    reason:
      'every ProviderConfig names a Secret, but the subject may create one of its own with InjectedIdentity and name it in its Objects (provider-kubernetes internal/clients/kube/kube.go@2f543db: the ProviderConfig the resource names decides)',
    input: configWriter(['create']),
    want: [`User/oli cluster-admin critical: provider-identity→ServiceAccount/${NS}/provider-kubernetes-abc`],
  },
  ProviderIdentityPatchedConfig: {
    reason: 'every ProviderConfig names a Secret, but the subject may patch one to InjectedIdentity',
    input: configWriter(['patch']),
    want: [`User/oli cluster-admin critical: provider-identity→ServiceAccount/${NS}/provider-kubernetes-abc`],
  },
  ProviderIdentityConfigReadOnly: {
    reason: 'every ProviderConfig names a Secret and the subject may only read them: no step',
    input: configWriter(['get', 'list', 'watch']),
    want: [],
  },
  ProviderIdentityPatchObjects: {
    reason:
      "may only patch Objects: an existing one's manifest (and the ProviderConfig it names) is the provider's to apply as it stands (provider-kubernetes applies an Object's spec.forProvider.manifest on every change)",
    input: objectEditor(['patch']),
    want: [`User/oli cluster-admin critical: provider-identity→ServiceAccount/${NS}/provider-kubernetes-abc`],
  },
  ProviderIdentityReadObjects: {
    reason: 'may only read Objects: no step',
    input: objectEditor(['get', 'list', 'watch']),
    want: [],
  },
  DefineApiWhileTheManagerRuns: {
    reason:
      "an XRD in any group makes the running RBAC manager render every verb on it into roles the author's role aggregates (crossplane definition/roles.go)",
    input: xrdAuthor(true),
    want: ['User/xena cluster-admin critical: define-api→ClusterRole//cluster-admin'],
  },
  DefineApiWithoutAManager: {
    reason: "no Deployment runs as the RBAC manager: nobody renders the XRD's roles",
    input: xrdAuthor(false),
    want: [],
  },
  BindToClusterAdmin: {
    reason:
      'bind on cluster-admin with ClusterRoleBinding create binds it to oneself (rbac-police bind_roles.rego)',
    input: input({
      roles: [
        role('binder', [
          {
            apiGroups: [RBAC],
            resources: ['clusterroles'],
            verbs: ['bind'],
            resourceNames: ['cluster-admin'],
          },
          { apiGroups: [RBAC], resources: ['clusterrolebindings'], verbs: ['create'] },
        ]),
      ],
      crbs: [crb('binder', 'binder', [user('ann')])],
    }),
    want: ['User/ann cluster-admin critical: bind→ClusterRole//cluster-admin'],
  },
  BindWithoutBindingWrite: {
    reason: 'bind alone writes no binding: no step',
    input: input({
      roles: [role('binder', [{ apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['bind'] }])],
      crbs: [crb('binder', 'binder', [user('ann')])],
    }),
    want: [],
  },
  BindOnAnotherRoleOnly: {
    reason: 'bind restricted to a role other than cluster-admin does not reach it',
    input: input({
      roles: [
        role('binder', [
          { apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['view'] },
          { apiGroups: [RBAC], resources: ['clusterrolebindings'], verbs: ['create'] },
        ]),
      ],
      crbs: [crb('binder', 'binder', [user('ann')])],
    }),
    want: [],
  },
  HolderHasNoFinding: {
    reason: 'a subject RBAC already grants the capability has no finding for it',
    input: input({ crbs: [crb('admin', 'cluster-admin', [user('root')])] }),
    want: [],
  },
  EscalateOwnRole: {
    reason:
      'escalate and update on a ClusterRole one holds everywhere adds any rule to it (escalate_roles.rego)',
    input: input({
      roles: [
        role('self', [
          {
            apiGroups: [RBAC],
            resources: ['clusterroles'],
            verbs: ['escalate', 'update'],
            resourceNames: ['self'],
          },
        ]),
      ],
      crbs: [crb('self', 'self', [user('eve')])],
    }),
    want: ['User/eve cluster-admin critical: escalate→ClusterRole//cluster-admin'],
  },
  EscalateOnlyInNamespace: {
    reason: 'the same rule bound by a RoleBinding does not apply to ClusterRoles (cluster-scoped)',
    input: input({
      roles: [
        role('self', [{ apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['escalate', 'update'] }]),
      ],
      rbs: [rb('team-a', 'self', 'self', [user('eve')])],
    }),
    want: [],
  },
  RunAsTheManagerThenBind: {
    reason:
      "creating Deployments in Crossplane's namespace runs pods as the RBAC manager's account, which binds cluster-admin",
    input: input({
      ...crossplane([]),
      roles: [
        ...crossplane([]).roles,
        role('deploy', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }]),
      ],
      rbs: [rb(NS, 'deployer', 'deploy', [user('dan')])],
    }),
    want: [
      `User/dan cluster-admin critical: run-as→ServiceAccount/${NS}/rbac-manager bind→ClusterRole//cluster-admin`,
    ],
  },
  RunAsElsewhereIsNothing: {
    reason: 'the same right in another namespace reaches no privileged account',
    input: input({
      ...crossplane([]),
      roles: [
        ...crossplane([]).roles,
        role('deploy', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }]),
      ],
      rbs: [rb('team-a', 'deployer', 'deploy', [user('dan')])],
    }),
    want: [],
  },
  ExecIntoAPodRunningAsAnAdmin: {
    reason:
      'pods/exec in a namespace where a Deployment runs as an account reaches that account (pods_exec.rego)',
    input: input({
      roles: [role('exec', [{ apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] }])],
      crbs: [crb('ops-admin', 'cluster-admin', [sa('ops', 'runner')])],
      rbs: [rb('ops', 'exec', 'exec', [user('xi')])],
      deployments: [deployment('ops', 'runner', 'runner')],
    }),
    want: ['User/xi cluster-admin critical: run-as→ServiceAccount/ops/runner'],
  },
  AccountBoundByItsUserName: {
    reason:
      "a binding to User system:serviceaccount:ops:runner applies to that account (its token's user name: kubernetes pkg/registry/rbac/validation/rule.go appliesToUser compares names), so exec into its pod reaches cluster-admin",
    input: input({
      roles: [role('exec', [{ apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] }])],
      crbs: [crb('ops-admin', 'cluster-admin', [user('system:serviceaccount:ops:runner')])],
      rbs: [rb('ops', 'exec', 'exec', [user('xi')])],
      deployments: [deployment('ops', 'runner', 'runner')],
    }),
    want: ['User/xi cluster-admin critical: run-as→ServiceAccount/ops/runner'],
  },
  AccountBoundByItsUserNameOnly: {
    reason:
      'an account named only by its user name in a binding is still an account a pod may run as: create pods in ops runs as it',
    input: input({
      roles: [role('pods', [{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }])],
      crbs: [crb('ops-admin', 'cluster-admin', [user('system:serviceaccount:ops:runner')])],
      rbs: [rb('ops', 'pods', 'pods', [user('xi')])],
    }),
    want: ['User/xi cluster-admin critical: run-as→ServiceAccount/ops/runner'],
  },
  TheIssuesTransitiveCase: {
    reason:
      "writing Compositions makes Crossplane's account act; it may create Deployments, so runs as the RBAC manager, which binds cluster-admin: one finding with its three steps",
    input: input({
      ...crossplane([{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }]),
      roles: [
        ...crossplane([{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }]).roles,
        role('author', [
          { apiGroups: ['apiextensions.crossplane.io'], resources: ['compositions'], verbs: ['create'] },
        ]),
      ],
      crbs: [...crossplane([]).crbs, crb('author', 'author', [user('cam')])],
    }),
    want: [
      `User/cam cluster-admin critical: compose-as-crossplane→ServiceAccount/${NS}/crossplane run-as→ServiceAccount/${NS}/rbac-manager bind→ClusterRole//cluster-admin`,
    ],
  },
  ReadSecretsThroughATokenOnly: {
    reason: 'a token for an account that lists Secrets everywhere is read-secrets (high), not cluster-admin',
    input: input({
      roles: [
        role('reader', [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }]),
        role('tokens', [
          {
            apiGroups: [''],
            resources: ['serviceaccounts/token'],
            verbs: ['create'],
            resourceNames: ['backup'],
          },
        ]),
      ],
      crbs: [crb('backup', 'reader', [sa('ops', 'backup')])],
      rbs: [rb('ops', 'tokens', 'tokens', [user('tia')])],
    }),
    want: ['User/tia read-secrets high: token-request→ServiceAccount/ops/backup'],
  },
  NodeAccessThroughImpersonation: {
    reason: 'impersonating an account that may proxy to nodes is node-access',
    input: input({
      roles: [
        role('nodes', [{ apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] }]),
        role('imp', [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }]),
      ],
      crbs: [crb('mon', 'nodes', [sa('mon', 'scraper')])],
      rbs: [rb('mon', 'imp', 'imp', [user('ivy')])],
    }),
    want: ['User/ivy node-access high: impersonate→ServiceAccount/mon/scraper'],
  },
  ImpersonateSystemMasters: {
    reason: 'impersonating any user and the group system:masters is cluster-admin (impersonate.rego)',
    input: input({
      roles: [role('imp', [{ apiGroups: [''], resources: ['users', 'groups'], verbs: ['impersonate'] }])],
      crbs: [crb('imp', 'imp', [user('mal')])],
    }),
    want: ['User/mal cluster-admin critical: impersonate→Group//system:masters'],
  },
  SecretReadWithoutCreate: {
    reason: 'get on Secrets without create issues no token (issue_token_secrets.rego needs create and get)',
    input: input({
      ...crossplane([]),
      roles: [
        ...crossplane([]).roles,
        role('get', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]),
      ],
      rbs: [rb(NS, 'get', 'get', [user('gus')])],
    }),
    want: [],
  },
  WebhookWriter: {
    reason: 'writing a mutating webhook configuration sees and changes every request (control_webhooks.rego)',
    input: input({
      roles: [
        role('hooks', [
          {
            apiGroups: ['admissionregistration.k8s.io'],
            resources: ['mutatingwebhookconfigurations'],
            verbs: ['create'],
          },
        ]),
      ],
      crbs: [crb('hooks', 'hooks', [user('hal')])],
    }),
    want: ['User/hal cluster-admin critical: webhook→ClusterRole//cluster-admin'],
  },
};

describe('audit', () => {
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(summary(audit(tc.input)), tc.reason).toStrictEqual(tc.want);
  });

  it('says which ProviderConfig write makes the step certain when every one read uses another source', () => {
    const why = (verbs: string[]): string | undefined =>
      audit(configWriter(verbs)).findings[0]?.steps[0]?.why;
    expect(why(['create'])).toContain(
      'may create providerconfigs.kubernetes.crossplane.io with credentials source InjectedIdentity',
    );
    expect(audit(objectEditor(['update'])).findings[0]?.steps[0]?.why).toContain(
      "may update objects.kubernetes.crossplane.io (an existing one's manifest and ProviderConfig are its to change), which the provider applies",
    );
    expect(why(['update'])).toContain(
      'may update providerconfigs.kubernetes.crossplane.io to credentials source InjectedIdentity',
    );
  });

  it("lists Crossplane's accounts and crossplane:masters once, as by design, and audits none of them", () => {
    const tc = input({
      ...crossplane([ALL]),
      crbs: [
        ...crossplane([ALL]).crbs,
        crb('crossplane-admin', 'cluster-admin', [{ kind: 'Group', name: 'crossplane:masters' }]),
      ],
    });
    const r = audit(tc);
    expect(r.byDesign.map((b) => `${b.subject.kind}/${b.subject.name}`)).toStrictEqual([
      'ServiceAccount/crossplane',
      'ServiceAccount/rbac-manager',
      'Group/crossplane:masters',
    ]);
    expect(r.findings).toStrictEqual([]);
  });

  it('names the binding, role and aggregation chain of each trigger, and a fix in the role that holds the rule', () => {
    const tc = cases.TheIssuesTransitiveCase?.input as AuditInput;
    const [f] = audit(tc).findings;
    expect(f?.steps[0]?.trigger).toStrictEqual({
      verb: 'create',
      resource: 'compositions.apiextensions.crossplane.io',
    });
    expect(f?.steps[0]?.via).toStrictEqual(['ClusterRoleBinding/author', 'ClusterRole/author']);
    expect(f?.steps[1]?.trigger).toStrictEqual({
      verb: 'create',
      resource: 'deployments.apps',
      namespace: NS,
    });
    expect(f?.steps[2]?.trigger).toStrictEqual({
      verb: 'bind',
      resource: 'clusterroles.rbac.authorization.k8s.io',
      name: 'cluster-admin',
    });
    expect(f?.fix).toBe(
      'remove "create apiextensions.crossplane.io/compositions" from ClusterRole/author, or remove User/cam from ClusterRoleBinding/author',
    );
  });

  it('with stored rules: an aggregated role grants what it stores, not what its sources would; the fix names that', () => {
    const LABEL = { 'example.io/aggregate-to-binder': 'true' };
    const source = {
      ...role('binder-source', [
        { apiGroups: [RBAC], resources: ['clusterrolebindings'], verbs: ['create'] },
      ]),
      metadata: { name: 'binder-source', labels: LABEL },
    };
    const stored: PolicyRule[] = [
      { apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['cluster-admin'] },
      { apiGroups: [RBAC], resources: ['clusterrolebindings'], verbs: ['create'] },
    ];
    const aggregated: ClusterRole = {
      ...role('binder', stored),
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: LABEL }] },
    };
    const tc = input({ roles: [aggregated, source], crbs: [crb('binder', 'binder', [user('bo')])] });
    // Converged, the role holds only its source's rule (no bind): no path; stored, as the authorizer reads it: bind.
    expect(audit(tc).findings).toStrictEqual([]);
    const [f] = audit(tc, { storedRules: true }).findings;
    expect(f?.steps.map((s) => [s.mechanism, s.via])).toStrictEqual([
      ['bind', ['ClusterRoleBinding/binder', 'ClusterRole/binder']],
    ]);
    expect(f?.fix).toMatch(
      /^remove "bind rbac.authorization.k8s.io\/clusterroles[^"]*" from the ClusterRole aggregated into ClusterRole\/binder that holds it/,
    );
    // Part of the RBAC unread: the path holds, but the subject may hold the capability already.
    const [partial] = audit(tc, { storedRules: true, rbacUnseen: ['RoleBindings'] }).findings;
    expect(partial?.steps[0]?.why).toMatch(
      /\(may: RoleBindings could not be read, and may grant User\/bo cluster-admin already\)$/,
    );
  });

  it('runtime-config: the fix names the role that holds the rule through an aggregated role, as the other steps', () => {
    const LABEL = { 'example.io/aggregate-to-pkg-admin': 'true' };
    const rule: PolicyRule = {
      apiGroups: ['pkg.crossplane.io'],
      resources: ['deploymentruntimeconfigs'],
      verbs: ['update'],
    };
    const source = { ...role('pkg-source', [rule]), metadata: { name: 'pkg-source', labels: LABEL } };
    const aggregated: ClusterRole = {
      ...role('pkg-admin', [rule]),
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: LABEL }] },
    };
    const base = crossplane([]);
    const tc: AuditInput = {
      ...input({
        roles: [...base.roles, aggregated, source],
        crbs: [...base.crbs, crb('pkg-admins', 'pkg-admin', [user('pia')])],
        deployments: [deployment(NS, 'crossplane', 'crossplane')],
      }),
      providerRevisions: [
        {
          apiVersion: 'pkg.crossplane.io/v1',
          kind: 'ProviderRevision',
          metadata: { name: 'provider-nop-abc' },
          spec: { desiredState: 'Active' },
        },
      ],
    };
    const fixOf = (stored: boolean): string | undefined =>
      audit(tc, { storedRules: stored }).findings.find((f) => f.steps[0]?.mechanism === 'runtime-config')
        ?.fix;
    // Converged: the rule comes from pkg-source, which the aggregation chain names.
    expect(fixOf(false)).toMatch(
      /^remove "update pkg.crossplane.io\/deploymentruntimeconfigs" from ClusterRole pkg-source \(aggregated into ClusterRole\/pkg-admin\), or remove User\/pia from ClusterRoleBinding\/pkg-admins, or deny DeploymentRuntimeConfigs a serviceAccountName/,
    );
    // Stored: pkg-admin holds it, but the aggregation controller would put it back there.
    expect(fixOf(true)).toMatch(
      /^remove "update pkg.crossplane.io\/deploymentruntimeconfigs" from the ClusterRole aggregated into ClusterRole\/pkg-admin that holds it \(--converged names it/,
    );
  });

  it('--subject audits one subject only', () => {
    const tc = input({
      roles: [
        role('hooks', [
          {
            apiGroups: ['admissionregistration.k8s.io'],
            resources: ['validatingwebhookconfigurations'],
            verbs: ['patch'],
          },
        ]),
      ],
      crbs: [crb('hooks', 'hooks', [user('hal'), user('ida')])],
    });
    expect(summary(audit(tc, { subject: { kind: 'User', name: 'ida' } }))).toStrictEqual([
      'User/ida cluster-admin critical: webhook→ClusterRole//cluster-admin',
    ]);
  });

  it('--subject User:system:serviceaccount:NS:NAME is that account, as the API server takes the name (impersonation.go, SplitUsername)', () => {
    const tc = cases.ExecIntoAPodRunningAsAnAdmin?.input as AuditInput;
    // The account ops/hooker may create mutating webhook configurations: a step of its own.
    const hooks = role('hooks', [
      {
        apiGroups: ['admissionregistration.k8s.io'],
        resources: ['mutatingwebhookconfigurations'],
        verbs: ['create'],
      },
    ]);
    const withHooks: AuditInput = {
      ...tc,
      clusterRoles: [...tc.clusterRoles, hooks],
      clusterRoleBindings: [crb('hooks', 'hooks', [sa('ops', 'hooker')])],
    };
    const want = ['ServiceAccount/hooker cluster-admin critical: webhook→ClusterRole//cluster-admin'];
    const asUser = { kind: 'User' as const, name: 'system:serviceaccount:ops:hooker' };
    expect(summary(audit(withHooks, { subject: asUser }))).toStrictEqual(want);
    // A binding naming the account by its user name audits the account, not a system: user by design.
    const byName: AuditInput = {
      ...withHooks,
      clusterRoleBindings: [crb('hooks', 'hooks', [user('system:serviceaccount:ops:hooker')])],
    };
    const r = audit(byName);
    expect(summary(r)).toStrictEqual(want);
    expect(r.byDesign.map((b) => b.subject.name)).not.toContain('system:serviceaccount:ops:hooker');
    // A name SplitUsername refuses is a User, as the API server's impersonation takes it.
    const odd = { kind: 'User' as const, name: 'system:serviceaccount:ops:hooker:x' };
    expect(audit(withHooks, { subject: odd }).findings).toStrictEqual([]);
  });

  it('gives the same answer for the input in any order', () => {
    const tc = cases.TheIssuesTransitiveCase?.input as AuditInput;
    const reversed: AuditInput = {
      ...tc,
      clusterRoles: [...tc.clusterRoles].reverse(),
      clusterRoleBindings: [...tc.clusterRoleBindings].reverse(),
    };
    expect(audit(reversed).findings).toStrictEqual(audit(tc).findings);
  });
});
