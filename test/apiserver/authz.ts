/**
 * Authorization as a Kubernetes API server with `--authorization-mode=RBAC` does it: system:masters may do
 * anything (the privileged-group authorizer); everyone else gets what their stored bindings grant (the bootstrap
 * ones every user relies on included: bootstrap.ts)
 * (pkg/registry/rbac/validation/rule.go DefaultRuleResolver, plugin/pkg/auth/authorizer/rbac/rbac.go); writes of
 * roles and bindings pass the escalation checks of the RBAC storage (pkg/registry/rbac/*\/policybased,
 * escalation_check.go, rule.go ConfirmNoEscalation). Written from Kubernetes' behaviour; nothing here comes from the
 * plugin's src/.
 */
import { compactRules, compactString, covers, goQuoteList } from './covers.js';
import type { PolicyRule, RequestAttributes } from './rbac-rules.js';
import { compareGoStrings, listOf, resourceAttributes, ruleAllows } from './rbac-rules.js';

type Obj = Record<string, any>;

export interface UserInfo {
  readonly name: string;
  readonly groups: readonly string[];
}

export const MASTERS = 'system:masters';
export const AUTHENTICATED = 'system:authenticated';
const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** What the authorizer reads from the store. */
export interface PolicySource {
  list(
    resource: 'clusterroles' | 'clusterrolebindings' | 'roles' | 'rolebindings',
    namespace?: string,
  ): readonly Obj[];
  get(resource: 'clusterroles' | 'roles', name: string, namespace?: string): Obj | undefined;
}

/** The rules of system:masters' unconditional access, as a rules review lists them. */
const FULL_AUTHORITY: readonly PolicyRule[] = [
  { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  { nonResourceURLs: ['*'], verbs: ['*'] },
];

export function isMaster(user: UserInfo): boolean {
  return user.groups.includes(MASTERS);
}

/**
 * The index of the first subject that is this user, or -1. A ServiceAccount subject without a namespace means
 * the binding's namespace, and never matches in a ClusterRoleBinding.
 */
export function subjectIndex(user: UserInfo, subjects: readonly Obj[], bindingNamespace: string): number {
  return subjects.findIndex((s) => {
    switch (s.kind) {
      case 'User':
        return s.name === user.name;
      case 'Group':
        return user.groups.includes(s.name);
      case 'ServiceAccount': {
        const ns = typeof s.namespace === 'string' && s.namespace !== '' ? s.namespace : bindingNamespace;
        return ns !== '' && user.name === `system:serviceaccount:${ns}:${String(s.name)}`;
      }
      default:
        return false;
    }
  });
}

/**
 * How a failed role lookup reads. The authorizer looks roles up in an informer cache (its listers name the
 * resource by the singular kind); the RBAC storage looks them up in the registry (plural resource).
 */
type Lookup = 'cache' | 'registry';

function notFoundText(kind: 'ClusterRole' | 'Role', name: string, lookup: Lookup): string {
  const resource = lookup === 'cache' ? kind.toLowerCase() : `${kind.toLowerCase()}s`;
  return `${resource}.${RBAC_GROUP} ${JSON.stringify(name)} not found`;
}

/** GetRoleReferenceRules: the rules of the role a binding refers to, or why there are none. */
function roleRefRules(
  source: PolicySource,
  ref: Obj | undefined,
  bindingNamespace: string,
  lookup: Lookup,
): { rules: readonly PolicyRule[] } | { error: string; notFound?: 'ClusterRole' | 'Role' } {
  const name = String(ref?.name ?? '');
  if (ref?.kind === 'ClusterRole') {
    const role = source.get('clusterroles', name);
    if (role === undefined)
      return { error: notFoundText('ClusterRole', name, lookup), notFound: 'ClusterRole' };
    return { rules: (role.rules ?? []) as PolicyRule[] };
  }
  if (ref?.kind === 'Role') {
    const role = bindingNamespace === '' ? undefined : source.get('roles', name, bindingNamespace);
    if (role === undefined) return { error: notFoundText('Role', name, lookup), notFound: 'Role' };
    return { rules: (role.rules ?? []) as PolicyRule[] };
  }
  return { error: `unsupported role reference kind: ${JSON.stringify(String(ref?.kind ?? ''))}` };
}

interface Grant {
  readonly rule: PolicyRule;
  /** Which binding gave the rule, as the authorizer's "allowed by" reason names it. */
  readonly source: string;
}

function describeSubject(subject: Obj, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') {
    const ns =
      typeof subject.namespace === 'string' && subject.namespace !== ''
        ? subject.namespace
        : bindingNamespace;
    return `ServiceAccount ${JSON.stringify(`${String(subject.name)}/${ns}`)}`;
  }
  return `${String(subject.kind)} ${JSON.stringify(String(subject.name))}`;
}

/**
 * VisitRulesFor: the user's rules in a namespace ("" = cluster scope only), ClusterRoleBindings first, then the
 * namespace's RoleBindings, with the errors met resolving role references.
 */
function grantsFor(
  source: PolicySource,
  user: UserInfo,
  namespace: string,
  lookup: Lookup,
): { grants: Grant[]; errors: string[] } {
  const grants: Grant[] = [];
  const errors: string[] = [];
  for (const b of source.list('clusterrolebindings')) {
    const subjects = (b.subjects ?? []) as Obj[];
    const i = subjectIndex(user, subjects, '');
    if (i < 0) continue;
    const found = roleRefRules(source, b.roleRef, '', lookup);
    if ('error' in found) {
      errors.push(found.error);
      continue;
    }
    const text = `ClusterRoleBinding ${JSON.stringify(String(b.metadata?.name))} of ${String(b.roleRef?.kind)} ${JSON.stringify(String(b.roleRef?.name))} to ${describeSubject(subjects[i] ?? {}, '')}`;
    for (const rule of found.rules) grants.push({ rule, source: text });
  }
  if (namespace !== '') {
    for (const b of source.list('rolebindings', namespace)) {
      const subjects = (b.subjects ?? []) as Obj[];
      const i = subjectIndex(user, subjects, namespace);
      if (i < 0) continue;
      const found = roleRefRules(source, b.roleRef, namespace, lookup);
      if ('error' in found) {
        errors.push(found.error);
        continue;
      }
      const text = `RoleBinding ${JSON.stringify(`${String(b.metadata?.name)}/${namespace}`)} of ${String(b.roleRef?.kind)} ${JSON.stringify(String(b.roleRef?.name))} to ${describeSubject(subjects[i] ?? {}, namespace)}`;
      for (const rule of found.rules) grants.push({ rule, source: text });
    }
  }
  return { grants, errors };
}

/** RulesFor: every rule the RBAC authorizer grants the user in the namespace, in visiting order. */
export function rulesFor(source: PolicySource, user: UserInfo, namespace: string): PolicyRule[] {
  return grantsFor(source, user, namespace, 'cache').grants.map((g) => g.rule);
}

/** utilerrors.NewAggregate(...).Error(): one message as it is, several (duplicates dropped) in brackets. */
function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] ?? '') : `[${unique.join(', ')}]`;
}

export interface Decision {
  readonly allowed: boolean;
  /** What the authorizer said: the binding that allowed, or the rules it could not resolve. */
  readonly reason: string;
}

/** The decision of the authorizer chain for one request. */
export function authorize(source: PolicySource, user: UserInfo, req: RequestAttributes): Decision {
  if (isMaster(user)) return { allowed: true, reason: '' };
  const { grants, errors } = grantsFor(source, user, req.namespace, 'cache');
  const grant = grants.find((g) => ruleAllows(g.rule, req));
  if (grant !== undefined) return { allowed: true, reason: `RBAC: allowed by ${grant.source}` };
  return { allowed: false, reason: errors.length > 0 ? `RBAC: ${aggregate(errors)}` : '' };
}

/** The text of a 403 for a request (the API server's forbiddenMessage, then the authorizer's reason). */
export function forbiddenMessage(user: UserInfo, req: RequestAttributes, reason = ''): string {
  let text: string;
  if (!req.resourceRequest) {
    text = `User ${JSON.stringify(user.name)} cannot ${req.verb} path ${JSON.stringify(req.path)}`;
  } else {
    const resource = req.subresource === '' ? req.resource : `${req.resource}/${req.subresource}`;
    const scope =
      req.namespace === '' ? 'at the cluster scope' : `in the namespace ${JSON.stringify(req.namespace)}`;
    text = `User ${JSON.stringify(user.name)} cannot ${req.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(req.apiGroup)} ${scope}`;
  }
  return reason === '' ? text : `${text}: ${reason}`;
}

/**
 * ConfirmNoEscalation: undefined when the user's own rules in the namespace cover `rules`, else the 403 text: the
 * uncovered rules compacted, one per line, sorted, then any role references that could not be resolved.
 */
export function confirmNoEscalation(
  source: PolicySource,
  user: UserInfo,
  namespace: string,
  rules: readonly PolicyRule[],
): string | undefined {
  const { grants, errors } = grantsFor(source, user, namespace, 'registry');
  const result = covers(
    grants.map((g) => g.rule),
    rules,
  );
  if (result.covered) return undefined;
  const lines = [...new Set(compactRules(result.uncovered).map(compactString))].sort(compareGoStrings);
  const resolution = errors.length > 0 ? `; resolution errors: [${aggregate(errors)}]` : '';
  return `user ${JSON.stringify(user.name)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}${resolution}`;
}

export type EscalationOutcome =
  | { ok: true }
  | { ok: false; status: 403 | 404 | 500; message: string; notFound?: { resource: string; name: string } };

const ALLOWED: EscalationOutcome = { ok: true };

/** hasAggregationRule: an aggregationRule with at least one selector. */
function hasAggregationRule(role: Obj | undefined): boolean {
  return listOfObjects(role?.aggregationRule?.clusterRoleSelectors).length > 0;
}

function listOfObjects(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}

/**
 * The checks the RBAC storage makes before it writes a role or binding (create, or update with the old object).
 * `requestName` is the name in the request's URL ("" on create): the `escalate` check asks about that name.
 */
export function checkRbacWrite(
  source: PolicySource,
  user: UserInfo,
  resource: string,
  namespace: string,
  requestName: string,
  obj: Obj,
  old: Obj | undefined,
): EscalationOutcome {
  if (isMaster(user)) return ALLOWED;
  const allowedTo = (verb: string, res: string, name: string, group = RBAC_GROUP): boolean =>
    authorize(source, user, resourceAttributes({ verb, apiGroup: group, resource: res, name, namespace }))
      .allowed;

  if (resource === 'clusterroles' || resource === 'roles') {
    if (allowedTo('escalate', resource, requestName)) return ALLOWED;
    if (old !== undefined && onlyGarbageCollectorFields(obj, old)) return ALLOWED;
    const denied = confirmNoEscalation(source, user, namespace, (obj.rules ?? []) as PolicyRule[]);
    if (denied !== undefined) return { ok: false, status: 403, message: denied };
    // An aggregationRule can gather any rule, so setting, keeping or dropping one takes full authority.
    const aggregates = resource === 'clusterroles' && (hasAggregationRule(obj) || hasAggregationRule(old));
    if (aggregates && confirmNoEscalation(source, user, namespace, FULL_AUTHORITY) !== undefined) {
      return {
        ok: false,
        status: 403,
        message: 'must have cluster-admin privileges to use the aggregationRule',
      };
    }
    return ALLOWED;
  }

  // ClusterRoleBindings and RoleBindings.
  if (old !== undefined && onlyGarbageCollectorFields(obj, old)) return ALLOWED;
  const ref = (obj.roleRef ?? {}) as Obj;
  const refResource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : undefined;
  if (
    refResource !== undefined &&
    allowedTo('bind', refResource, String(ref.name ?? ''), String(ref.apiGroup ?? ''))
  )
    return ALLOWED;
  const found = roleRefRules(source, ref, namespace, 'registry');
  if ('error' in found) {
    if (found.notFound === undefined) return { ok: false, status: 500, message: found.error };
    return {
      ok: false,
      status: 404,
      message: found.error,
      notFound: { resource: `${found.notFound.toLowerCase()}s`, name: String(ref.name ?? '') },
    };
  }
  const denied = confirmNoEscalation(source, user, namespace, found.rules);
  return denied === undefined ? ALLOWED : { ok: false, status: 403, message: denied };
}

/**
 * IsOnlyMutatingGCFields: the update changes nothing but ownerReferences and finalizers (or nothing at all), so
 * that the garbage collector can always finish its work.
 */
function onlyGarbageCollectorFields(obj: Obj, old: Obj): boolean {
  const comparable = (o: Obj): string => {
    const c = structuredClone(o);
    if (c.metadata) {
      delete c.metadata.ownerReferences;
      delete c.metadata.finalizers;
      delete c.metadata.managedFields;
    }
    return JSON.stringify(c);
  };
  return comparable(obj) === comparable(old);
}

/** The status of a SelfSubjectRulesReview: the user's rules split into resource and non-resource rules. */
export function rulesReviewStatus(source: PolicySource, user: UserInfo, namespace: string): Obj {
  const { grants, errors } = grantsFor(source, user, namespace, 'cache');
  const rules = [...(isMaster(user) ? FULL_AUTHORITY : []), ...grants.map((g) => g.rule)];
  const resourceRules: Obj[] = [];
  const nonResourceRules: Obj[] = [];
  for (const r of rules) {
    if (listOf(r.resources).length > 0) {
      resourceRules.push({
        verbs: listOf(r.verbs),
        ...(r.apiGroups !== undefined && r.apiGroups !== null ? { apiGroups: r.apiGroups } : {}),
        resources: r.resources,
        ...(listOf(r.resourceNames).length > 0 ? { resourceNames: r.resourceNames } : {}),
      });
    }
    if (listOf(r.nonResourceURLs).length > 0) {
      nonResourceRules.push({ verbs: listOf(r.verbs), nonResourceURLs: r.nonResourceURLs });
    }
  }
  return {
    resourceRules,
    nonResourceRules,
    incomplete: false,
    ...(errors.length > 0 ? { evaluationError: aggregate(errors) } : {}),
  };
}

/** The request a SubjectAccessReview spec asks about. */
export function reviewAttributes(spec: Obj): RequestAttributes {
  const ra = spec.resourceAttributes as Obj | undefined | null;
  if (ra !== undefined && ra !== null) {
    return resourceAttributes({
      verb: String(ra.verb ?? ''),
      apiGroup: String(ra.group ?? ''),
      resource: String(ra.resource ?? ''),
      subresource: String(ra.subresource ?? ''),
      name: String(ra.name ?? ''),
      namespace: String(ra.namespace ?? ''),
    });
  }
  const nra = (spec.nonResourceAttributes ?? {}) as Obj;
  return {
    resourceRequest: false,
    verb: String(nra.verb ?? ''),
    apiGroup: '',
    resource: '',
    subresource: '',
    name: '',
    namespace: '',
    path: String(nra.path ?? ''),
  };
}
