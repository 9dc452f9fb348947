/**
 * `explain --subject`: the bindings that reach one subject in a scope, the effective rules of each bound role with
 * where they came from, and, for one request, the answer with the rules that grant it or, when denied, why in
 * Crossplane's terms and what would fix it. Subjects are matched as the RBAC authorizer matches them
 * (pkg/registry/rbac/validation/rule.go appliesTo). A ClusterRole grants the rules it stores, as the authorizer reads
 * them (it never reads the roles aggregated into it), or, in the converged view, the rules the aggregation controller
 * converges to, each rule it has not stored yet marked.
 */
import type { AccessAttributes } from '../authz/authorize.js';
import { requestAttributes, ruleAllows } from '../authz/authorize.js';
import { EffectiveRoles } from '../authz/effective-roles.js';
import type { ResolvedRole } from '../authz/effective-roles.js';
import { MASTERS_GROUP, matchingSubjects } from '../authz/subjects.js';
import type { UserInfo } from '../authz/subjects.js';
import type { ResolvedResource } from '../crossplane/resolve-resource.js';
import type { ClusterRoleBinding, RoleBinding } from '../kube/types.js';
import { compareNames } from '../kube/order.js';
import { reasons, type Denial, type Reason } from './why-not.js';
import {
  identityOf,
  type BoundRole,
  type EffectiveRule,
  type Ref,
  type SubjectRef,
  type SubjectSnapshot,
} from './subject-types.js';

/** The subject as kubectl create rolebinding takes it. */
function subjectFlag(s: SubjectRef): string {
  if (s.kind === 'ServiceAccount') return `--serviceaccount ${s.namespace ?? ''}:${s.name}`;
  return `--${s.kind.toLowerCase()} ${s.name}`;
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

/** Which rules a ClusterRole grants in an explanation. */
export interface SubjectView {
  /**
   * True: the rules the aggregation controller converges to (every ClusterRole must be in the snapshot), a request
   * allowed only by rules not stored yet answered allowed with why the server denies it now. False: the rules each
   * role stores, as the authorizer answers.
   */
  readonly converged: boolean;
  /**
   * With converged false: whether the snapshot holds every ClusterRole (-f, or all of them read). Then an aggregated
   * role's stored rules are shown with the chains they come through, and a role whose stored rules lag is marked;
   * else only the bound roles are there (the authorizer's reads) and each is taken as it stands.
   */
  readonly everyClusterRole: boolean;
}

const CONVERGED: SubjectView = { converged: true, everyClusterRole: true };

export function explainSubject(
  subject: SubjectRef,
  extraGroups: readonly string[],
  namespace: string | undefined,
  snapshot: SubjectSnapshot,
  request?: { readonly verb: string; readonly resource: ResolvedResource; readonly name?: string },
  view: SubjectView = CONVERGED,
): SubjectExplanation {
  const user = identityOf(subject, extraGroups);
  const storedOnly = !view.converged;
  // Without the roles they aggregate, aggregated roles are taken as they stand (their aggregationRule still said).
  const aggregating =
    storedOnly && !view.everyClusterRole
      ? new Set(
          snapshot.clusterRoles.filter((r) => r.aggregationRule !== undefined).map((r) => r.metadata.name),
        )
      : undefined;
  const clusterRoles =
    aggregating !== undefined
      ? snapshot.clusterRoles.map(({ aggregationRule: _ignored, ...role }) => role)
      : snapshot.clusterRoles;
  const roles = new EffectiveRoles(clusterRoles, snapshot.roles);
  const via = new Map<ClusterRoleBinding | RoleBinding, ReturnType<typeof matchingSubjects>>();
  const viaOf = (b: ClusterRoleBinding | RoleBinding): ReturnType<typeof matchingSubjects> => {
    let v = via.get(b);
    if (v === undefined) via.set(b, (v = matchingSubjects(b, user)));
    return v;
  };
  const names = (b: ClusterRoleBinding | RoleBinding): boolean => viaOf(b).length > 0;
  const reaching = (ns: string | undefined): (ClusterRoleBinding | RoleBinding)[] => [
    ...snapshot.clusterRoleBindings.filter(names),
    ...snapshot.roleBindings.filter(
      (b) => ns !== undefined && (b.metadata.namespace ?? '') === ns && names(b),
    ),
  ];
  // One role's rules with their provenance, made once however many bindings name the role (the bindings share them).
  const provenance = new Map<ResolvedRole, readonly EffectiveRule[]>();
  const rulesOf = (role: ResolvedRole): readonly EffectiveRule[] => {
    let rules = provenance.get(role);
    if (rules === undefined) {
      rules =
        storedOnly && role.drift
          ? // What the authorizer grants: the stored rules, each with the chain it came through (if any still holds it).
            role.stored.map((rule) => ({ rule, chain: roles.chain(role.name, rule), stored: true }))
          : role.effective.map((rule) => ({
              rule,
              chain: role.aggregated ? roles.chain(role.name, rule) : [role.name],
              stored: roles.isStored(role, rule),
            }));
      provenance.set(role, rules);
    }
    return rules;
  };
  const bound = (b: ClusterRoleBinding | RoleBinding): BoundRole => {
    const role = roles.resolve(b.roleRef, b.kind === 'RoleBinding' ? (b.metadata.namespace ?? '') : '');
    return {
      binding: bindingRef(b),
      via: viaOf(b),
      role: {
        ...refOf(role),
        found: role.found,
        aggregated: role.aggregated || (aggregating?.has(role.name) ?? false),
        drift: role.drift,
      },
      rules: rulesOf(role),
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
        : decide(request, namespace, user, bindings, {
            roles,
            snapshot,
            reaching,
            names,
            bound,
            flag: subjectFlag(subject),
            storedOnly,
          }),
  };
}

function decide(
  req: { readonly verb: string; readonly resource: ResolvedResource; readonly name?: string },
  namespace: string | undefined,
  user: UserInfo,
  bindings: readonly BoundRole[],
  lookIn: Omit<Denial, 'req' | 'attrs' | 'ns'> & { readonly storedOnly: boolean },
): SubjectAccess {
  const res = req.resource;
  const ns = res.path === undefined && res.namespaced ? (namespace ?? '') : '';
  const attrs = requestAttributes(res, req.verb, req.name, ns);
  const inScope = bindings.filter((b) => b.binding.kind === 'ClusterRoleBinding' || ns !== '');
  // Bindings of one role share its rules: each role's rules are matched against the request once.
  const allowing = new Map<readonly EffectiveRule[], EffectiveRule[]>();
  const allowingOf = (rules: readonly EffectiveRule[]): EffectiveRule[] => {
    let hits = allowing.get(rules);
    if (hits === undefined) allowing.set(rules, (hits = rules.filter((r) => ruleAllows(r.rule, attrs))));
    return hits;
  };
  const grants = inScope.flatMap((b) =>
    allowingOf(b.rules).map((r) => ({ ...r, binding: b.binding, role: b.role })),
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
  // Stored rules only: a role whose converged rules would allow it, the controller not having stored them yet.
  const waiting = allowed || !lookIn.storedOnly ? [] : notStoredYet(inScope, attrs, lookIn.roles);
  if (waiting.length > 0) {
    whyNot.push({
      reason: 'not-converged',
      message: `rules the aggregation controller has not stored yet would grant it (in ${waiting.join(', ')}): the API server denies it until the controller catches up`,
      fix: 'wait for kube-controller-manager, or check that it runs (kubectl get clusterrole -o yaml shows the stored rules)',
    });
  } else if (!allowed) whyNot.push(...reasons({ req, attrs, ns, ...lookIn }));
  return { request: attrs, allowed, privileged, grants, whyNot };
}

/** The bound ClusterRoles whose stored rules lag and whose converged rules allow ATTRS, in name order. */
function notStoredYet(
  bindings: readonly BoundRole[],
  attrs: AccessAttributes,
  roles: EffectiveRoles,
): string[] {
  const names = bindings
    .filter((b) => b.role.kind === 'ClusterRole' && b.role.drift)
    .map((b) => b.role.name)
    .filter((n) => roles.clusterRole(n).effective.some((r) => ruleAllows(r, attrs)));
  return [...new Set(names)].sort(compareNames);
}
