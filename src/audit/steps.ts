/**
 * What a step is, and the helpers the step makers share: a step is a request the identity may make (the trigger,
 * allowed through a binding and a rule) that lets it act with the rights of another identity. Every trigger is
 * decided by the RBAC authorizer's rules (rights.ts); what the trigger leads to is the mechanism's (catalogue.ts,
 * with its upstream source). The makers: steps-classic.ts (Kubernetes' own paths), steps-crossplane.ts (Crossplane's).
 */
import type { AccessAttributes } from '../authz/authorize.js';
import type { Bindable } from './bindable.js';
import type { Mechanism } from './catalogue.js';
import type { Allowed, Identity, Rights } from './rights.js';

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
  /** A change besides the first step's own that breaks this step (fix.ts appends it). */
  readonly alsoFix?: string;
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
  /** The XRDs whose Compositions compose kinds Crossplane's account may create (compose-through-xr). */
  readonly composingApis: readonly ComposingApi[];
  /**
   * The roles Crossplane's account may bind with a binding it composes: a ClusterRoleBinding (NAMESPACE undefined)
   * or a RoleBinding in NAMESPACE (bindable.ts; worked out once per namespace).
   */
  readonly crossplaneBindable: (namespace: string | undefined) => Bindable;
  /** Where a RoleBinding an XR may place in any namespace matters: kube-system and the known accounts' namespaces. */
  readonly bindingNamespaces: readonly string[];
}

/** A kind a Composition composes, resolved to its resource. */
export interface ComposedKind {
  readonly group: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

/** An XRD whose XRs (or claims) have Crossplane compose kinds its account may create. */
export interface ComposingApi {
  readonly xrd: string;
  /** Its XRs are namespaced: they compose in their own namespace only. */
  readonly namespaced: boolean;
  /** The XR's resource and, for a legacy XRD, the claim's: creating either has Crossplane compose. */
  readonly triggers: readonly (Target & { readonly namespaced: boolean; readonly xr: boolean })[];
  /** The Compositions an XR may choose (by name). */
  readonly compositions: readonly string[];
  /** What they compose that Crossplane's account may create in every namespace (namespaced kinds only for namespaced XRs). */
  readonly composes: readonly ComposedKind[];
}

/** A ProviderConfig kind of an in-cluster provider, with its scope. */
export interface ConfigKind {
  readonly group: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

/** A ProviderConfig (or ClusterProviderConfig) read, and whether its credentials source is InjectedIdentity. */
export interface InClusterConfig {
  readonly group: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly injected: boolean;
}

/** A ProviderConfig kind (`plural.group`) that could not be listed cluster-wide, and the namespaces it was read in. */
export interface UnreadConfigKind {
  readonly crd: string;
  readonly readIn?: readonly string[] | undefined;
}

/** A provider whose managed resources act on this cluster as its own account (a ProviderConfig's InjectedIdentity). */
export interface InClusterProvider {
  readonly account: Identity;
  /** The managed-resource kinds (cluster-scoped and namespaced) that do, as `plural.group`. */
  readonly kinds: readonly { readonly group: string; readonly resource: string }[];
  /** Its ProviderConfig kinds (the legacy group's, the `.m.` group's namespaced and cluster-scoped ones). */
  readonly configKinds: readonly ConfigKind[];
  /** Its ProviderConfigs read (both groups); undefined: none was looked for. */
  readonly configs: readonly InClusterConfig[] | undefined;
  /** Its ProviderConfig kinds that could not all be read. */
  readonly unread: readonly UnreadConfigKind[];
  /** Why the provider may not be what its revision's status says (then every step through it "may"). */
  readonly doubt?: string;
  /** What other evidence claimed and was not believed (another revision's status naming one of its CRDs). */
  readonly note?: string;
}

export interface Target {
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
export function firstAllowed(
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

export type StepMaker = (who: Identity, ctx: StepContext) => Step[];

/** The namespaces of the identity's RoleBindings (where it may hold what it lacks cluster-wide). */
export function boundNamespaces(rights: Rights, who: Identity): string[] {
  return [...new Set(rights.grantsOf(who).map((g) => g.namespace))].filter((n) => n !== '').sort();
}
