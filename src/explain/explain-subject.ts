/**
 * `explain --subject`: the bindings that reach one subject in a scope, the effective rules of each bound role with
 * where they came from, and, for one request, the answer with the rules that grant it or, when denied, why in
 * Crossplane's terms and what would fix it. Subjects are matched as the RBAC authorizer matches them
 * (pkg/registry/rbac/validation/rule.go appliesTo); rules with the aggregation controller's converged rules.
 */
import { UsageError } from '../errors.js';
import type { AccessAttributes } from '../authz/authorize.js';
import { ruleAllows } from '../authz/authorize.js';
import { EffectiveRoles } from '../authz/effective-roles.js';
import type { ResolvedRole } from '../authz/effective-roles.js';
import {
  AUTHENTICATED_GROUP,
  MASTERS_GROUP,
  matchingSubjects,
  serviceAccountUser,
} from '../authz/subjects.js';
import type { UserInfo } from '../authz/subjects.js';
import type { ResolvedResource } from '../crossplane/resolve-resource.js';
import {
  AGGREGATED_ROLE,
  CHART_ROLE_ADMIN,
  CHART_ROLE_BROWSE,
  CHART_ROLE_CROSSPLANE,
  CHART_ROLE_EDIT,
  CHART_ROLE_RBAC_MANAGER,
  CHART_ROLE_VIEW,
  NS_ROLE_PREFIX,
  PROVIDER_ROLE_PREFIX,
  PROVIDER_ROLE_SUFFIX_SYSTEM,
  XRD_ROLE_PREFIX,
  XRD_ROLE_SUFFIX_NS_EDIT,
} from '../crossplane/names.js';
import { enabledXrdsOf, namespaceRoleName } from '../crossplane/namespace/roles.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  Namespace,
  PolicyRule,
  Role,
  RoleBinding,
  Subject,
} from '../kube/types.js';
import { compareNames } from '../kube/order.js';

export interface SubjectRef {
  readonly kind: 'User' | 'Group' | 'ServiceAccount';
  readonly name: string;
  /** A ServiceAccount's namespace. */
  readonly namespace?: string;
}

/** Parses `User:NAME`, `Group:NAME` or `ServiceAccount:NS/NAME`. */
export function parseSubject(text: string): SubjectRef {
  const colon = text.indexOf(':');
  const kind = colon < 0 ? '' : text.slice(0, colon);
  const rest = colon < 0 ? '' : text.slice(colon + 1);
  const hint = 'use User:NAME, Group:NAME or ServiceAccount:NAMESPACE/NAME';
  if ((kind === 'User' || kind === 'Group') && rest !== '') return { kind, name: rest };
  if (kind === 'ServiceAccount') {
    const [ns, name, extra] = rest.split('/');
    if (ns !== undefined && ns !== '' && name !== undefined && name !== '' && extra === undefined) {
      return { kind, name, namespace: ns };
    }
  }
  throw new UsageError(`invalid --subject "${text}"`, { hint });
}

/** The identity the authorizer sees for the subject: users and service accounts are authenticated. */
export function identityOf(subject: SubjectRef, extraGroups: readonly string[]): UserInfo {
  if (subject.kind === 'ServiceAccount') {
    const sa = serviceAccountUser(subject.namespace ?? '', subject.name);
    return { name: sa.name, groups: [...sa.groups, ...extraGroups] };
  }
  if (subject.kind === 'User') return { name: subject.name, groups: [AUTHENTICATED_GROUP, ...extraGroups] };
  return { name: '', groups: [subject.name, ...extraGroups] };
}

/** The subject as kubectl create rolebinding takes it. */
function subjectFlag(s: SubjectRef): string {
  if (s.kind === 'ServiceAccount') return `--serviceaccount ${s.namespace ?? ''}:${s.name}`;
  return `--${s.kind.toLowerCase()} ${s.name}`;
}

export interface Ref {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

export interface EffectiveRule {
  readonly rule: PolicyRule;
  /** From the bound role down to the role holding the rule as its own. */
  readonly chain: readonly string[];
  readonly stored: boolean;
}

export interface BoundRole {
  readonly binding: Ref;
  /** The binding's subjects that name the subject's identity (itself, or one of its groups). */
  readonly via: readonly Subject[];
  readonly role: Ref & { readonly found: boolean; readonly aggregated: boolean; readonly drift: boolean };
  readonly rules: readonly EffectiveRule[];
}

export interface Reason {
  readonly reason:
    | 'xrd-not-enabled'
    | 'roles-not-synced'
    | 'not-bound'
    | 'not-converged'
    | 'other-namespace'
    | 'other-verbs';
  readonly message: string;
  readonly fix?: string;
}

export interface SubjectAccess {
  readonly request: AccessAttributes;
  readonly allowed: boolean;
  /** system:masters is among the groups: allowed before RBAC is asked. */
  readonly privileged: boolean;
  readonly grants: readonly (EffectiveRule & { readonly binding: Ref; readonly role: Ref })[];
  /** Empty when allowed (unless only not-yet-stored rules allow it). */
  readonly whyNot: readonly Reason[];
}

export interface SubjectExplanation {
  readonly subject: SubjectRef;
  readonly user: UserInfo;
  /** The namespace whose RoleBindings count; absent: ClusterRoleBindings only. */
  readonly namespace?: string;
  readonly bindings: readonly BoundRole[];
  readonly access: SubjectAccess | null;
}

export interface SubjectSnapshot {
  readonly clusterRoles: readonly ClusterRole[];
  readonly clusterRoleBindings: readonly ClusterRoleBinding[];
  readonly roleBindings: readonly RoleBinding[];
  readonly roles: readonly Role[];
  readonly namespaces: readonly Namespace[];
}

function refOf(r: ResolvedRole): Ref {
  return r.namespace !== undefined
    ? { kind: r.kind, name: r.name, namespace: r.namespace }
    : { kind: r.kind, name: r.name };
}

function bindingRef(b: ClusterRoleBinding | RoleBinding): Ref {
  return b.kind === 'RoleBinding'
    ? { kind: 'RoleBinding', name: b.metadata.name, namespace: b.metadata.namespace ?? '' }
    : { kind: 'ClusterRoleBinding', name: b.metadata.name };
}

export function explainSubject(
  subject: SubjectRef,
  extraGroups: readonly string[],
  namespace: string | undefined,
  snapshot: SubjectSnapshot,
  request?: { readonly verb: string; readonly resource: ResolvedResource; readonly name?: string },
): SubjectExplanation {
  const user = identityOf(subject, extraGroups);
  const roles = new EffectiveRoles(snapshot.clusterRoles, snapshot.roles);
  const reaching = (ns: string | undefined): (ClusterRoleBinding | RoleBinding)[] => [
    ...snapshot.clusterRoleBindings.filter((b) => matchingSubjects(b, user).length > 0),
    ...snapshot.roleBindings.filter(
      (b) => ns !== undefined && (b.metadata.namespace ?? '') === ns && matchingSubjects(b, user).length > 0,
    ),
  ];
  const bound = (b: ClusterRoleBinding | RoleBinding): BoundRole => {
    const role = roles.resolve(b.roleRef, b.kind === 'RoleBinding' ? (b.metadata.namespace ?? '') : '');
    return {
      binding: bindingRef(b),
      via: matchingSubjects(b, user),
      role: { ...refOf(role), found: role.found, aggregated: role.aggregated, drift: role.drift },
      rules: role.effective.map((rule) => ({
        rule,
        chain: role.aggregated ? roles.chain(role.name, rule) : [role.name],
        stored: roles.isStored(role, rule),
      })),
    };
  };
  const bindings = reaching(namespace).map(bound);
  return {
    subject,
    user,
    ...(namespace !== undefined ? { namespace } : {}),
    bindings,
    access:
      request === undefined
        ? null
        : decide(request, namespace, user, bindings, roles, snapshot, reaching, bound, subjectFlag(subject)),
  };
}

function decide(
  req: { readonly verb: string; readonly resource: ResolvedResource; readonly name?: string },
  namespace: string | undefined,
  user: UserInfo,
  bindings: readonly BoundRole[],
  roles: EffectiveRoles,
  snapshot: SubjectSnapshot,
  reaching: (ns: string | undefined) => (ClusterRoleBinding | RoleBinding)[],
  bound: (b: ClusterRoleBinding | RoleBinding) => BoundRole,
  flag: string,
): SubjectAccess {
  const res = req.resource;
  const ns = res.path === undefined && res.namespaced ? (namespace ?? '') : '';
  const attrs: AccessAttributes =
    res.path !== undefined
      ? { verb: req.verb, path: res.path }
      : {
          verb: req.verb,
          apiGroup: res.group,
          resource: res.resource,
          ...(res.subresource !== undefined ? { subresource: res.subresource } : {}),
          ...(req.name !== undefined ? { name: req.name } : {}),
          ...(ns !== '' ? { namespace: ns } : {}),
        };
  const inScope = bindings.filter((b) => b.binding.kind === 'ClusterRoleBinding' || ns !== '');
  const grants = inScope.flatMap((b) =>
    b.rules.filter((r) => ruleAllows(r.rule, attrs)).map((r) => ({ ...r, binding: b.binding, role: b.role })),
  );
  const privileged = user.groups.includes(MASTERS_GROUP);
  const allowedNow = privileged || grants.some((g) => g.stored);
  const allowed = privileged || grants.length > 0;
  const whyNot: Reason[] = [];
  if (allowed && !allowedNow) {
    const lagging = [...new Set(grants.map((g) => g.role.name))].sort(compareNames);
    whyNot.push({
      reason: 'not-converged',
      message: `only rules the aggregation controller has not stored yet grant it (in ${lagging.join(', ')}): the API server denies it until the controller catches up`,
      fix: 'wait for kube-controller-manager, or check that it runs (kubectl get clusterrole -o yaml shows the stored rules)',
    });
  }
  if (!allowed) whyNot.push(...reasons(req, attrs, ns, roles, snapshot, reaching, bound, flag));
  return { request: attrs, allowed, privileged, grants, whyNot };
}

/**
 * Roles made to be bound to people, least privilege first: Crossplane's chart roles (cluster/charts/crossplane,
 * rbac-manager-managed-clusterroles.yaml), then Kubernetes' user-facing ones
 * (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go: view, edit, admin).
 */
const USER_FACING_ROLES = [
  CHART_ROLE_BROWSE,
  CHART_ROLE_VIEW,
  CHART_ROLE_EDIT,
  CHART_ROLE_ADMIN,
  'view',
  'edit',
  'admin',
];

/**
 * Roles that are parts of other roles or belong to a controller: the aggregate-to-* building blocks (Crossplane's
 * and Kubernetes'), Kubernetes' system: roles, a provider revision's system role, the Crossplane and RBAC manager
 * controllers' roles, crossplane:aggregated. Binding one to a subject works, but grants what a controller needs.
 */
function isPartOrController(name: string): boolean {
  return (
    name.includes(':aggregate-to-') ||
    name.startsWith('system:') ||
    (name.startsWith(PROVIDER_ROLE_PREFIX) && name.endsWith(PROVIDER_ROLE_SUFFIX_SYSTEM)) ||
    name === CHART_ROLE_CROSSPLANE ||
    name === CHART_ROLE_RBAC_MANAGER ||
    name === AGGREGATED_ROLE
  );
}

/**
 * The ClusterRoles that grant a request, in the order a fix should suggest them: in a namespace, that namespace's
 * crossplane-ns-<ns>-view/-edit (what enable-xrd makes for it); then the user-facing roles above, least privilege
 * first; then other roles (those bound somewhere first); then building blocks and controllers' roles; last, roles
 * with an all-groups, all-resources rule (cluster-admin).
 */
function rankFixRoles(
  granting: readonly string[],
  ns: string,
  broad: (name: string) => boolean,
  used: ReadonlySet<string>,
): string[] {
  const preferred = [
    ...(ns !== '' ? [namespaceRoleName(ns, 'view'), namespaceRoleName(ns, 'edit')] : []),
    ...USER_FACING_ROLES,
  ];
  const tier = (n: string): number =>
    broad(n) ? 3 : preferred.includes(n) ? 0 : isPartOrController(n) ? 2 : 1;
  const position = (n: string): number => {
    const i = preferred.indexOf(n);
    return i < 0 ? preferred.length : i;
  };
  return [...granting].sort(
    (a, b) =>
      tier(a) - tier(b) ||
      position(a) - position(b) ||
      Number(used.has(b)) - Number(used.has(a)) ||
      compareNames(a, b),
  );
}

function verbsText(rules: readonly PolicyRule[]): string {
  return [...new Set(rules.flatMap((r) => r.verbs))].sort(compareNames).join(', ');
}

/** Why a denied request is denied, in Crossplane's terms, with the fix. */
function reasons(
  req: { readonly verb: string; readonly resource: ResolvedResource; readonly name?: string },
  attrs: AccessAttributes,
  ns: string,
  roles: EffectiveRoles,
  snapshot: SubjectSnapshot,
  reaching: (ns: string | undefined) => (ClusterRoleBinding | RoleBinding)[],
  bound: (b: ClusterRoleBinding | RoleBinding) => BoundRole,
  flag: string,
): Reason[] {
  const out: Reason[] = [];
  const res = req.resource;
  const what = res.path ?? (res.group === '' ? res.resource : `${res.resource}.${res.group}`);
  const clusterRoleNames = roles.convergence.graph.names;

  // The XRD behind a claim or namespaced XR: enabled in the namespace, and its roles synced.
  if (res.xrd !== undefined) {
    const xrdRole = `${XRD_ROLE_PREFIX}${res.xrd}${XRD_ROLE_SUFFIX_NS_EDIT}`;
    const anyXrdRole = clusterRoleNames.some((n) => n.startsWith(`${XRD_ROLE_PREFIX}${res.xrd}:`));
    if (!anyXrdRole) {
      out.push({
        reason: 'roles-not-synced',
        message: `the roles of XRD ${res.xrd} were never made (no ClusterRole ${XRD_ROLE_PREFIX}${res.xrd}:*)`,
        fix: 'kubectl crossplane-rbac sync',
      });
    }
    if (ns !== '') {
      const namespaceObj = snapshot.namespaces.find((n) => n.metadata.name === ns);
      const enabled = namespaceObj !== undefined && enabledXrdsOf(namespaceObj).includes(res.xrd);
      if (!enabled) {
        out.push({
          reason: 'xrd-not-enabled',
          message: `XRD ${res.xrd} is not enabled in namespace ${ns}, so ${NS_ROLE_PREFIX}${ns}-edit does not aggregate ${xrdRole}`,
          fix: `kubectl crossplane-rbac enable-xrd ${res.xrd} -n ${ns}`,
        });
      }
    }
  }
  if (res.provider !== undefined) {
    const prefix = `${PROVIDER_ROLE_PREFIX}${res.provider}:`;
    if (!clusterRoleNames.some((n) => n.startsWith(prefix))) {
      out.push({
        reason: 'roles-not-synced',
        message: `the roles of provider revision ${res.provider} were never made (no ClusterRole ${prefix}*)`,
        fix: 'kubectl crossplane-rbac sync',
      });
    }
  }

  // Roles that grant it, but no binding reaches the subject.
  const granting: string[] = [];
  for (const name of clusterRoleNames) {
    if (roles.clusterRole(name).effective.some((r) => ruleAllows(r, attrs))) granting.push(name);
  }
  const namespacedRoles = snapshot.roles
    .filter(
      (r) => ns !== '' && r.metadata.namespace === ns && (r.rules ?? []).some((x) => ruleAllows(x, attrs)),
    )
    .map((r) => r.metadata.name);
  // The roles bound somewhere first: they are the ones the cluster already uses.
  const used = new Set(
    [...snapshot.clusterRoleBindings, ...snapshot.roleBindings].map((b) => b.roleRef.name),
  );
  const broad = (n: string): boolean =>
    roles
      .clusterRole(n)
      .effective.some((r) => (r.apiGroups ?? []).includes('*') && (r.resources ?? []).includes('*'));
  const ranked = rankFixRoles(granting, ns, broad, used);
  if (ranked.length > 0 || namespacedRoles.length > 0) {
    const shown = [
      ...namespacedRoles.map((n) => `Role ${ns}/${n}`),
      ...ranked.map((n) => `ClusterRole ${n}`),
    ];
    const first =
      namespacedRoles[0] !== undefined ? `--role ${namespacedRoles[0]}` : `--clusterrole ${ranked[0] ?? ''}`;
    out.push({
      reason: 'not-bound',
      message: `${shown.slice(0, 3).join(', ')}${shown.length > 3 ? ` and ${String(shown.length - 3)} more` : ''} ${shown.length === 1 ? 'grants' : 'grant'} it, but no binding${ns !== '' ? ` in ${ns} or cluster-wide` : ''} gives one to the subject`,
      fix:
        ns !== ''
          ? `kubectl create rolebinding NAME ${first} ${flag} -n ${ns}`
          : `kubectl create clusterrolebinding NAME ${first} ${flag}`,
    });
  }

  // Close: the same request allowed in another namespace, or other verbs on the same resource.
  if (ns !== '') {
    const elsewhere = new Set<string>();
    for (const b of snapshot.roleBindings) {
      const other = b.metadata.namespace ?? '';
      if (other === ns || elsewhere.has(other)) continue;
      if (!reaching(other).includes(b)) continue;
      const br = bound(b);
      if (br.rules.some((r) => ruleAllows(r.rule, { ...attrs, namespace: other }))) elsewhere.add(other);
    }
    if (elsewhere.size > 0) {
      const list = [...elsewhere].sort(compareNames);
      out.push({
        reason: 'other-namespace',
        message: `allowed in namespace ${list.slice(0, 5).join(', ')}${list.length > 5 ? ', ...' : ''}, not in ${ns}`,
      });
    }
  }
  if (res.path === undefined) {
    const others = reaching(ns === '' ? undefined : ns)
      .map(bound)
      .filter((b) => b.binding.kind === 'ClusterRoleBinding' || ns !== '')
      .flatMap((b) => b.rules.map((r) => r.rule))
      .filter((r) => ruleAllows({ ...r, verbs: ['*'] }, attrs));
    if (others.length > 0) {
      out.push({
        reason: 'other-verbs',
        message: `the subject's roles allow ${verbsText(others)} on ${what}, not ${req.verb}`,
      });
    }
  }
  return out;
}
