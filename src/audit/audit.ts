/**
 * `audit`: who may become more than their roles say, through Kubernetes' own escalation paths and through
 * Crossplane's controllers, by which steps, and the least change that closes each path.
 *
 * A graph over identities: each step (steps.ts) leads from an identity to one whose rights it may use. Per
 * capability, one breadth-first search backwards from the identities RBAC grants it (each identity once) gives every
 * identity its shortest way there. A finding is a subject, a capability RBAC does not grant it, and the shortest path
 * that starts with one mechanism; one finding per subject, capability and first mechanism.
 */
import { AUTHENTICATED_GROUP, MASTERS_GROUP, UNAUTHENTICATED_GROUP } from '../authz/subjects.js';
import {
  CHART_ADMIN_GROUP,
  CHART_ROLE_CROSSPLANE,
  CHART_ROLE_RBAC_MANAGER,
  PROVIDER_ROLE_PREFIX,
  PROVIDER_ROLE_SUFFIX_SYSTEM,
} from '../crossplane/names.js';
import {
  CAPABILITIES,
  CAPABILITY_SEVERITY,
  MECHANISM_ORDER,
  MECHANISM_SOURCE,
  type Capability,
  type Mechanism,
  type Severity,
} from './catalogue.js';
import { fixFor } from './fix.js';
import { stepContext, withImpliedRoles, type AuditInput } from './cluster-context.js';
import { accountOfUser, identityKey, identityText, Rights, type Allowed, type Identity } from './rights.js';
import { POD_MAKERS, type Step, type StepContext, type StepMaker, type Trigger } from './steps.js';
import { CLASSIC_STEPS } from './steps-classic.js';
import { CROSSPLANE_STEPS } from './steps-crossplane.js';

export interface AuditOptions {
  /** Audit one subject only. */
  readonly subject?: Identity | undefined;
  /**
   * Each bound ClusterRole grants the rules it stores, as the API server's authorizer uses them (its aggregationRule
   * is not followed); else the rules the aggregation controller converges to.
   */
  readonly storedRules?: boolean | undefined;
  /** The RBAC read left these out (namespace-only rights): each finding "may" be granted already. */
  readonly rbacUnseen?: readonly string[] | undefined;
}

export interface SubjectRef {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

export interface FindingStep {
  readonly mechanism: Mechanism;
  readonly trigger: Trigger;
  /** The binding, the role, and the role's aggregation chain down to the role whose rule allows the trigger. */
  readonly via: readonly string[];
  readonly actsAs: SubjectRef;
  readonly why: string;
  readonly source?: string;
}

export interface Finding {
  readonly capability: Capability;
  readonly severity: Severity;
  readonly subject: SubjectRef;
  readonly steps: readonly FindingStep[];
  readonly fix: string;
}

export interface ByDesign {
  readonly subject: SubjectRef;
  readonly reason: string;
}

export interface AuditResult {
  readonly findings: readonly Finding[];
  readonly byDesign: readonly ByDesign[];
}

/** Whether RBAC grants the identity the capability itself, and how. */
function holds(rights: Rights, who: Identity, cap: Capability): Allowed | undefined {
  switch (cap) {
    case 'cluster-admin':
      return rights.allows(who, { verb: '*', apiGroup: '*', resource: '*' });
    case 'read-secrets':
      return (
        rights.allows(who, { verb: 'list', apiGroup: '', resource: 'secrets' }) ??
        rights.allows(who, { verb: 'get', apiGroup: '', resource: 'secrets' })
      );
    case 'run-anywhere':
      for (const ns of [undefined, 'kube-system']) {
        for (const t of POD_MAKERS) {
          const a = rights.allows(who, {
            verb: 'create',
            apiGroup: t.group,
            resource: t.resource,
            ...(ns !== undefined ? { namespace: ns } : {}),
          });
          if (a !== undefined) return a;
        }
      }
      return undefined;
    case 'node-access':
      return (
        rights.allows(who, { verb: 'get', apiGroup: '', resource: 'nodes', subresource: 'proxy' }) ??
        rights.allows(who, { verb: 'create', apiGroup: '', resource: 'nodes', subresource: 'proxy' })
      );
  }
}

function ref(i: Identity): SubjectRef {
  return i.namespace !== undefined
    ? { kind: i.kind, name: i.name, namespace: i.namespace }
    : { kind: i.kind, name: i.name };
}

/** Why an account is Crossplane's or Kubernetes' own (listed once, not audited), or undefined. */
function byDesignReason(i: Identity, roles: readonly string[]): string | undefined {
  if (i.kind === 'Group' && i.name === CHART_ADMIN_GROUP)
    return "the chart's administrators' group, bound to crossplane-admin";
  if (i.kind === 'Group' && i.name === MASTERS_GROUP)
    return 'Kubernetes: allowed everything before RBAC is asked';
  if (i.kind === 'User' && i.name.startsWith('system:')) return "Kubernetes' own component";
  if (i.kind === 'Group' && (i.name === 'system:nodes' || i.name === 'system:serviceaccounts:kube-system'))
    return "Kubernetes' own components";
  if (i.kind !== 'ServiceAccount') return undefined;
  if (i.namespace === 'kube-system') return "Kubernetes' own controller";
  if (roles.includes(CHART_ROLE_CROSSPLANE)) return "Crossplane's own account";
  if (roles.includes(CHART_ROLE_RBAC_MANAGER)) return "Crossplane's RBAC manager";
  if (roles.some((r) => r.startsWith(PROVIDER_ROLE_PREFIX) && r.endsWith(PROVIDER_ROLE_SUFFIX_SYSTEM)))
    return "a Crossplane provider's account";
  return undefined;
}

const MAKERS: readonly StepMaker[] = [...CROSSPLANE_STEPS, ...CLASSIC_STEPS];

/** Every step out of one identity, in the catalogue's order; a step back to itself is none. */
function stepsFrom(who: Identity, ctx: StepContext): Step[] {
  const self = identityText(who);
  return MAKERS.flatMap((make) => make(who, ctx)).filter((s) => identityText(s.target) !== self);
}

/** The identities reachable from the subjects, each with its steps out (computed once per identity). */
function buildGraph(
  subjects: readonly Identity[],
  ctx: StepContext,
): Map<string, { id: Identity; steps: Step[] }> {
  const graph = new Map<string, { id: Identity; steps: Step[] }>();
  const queue = [...subjects];
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i] as Identity;
    const key = identityKey(id);
    if (graph.has(key)) continue;
    const steps = stepsFrom(id, ctx);
    graph.set(key, { id, steps });
    for (const s of steps) if (!graph.has(identityKey(s.target))) queue.push(s.target);
  }
  return graph;
}

/** Per identity, the identities with a step to it (the graph reversed, built once for every capability). */
function reversed(graph: ReadonlyMap<string, { id: Identity; steps: Step[] }>): Map<string, string[]> {
  const reverse = new Map<string, string[]>();
  for (const [key, { steps }] of graph) {
    for (const s of steps) {
      const t = identityKey(s.target);
      let list = reverse.get(t);
      if (list === undefined) reverse.set(t, (list = []));
      list.push(key);
    }
  }
  return reverse;
}

/** Per identity, its distance to the capability (0: holds it), breadth first from its HOLDERS along REVERSE. */
function shortestPaths(
  reverse: ReadonlyMap<string, readonly string[]>,
  holders: ReadonlySet<string>,
): Map<string, number> {
  const dist = new Map<string, number>();
  const queue: string[] = [];
  for (const h of holders) {
    dist.set(h, 0);
    queue.push(h);
  }
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i] as string;
    const d = dist.get(v) ?? 0;
    for (const u of reverse.get(v) ?? []) {
      if (dist.has(u)) continue;
      dist.set(u, d + 1);
      queue.push(u);
    }
  }
  return dist;
}

function findingStep(s: Step): FindingStep {
  return {
    mechanism: s.mechanism,
    trigger: s.trigger,
    via: s.allowed.via,
    actsAs: ref(s.target),
    why: s.why,
    source: MECHANISM_SOURCE[s.mechanism],
  };
}

export function audit(read: AuditInput, options: AuditOptions = {}): AuditResult {
  const input = withImpliedRoles(read);
  const rights = new Rights(input, options.storedRules === true);
  const ctx = stepContext(input, rights);
  const builtIn: Identity[] = [
    { kind: 'Group', name: AUTHENTICATED_GROUP },
    { kind: 'Group', name: UNAUTHENTICATED_GROUP },
  ];
  // A User named system:serviceaccount:NS:NAME is that account (its token's user name), as the API server's
  // impersonation takes the name (k8s.io/apiserver endpoints/filters/impersonation.go, serviceaccount.SplitUsername):
  // audited as the account, a binding's subject or --subject alike.
  const asAccount = (i: Identity): Identity => accountOfUser(i) ?? i;
  const all: Identity[] = [];
  for (const s of [...rights.subjects.map(asAccount), ...builtIn]) {
    if (!all.some((a) => identityKey(a) === identityKey(s))) all.push(s);
  }
  const subject = options.subject !== undefined ? asAccount(options.subject) : undefined;
  const byDesign: ByDesign[] = [];
  const audited: Identity[] = [];
  for (const s of all) {
    const reason = byDesignReason(s, rights.clusterRolesBound(s));
    if (reason !== undefined) byDesign.push({ subject: ref(s), reason });
    else if (subject === undefined || identityKey(subject) === identityKey(s)) audited.push(s);
  }
  if (subject !== undefined && !all.some((s) => identityKey(s) === identityKey(subject))) {
    audited.push(subject);
  }
  const graph = buildGraph(audited, ctx);
  const findings: Finding[] = [];
  const reverse = reversed(graph);
  const perCapability = CAPABILITIES.map((cap) => {
    const holders = new Set(
      [...graph.values()].filter((n) => holds(rights, n.id, cap) !== undefined).map((n) => identityKey(n.id)),
    );
    return { cap, holders, dist: shortestPaths(reverse, holders) };
  });
  const adminDist = perCapability[0]?.dist;
  for (const subject of audited) {
    const key = identityKey(subject);
    for (const { cap, holders, dist } of perCapability) {
      if (holders.has(key)) continue;
      // Whoever may become cluster-admin may do everything else too: that one finding says it.
      if (cap !== 'cluster-admin' && adminDist?.has(key) === true) continue;
      for (const mechanism of MECHANISM_ORDER) {
        const path = pathStarting(graph, dist, subject, mechanism);
        if (path === undefined) continue;
        const steps = path.map(findingStep);
        const [first] = steps;
        if (options.rbacUnseen !== undefined && first !== undefined) {
          // RBAC is additive: the path holds, but what was not read may grant the subject the capability already.
          const what = options.rbacUnseen.join(', ');
          steps[0] = {
            ...first,
            why: `${first.why} (may: ${what} could not be read, and may grant ${identityText(subject)} ${cap} already)`,
          };
        }
        findings.push({
          capability: cap,
          severity: CAPABILITY_SEVERITY[cap],
          subject: ref(subject),
          steps,
          fix: fixFor(path[0] as Step, subject),
        });
      }
    }
  }
  return { findings, byDesign };
}

/** The shortest path from SUBJECT whose first step is MECHANISM; undefined when none avoids coming back to it. */
function pathStarting(
  graph: ReadonlyMap<string, { id: Identity; steps: Step[] }>,
  dist: ReadonlyMap<string, number>,
  subject: Identity,
  mechanism: Mechanism,
): Step[] | undefined {
  const self = identityKey(subject);
  let first: Step | undefined;
  let best = Infinity;
  for (const s of graph.get(self)?.steps ?? []) {
    if (s.mechanism !== mechanism) continue;
    const d = dist.get(identityKey(s.target));
    if (d !== undefined && d < best) {
      best = d;
      first = s;
    }
  }
  if (first === undefined) return undefined;
  const path = [first];
  let at = identityKey(first.target);
  const seen = new Set([self, at]);
  for (let d = best; d > 0; d--) {
    const next = (graph.get(at)?.steps ?? []).find((s) => dist.get(identityKey(s.target)) === d - 1);
    if (next === undefined) return undefined;
    at = identityKey(next.target);
    if (seen.has(at)) return undefined;
    seen.add(at);
    path.push(next);
  }
  return path;
}
