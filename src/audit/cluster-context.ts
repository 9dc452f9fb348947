/**
 * What the audit's steps need to know of the cluster besides who holds which rule: Crossplane's accounts and
 * namespace, the service accounts known and what runs as them, the in-cluster providers, the RBAC manager, and the
 * roles the audit adds to what it read (cluster-admin when absent, the system role of a provider installed now).
 */
import type { RbacSnapshot } from '../authz/effective-roles.js';
import { MASTERS_GROUP } from '../authz/subjects.js';
import type {
  ClusterRole,
  Deployment,
  KubeObject,
  PolicyRule,
  ProviderRevision,
  Xrd,
} from '../kube/types.js';
import {
  CHART_ROLE_CROSSPLANE,
  CHART_ROLE_RBAC_MANAGER,
  DEFAULT_CROSSPLANE_NAMESPACE,
  LABEL_AGGREGATE_TO_ADMIN,
  LABEL_AGGREGATE_TO_EDIT,
  LABEL_VALUE_TRUE,
  PROVIDER_ROLE_PREFIX,
  PROVIDER_ROLE_SUFFIX_SYSTEM,
} from '../crossplane/names.js';
import { bindableRoles, type Bindable } from './bindable.js';
import { accountOfUser, type Identity, type Rights } from './rights.js';
import type { ComposedKind, ComposingApi, StepContext, UnreadConfigKind } from './steps.js';
import { inClusterProviders } from './in-cluster.js';

/** What one Composition (or CompositionRevision) composes, as the composed analysis reads its templates. */
export interface CompositionKinds {
  readonly name: string;
  readonly revision: boolean;
  /** spec.compositeTypeRef: the XR kind it composes for. */
  readonly compositeApiVersion: string;
  readonly compositeKind: string;
  readonly composes: readonly ComposedKind[];
}

export interface AuditInput extends RbacSnapshot {
  readonly deployments: readonly Deployment[];
  readonly xrds?: readonly Xrd[] | undefined;
  /** What each Composition composes (compose-through-xr); none: that step is not looked for. */
  readonly compositions?: readonly CompositionKinds[] | undefined;
  readonly providerRevisions: readonly ProviderRevision[];
  /**
   * The ProviderConfigs (and ClusterProviderConfigs) read, live or from -f; undefined: none was looked for, and a
   * provider-identity step "may".
   */
  readonly providerConfigs?: readonly KubeObject[] | undefined;
  /** The ProviderConfig kinds that could not (all) be read: provider-identity steps that need them "may". */
  readonly providerConfigsUnread?: readonly UnreadConfigKind[] | undefined;
  /**
   * The CRDs of the in-cluster providers' managed resources read (live or from -f): their controller references say
   * which revision serves each kind, whatever the revisions' status says.
   */
  readonly inClusterCrds?: readonly KubeObject[] | undefined;
}

export const CLUSTER_ADMIN: Identity = { kind: 'ClusterRole', name: 'cluster-admin' };
/** The rights every provider revision's account gets (crossplane internal/controller/rbac/provider/roles/roles.go). */
const NEW_PROVIDER: Identity = {
  kind: 'ClusterRole',
  name: `${PROVIDER_ROLE_PREFIX}<new-provider>${PROVIDER_ROLE_SUFFIX_SYSTEM}`,
};
const NEW_PROVIDER_RULES: PolicyRule[] = [
  {
    apiGroups: ['', 'coordination.k8s.io'],
    resources: ['secrets', 'configmaps', 'events', 'leases'],
    verbs: ['*'],
  },
];

export function stepContext(input: AuditInput, rights: Rights): StepContext {
  const serviceAccounts = new Map<string, Identity[]>();
  const addSa = (ns: string, name: string): void => {
    let list = serviceAccounts.get(ns);
    if (list === undefined) serviceAccounts.set(ns, (list = []));
    if (!list.some((s) => s.name === name)) list.push({ kind: 'ServiceAccount', name, namespace: ns });
  };
  const runningAs = new Map<string, Map<string, string>>();
  for (const s of rights.subjects) {
    // An account a binding names by its user name (system:serviceaccount:NS:NAME) is an account too.
    const account = s.kind === 'ServiceAccount' ? s : accountOfUser(s);
    if (account !== undefined) addSa(account.namespace ?? '', account.name);
  }
  for (const d of input.deployments) {
    const ns = d.metadata.namespace ?? '';
    if (ns === '') continue;
    const sa = d.spec?.template?.spec?.serviceAccountName ?? 'default';
    addSa(ns, sa);
    let m = runningAs.get(ns);
    if (m === undefined) runningAs.set(ns, (m = new Map<string, string>()));
    if (!m.has(sa)) m.set(sa, d.metadata.name);
  }
  const crossplane = rights.subjects.find(
    (s) => s.kind === 'ServiceAccount' && rights.clusterRolesBound(s).includes(CHART_ROLE_CROSSPLANE),
  );
  const bindable = new Map<string, Bindable>();
  const crossplaneBindable = (namespace: string | undefined): Bindable => {
    const key = namespace ?? '';
    let b = bindable.get(key);
    if (b === undefined && crossplane !== undefined) {
      const names = input.clusterRoles.map((r) => r.metadata.name);
      const ownHere = rights.grantsOf(crossplane).some((g) => g.namespace === key);
      if (namespace === undefined || ownHere) {
        b = bindableRoles(rights, crossplane, names, input.roles, namespace);
      } else {
        // Nothing binds the account in this namespace: its ClusterRoles are those of a ClusterRoleBinding.
        const everywhere = crossplaneBindable(undefined);
        const here = bindableRoles(rights, crossplane, [], input.roles, namespace);
        b = { roles: [...everywhere.roles, ...here.roles], rules: [...everywhere.rules, ...here.rules] };
      }
    }
    b ??= { roles: [], rules: [] };
    bindable.set(key, b);
    return b;
  };
  const people: Identity[] = [
    { kind: 'Group', name: MASTERS_GROUP },
    ...rights.subjects.filter((s) => s.kind === 'User' || (s.kind === 'Group' && s.name !== MASTERS_GROUP)),
  ];
  return {
    rights,
    serviceAccounts,
    runningAs,
    people,
    crossplane,
    crossplaneNamespace: crossplane?.namespace ?? DEFAULT_CROSSPLANE_NAMESPACE,
    packagesRun: input.providerRevisions.length > 0,
    newProvider: providerRolesRendered(input) ? NEW_PROVIDER : undefined,
    clusterAdmin: CLUSTER_ADMIN,
    rbacManager: runningRbacManager(rights, runningAs),
    inClusterProviders: inClusterProviders(input, crossplane?.namespace ?? DEFAULT_CROSSPLANE_NAMESPACE),
    composingApis: crossplane === undefined ? [] : composingApis(input, rights, crossplane),
    crossplaneBindable,
    bindingNamespaces: [...new Set(['kube-system', ...serviceAccounts.keys()])].sort(),
    xrdRoleAggregators: new Set(
      input.clusterRoles
        .filter((r) =>
          (r.aggregationRule?.clusterRoleSelectors ?? []).some((sel) =>
            [LABEL_AGGREGATE_TO_EDIT, LABEL_AGGREGATE_TO_ADMIN].some(
              (l) => sel.matchLabels?.[l] === LABEL_VALUE_TRUE,
            ),
          ),
        )
        .map((r) => r.metadata.name),
    ),
  };
}

/**
 * The RBAC manager's account when a Deployment runs as it and it may escalate ClusterRoles (the chart's
 * crossplane-rbac-manager role): it renders the roles of every XRD as written. This plugin's sync refuses XRDs in
 * Kubernetes' own groups; Crossplane's RBAC manager does not.
 */
function runningRbacManager(
  rights: Rights,
  runningAs: ReadonlyMap<string, ReadonlyMap<string, string>>,
): Identity | undefined {
  return rights.subjects.find(
    (s) =>
      s.kind === 'ServiceAccount' &&
      rights.clusterRolesBound(s).includes(CHART_ROLE_RBAC_MANAGER) &&
      runningAs.get(s.namespace ?? '')?.has(s.name) === true &&
      rights.allows(s, {
        verb: 'escalate',
        apiGroup: 'rbac.authorization.k8s.io',
        resource: 'clusterroles',
      }) !== undefined,
  );
}

/**
 * The roles the audit adds to what it read: Kubernetes' cluster-admin when the input lacks it (the API server
 * creates it at every start, plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go), and the system role a
 * provider installed now would get, when something here grants providers their roles.
 */
export function withImpliedRoles(input: AuditInput): AuditInput {
  const extra: ClusterRole[] = [];
  const role = (name: string, rules: PolicyRule[]): ClusterRole => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name },
    rules,
  });
  if (!input.clusterRoles.some((r) => r.metadata.name === CLUSTER_ADMIN.name)) {
    extra.push(
      role(CLUSTER_ADMIN.name, [
        { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
        { nonResourceURLs: ['*'], verbs: ['*'] },
      ]),
    );
  }
  if (providerRolesRendered(input)) extra.push(role(NEW_PROVIDER.name, NEW_PROVIDER_RULES));
  return extra.length === 0 ? input : { ...input, clusterRoles: [...input.clusterRoles, ...extra] };
}

function providerRolesRendered(input: AuditInput): boolean {
  return input.clusterRoles.some(
    (r) =>
      r.metadata.name.startsWith(PROVIDER_ROLE_PREFIX) &&
      r.metadata.name.endsWith(PROVIDER_ROLE_SUFFIX_SYSTEM),
  );
}

/**
 * Per XRD, the kinds its Compositions and their revisions compose that Crossplane's account may create in every
 * namespace (what creating one of its XRs or claims has Crossplane write). An XR chooses among the Compositions whose
 * compositeTypeRef is its referenceable version and kind (crossplane internal/controller/apiextensions/composite/
 * api.go, APILabelSelectorResolver), or gets the XRD's enforcedCompositionRef; a namespaced XR composes only in its
 * own namespace, so only namespaced kinds (composition_render.go, RenderComposedResourceMetadata).
 */
function composingApis(input: AuditInput, rights: Rights, crossplane: Identity): ComposingApi[] {
  const out: ComposingApi[] = [];
  for (const xrd of input.xrds ?? []) {
    const { group, names, claimNames } = xrd.spec;
    const v2 = xrd.apiVersion.endsWith('/v2');
    const namespaced = (xrd.spec.scope ?? (v2 ? 'Namespaced' : 'LegacyCluster')) === 'Namespaced';
    const version = (xrd.spec.versions ?? []).find((v) => v.referenceable === true)?.name;
    const enforced = (xrd.spec as { enforcedCompositionRef?: { name?: unknown } }).enforcedCompositionRef
      ?.name;
    const compositions = (input.compositions ?? []).filter(
      (c) =>
        c.compositeKind === names.kind &&
        c.compositeApiVersion === `${group}/${version ?? ''}` &&
        (typeof enforced !== 'string' ||
          // A revision is named COMPOSITION-HASH7 (crossplane internal/controller/apiextensions/composition/
          // revision.go, NewCompositionRevision).
          (c.revision
            ? c.name.startsWith(`${enforced}-`) && c.name.length === enforced.length + 8
            : c.name === enforced)),
    );
    const seen = new Set<string>();
    const composes: ComposedKind[] = [];
    for (const k of compositions.flatMap((c) => c.composes)) {
      const key = `${k.resource}.${k.group}`;
      if (seen.has(key) || (namespaced && !k.namespaced)) continue;
      seen.add(key);
      const attrs = { verb: 'create', apiGroup: k.group, resource: k.resource };
      if (rights.allows(crossplane, attrs) !== undefined) composes.push(k);
    }
    if (composes.length === 0) continue;
    const triggers = [
      ...(names.plural !== undefined ? [{ group, resource: names.plural, namespaced, xr: true }] : []),
      ...(claimNames?.plural !== undefined && !namespaced
        ? [{ group, resource: claimNames.plural, namespaced: true, xr: false }]
        : []),
    ];
    const named = [...new Set(compositions.filter((c) => !c.revision).map((c) => c.name))];
    out.push({ xrd: xrd.metadata.name, namespaced, triggers, compositions: named, composes });
  }
  return out;
}
