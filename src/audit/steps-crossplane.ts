/**
 * The steps out of one identity through Crossplane's controllers: what a Composition, an Operation, a
 * DeploymentRuntimeConfig, a package, an in-cluster provider's managed resource or an XRD makes Crossplane do with
 * its own accounts (catalogue.ts cites the upstream source of each).
 */
import type { PolicyRule } from '../kube/types.js';
import {
  boundNamespaces,
  firstAllowed,
  type ComposedKind,
  type ComposingApi,
  type Step,
  type StepContext,
  type StepMaker,
  type Target,
  type Trigger,
} from './steps.js';
import { identityText, type Allowed, type Identity, type Rights } from './rights.js';
import { providerIdentity } from './steps-provider.js';

const XP_EXT = 'apiextensions.crossplane.io';
const XP_OPS = 'ops.crossplane.io';
const XP_PKG = 'pkg.crossplane.io';
const WRITE = ['create', 'update', 'patch'];

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

/** What Crossplane does to what it composes: server-side apply (create, patch, update) and delete. */
const COMPOSE_WRITE = ['create', 'update', 'patch', 'delete'];

/**
 * Crossplane's account limited to KINDS (in NAMESPACE, or every namespace): a made-up ClusterRole, defined once in
 * RIGHTS, named for the kinds so that every subject lacking the same kinds reaches the same identity.
 */
function composingAs(
  rights: Rights,
  kinds: readonly ComposedKind[],
  namespace: string | undefined,
): Identity {
  const names = kinds.map((k) => (k.group === '' ? k.resource : `${k.resource}.${k.group}`)).sort();
  const name = `crossplane:composing:<${names.join('+')}>`;
  rights.define(
    name,
    kinds.map((k) => ({ apiGroups: [k.group], resources: [k.resource], verbs: COMPOSE_WRITE })),
  );
  return namespace !== undefined ? { kind: 'ClusterRole', name, namespace } : { kind: 'ClusterRole', name };
}

const RBAC = 'rbac.authorization.k8s.io';
/** How many of the roles a composed binding may grant a step's sentence names. */
const NAMED_ROLES = 8;

/**
 * The made-up ClusterRole that holds what a binding Crossplane composes may grant: the rules of every role its
 * account may bind (in NAMESPACE: a RoleBinding's), defined once per namespace in RIGHTS.
 */
function bindingAs(rights: Rights, rules: readonly PolicyRule[], namespace: string | undefined): Identity {
  const name = namespace === undefined ? 'crossplane:bindable' : `crossplane:bindable-in:${namespace}`;
  rights.define(name, rules);
  return namespace !== undefined ? { kind: 'ClusterRole', name, namespace } : { kind: 'ClusterRole', name };
}

/**
 * When the XRD's Compositions compose ClusterRoleBindings or RoleBindings, Crossplane's account creates them, and the
 * API server checks the binding against that account's rights, not the XR author's (bindable.ts): so the author
 * may have any role the account may bind bound to itself (cluster-wide by a ClusterRoleBinding; in the XR's
 * namespace by a RoleBinding, or, from an XR that composes anywhere, in any namespace).
 */
function bindingSteps(
  ctx: StepContext,
  api: ComposingApi,
  made: { trigger: Trigger; allowed: Allowed },
  where: string | undefined,
): Step[] {
  const out: Step[] = [];
  const composes = (resource: string): boolean =>
    api.composes.some((k) => k.group === RBAC && k.resource === resource);
  const scopes: (string | undefined)[] = [];
  if (composes('clusterrolebindings')) scopes.push(undefined);
  if (composes('rolebindings')) scopes.push(...(where !== undefined ? [where] : ctx.bindingNamespaces));
  for (const ns of scopes) {
    const bindable = ctx.crossplaneBindable(ns);
    if (bindable.roles.length === 0) continue;
    const named = bindable.roles.slice(0, NAMED_ROLES).map((r) => `${r.role} (${r.how})`);
    const more = bindable.roles.length - named.length;
    const kind = ns === undefined ? 'ClusterRoleBindings' : 'RoleBindings';
    const writes = ctx.rights.allows(ctx.crossplane as Identity, {
      verb: 'create',
      apiGroup: RBAC,
      resource: kind.toLowerCase(),
      ...(ns !== undefined ? { namespace: ns } : {}),
    });
    const scope = ns === undefined ? 'in every namespace' : `in ${ns}`;
    out.push({
      mechanism: 'compose-through-xr',
      ...made,
      target: bindingAs(ctx.rights, bindable.rules, ns),
      ...(writes !== undefined
        ? {
            alsoFix: `or take "create ${kind.toLowerCase()}" from Crossplane's account (${writes.via.join(' → ')})`,
          }
        : {}),
      why: `may create ${made.trigger.resource}${made.trigger.namespace !== undefined ? ` in ${made.trigger.namespace}` : ''}: XRD ${api.xrd}'s Compositions (${api.compositions.join(', ')}) compose ${kind}, which Crossplane creates with its own account, ${identityText(ctx.crossplane as Identity)}; the API server lets an account create a binding to a role it may bind or whose every rule it holds (kubernetes pkg/registry/rbac/escalation_check.go BindingAuthorized, validation/rule.go ConfirmNoEscalation), so a binding naming the XR's author may grant it, ${scope}: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''} (what of the binding an XR sets is what the Composition lets it set)`,
    });
  }
  return out;
}

const composeThroughXr: StepMaker = (who, ctx) => {
  if (ctx.crossplane === undefined || who.kind === 'ClusterRole') return [];
  const { rights } = ctx;
  const out: Step[] = [];
  for (const api of ctx.composingApis) {
    for (const t of api.triggers) {
      // Every namespace first (a ClusterRoleBinding): then no namespace needs asking one by one.
      for (const ns of t.namespaced ? [undefined, ...boundNamespaces(rights, who)] : [undefined]) {
        const made = firstAllowed(rights, who, ['create'], [t], ns);
        if (made === undefined) continue;
        // A namespaced XR composes in its own namespace; a cluster-scoped one (a claim's too) in any.
        const where = api.namespaced ? ns : undefined;
        const lacking = api.composes.filter(
          (k) =>
            rights.allows(who, {
              verb: 'create',
              apiGroup: k.group,
              resource: k.resource,
              ...(where !== undefined ? { namespace: where } : {}),
            }) === undefined,
        );
        out.push(...bindingSteps(ctx, api, made, where));
        if (lacking.length > 0) {
          const kinds = lacking.map((k) => k.kind).join(', ');
          const scope = where !== undefined ? `in ${where}, the XR's namespace` : 'in any namespace';
          out.push({
            mechanism: 'compose-through-xr',
            ...made,
            target: composingAs(rights, lacking, where),
            why: `may create ${made.trigger.resource}${ns !== undefined ? ` in ${ns}` : ''}: XRD ${api.xrd}'s Compositions (${api.compositions.join(', ')}) compose ${kinds}, which it may not create itself; Crossplane creates them with its own account, ${identityText(ctx.crossplane)}, ${scope} (what of them an XR sets is what the Composition lets it set)`,
          });
        }
        if (ns === undefined) break;
      }
    }
  }
  return out;
};

/** The Crossplane step makers, in the catalogue's order. */
export const CROSSPLANE_STEPS: readonly StepMaker[] = [
  composeAsCrossplane,
  operateAsCrossplane,
  runtimeConfig,
  installPackage,
  providerIdentity,
  defineApi,
  composeThroughXr,
];
