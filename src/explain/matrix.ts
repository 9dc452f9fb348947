/**
 * `explain --subject --matrix`: rakkess' access matrix for one subject (optionally side by side with a second one),
 * every resource the cluster serves against the verbs get, list, watch, create, update, patch, delete and
 * deletecollection, each cell decided as the RBAC authorizer decides it (plugin/pkg/auth/authorizer/rbac/rbac.go:
 * the rules of every ClusterRoleBinding that names the subject and, for a namespaced resource with -n, of the
 * RoleBindings in that namespace; system:masters is allowed before RBAC is asked). A cell is a request without an
 * object name, so a rule limited to resourceNames does not allow it, as `kubectl auth can-i VERB RESOURCE` answers.
 * Rows are grouped the Crossplane way: Kubernetes' own API groups, Crossplane's, each provider family, each XRD, then
 * any other API group.
 */
import { requestAttributes, ruleAllows } from '../authz/authorize.js';
import { EffectiveRoles } from '../authz/effective-roles.js';
import { MASTERS_GROUP, matchingSubjects, type UserInfo } from '../authz/subjects.js';
import type { KnownResource } from '../crossplane/resource-names.js';
import { familyMembers } from '../crossplane/provider/roles.js';
import { LABEL_PARENT_PACKAGE, LABEL_PROVIDER_FAMILY } from '../crossplane/names.js';
import { isKubernetesGroup } from '../kube/api-names.js';
import { compareNames } from '../kube/order.js';
import type { PolicyRule, ProviderRevision } from '../kube/types.js';
import { identityOf, type SubjectRef } from './subject-types.js';
import { MATRIX_VERBS, type MatrixVerb } from './matrix-verbs.js';
import type { RbacSnapshot, ResolvedRole } from '../authz/effective-roles.js';

export type VerbCells = Readonly<Record<MatrixVerb, boolean>>;

export interface MatrixRow {
  /** The plural, as RBAC rules name it. */
  readonly resource: string;
  readonly group: string;
  /** Judged in the namespace (-n), or cluster-wide. */
  readonly namespaced: boolean;
  readonly allowed: VerbCells;
  /** --diff-with: the second subject's cells. */
  readonly otherAllowed?: VerbCells;
  /** Verbs allowed only by rules the aggregation controller has not stored yet: the API server denies them now. */
  readonly notStoredYet?: readonly MatrixVerb[];
  readonly otherNotStoredYet?: readonly MatrixVerb[];
}

export type MatrixGroupKind = 'kubernetes' | 'crossplane' | 'provider-family' | 'provider' | 'xrd' | 'other';

export interface MatrixGroup {
  readonly kind: MatrixGroupKind;
  /** The API group (`core` for the core group), provider family, provider package or XRD name. */
  readonly name: string;
  readonly resources: readonly MatrixRow[];
}

export interface MatrixSubject {
  readonly subject: SubjectRef;
  readonly user: UserInfo;
}

export interface AccessMatrix {
  readonly subject: SubjectRef;
  readonly user: UserInfo;
  readonly diffWith?: MatrixSubject;
  /** -n: namespaced resources are judged there; absent: cluster-wide (ClusterRoleBindings only). */
  readonly namespace?: string;
  readonly verbs: readonly MatrixVerb[];
  readonly groups: readonly MatrixGroup[];
  /** Rows left out: everything denied (with --diff-with: both subjects alike); --all keeps them. */
  readonly hidden: number;
}

export interface MatrixOptions {
  readonly subject: SubjectRef;
  /** --group: further groups of the subject. */
  readonly groups: readonly string[];
  readonly namespace?: string | undefined;
  readonly diffWith?: SubjectRef | undefined;
  /** Keep rows that would be hidden. */
  readonly all: boolean;
}

/** What the matrix reads: the RBAC objects, the resources served, and the ProviderRevisions for families. */
export interface MatrixInput {
  readonly rbac: RbacSnapshot;
  readonly resources: readonly KnownResource[];
  readonly providerRevisions: readonly ProviderRevision[];
}

interface ScopedRule {
  readonly rule: PolicyRule;
  readonly stored: boolean;
}

/** A subject's rules indexed by API group (rules naming `*` apply to every group). */
class RuleIndex {
  private readonly byGroup = new Map<string, ScopedRule[]>();
  private readonly anyGroup: ScopedRule[] = [];

  add(r: ScopedRule): void {
    const groups = r.rule.apiGroups ?? [];
    if (groups.includes('*')) {
      this.anyGroup.push(r);
      return;
    }
    for (const g of new Set(groups)) {
      let list = this.byGroup.get(g);
      if (list === undefined) this.byGroup.set(g, (list = []));
      list.push(r);
    }
  }

  candidates(group: string): readonly ScopedRule[] {
    return [...(this.byGroup.get(group) ?? []), ...this.anyGroup];
  }
}

interface Decider {
  /** allowed: by the converged rules; stored: by the rules stored now. */
  decide(resource: MatrixResource, verb: MatrixVerb): { allowed: boolean; stored: boolean };
}

interface MatrixResource {
  readonly group: string;
  readonly resource: string;
  readonly namespaced: boolean;
}

function decider(
  user: UserInfo,
  rbac: RbacSnapshot,
  roles: EffectiveRoles,
  namespace: string | undefined,
): Decider {
  if (user.groups.includes(MASTERS_GROUP)) return { decide: () => ({ allowed: true, stored: true }) };
  const clusterWide = new RuleIndex();
  const inNamespace = new RuleIndex();
  // A cell is allowed when any rule of any bound role allows it: a role bound many times adds its rules once (the
  // roles resolve to one object each), so the indexes grow with the roles bound, not with the bindings.
  const added = new Set<ResolvedRole>();
  const addRole = (role: ResolvedRole, clusterScoped: boolean): void => {
    if (added.has(role)) return;
    added.add(role);
    for (const rule of role.effective) {
      const r = { rule, stored: roles.isStored(role, rule) };
      if (clusterScoped) clusterWide.add(r);
      inNamespace.add(r);
    }
  };
  for (const b of rbac.clusterRoleBindings) {
    if (matchingSubjects(b, user).length === 0) continue;
    addRole(roles.resolve(b.roleRef, ''), true);
  }
  if (namespace !== undefined) {
    for (const b of rbac.roleBindings) {
      if ((b.metadata.namespace ?? '') !== namespace || matchingSubjects(b, user).length === 0) continue;
      addRole(roles.resolve(b.roleRef, namespace), false);
    }
  }
  return {
    decide(res, verb) {
      const ns = res.namespaced && namespace !== undefined ? namespace : '';
      // No name: the request is for every object of the resource (a list, a create, a collection).
      const attrs = requestAttributes(res, verb, undefined, ns);
      const rules = (ns === '' ? clusterWide : inNamespace).candidates(res.group);
      let allowed = false;
      for (const r of rules) {
        if (!ruleAllows(r.rule, attrs)) continue;
        if (r.stored) return { allowed: true, stored: true };
        allowed = true;
      }
      return { allowed, stored: false };
    },
  };
}

function cells(
  d: Decider,
  res: MatrixResource,
): { allowed: Record<MatrixVerb, boolean>; notStoredYet: MatrixVerb[] } {
  const allowed = {} as Record<MatrixVerb, boolean>;
  const notStoredYet: MatrixVerb[] = [];
  for (const verb of MATRIX_VERBS) {
    const c = d.decide(res, verb);
    allowed[verb] = c.allowed;
    if (c.allowed && !c.stored) notStoredYet.push(verb);
  }
  return { allowed, notStoredYet };
}

const GROUP_ORDER: readonly MatrixGroupKind[] = [
  'kubernetes',
  'crossplane',
  'provider-family',
  'provider',
  'xrd',
  'other',
];

function isCrossplaneGroup(group: string): boolean {
  return group === 'crossplane.io' || group.endsWith('.crossplane.io');
}

/**
 * Each ProviderRevision's group: its provider family (Crossplane's: the family label, same registry and
 * organisation; see familyMembers) or, without one, its Provider (the parent package label).
 */
function providerGroups(
  revisions: readonly ProviderRevision[],
): Map<string, { kind: MatrixGroupKind; name: string; key: string }> {
  const out = new Map<string, { kind: MatrixGroupKind; name: string; key: string }>();
  for (const rev of revisions) {
    const name = rev.metadata.name;
    const family = rev.metadata.labels?.[LABEL_PROVIDER_FAMILY];
    if (family !== undefined && family !== '') {
      // Two families may share a label but not a registry and organisation: key each by its first member.
      const first = [name, ...familyMembers(rev, revisions, {}).map((m) => m.metadata.name)].sort(
        compareNames,
      )[0];
      out.set(name, { kind: 'provider-family', name: family, key: first ?? name });
      continue;
    }
    const pkg = rev.metadata.labels?.[LABEL_PARENT_PACKAGE];
    const provider = pkg !== undefined && pkg !== '' ? pkg : name;
    out.set(name, { kind: 'provider', name: provider, key: provider });
  }
  return out;
}

function groupOf(
  r: KnownResource,
  providers: ReadonlyMap<string, { kind: MatrixGroupKind; name: string; key: string }>,
): { kind: MatrixGroupKind; name: string; key: string } {
  if (r.xrd !== undefined) return { kind: 'xrd', name: r.xrd, key: r.xrd };
  const provider = r.provider !== undefined ? providers.get(r.provider) : undefined;
  if (provider !== undefined) return provider;
  const name = r.group === '' ? 'core' : r.group;
  if (isKubernetesGroup(r.group)) return { kind: 'kubernetes', name, key: r.group };
  if (isCrossplaneGroup(r.group)) return { kind: 'crossplane', name, key: r.group };
  return { kind: 'other', name, key: r.group };
}

const same = (a: VerbCells, b: VerbCells): boolean => MATRIX_VERBS.every((v) => a[v] === b[v]);
const none = (a: VerbCells): boolean => MATRIX_VERBS.every((v) => !a[v]);

/** The matrix of one subject (and --diff-with's), over every resource given. */
export function accessMatrix(options: MatrixOptions, input: MatrixInput): AccessMatrix {
  const { namespace } = options;
  const roles = new EffectiveRoles(input.rbac.clusterRoles, input.rbac.roles);
  const user = identityOf(options.subject, options.groups);
  const main = decider(user, input.rbac, roles, namespace);
  const otherUser = options.diffWith !== undefined ? identityOf(options.diffWith, []) : undefined;
  const other = otherUser !== undefined ? decider(otherUser, input.rbac, roles, namespace) : undefined;
  const providers = providerGroups(input.providerRevisions);

  const groups = new Map<string, { kind: MatrixGroupKind; name: string; key: string; rows: MatrixRow[] }>();
  let hidden = 0;
  for (const r of input.resources) {
    // A managed resource known only by a ProviderRevision's objectRef: asked about in the namespace when one is given
    // (as explain --for and who-can resolve it).
    const res: MatrixResource = {
      group: r.group,
      resource: r.plural,
      namespaced: r.scopeUnknown === true ? namespace !== undefined : r.namespaced,
    };
    const mine = cells(main, res);
    const theirs = other !== undefined ? cells(other, res) : undefined;
    const boring = theirs !== undefined ? same(mine.allowed, theirs.allowed) : none(mine.allowed);
    if (boring && !options.all) {
      hidden++;
      continue;
    }
    const g = groupOf(r, providers);
    const id = `${g.kind}\u0000${g.key}`;
    let group = groups.get(id);
    if (group === undefined) groups.set(id, (group = { ...g, rows: [] }));
    group.rows.push({
      resource: res.resource,
      group: res.group,
      namespaced: res.namespaced,
      allowed: mine.allowed,
      ...(theirs !== undefined ? { otherAllowed: theirs.allowed } : {}),
      ...(mine.notStoredYet.length > 0 ? { notStoredYet: mine.notStoredYet } : {}),
      ...(theirs !== undefined && theirs.notStoredYet.length > 0
        ? { otherNotStoredYet: theirs.notStoredYet }
        : {}),
    });
  }
  const ordered = [...groups.values()].sort(
    (a, b) =>
      GROUP_ORDER.indexOf(a.kind) - GROUP_ORDER.indexOf(b.kind) ||
      // The core group first among Kubernetes' own.
      Number(b.name === 'core' && b.kind === 'kubernetes') -
        Number(a.name === 'core' && a.kind === 'kubernetes') ||
      compareNames(a.name, b.name) ||
      compareNames(a.key, b.key),
  );
  return {
    subject: options.subject,
    user,
    ...(options.diffWith !== undefined && otherUser !== undefined
      ? { diffWith: { subject: options.diffWith, user: otherUser } }
      : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    verbs: [...MATRIX_VERBS],
    groups: ordered.map((g) => ({
      kind: g.kind,
      name: g.name,
      resources: g.rows.sort(
        (a, b) => compareNames(a.group, b.group) || compareNames(a.resource, b.resource),
      ),
    })),
    hidden,
  };
}
