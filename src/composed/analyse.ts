/**
 * The composed half of what Crossplane's service account needs (pure): each kind the sources name, resolved to its
 * resource, checked against what the account is granted (the RBAC authorizer's own rules, over the roles as the
 * aggregation controller converges them and every ClusterRoleBinding that reaches the account), and the missing
 * ones rendered as `crossplane:composed:<group>` ClusterRoles that aggregate into Crossplane's role.
 *
 * Only the sources that grant (sources.ts: Compositions, CompositionRevisions, Operations of each kind) put a kind in
 * a role. A kind only XRs' references, their conditions or Crossplane's Events name is `reported`: shown with what
 * the account lacks, never rendered, never refused (so never held).
 *
 * Only cluster-wide grants count: Crossplane composes in every namespace its XRs live in, and its watches (realtime
 * composition) list and watch each composed kind across all namespaces.
 */
import type { ClusterRole, KubeObject, PolicyRule } from '../kube/types.js';
import { compareStrings } from '../kube/order.js';
import type { KnownResource } from '../crossplane/resource-names.js';
import { buildClusterRole } from '../crossplane/object-builders.js';
import {
  composedRoleName,
  LABEL_AGGREGATE_TO_CROSSPLANE,
  LABEL_MANAGED_BY,
  LABEL_VALUE_TRUE,
  MANAGED_BY_VALUE,
} from '../crossplane/names.js';
import { EffectiveRoles, type RbacSnapshot } from '../authz/effective-roles.js';
import { rulesAllow } from '../authz/authorize.js';
import { privilegedOnBehalfReason } from '../authz/privileged-rules.js';
import { matchingSubjects, serviceAccountUser, serviceAccountUsername } from '../authz/subjects.js';
import {
  composedByComposite,
  composedByComposition,
  deniedInConditions,
  deniedInEvent,
  isCrossplaneCompositeEvent,
  isGrantingEvidence,
  neededByOperation,
  type Access,
  type Evidence,
  type GroupKind,
  type KindNeed,
  type NotAnalysed,
  type ResourceNeed,
} from './sources.js';

/** Crossplane's composite reconciler: server-side apply (create, patch), get, delete, and watches. */
export const COMPOSE_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] as const;
/** A watched kind (WatchOperation): read only. */
export const WATCH_VERBS = ['get', 'list', 'watch'] as const;

export interface ComposedInput {
  /** Compositions and CompositionRevisions. */
  readonly compositions: readonly KubeObject[];
  /** Composite resources and claims (their references and conditions: evidence only). */
  readonly composites: readonly KubeObject[];
  /** The XR and claim kinds the XRDs define: an Event counts as evidence only when it is about one of them. */
  readonly compositeKinds: readonly GroupKind[];
  /** Events (evidence only). */
  readonly events: readonly KubeObject[];
  /** Operations, CronOperations and WatchOperations. */
  readonly operations: readonly KubeObject[];
  /** The resources the cluster serves (discovery), or offline the built-in kinds and the CRDs and XRDs read. */
  readonly known: readonly KnownResource[];
  /** The RBAC Crossplane's account is judged against; the plugin's own composed roles must not be in it. */
  readonly rbac: RbacSnapshot;
  /**
   * The RBAC as it is now, when RBAC differs from it (the rest of sync overlaid): a kind RBAC grants and this does
   * not is granted only once sync has run. Undefined: RBAC is the RBAC of now.
   */
  readonly now?: RbacSnapshot;
  readonly account: { readonly namespace: string; readonly name: string };
  readonly allowPrivileged: boolean;
}

/** One composed resource and what the account lacks of it. */
export interface ComposedGrant {
  readonly group: string;
  readonly resource: string;
  readonly kind: string;
  readonly access: Access;
  /**
   * granted: the account has every verb; missing: rendered; refused: privileged, not rendered without the flag;
   * reported: lacking, but only evidence names it (no source that grants), so never rendered nor refused.
   */
  readonly status: 'granted' | 'missing' | 'refused' | 'reported';
  /** The verbs the account lacks (empty when granted). */
  readonly lacking: readonly string[];
  /**
   * The verbs the account lacks now, before any sync: more than LACKING when the rest of sync (provider and XRD
   * roles) grants the others.
   */
  readonly lackingNow: readonly string[];
  /** Why a refused resource is privileged. */
  readonly privileged?: string;
  readonly evidence: readonly Evidence[];
}

/** A kind (or, from a forbidden message, a resource) no served resource matches: its CRD is not installed yet. */
export interface Unresolved {
  /** `Kind.group/version` for a kind, `resource.group` for a resource, as kubectl names them. */
  readonly name: string;
  readonly reason: string;
  readonly evidence: readonly Evidence[];
}

export interface ComposedAnalysis {
  readonly account: string;
  readonly grants: readonly ComposedGrant[];
  readonly unresolved: readonly Unresolved[];
  readonly notAnalysed: readonly NotAnalysed[];
  /** The ClusterRoles that grant what is missing, one per API group, sorted by name. */
  readonly roles: readonly ClusterRole[];
}

function groupOfApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** A kind as kubectl prints one: `Kind.version.group` (`Kind.version` in the core group). */
function kindName(apiVersion: string, kind: string): string {
  const { group, version } = groupOfApiVersion(apiVersion);
  return group === '' ? `${kind}.${version}` : `${kind}.${version}.${group}`;
}

interface Gathered {
  readonly kinds: KindNeed[];
  readonly resources: ResourceNeed[];
  readonly notAnalysed: NotAnalysed[];
}

function gather(input: ComposedInput, user: string): Gathered {
  const kinds: KindNeed[] = [];
  const notAnalysed: NotAnalysed[] = [];
  for (const c of input.compositions) {
    const r = composedByComposition(c);
    kinds.push(...r.needs);
    notAnalysed.push(...r.notAnalysed);
  }
  for (const xr of input.composites) kinds.push(...composedByComposite(xr));
  for (const op of input.operations) kinds.push(...neededByOperation(op));
  const resources = [
    ...input.events
      .filter(
        (e) =>
          (e.type === undefined || e.type === 'Warning') &&
          isCrossplaneCompositeEvent(e, input.compositeKinds),
      )
      .flatMap((e) => deniedInEvent(e, user)),
    ...input.composites.flatMap((o) => deniedInConditions(o, user)),
  ];
  return { kinds, resources, notAnalysed };
}

/** The known resource of GROUP and KIND (kinds are unique within a group); ProviderRevision refs name no kind. */
function byKind(known: readonly KnownResource[], group: string, kind: string): KnownResource | undefined {
  return known.find((k) => k.group === group && k.kind === kind);
}

interface Entry {
  group: string;
  resource: string;
  kind: string;
  /** The access the sources that grant ask for; undefined: only evidence names the resource. */
  granting: Access | undefined;
  /** The access the evidence names (reported, never granted). */
  reported: Access | undefined;
  evidence: Evidence[];
}

function wider(a: Access | undefined, b: Access): Access {
  return a === 'write' || b === 'write' ? 'write' : 'read';
}

function mergeInto(into: Map<string, Entry>, r: KnownResource, access: Access, evidence: Evidence): void {
  const key = `${r.group}/${r.plural}`;
  const e = into.get(key) ?? {
    group: r.group,
    resource: r.plural,
    kind: r.kind,
    granting: undefined,
    reported: undefined,
    evidence: [],
  };
  into.set(key, e);
  // Evidence never widens a grant: an XR naming a kind a WatchOperation watches does not make it writable.
  if (isGrantingEvidence(evidence)) e.granting = wider(e.granting, access);
  else e.reported = wider(e.reported, access);
  if (e.kind === '' && r.kind !== '') e.kind = r.kind;
  e.evidence.push(evidence);
}

/** The verbs of VERBS the account is not granted cluster-wide on GROUP/RESOURCE. */
function lackingVerbs(
  rules: readonly PolicyRule[],
  group: string,
  resource: string,
  verbs: readonly string[],
): string[] {
  return verbs.filter((verb) => !rulesAllow(rules, { verb, apiGroup: group, resource }));
}

/** The rules that reach the account cluster-wide: every ClusterRoleBinding naming it, its role as converged. */
export function accountRules(rbac: RbacSnapshot, account: { namespace: string; name: string }): PolicyRule[] {
  const user = serviceAccountUser(account.namespace, account.name);
  const roles = new EffectiveRoles(rbac.clusterRoles, rbac.roles);
  return rbac.clusterRoleBindings
    .filter((b) => matchingSubjects(b, user).length > 0)
    .flatMap((b) => roles.resolve(b.roleRef, '').effective);
}

function renderRoles(grants: readonly ComposedGrant[]): ClusterRole[] {
  const groups = new Map<string, { write: string[]; read: string[] }>();
  for (const g of grants) {
    if (g.status !== 'missing') continue;
    const e = groups.get(g.group) ?? { write: [], read: [] };
    (g.access === 'write' ? e.write : e.read).push(g.resource);
    groups.set(g.group, e);
  }
  return [...groups.entries()]
    .map(([group, { write, read }]) => {
      const rules: PolicyRule[] = [];
      if (write.length > 0)
        rules.push({ apiGroups: [group], resources: write.sort(compareStrings), verbs: [...COMPOSE_VERBS] });
      if (read.length > 0)
        rules.push({ apiGroups: [group], resources: read.sort(compareStrings), verbs: [...WATCH_VERBS] });
      return buildClusterRole({
        name: composedRoleName(group),
        labels: { [LABEL_MANAGED_BY]: MANAGED_BY_VALUE, [LABEL_AGGREGATE_TO_CROSSPLANE]: LABEL_VALUE_TRUE },
        rules,
      });
    })
    .sort((a, b) => compareStrings(a.metadata.name, b.metadata.name));
}

function evidenceKey(e: Evidence): string {
  return JSON.stringify(e);
}

function uniqueEvidence(list: readonly Evidence[]): Evidence[] {
  const seen = new Map<string, Evidence>();
  for (const e of list) seen.set(evidenceKey(e), e);
  return [...seen.entries()].sort(([a], [b]) => compareStrings(a, b)).map(([, e]) => e);
}

/** Finds what Crossplane composes, what its account lacks of it, and the roles that grant exactly that. */
export function analyseComposed(input: ComposedInput): ComposedAnalysis {
  const user = serviceAccountUsername(input.account.namespace, input.account.name);
  const gathered = gather(input, user);
  const resolved = new Map<string, Entry>();
  const unresolved = new Map<string, { name: string; reason: string; evidence: Evidence[] }>();
  const unresolvedOf = (name: string, reason: string, evidence: Evidence): void => {
    const u = unresolved.get(name) ?? { name, reason, evidence: [] };
    u.evidence.push(evidence);
    unresolved.set(name, u);
  };
  for (const need of gathered.kinds) {
    const { group } = groupOfApiVersion(need.apiVersion);
    const r = byKind(input.known, group, need.kind);
    if (r === undefined) {
      unresolvedOf(
        kindName(need.apiVersion, need.kind),
        `no resource of kind ${need.kind} is served in API group "${group}" (is its CRD installed?)`,
        need.evidence,
      );
    } else mergeInto(resolved, r, need.access, need.evidence);
  }
  for (const need of gathered.resources) {
    // A forbidden message names its resource as the API server resolved it; it enters a rule only when the cluster
    // serves it, so no message can make the plugin grant a name it made up.
    const r = input.known.find((k) => k.group === need.group && k.plural === need.resource);
    if (r === undefined) {
      unresolvedOf(
        need.group === '' ? need.resource : `${need.resource}.${need.group}`,
        `the cluster serves no resource "${need.resource}" in API group "${need.group}"`,
        need.evidence,
      );
    } else mergeInto(resolved, r, need.access, need.evidence);
  }
  const rules = accountRules(input.rbac, input.account);
  const rulesNow = input.now !== undefined ? accountRules(input.now, input.account) : rules;
  const grants: ComposedGrant[] = [...resolved.values()]
    .sort((a, b) => compareStrings(a.group, b.group) || compareStrings(a.resource, b.resource))
    .map((e) => {
      const access = e.granting ?? e.reported ?? 'write';
      const verbs = access === 'write' ? COMPOSE_VERBS : WATCH_VERBS;
      const lacking = lackingVerbs(rules, e.group, e.resource, verbs);
      const privileged =
        lacking.length > 0 && e.granting !== undefined
          ? privilegedOnBehalfReason({ apiGroups: [e.group], resources: [e.resource], verbs: [...verbs] })
          : undefined;
      const status =
        lacking.length === 0
          ? 'granted'
          : e.granting === undefined
            ? 'reported'
            : privileged !== undefined && !input.allowPrivileged
              ? 'refused'
              : 'missing';
      return {
        group: e.group,
        resource: e.resource,
        kind: e.kind,
        access,
        status,
        lacking,
        lackingNow: rulesNow === rules ? lacking : lackingVerbs(rulesNow, e.group, e.resource, verbs),
        ...(privileged !== undefined ? { privileged } : {}),
        evidence: uniqueEvidence(e.evidence),
      };
    });
  return {
    account: user,
    grants,
    unresolved: [...unresolved.values()]
      .sort((a, b) => compareStrings(a.name, b.name))
      .map((u) => ({ ...u, evidence: uniqueEvidence(u.evidence) })),
    notAnalysed: gathered.notAnalysed.sort(
      (a, b) => compareStrings(a.composition, b.composition) || compareStrings(a.step, b.step),
    ),
    roles: renderRoles(grants),
  };
}
