/**
 * Why a request is denied, in Crossplane's terms, and what would fix it: the XRD not enabled in the namespace, the
 * owner's roles never synced, roles that grant it but no binding that reaches the subject (with the least
 * privileged role to bind), the request allowed in another namespace or for other verbs.
 */
import type { AccessAttributes } from '../authz/authorize.js';
import { ruleAllows } from '../authz/authorize.js';
import type { EffectiveRoles } from '../authz/effective-roles.js';
import type { ResolvedResource } from '../crossplane/resolve-resource.js';
import {
  AGGREGATED_ROLE,
  CHART_ROLE_ADMIN,
  CHART_ROLE_BROWSE,
  CHART_ROLE_CROSSPLANE,
  CHART_ROLE_EDIT,
  CHART_ROLE_RBAC_MANAGER,
  CHART_ROLE_VIEW,
  LABEL_AGGREGATE_TO_CROSSPLANE,
  NS_ROLE_PREFIX,
  PROVIDER_ROLE_PREFIX,
  PROVIDER_ROLE_SUFFIX_SYSTEM,
  XRD_ROLE_PREFIX,
  XRD_ROLE_SUFFIX_NS_EDIT,
  XRD_ROLE_SUFFIX_NS_VIEW,
} from '../crossplane/names.js';
import { enabledXrdsOf, namespaceRoleName } from '../crossplane/namespace/roles.js';
import { definedResources } from '../crossplane/provider/roles.js';
import type { ClusterRoleBinding, PolicyRule, RoleBinding } from '../kube/types.js';
import { privilegedReason } from '../authz/privileged-rules.js';
import { compareNames } from '../kube/order.js';
import type { BoundRole, SubjectSnapshot } from './subject-types.js';

export interface Reason {
  readonly reason:
    | 'xrd-not-enabled'
    | 'roles-not-synced'
    | 'not-bound'
    | 'not-converged'
    | 'other-namespace'
    | 'other-verbs'
    | 'not-composed';
  readonly message: string;
  /** A command that fixes it; when it takes several, all of them joined by ` && ` (each also in `steps`). */
  readonly fix?: string;
  /** The commands of a fix that takes more than one, in the order they must run. */
  readonly steps?: readonly string[];
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

/** A denied request, and what the reasons for the denial are looked up in. */
export interface Denial {
  readonly req: { readonly verb: string; readonly resource: ResolvedResource; readonly name?: string };
  /** The request as the authorizer sees it. */
  readonly attrs: AccessAttributes;
  /** The namespace asked about ('' for cluster scope). */
  readonly ns: string;
  readonly roles: EffectiveRoles;
  readonly snapshot: SubjectSnapshot;
  /** The bindings that name the subject, cluster-wide and in a namespace. */
  readonly reaching: (ns: string | undefined) => (ClusterRoleBinding | RoleBinding)[];
  /** Whether a binding names the subject. */
  readonly names: (b: ClusterRoleBinding | RoleBinding) => boolean;
  /** A binding of the subject, with its role's rules. */
  readonly bound: (b: ClusterRoleBinding | RoleBinding) => BoundRole;
  /** The subject as `kubectl create rolebinding` takes it (--user NAME, --serviceaccount NS:NAME, ...). */
  readonly flag: string;
}

/**
 * The revision to name when no revision serving a provider's resource has roles: the active one (the provider that
 * runs), else the one the resolution credits. Undefined when some serving revision's roles exist: Crossplane's RBAC
 * manager renders roles for every revision, active or not, each named for it (crossplane internal/controller/rbac/
 * provider/roles/reconciler.go@662cc7816382830d37114bde4a2e19cb4f15f8df, Reconcile), so any of them grants it.
 */
function unmadeRevision(
  res: ResolvedResource,
  snapshot: SubjectSnapshot,
  clusterRoleNames: readonly string[],
): string | undefined {
  const serving = (snapshot.providerRevisions ?? []).filter((rev) =>
    definedResources(rev.status?.objectRefs).some((r) => r.group === res.group && r.plural === res.resource),
  );
  const names = [...new Set([res.provider ?? '', ...serving.map((r) => r.metadata.name)])];
  if (names.some((n) => clusterRoleNames.some((c) => c.startsWith(`${PROVIDER_ROLE_PREFIX}${n}:`))))
    return undefined;
  const active = serving.find((r) => (r.spec.desiredState ?? 'Active') === 'Active');
  return active?.metadata.name ?? res.provider;
}

/** Why a denied request is denied, in Crossplane's terms, with the fix. */
export function reasons(denial: Denial): Reason[] {
  const { req, attrs, ns, roles, snapshot, reaching, names, bound, flag } = denial;
  const out: Reason[] = [];
  const res = req.resource;
  const what = res.path ?? (res.group === '' ? res.resource : `${res.resource}.${res.group}`);
  const clusterRoleNames = roles.convergence.graph.names;
  // Whether a fix of two steps (enable-xrd, then a binding) was offered: it is the least privileged one.
  let twoStep = false;

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
        const enable = `kubectl crossplane-rbac enable-xrd ${res.xrd} -n ${ns}`;
        // Enabling only helps a subject bound to the namespace's role: for the others the fix takes a binding too,
        // of its view role when the XRD's ns-view role grants the request, else of its edit role.
        const viewRole = `${XRD_ROLE_PREFIX}${res.xrd}${XRD_ROLE_SUFFIX_NS_VIEW}`;
        const level = roles.clusterRole(viewRole).effective.some((r) => ruleAllows(r, attrs))
          ? 'view'
          : 'edit';
        const enough = new Set([namespaceRoleName(ns, level), namespaceRoleName(ns, 'edit')]);
        const boundToNsRole = reaching(ns).some(
          (b) => b.roleRef.kind === 'ClusterRole' && enough.has(b.roleRef.name),
        );
        const message = `XRD ${res.xrd} is not enabled in namespace ${ns}, so ${NS_ROLE_PREFIX}${ns}-edit does not aggregate ${xrdRole}`;
        if (boundToNsRole) out.push({ reason: 'xrd-not-enabled', message, fix: enable });
        else {
          const steps = [
            enable,
            `kubectl create rolebinding NAME --clusterrole ${namespaceRoleName(ns, level)} ${flag} -n ${ns}`,
          ];
          twoStep = true;
          out.push({
            reason: 'xrd-not-enabled',
            message: `${message}, and no binding gives ${namespaceRoleName(ns, level)} to the subject`,
            fix: steps.join(' && '),
            steps,
          });
        }
      }
    }
  }
  if (res.provider !== undefined) {
    const revision = unmadeRevision(res, snapshot, clusterRoleNames);
    if (revision !== undefined) {
      out.push({
        reason: 'roles-not-synced',
        message: `the roles of provider revision ${revision} were never made (no ClusterRole ${PROVIDER_ROLE_PREFIX}${revision}:*)`,
        fix: 'kubectl crossplane-rbac sync',
      });
    }
  }

  // Crossplane's own account (it holds Crossplane's role) and a kind that is neither an XR nor a managed resource:
  // in Crossplane v2 only a role labelled aggregate-to-crossplane lets it compose that kind.
  const holdsCrossplaneRole = reaching(undefined).some(
    (b) =>
      b.kind === 'ClusterRoleBinding' &&
      b.roleRef.kind === 'ClusterRole' &&
      (b.roleRef.name === CHART_ROLE_CROSSPLANE || b.roleRef.name === AGGREGATED_ROLE),
  );
  if (holdsCrossplaneRole && res.path === undefined && res.xrd === undefined && res.provider === undefined) {
    out.push({
      reason: 'not-composed',
      message: `the subject runs Crossplane (it is bound to ClusterRole ${CHART_ROLE_CROSSPLANE} or ${AGGREGATED_ROLE}), and no role labelled ${LABEL_AGGREGATE_TO_CROSSPLANE}=true grants ${what}: Crossplane cannot compose it`,
      fix: 'kubectl crossplane-rbac sync --only composed',
    });
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
  const broadRoles = new Map<string, boolean>();
  const broad = (n: string): boolean => {
    let b = broadRoles.get(n);
    if (b === undefined) {
      b = roles
        .clusterRole(n)
        .effective.some((r) => (r.apiGroups ?? []).includes('*') && (r.resources ?? []).includes('*'));
      broadRoles.set(n, b);
    }
    return b;
  };
  const ranked = rankFixRoles(granting, ns, broad, used);
  if (ranked.length > 0 || namespacedRoles.length > 0) {
    const shown = [
      ...namespacedRoles.map((n) => `Role ${ns}/${n}`),
      ...ranked.map((n) => `ClusterRole ${n}`),
    ];
    // A role with every resource of every group (cluster-admin's shape) is never suggested: it grants far more
    // than the request, and binding it is what a least-privilege fix is there to avoid. Nor is a privileged one
    // (Kubernetes' edit and admin among them: they impersonate service accounts and mint their tokens), which bind
    // refuses to bind without --allow-privileged.
    const privileged = (n: string): boolean => privilegedReason(roles.clusterRole(n).effective) !== undefined;
    const suggestable = ranked.find((n) => !broad(n) && !privileged(n));
    const first =
      namespacedRoles[0] !== undefined
        ? `--role ${namespacedRoles[0]}`
        : suggestable !== undefined
          ? `--clusterrole ${suggestable}`
          : undefined;
    const granted = `${shown.slice(0, 3).join(', ')}${shown.length > 3 ? ` and ${String(shown.length - 3)} more` : ''} ${shown.length === 1 ? 'grants' : 'grant'} it`;
    const scope = ns !== '' ? ` in ${ns} or cluster-wide` : '';
    out.push({
      reason: 'not-bound',
      message:
        first !== undefined
          ? `${granted}, but no binding${scope} gives one to the subject`
          : ranked.every(broad)
            ? `only ${granted}, with every resource of every API group, and no binding${scope} gives one to the subject; bind a role made for this resource instead`
            : `only ${granted}, each with every resource of every API group or privileged (as bind judges it), and no binding${scope} gives one to the subject; bind a role made for this resource instead`,
      ...(first === undefined || twoStep
        ? {}
        : {
            fix:
              ns !== ''
                ? `kubectl create rolebinding NAME ${first} ${flag} -n ${ns}`
                : `kubectl create clusterrolebinding NAME ${first} ${flag}`,
          }),
    });
  }

  // Close: the same request allowed in another namespace, or other verbs on the same resource.
  if (ns !== '') {
    const elsewhere = new Set<string>();
    for (const b of snapshot.roleBindings) {
      const other = b.metadata.namespace ?? '';
      if (other === ns || elsewhere.has(other)) continue;
      if (!names(b)) continue;
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
    // Bindings of one role share its rules (bound's): each role's rules are looked at once.
    const ruleLists = new Set(
      reaching(ns === '' ? undefined : ns)
        .map(bound)
        .filter((b) => b.binding.kind === 'ClusterRoleBinding' || ns !== '')
        .map((b) => b.rules),
    );
    const others = [...ruleLists]
      .flatMap((rules) => rules.map((r) => r.rule))
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
