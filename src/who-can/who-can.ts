/**
 * `who-can`: every subject the cluster's RBAC lets make one request, each with the way it gets there (binding →
 * role → aggregation chain → rule). The rules are matched as the RBAC authorizer matches them
 * (plugin/pkg/auth/authorizer/rbac/rbac.go): every ClusterRoleBinding, and RoleBindings only in the request's
 * namespace. By default a ClusterRole grants the rules it stores, as the authorizer reads them (it never reads the
 * roles aggregated into it); with `converged`, the rules the aggregation controller converges to, each path through a
 * rule the controller has not stored yet marked.
 */
import type { AccessAttributes } from '../authz/authorize.js';
import { requestAttributes, ruleAllows } from '../authz/authorize.js';
import { EffectiveRoles } from '../authz/effective-roles.js';
import type { RbacSnapshot, ResolvedRole } from '../authz/effective-roles.js';
import { MASTERS_GROUP, normaliseSubject } from '../authz/subjects.js';
import type {
  ClusterRoleBinding,
  PolicyRule,
  ProviderRevision,
  RoleBinding,
  Subject,
} from '../kube/types.js';
import { familiesOf } from '../crossplane/provider/family.js';
import { compareNames } from '../kube/order.js';
import type { ResolvedResource } from '../crossplane/resolve-resource.js';

export interface WhoCanQuery {
  readonly verb: string;
  readonly resource: ResolvedResource;
  readonly name?: string;
  /** The namespace asked about; undefined for every namespace (-A). Ignored for cluster-scoped resources. */
  readonly namespace: string | undefined;
  /**
   * True: the rules the aggregation controller converges to (every ClusterRole must be in the snapshot); false or
   * absent: the rules each role stores, as the authorizer answers (only the roles the bindings reach are needed).
   */
  readonly converged?: boolean;
}

export interface ObjectRef {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/** One way a subject is allowed. */
export interface GrantPath {
  readonly binding: ObjectRef;
  readonly role: ObjectRef;
  /** For a ClusterRole that aggregates: from the bound role down to the role that holds the rule as its own. */
  readonly chain: readonly string[];
  readonly rule: PolicyRule;
  /** The rule's position in the role's effective rules. */
  readonly ruleIndex: number;
  /** False when the aggregation controller has not stored the rule in the bound role yet: the API server denies until it does. */
  readonly stored: boolean;
  /**
   * The other roles the bound one draws from that hold the same rule as their own (besides the chain's last), in
   * name order: a provider family's roles all carry the family's rules. Absent when none does.
   */
  readonly sharedWith?: readonly string[];
  /** The provider family the chain's last role and all of `sharedWith` belong to, when they do. */
  readonly family?: string;
}

export interface Grantee {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  /** system:masters: allowed by the API server before RBAC is asked, whatever the bindings say. */
  readonly always: boolean;
  readonly paths: readonly GrantPath[];
}

export interface WhoCanResult {
  /** The request, as the authorizer sees it; namespace absent for cluster-wide (or every namespace with -A). */
  readonly request: AccessAttributes;
  readonly resource: { readonly kind: string; readonly namespaced: boolean; readonly xrd?: string };
  readonly allNamespaces: boolean;
  readonly subjects: readonly Grantee[];
  /** Aggregated roles on a path whose stored rules differ from what the controller computes. */
  readonly drift: readonly string[];
}

const SUBJECT_ORDER = ['Group', 'User', 'ServiceAccount'];

function subjectKey(s: Subject): string {
  return JSON.stringify([s.kind, s.namespace ?? '', s.name]);
}

/**
 * SNAPSHOT's ProviderRevisions (when read) name the provider families, so that a rule every role of a family carries
 * is credited to the family.
 */
export function whoCan(
  query: WhoCanQuery,
  snapshot: RbacSnapshot & { readonly providerRevisions?: readonly ProviderRevision[] },
): WhoCanResult {
  const res = query.resource;
  const nonResource = res.path !== undefined;
  const namespaced = !nonResource && res.namespaced;
  // A cluster-scoped resource (and a URL) is asked about with no namespace, whatever -n says.
  const namespace = namespaced ? query.namespace : '';
  const base = requestAttributes(res, query.verb, query.name);
  // The authorizer reads a ClusterRole's stored rules: without its aggregationRule the role is taken as it stands.
  const clusterRoles =
    query.converged === true
      ? snapshot.clusterRoles
      : snapshot.clusterRoles.map(({ aggregationRule: _ignored, ...role }) => role);
  const roles = new EffectiveRoles(clusterRoles, snapshot.roles);
  let families: Map<string, string> | undefined;
  const familyOf = (role: string): string | undefined =>
    (families ??= familiesOf({
      providerRevisions: snapshot.providerRevisions ?? [],
      clusterRoles: snapshot.clusterRoles,
    })).get(role);
  const grantees = new Map<string, { subject: Subject; paths: GrantPath[] }>();
  const drift = new Set<string>();
  // Per role: the rules that allow the request, each with its chain, found once however many bindings name the role.
  type Hit = Omit<GrantPath, 'binding' | 'role'>;
  const matchCache = new Map<string, { role: ResolvedRole; hits: Hit[] }>();

  const consider = (binding: ClusterRoleBinding | RoleBinding, bindingNamespace: string): void => {
    const attrs = bindingNamespace === '' ? base : { ...base, namespace: bindingNamespace };
    const ref = binding.roleRef;
    const cacheKey = `${ref.kind}/${ref.kind === 'Role' ? bindingNamespace : ''}/${ref.name}`;
    let cached = matchCache.get(cacheKey);
    if (cached === undefined) {
      const role = roles.resolve(ref, bindingNamespace);
      const hits: Hit[] = [];
      role.effective.forEach((rule, i) => {
        if (!ruleAllows(rule, attrs)) return;
        const stored = roles.isStored(role, rule);
        if (!stored) drift.add(role.name);
        const chain = role.aggregated ? roles.chain(role.name, rule) : [role.name];
        const source = chain[chain.length - 1] ?? role.name;
        const others = role.aggregated ? roles.carriers(role.name, rule).filter((r) => r !== source) : [];
        const family = others.length > 0 ? familyOf(source) : undefined;
        const oneFamily = family !== undefined && others.every((r) => familyOf(r) === family);
        hits.push({
          chain,
          rule,
          ruleIndex: i,
          stored,
          ...(others.length > 0 ? { sharedWith: others } : {}),
          ...(oneFamily ? { family } : {}),
        });
      });
      matchCache.set(cacheKey, (cached = { role, hits }));
    }
    const { role, hits } = cached;
    if (hits.length === 0) return;
    const roleRef: ObjectRef =
      role.kind === 'Role'
        ? { kind: 'Role', name: role.name, namespace: bindingNamespace }
        : { kind: 'ClusterRole', name: role.name };
    const bindingRef: ObjectRef =
      binding.kind === 'RoleBinding'
        ? { kind: 'RoleBinding', name: binding.metadata.name, namespace: bindingNamespace }
        : { kind: 'ClusterRoleBinding', name: binding.metadata.name };
    const paths: GrantPath[] = hits.map((h) => ({
      binding: bindingRef,
      role: roleRef,
      chain: h.chain,
      rule: h.rule,
      ruleIndex: h.ruleIndex,
      stored: h.stored,
      ...(h.sharedWith !== undefined ? { sharedWith: h.sharedWith } : {}),
      ...(h.family !== undefined ? { family: h.family } : {}),
    }));
    for (const s of binding.subjects ?? []) {
      const subject = normaliseSubject(s, bindingNamespace);
      // A ServiceAccount subject of a ClusterRoleBinding without a namespace names nobody.
      if (subject.kind === 'ServiceAccount' && (subject.namespace ?? '') === '') continue;
      if (!SUBJECT_ORDER.includes(subject.kind)) continue;
      const key = subjectKey(subject);
      let entry = grantees.get(key);
      if (entry === undefined) grantees.set(key, (entry = { subject, paths: [] }));
      entry.paths.push(...paths);
    }
  };

  for (const b of snapshot.clusterRoleBindings) consider(b, '');
  if (namespaced) {
    for (const b of snapshot.roleBindings) {
      const ns = b.metadata.namespace ?? '';
      if (ns === '' || (namespace !== undefined && ns !== namespace)) continue;
      consider(b, ns);
    }
  }

  const subjects: Grantee[] = [...grantees.values()]
    .map(({ subject, paths }) => ({
      kind: subject.kind,
      name: subject.name,
      ...(subject.namespace !== undefined ? { namespace: subject.namespace } : {}),
      always: subject.kind === 'Group' && subject.name === MASTERS_GROUP,
      paths,
    }))
    .sort(
      (a, b) =>
        SUBJECT_ORDER.indexOf(a.kind) - SUBJECT_ORDER.indexOf(b.kind) ||
        compareNames(a.namespace ?? '', b.namespace ?? '') ||
        compareNames(a.name, b.name),
    );
  if (!subjects.some((s) => s.always)) {
    subjects.unshift({ kind: 'Group', name: MASTERS_GROUP, always: true, paths: [] });
  } else {
    const i = subjects.findIndex((s) => s.always);
    const [masters] = subjects.splice(i, 1);
    if (masters !== undefined) subjects.unshift(masters);
  }

  return {
    request: namespace !== undefined && namespace !== '' ? { ...base, namespace } : base,
    resource: {
      kind: res.kind,
      namespaced,
      ...(res.xrd !== undefined ? { xrd: res.xrd } : {}),
    },
    allNamespaces: namespaced && namespace === undefined,
    subjects,
    drift: [...drift].sort(compareNames),
  };
}
