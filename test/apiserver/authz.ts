/**
 * Authentication (bearer tokens, impersonation) and the RBAC authorizer: which rules apply to a user
 * (plugin/pkg/auth/authorizer/rbac and pkg/registry/rbac/validation/rule.go), the request's decision, and
 * the escalation checks of the RBAC storage (pkg/registry/rbac/*\/policybased).
 * The matching rules themselves come from the product's src/rbac/authorize.ts.
 */
import type { PolicyRule } from '../../src/rbac/types.js';
import type { AccessAttributes } from '../../src/rbac/authorize.js';
import { coversRules, formatRuleForStatus, rulesAllow } from '../../src/rbac/authorize.js';

type Obj = Record<string, any>;

export interface UserInfo {
  readonly name: string;
  readonly groups: readonly string[];
}

export const MASTERS = 'system:masters';
export const AUTHENTICATED = 'system:authenticated';

/** What the authorizer reads from the store. */
export interface PolicySource {
  list(
    resource: 'clusterroles' | 'clusterrolebindings' | 'roles' | 'rolebindings',
    namespace?: string,
  ): readonly Obj[];
  get(resource: 'clusterroles' | 'roles', name: string, namespace?: string): Obj | undefined;
}

/**
 * The rules the default bootstrap bindings give every authenticated user (system:discovery,
 * system:basic-user, system:public-info-viewer): a real cluster always has them, and kubectl needs
 * discovery and self reviews to work for any user. Modelled here so that the store stays as seeded.
 */
export const AUTHENTICATED_DEFAULT_RULES: readonly PolicyRule[] = [
  {
    verbs: ['get'],
    nonResourceURLs: [
      '/api',
      '/api/*',
      '/apis',
      '/apis/*',
      '/healthz',
      '/livez',
      '/openapi',
      '/openapi/*',
      '/readyz',
      '/version',
      '/version/',
    ],
  },
  {
    verbs: ['create'],
    apiGroups: ['authorization.k8s.io'],
    resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
  },
  { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
];

/** The rules system:masters holds (the privileged-group authorizer's answer to a rules review). */
export const FULL_AUTHORITY: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

function serviceAccountUser(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

function appliesTo(user: UserInfo, subject: Obj, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      // A RoleBinding's subject without a namespace means the binding's own namespace.
      const ns = (subject.namespace as string | undefined) || bindingNamespace;
      return ns !== '' && user.name === serviceAccountUser(ns, subject.name);
    }
    default:
      return false;
  }
}

function rulesOfRef(source: PolicySource, ref: Obj | undefined, namespace: string): PolicyRule[] | undefined {
  if (ref?.kind === 'ClusterRole') return (source.get('clusterroles', ref.name)?.rules ?? []) as PolicyRule[];
  if (ref?.kind === 'Role') {
    const role = source.get('roles', ref.name, namespace);
    return role === undefined ? undefined : ((role.rules ?? []) as PolicyRule[]);
  }
  return undefined;
}

/** Every rule the RBAC authorizer grants the user in the namespace ("" = cluster scope), in visiting order. */
export function rulesFor(source: PolicySource, user: UserInfo, namespace: string): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const b of source.list('clusterrolebindings')) {
    if (!((b.subjects ?? []) as Obj[]).some((s) => appliesTo(user, s, ''))) continue;
    if (b.roleRef?.kind !== 'ClusterRole') continue;
    out.push(...(rulesOfRef(source, b.roleRef, '') ?? []));
  }
  if (namespace !== '') {
    for (const b of source.list('rolebindings', namespace)) {
      if (!((b.subjects ?? []) as Obj[]).some((s) => appliesTo(user, s, namespace))) continue;
      out.push(...(rulesOfRef(source, b.roleRef, namespace) ?? []));
    }
  }
  if (user.groups.includes(AUTHENTICATED)) out.push(...AUTHENTICATED_DEFAULT_RULES);
  return out;
}

export function isMaster(user: UserInfo): boolean {
  return user.groups.includes(MASTERS);
}

export function authorize(source: PolicySource, user: UserInfo, attrs: AccessAttributes): boolean {
  if (isMaster(user)) return true;
  return rulesAllow(rulesFor(source, user, attrs.namespace ?? ''), attrs);
}

/** responsewriters.forbiddenMessage */
export function forbiddenMessage(user: UserInfo, attrs: AccessAttributes): string {
  if (attrs.path !== undefined) return `User "${user.name}" cannot ${attrs.verb} path "${attrs.path}"`;
  const resource = attrs.subresource
    ? `${attrs.resource ?? ''}/${attrs.subresource}`
    : (attrs.resource ?? '');
  const where = attrs.namespace ? `in the namespace "${attrs.namespace}"` : 'at the cluster scope';
  return `User "${user.name}" cannot ${attrs.verb} resource "${resource}" in API group "${attrs.apiGroup ?? ''}" ${where}`;
}

function goQuoteList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

/** rbac validation.ConfirmNoEscalation: undefined when covered, else the error text. */
export function confirmNoEscalation(
  source: PolicySource,
  user: UserInfo,
  namespace: string,
  rules: readonly PolicyRule[],
): string | undefined {
  const owner = rulesFor(source, user, namespace);
  const result = coversRules(owner, rules);
  if (result.covered) return undefined;
  const lines = [...new Set(result.missing.map(formatRuleForStatus))].sort();
  return `user "${user.name}" (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
}

export type EscalationOutcome =
  | { ok: true }
  | { ok: false; status: 403 | 404; message: string; notFound?: { resource: string; name: string } };

/**
 * The checks the RBAC storage runs before writing a role or binding (create, or update with the old object).
 * `requestName` is the name in the URL ("" on create), as RoleEscalationAuthorized reads it from RequestInfo.
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
  if (isMaster(user)) return { ok: true };
  if (old !== undefined && onlyGcFieldsChanged(obj, old)) return { ok: true };
  const group = 'rbac.authorization.k8s.io';
  if (resource === 'clusterroles' || resource === 'roles') {
    const escalate = authorize(source, user, {
      verb: 'escalate',
      apiGroup: group,
      resource,
      name: requestName,
      namespace,
    });
    if (escalate) return { ok: true };
    const denied = confirmNoEscalation(source, user, namespace, obj.rules ?? []);
    if (denied !== undefined) return { ok: false, status: 403, message: denied };
    const hasAggregation =
      resource === 'clusterroles' && obj.aggregationRule !== undefined && obj.aggregationRule !== null;
    const aggregationChanged =
      old === undefined || JSON.stringify(old.aggregationRule) !== JSON.stringify(obj.aggregationRule);
    if (
      hasAggregation &&
      aggregationChanged &&
      confirmNoEscalation(source, user, namespace, FULL_AUTHORITY) !== undefined
    ) {
      return {
        ok: false,
        status: 403,
        message: 'must have cluster-admin privileges to use the aggregationRule',
      };
    }
    return { ok: true };
  }
  // Bindings: `bind` on the referenced role, or holding every rule it grants.
  const ref = (obj.roleRef ?? {}) as Obj;
  const refResource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : undefined;
  if (refResource !== undefined) {
    const bind = authorize(source, user, {
      verb: 'bind',
      apiGroup: ref.apiGroup ?? '',
      resource: refResource,
      name: ref.name ?? '',
      namespace,
    });
    if (bind) return { ok: true };
  }
  const rules = rulesOfRef(source, ref, namespace);
  if (
    rules === undefined ||
    (ref.kind === 'ClusterRole' && source.get('clusterroles', ref.name) === undefined)
  ) {
    return {
      ok: false,
      status: 404,
      message: '',
      notFound: { resource: refResource ?? 'roles', name: String(ref.name ?? '') },
    };
  }
  const denied = confirmNoEscalation(source, user, namespace, rules);
  return denied === undefined ? { ok: true } : { ok: false, status: 403, message: denied };
}

/** rbacregistry.IsOnlyMutatingGCFields: only ownerReferences/finalizers differ. */
function onlyGcFieldsChanged(obj: Obj, old: Obj): boolean {
  const strip = (o: Obj): string => {
    const c = structuredClone(o);
    if (c.metadata) {
      delete c.metadata.ownerReferences;
      delete c.metadata.finalizers;
      delete c.metadata.resourceVersion;
      delete c.metadata.managedFields;
    }
    return JSON.stringify(c);
  };
  return strip(obj) === strip(old) && JSON.stringify(obj) !== JSON.stringify(old);
}

/** SelfSubjectRulesReview status for a user in a namespace. */
export function rulesReviewStatus(source: PolicySource, user: UserInfo, namespace: string): Obj {
  const rules = isMaster(user)
    ? [...FULL_AUTHORITY, ...rulesFor(source, user, namespace)]
    : rulesFor(source, user, namespace);
  const resourceRules: Obj[] = [];
  const nonResourceRules: Obj[] = [];
  for (const r of rules) {
    if ((r.resources ?? []).length > 0) {
      resourceRules.push({
        verbs: r.verbs,
        ...(r.apiGroups !== undefined ? { apiGroups: r.apiGroups } : {}),
        resources: r.resources,
        ...(r.resourceNames !== undefined && r.resourceNames.length > 0
          ? { resourceNames: r.resourceNames }
          : {}),
      });
    }
    if ((r.nonResourceURLs ?? []).length > 0)
      nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs });
  }
  return { resourceRules, nonResourceRules, incomplete: false };
}

/** Attributes of a SubjectAccessReview spec. */
export function reviewAttributes(spec: Obj): AccessAttributes {
  const ra = spec.resourceAttributes as Obj | undefined;
  const nra = spec.nonResourceAttributes as Obj | undefined;
  if (ra !== undefined && ra !== null) {
    return {
      verb: ra.verb ?? '',
      apiGroup: ra.group ?? '',
      resource: ra.resource ?? '',
      subresource: ra.subresource ?? '',
      name: ra.name ?? '',
      namespace: ra.namespace ?? '',
    };
  }
  return { verb: nra?.verb ?? '', path: nra?.path ?? '' };
}
