/**
 * The steps out of one identity: each a request the identity may make (the trigger, allowed through a binding and a
 * rule) that lets it act with the rights of another identity. Every trigger is decided by the RBAC authorizer's
 * rules (rights.ts); what the trigger leads to is the mechanism's (catalogue.ts, with its upstream source).
 */
import type { AccessAttributes } from '../authz/authorize.js';
import type { Mechanism } from './catalogue.js';
import { identityText, type Allowed, type Identity, type Rights } from './rights.js';

/** A request as kubectl names it: RESOURCE in `plural.group` form (`/subresource` appended). */
export interface Trigger {
  readonly verb: string;
  readonly resource: string;
  readonly namespace?: string;
  readonly name?: string;
}

export interface Step {
  readonly mechanism: Mechanism;
  readonly trigger: Trigger;
  readonly allowed: Allowed;
  readonly target: Identity;
  readonly why: string;
}

/** What the steps need to know about the cluster besides its RBAC. */
export interface StepContext {
  readonly rights: Rights;
  /** The service accounts known (bound by some binding, or running a Deployment), by namespace. */
  readonly serviceAccounts: ReadonlyMap<string, readonly Identity[]>;
  /** Per namespace, the service accounts Deployments run as there, with one Deployment's name. */
  readonly runningAs: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Every User and Group a binding names (the identities impersonation may reach), system:masters first. */
  readonly people: readonly Identity[];
  /** Crossplane's own account (bound to the chart's `crossplane` ClusterRole); undefined: Crossplane not seen. */
  readonly crossplane: Identity | undefined;
  readonly crossplaneNamespace: string;
  /** Some package runs (a ProviderRevision exists): updating the `default` DeploymentRuntimeConfig reaches it. */
  readonly packagesRun: boolean;
  /** The rights a newly installed provider's account gets; undefined when nothing grants providers' roles here. */
  readonly newProvider: Identity | undefined;
  readonly clusterAdmin: Identity;
  /** In-cluster providers (provider-kubernetes, provider-helm): the kinds that act as their account, and how sure. */
  readonly inClusterProviders: readonly InClusterProvider[];
  /** The account of a running RBAC manager that may escalate (it renders every XRD's roles); undefined: none runs. */
  readonly rbacManager: Identity | undefined;
  /** ClusterRoles that aggregate the roles an XRD's edit or admin role is labelled for (crossplane-edit, -admin). */
  readonly xrdRoleAggregators: ReadonlySet<string>;
}

/** A provider whose managed resources act on this cluster as its own account (a ProviderConfig's InjectedIdentity). */
export interface InClusterProvider {
  readonly account: Identity;
  /** The managed-resource kinds (cluster-scoped and namespaced) that do, as `plural.group`. */
  readonly kinds: readonly { readonly group: string; readonly resource: string }[];
  /** 'yes': a ProviderConfig read says InjectedIdentity; 'may': none could be read. */
  readonly injected: 'yes' | 'may';
}

interface Target {
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
}

function resourceText(t: Target): string {
  const base = t.group === '' ? t.resource : `${t.resource}.${t.group}`;
  return t.subresource !== undefined ? `${base}/${t.subresource}` : base;
}

function attrs(verb: string, t: Target, namespace?: string, name?: string): AccessAttributes {
  return {
    verb,
    apiGroup: t.group,
    resource: t.resource,
    ...(t.subresource !== undefined ? { subresource: t.subresource } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
  };
}

/** The first of VERBS on one of TARGETS the identity may make, as a trigger. */
function firstAllowed(
  rights: Rights,
  who: Identity,
  verbs: readonly string[],
  targets: readonly Target[],
  namespace?: string,
  name?: string,
): { trigger: Trigger; allowed: Allowed } | undefined {
  for (const t of targets) {
    for (const verb of verbs) {
      const allowed = rights.allows(who, attrs(verb, t, namespace, name));
      if (allowed === undefined) continue;
      const trigger: Trigger = {
        verb,
        resource: resourceText(t),
        ...(namespace !== undefined ? { namespace } : {}),
        ...(name !== undefined ? { name } : {}),
      };
      return { trigger, allowed };
    }
  }
  return undefined;
}

const RBAC = 'rbac.authorization.k8s.io';
const CLUSTER_ROLES: Target = { group: RBAC, resource: 'clusterroles' };
const CLUSTER_ROLE_BINDINGS: Target = { group: RBAC, resource: 'clusterrolebindings' };
const SECRETS: Target = { group: '', resource: 'secrets' };
const TOKEN: Target = { group: '', resource: 'serviceaccounts', subresource: 'token' };
/** Pods and every built-in workload whose pod template names a serviceAccountName (rbac-police assign_sa.rego). */
export const POD_MAKERS: readonly Target[] = [
  { group: '', resource: 'pods' },
  { group: 'apps', resource: 'deployments' },
  { group: 'apps', resource: 'replicasets' },
  { group: 'apps', resource: 'statefulsets' },
  { group: 'apps', resource: 'daemonsets' },
  { group: 'batch', resource: 'jobs' },
  { group: 'batch', resource: 'cronjobs' },
  { group: '', resource: 'replicationcontrollers' },
];
const POD_ENTRIES: readonly { verb: string; target: Target }[] = [
  { verb: 'create', target: { group: '', resource: 'pods', subresource: 'exec' } },
  { verb: 'create', target: { group: '', resource: 'pods', subresource: 'attach' } },
  { verb: 'patch', target: { group: '', resource: 'pods', subresource: 'ephemeralcontainers' } },
];
const WEBHOOKS: readonly Target[] = [
  { group: 'admissionregistration.k8s.io', resource: 'mutatingwebhookconfigurations' },
  { group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations' },
];
const XP_EXT = 'apiextensions.crossplane.io';
const XP_OPS = 'ops.crossplane.io';
const XP_PKG = 'pkg.crossplane.io';
const WRITE = ['create', 'update', 'patch'];

type StepMaker = (who: Identity, ctx: StepContext) => Step[];

const bind: StepMaker = (who, { rights, clusterAdmin }) => {
  const b = firstAllowed(rights, who, ['bind'], [CLUSTER_ROLES], undefined, clusterAdmin.name);
  if (b === undefined || firstAllowed(rights, who, ['create'], [CLUSTER_ROLE_BINDINGS]) === undefined)
    return [];
  return [
    {
      mechanism: 'bind',
      ...b,
      target: clusterAdmin,
      why: `may bind ClusterRole ${clusterAdmin.name} and create ClusterRoleBindings, so it may bind ${clusterAdmin.name} to itself`,
    },
  ];
};

const escalate: StepMaker = (who, { rights, clusterAdmin }) => {
  for (const role of rights.clusterRolesBound(who)) {
    const e = firstAllowed(rights, who, ['escalate'], [CLUSTER_ROLES], undefined, role);
    if (e === undefined) continue;
    if (firstAllowed(rights, who, ['update', 'patch'], [CLUSTER_ROLES], undefined, role) === undefined)
      continue;
    return [
      {
        mechanism: 'escalate',
        ...e,
        target: clusterAdmin,
        why: `may escalate and update ClusterRole ${role}, which it holds in every namespace, so it may add any rule to it`,
      },
    ];
  }
  return [];
};

const impersonate: StepMaker = (who, ctx) => {
  const { rights } = ctx;
  if (!rights.mayUseVerb(who, 'impersonate')) return [];
  const out: Step[] = [];
  const anyUser = firstAllowed(rights, who, ['impersonate'], [{ group: '', resource: 'users' }]);
  for (const p of ctx.people) {
    if (p.kind === 'User') {
      const u = firstAllowed(
        rights,
        who,
        ['impersonate'],
        [{ group: '', resource: 'users' }],
        undefined,
        p.name,
      );
      if (u !== undefined)
        out.push({ mechanism: 'impersonate', ...u, target: p, why: `may impersonate ${identityText(p)}` });
    } else if (p.kind === 'Group' && anyUser !== undefined) {
      const g = firstAllowed(
        rights,
        who,
        ['impersonate'],
        [{ group: '', resource: 'groups' }],
        undefined,
        p.name,
      );
      if (g !== undefined) {
        out.push({
          mechanism: 'impersonate',
          ...g,
          target: p,
          why: `may impersonate any user in ${identityText(p)}`,
        });
      }
    }
  }
  for (const [ns, accounts] of ctx.serviceAccounts) {
    for (const sa of accounts) {
      const s = firstAllowed(
        rights,
        who,
        ['impersonate'],
        [{ group: '', resource: 'serviceaccounts' }],
        ns,
        sa.name,
      );
      if (s !== undefined)
        out.push({ mechanism: 'impersonate', ...s, target: sa, why: `may impersonate ${identityText(sa)}` });
    }
  }
  return out;
};

const tokenRequest: StepMaker = (who, ctx) => {
  const out: Step[] = [];
  for (const [ns, accounts] of ctx.serviceAccounts) {
    for (const sa of accounts) {
      const t = firstAllowed(ctx.rights, who, ['create'], [TOKEN], ns, sa.name);
      if (t === undefined) continue;
      out.push({
        mechanism: 'token-request',
        ...t,
        target: sa,
        why: `may request a token for ${identityText(sa)} (TokenRequest)`,
      });
    }
  }
  return out;
};

const secretToken: StepMaker = (who, ctx) => {
  const out: Step[] = [];
  for (const [ns, accounts] of ctx.serviceAccounts) {
    const c = firstAllowed(ctx.rights, who, ['create'], [SECRETS], ns);
    if (c === undefined || firstAllowed(ctx.rights, who, ['get'], [SECRETS], ns) === undefined) continue;
    for (const sa of accounts) {
      out.push({
        mechanism: 'secret-token',
        ...c,
        target: sa,
        why: `may create and read Secrets in ${ns}: a Secret of type kubernetes.io/service-account-token annotated kubernetes.io/service-account.name: ${sa.name} is filled with that account's token by Kubernetes' token controller`,
      });
    }
  }
  return out;
};

const runAs: StepMaker = (who, ctx) => {
  const out: Step[] = [];
  for (const [ns, accounts] of ctx.serviceAccounts) {
    const made = firstAllowed(ctx.rights, who, ['create'], POD_MAKERS, ns);
    if (made !== undefined) {
      for (const sa of accounts) {
        out.push({
          mechanism: 'run-as',
          ...made,
          target: sa,
          why: `may create ${made.trigger.resource} in ${ns}, whose pods may run as any service account there: ${identityText(sa)}`,
        });
      }
      continue;
    }
    const running = ctx.runningAs.get(ns);
    if (running === undefined) continue;
    for (const sa of accounts) {
      const deployment = running.get(sa.name);
      if (deployment === undefined) continue;
      for (const { verb, target } of POD_ENTRIES) {
        const entry = firstAllowed(ctx.rights, who, [verb], [target], ns);
        if (entry === undefined) continue;
        out.push({
          mechanism: 'run-as',
          ...entry,
          target: sa,
          why: `may ${verb} ${entry.trigger.resource} in ${ns}, where Deployment ${deployment} runs as ${identityText(sa)}`,
        });
        break;
      }
    }
  }
  return out;
};

const webhook: StepMaker = (who, { rights, clusterAdmin }) => {
  const w = firstAllowed(rights, who, ['create', 'update', 'patch'], WEBHOOKS);
  if (w === undefined) return [];
  return [
    {
      mechanism: 'webhook',
      ...w,
      target: clusterAdmin,
      why: "may write admission webhook configurations: its webhook sees (and a mutating one changes) every request, a binding's subjects and a pod's service account included",
    },
  ];
};

const composeAsCrossplane: StepMaker = (who, ctx) => {
  if (ctx.crossplane === undefined) return [];
  const c = firstAllowed(ctx.rights, who, WRITE, [{ group: XP_EXT, resource: 'compositions' }]);
  if (c === undefined) return [];
  return [
    {
      mechanism: 'compose-as-crossplane',
      ...c,
      target: ctx.crossplane,
      why: `may write Compositions: Crossplane applies every resource a Composition's pipeline asks for with its own account, ${identityText(ctx.crossplane)} (a cluster-scoped composite resource's may be of any kind, in any namespace)`,
    },
  ];
};

const operateAsCrossplane: StepMaker = (who, ctx) => {
  if (ctx.crossplane === undefined) return [];
  const kinds = ['operations', 'cronoperations', 'watchoperations'].map((resource) => ({
    group: XP_OPS,
    resource,
  }));
  const o = firstAllowed(ctx.rights, who, ['create'], kinds);
  if (o === undefined) return [];
  return [
    {
      mechanism: 'operate-as-crossplane',
      ...o,
      target: ctx.crossplane,
      why: `may create Operations: Crossplane applies every resource an Operation's pipeline returns with its own account, ${identityText(ctx.crossplane)}`,
    },
  ];
};

const runtimeConfig: StepMaker = (who, ctx) => {
  const configs: Target = { group: XP_PKG, resource: 'deploymentruntimeconfigs' };
  const providers: Target = { group: XP_PKG, resource: 'providers' };
  let r = ctx.packagesRun
    ? firstAllowed(ctx.rights, who, ['update', 'patch'], [configs], undefined, 'default')
    : undefined;
  if (r === undefined && firstAllowed(ctx.rights, who, WRITE, [providers]) !== undefined) {
    r = firstAllowed(ctx.rights, who, ['create'], [configs]);
  }
  if (r === undefined) return [];
  const found = r;
  return (ctx.serviceAccounts.get(ctx.crossplaneNamespace) ?? []).map((sa) => ({
    mechanism: 'runtime-config' as const,
    ...found,
    target: sa,
    why: `may write the DeploymentRuntimeConfig packages run with: its deployment template's serviceAccountName and image are Crossplane's to apply as given, so a package pod runs code of its choosing in ${ctx.crossplaneNamespace} as ${identityText(sa)}`,
  }));
};

const installPackage: StepMaker = (who, ctx) => {
  if (ctx.newProvider === undefined) return [];
  const p = firstAllowed(ctx.rights, who, ['create'], [{ group: XP_PKG, resource: 'providers' }]);
  if (p === undefined) return [];
  return [
    {
      mechanism: 'install-package',
      ...p,
      target: ctx.newProvider,
      why: `may install Providers: the package's image runs in ${ctx.crossplaneNamespace} as an account bound to the provider's system role, which edits Secrets, ConfigMaps, Events and Leases in every namespace`,
    },
  ];
};

const defineApi: StepMaker = (who, ctx) => {
  if (ctx.rbacManager === undefined) return [];
  const held = ctx.rights.clusterRolesBound(who).find((r) => ctx.xrdRoleAggregators.has(r));
  if (held === undefined) return [];
  const d = firstAllowed(
    ctx.rights,
    who,
    ['create'],
    [{ group: XP_EXT, resource: 'compositeresourcedefinitions' }],
  );
  if (d === undefined) return [];
  return [
    {
      mechanism: 'define-api',
      ...d,
      target: ctx.clusterAdmin,
      why: `may create XRDs while Crossplane's RBAC manager (${identityText(ctx.rbacManager)}) runs: for any spec.group and names.plural it renders a role with every verb on them that aggregates into ClusterRole ${held}, which it holds (an XRD in admissionregistration.k8s.io named mutatingwebhookconfigurations gives it webhooks)`,
    },
  ];
};

const providerIdentity: StepMaker = (who, ctx) => {
  const out: Step[] = [];
  for (const p of ctx.inClusterProviders) {
    const made = firstAllowed(ctx.rights, who, ['create'], p.kinds);
    if (made === undefined) continue;
    const sure =
      p.injected === 'yes'
        ? 'a ProviderConfig here uses InjectedIdentity'
        : 'may: no ProviderConfig could be read; one with credentials source InjectedIdentity';
    out.push({
      mechanism: 'provider-identity',
      ...made,
      target: p.account,
      why: `may create ${made.trigger.resource}, which the provider applies to this cluster as its own account, ${identityText(p.account)} (${sure})`,
    });
  }
  return out;
};

const MAKERS: readonly StepMaker[] = [
  composeAsCrossplane,
  operateAsCrossplane,
  runtimeConfig,
  installPackage,
  providerIdentity,
  defineApi,
  bind,
  escalate,
  webhook,
  runAs,
  tokenRequest,
  secretToken,
  impersonate,
];

/** Every step out of one identity, in the catalogue's order; a step back to itself is none. */
export function stepsFrom(who: Identity, ctx: StepContext): Step[] {
  const self = identityText(who);
  return MAKERS.flatMap((make) => make(who, ctx)).filter((s) => identityText(s.target) !== self);
}
