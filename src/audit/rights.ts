/**
 * What one identity may do, as the RBAC authorizer decides it (plugin/pkg/auth/authorizer/rbac/rbac.go: every
 * ClusterRoleBinding, RoleBindings only in the request's namespace, each roleRef read with the rules the aggregation
 * controller converges to), and the binding → role → aggregation chain → rule that allows a request. Each role's
 * effective rules are resolved once for the whole audit (EffectiveRoles), each identity's bindings indexed once.
 */
import type { AccessAttributes } from '../authz/authorize.js';
import { ruleAllows } from '../authz/authorize.js';
import { EffectiveRoles } from '../authz/effective-roles.js';
import type { RbacSnapshot, ResolvedRole } from '../authz/effective-roles.js';
import {
  AUTHENTICATED_GROUP,
  MASTERS_GROUP,
  normaliseSubject,
  serviceAccountGroups,
  serviceAccountOfUsername,
  serviceAccountUsername,
} from '../authz/subjects.js';
import type { ClusterRoleBinding, PolicyRule, RoleBinding } from '../kube/types.js';

/** A user, group or service account (as bindings name them), or the rights of one ClusterRole (in one namespace). */
export interface Identity {
  readonly kind: 'User' | 'Group' | 'ServiceAccount' | 'ClusterRole';
  readonly name: string;
  readonly namespace?: string;
}

export function identityKey(i: Identity): string {
  return `${i.kind}/${i.namespace ?? ''}/${i.name}`;
}

export function identityText(i: Identity): string {
  return `${i.kind}/${i.namespace !== undefined ? `${i.namespace}/` : ''}${i.name}`;
}

/** The way one request is allowed: `via` is the binding, the role and the role's aggregation chain below it. */
export interface Allowed {
  readonly via: readonly string[];
  readonly rule: PolicyRule;
  /** The role whose own rule allows it (the end of the chain), and the binding. */
  readonly role: string;
  readonly binding: string;
  /** With stored rules: the role aggregates, so the rule came from a role its aggregationRule selects (not read). */
  readonly aggregatedFrom?: true;
}

interface Grant {
  readonly binding: string;
  readonly roleText: string;
  /** '' for a ClusterRoleBinding (or a ClusterRole's own rights): every namespace. */
  readonly namespace: string;
  readonly role: ResolvedRole;
}

function bindingText(b: ClusterRoleBinding | RoleBinding): string {
  return b.kind === 'RoleBinding'
    ? `RoleBinding/${b.metadata.namespace ?? ''}/${b.metadata.name}`
    : `ClusterRoleBinding/${b.metadata.name}`;
}

/**
 * The account a User subject's name stands for (`system:serviceaccount:NS:NAME`, as serviceaccount.SplitUsername
 * reads it), or undefined.
 */
export function accountOfUser(i: Identity): Identity | undefined {
  const sa = i.kind === 'User' ? serviceAccountOfUsername(i.name) : undefined;
  return sa === undefined ? undefined : { kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace };
}

/**
 * The other subjects bindings reach the identity by: a ServiceAccount is also the User its token names
 * (`system:serviceaccount:NS:NAME`: the authorizer's appliesToUser compares a User subject's name with it, in
 * pkg/registry/rbac/validation/rule.go), and that User is the account.
 */
function aliases(i: Identity): Identity[] {
  if (i.kind === 'ServiceAccount') {
    return [{ kind: 'User', name: serviceAccountUsername(i.namespace ?? '', i.name) }];
  }
  const account = accountOfUser(i);
  return account !== undefined ? [account] : [];
}

/** The groups the API server gives an identity besides those bindings name it by. */
function impliedGroups(i: Identity): string[] {
  const account = accountOfUser(i) ?? i;
  if (account.kind === 'ServiceAccount') return serviceAccountGroups(account.namespace ?? '');
  if (account.kind === 'User') return [AUTHENTICATED_GROUP];
  return [];
}

export class Rights {
  readonly roles: EffectiveRoles;
  private readonly bySubject = new Map<string, { binding: ClusterRoleBinding | RoleBinding; ns: string }[]>();
  private readonly resolved = new Map<string, ResolvedRole>();
  private readonly grants = new Map<string, Grant[]>();
  /** allows' answers for identities held in every namespace only, by identity and request (namespace aside). */
  private readonly answers = new Map<string, Allowed | undefined>();
  /** Per rule list (a role's stored or effective rules), the indices of its rules by API group (firstAllowing). */
  private readonly byGroup = new WeakMap<readonly PolicyRule[], Map<string, number[]>>();
  /** Every subject a binding names (normalised), in binding order, once. */
  readonly subjects: Identity[] = [];

  /**
   * STORED: each role grants the rules it stores, as the API server's authorizer reads them (the roles an aggregated
   * one selects need not have been read); else the rules the aggregation controller converges to, with their chain.
   */
  constructor(
    snapshot: RbacSnapshot,
    private readonly stored = false,
  ) {
    this.roles = new EffectiveRoles(snapshot.clusterRoles, snapshot.roles);
    const add = (b: ClusterRoleBinding | RoleBinding, ns: string): void => {
      for (const raw of b.subjects ?? []) {
        const s = normaliseSubject(raw, ns);
        if (s.kind !== 'User' && s.kind !== 'Group' && s.kind !== 'ServiceAccount') continue;
        // A ServiceAccount subject of a ClusterRoleBinding without a namespace names nobody.
        if (s.kind === 'ServiceAccount' && (s.namespace ?? '') === '') continue;
        const id: Identity =
          s.kind === 'ServiceAccount'
            ? { kind: s.kind, name: s.name, namespace: s.namespace ?? '' }
            : { kind: s.kind, name: s.name };
        const key = identityKey(id);
        let list = this.bySubject.get(key);
        if (list === undefined) {
          this.bySubject.set(key, (list = []));
          this.subjects.push(id);
        }
        list.push({ binding: b, ns });
      }
    };
    for (const b of snapshot.clusterRoleBindings) add(b, '');
    for (const b of snapshot.roleBindings) {
      const ns = b.metadata.namespace ?? '';
      if (ns !== '') add(b, ns);
    }
  }

  /**
   * Gives the made-up ClusterRole NAME (no object of the cluster: e.g. Crossplane's account limited to some kinds)
   * RULES, once; an identity of that kind and name then holds them.
   */
  define(name: string, rules: readonly PolicyRule[]): void {
    const key = `ClusterRole//${name}`;
    if (this.resolved.has(key)) return;
    this.resolved.set(key, {
      kind: 'ClusterRole',
      name,
      found: true,
      aggregated: false,
      effective: rules,
      stored: rules,
      drift: false,
    });
  }

  clusterRole(name: string): ResolvedRole {
    const key = `ClusterRole//${name}`;
    let r = this.resolved.get(key);
    if (r === undefined) this.resolved.set(key, (r = this.roles.clusterRole(name)));
    return r;
  }

  private resolve(b: ClusterRoleBinding | RoleBinding, ns: string): ResolvedRole {
    const key = `${b.roleRef.kind}/${b.roleRef.kind === 'Role' ? ns : ''}/${b.roleRef.name}`;
    let r = this.resolved.get(key);
    if (r === undefined) this.resolved.set(key, (r = this.roles.resolve(b.roleRef, ns)));
    return r;
  }

  /** Every binding that applies to the identity (its own and its groups'), each with its role's effective rules. */
  grantsOf(i: Identity): readonly Grant[] {
    const key = identityKey(i);
    const cached = this.grants.get(key);
    if (cached !== undefined) return cached;
    const out: Grant[] = [];
    if (i.kind === 'ClusterRole') {
      // With a namespace: the ClusterRole's rights in that namespace only (as a RoleBinding gives them).
      out.push({
        binding: '',
        roleText: `ClusterRole/${i.name}`,
        namespace: i.namespace ?? '',
        role: this.clusterRole(i.name),
      });
    } else {
      const keys = [
        key,
        ...aliases(i).map(identityKey),
        ...impliedGroups(i).map((g) => identityKey({ kind: 'Group', name: g })),
      ];
      for (const k of keys) {
        for (const { binding, ns } of this.bySubject.get(k) ?? []) {
          const role = this.resolve(binding, ns);
          const roleText = role.kind === 'Role' ? `Role/${ns}/${role.name}` : `ClusterRole/${role.name}`;
          out.push({ binding: bindingText(binding), roleText, namespace: ns, role });
        }
      }
    }
    this.grants.set(key, out);
    return out;
  }

  /**
   * How the identity is allowed the request, or undefined. A request without a namespace for a namespaced resource
   * means every namespace: only ClusterRoleBindings count, as the authorizer counts them for a cluster-wide list.
   */
  allows(i: Identity, attrs: AccessAttributes): Allowed | undefined {
    if (i.kind === 'Group' && i.name === MASTERS_GROUP) {
      return { via: ['built in: system:masters'], rule: ALL_RULE, role: '', binding: '' };
    }
    const grants = this.grantsOf(i);
    // Held in every namespace only: the answer is the same in each, so it is worked out once (the steps ask it of
    // every namespace with service accounts).
    const memoKey = grants.every((g) => g.namespace === '')
      ? `${identityKey(i)}\u0000${attrs.verb}\u0000${attrs.apiGroup}\u0000${attrs.resource}\u0000${attrs.subresource ?? ''}\u0000${attrs.name ?? ''}`
      : undefined;
    if (memoKey !== undefined && this.answers.has(memoKey)) return this.answers.get(memoKey);
    const answer = this.allowsIn(grants, attrs);
    if (memoKey !== undefined) this.answers.set(memoKey, answer);
    return answer;
  }

  private allowsIn(grants: readonly Grant[], attrs: AccessAttributes): Allowed | undefined {
    const ns = attrs.namespace ?? '';
    for (const g of grants) {
      if (g.namespace !== '' && g.namespace !== ns) continue;
      const rule = this.firstAllowing(this.rulesOf(g.role), attrs);
      if (rule === undefined) continue;
      const bound = [...(g.binding !== '' ? [g.binding] : []), g.roleText];
      if (this.stored) {
        const from = g.role.aggregated ? { aggregatedFrom: true as const } : {};
        return { via: bound, rule, role: g.role.name, binding: g.binding, ...from };
      }
      const chain = g.role.aggregated ? this.roles.chain(g.role.name, rule) : [g.role.name];
      return {
        via: [...bound, ...chain.slice(1)],
        rule,
        role: chain[chain.length - 1] ?? g.role.name,
        binding: g.binding,
      };
    }
    return undefined;
  }

  /**
   * The first of RULES that allows the request (the one the chain names): only the rules of the request's API group
   * or `*` are tried, in their order, through an index built once per rule list. A made-up role (what Crossplane's
   * account may bind) holds thousands of rules, and the steps ask it hundreds of questions.
   */
  private firstAllowing(rules: readonly PolicyRule[], attrs: AccessAttributes): PolicyRule | undefined {
    if (attrs.path !== undefined || rules.length < INDEXED_FROM)
      return rules.find((r) => ruleAllows(r, attrs));
    let index = this.byGroup.get(rules);
    if (index === undefined) {
      index = new Map<string, number[]>();
      for (const [i, r] of rules.entries()) {
        for (const g of new Set(r.apiGroups ?? [])) {
          let list = index.get(g);
          if (list === undefined) index.set(g, (list = []));
          list.push(i);
        }
      }
      this.byGroup.set(rules, index);
    }
    const own = index.get(attrs.apiGroup ?? '') ?? [];
    const any = (attrs.apiGroup ?? '') === '*' ? [] : (index.get('*') ?? []);
    // Both lists are in the rules' order: merged, the first rule that allows is the one a plain scan finds.
    for (let a = 0, b = 0; a < own.length || b < any.length;) {
      const next = b >= any.length || (a < own.length && (own[a] ?? 0) < (any[b] ?? 0)) ? own[a++] : any[b++];
      const rule = rules[next ?? 0];
      if (rule !== undefined && ruleAllows(rule, attrs)) return rule;
    }
    return undefined;
  }

  /** Whether any rule the identity holds names VERB (or `*`): a cheap test before asking name by name. */
  mayUseVerb(i: Identity, verb: string): boolean {
    if (i.kind === 'Group' && i.name === MASTERS_GROUP) return true;
    return this.grantsOf(i).some((g) =>
      this.rulesOf(g.role).some((r) => r.verbs.includes(verb) || r.verbs.includes('*')),
    );
  }

  /** A ClusterRole's rules as this audit reads them: stored (as the authorizer and the escalation check) or converged. */
  clusterRoleRules(name: string): readonly PolicyRule[] {
    return this.rulesOf(this.clusterRole(name));
  }

  private rulesOf(role: ResolvedRole): readonly PolicyRule[] {
    return this.stored ? role.stored : role.effective;
  }

  /**
   * Every rule the identity holds in NAMESPACE ('' : its ClusterRoleBindings' only), as the escalation check
   * gathers them (pkg/registry/rbac/validation/rule.go GetEffectivePolicyRules).
   */
  rulesIn(i: Identity, namespace: string): PolicyRule[] {
    if (i.kind === 'Group' && i.name === MASTERS_GROUP) return [ALL_RULE];
    return this.grantsOf(i)
      .filter((g) => g.namespace === '' || g.namespace === namespace)
      .flatMap((g) => this.rulesOf(g.role));
  }

  /** The ClusterRoles the identity holds in every namespace (through ClusterRoleBindings). */
  clusterRolesBound(i: Identity): string[] {
    return this.grantsOf(i)
      .filter((g) => g.namespace === '' && g.role.kind === 'ClusterRole')
      .map((g) => g.role.name);
  }
}

/** Rule lists shorter than this are scanned: an index pays off only for long ones. */
const INDEXED_FROM = 32;

const ALL_RULE: PolicyRule = { apiGroups: ['*'], resources: ['*'], verbs: ['*'] };
