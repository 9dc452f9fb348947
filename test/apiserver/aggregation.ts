/**
 * The clusterrole-aggregation controller of kube-controller-manager
 * (pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go), run in-process:
 *
 * - any ClusterRole change queues every ClusterRole that has an aggregationRule;
 * - syncing one role: for each selector in order, the ClusterRoles it matches sorted by name (Go string order),
 *   the role itself skipped; each of their rules, as currently stored, appended unless a semantically equal rule
 *   (list order counts, nil equals empty) is already there; the role's own rules are not kept;
 * - the role is written only when the new rules differ semantically from the stored ones;
 * - a role whose selectors cannot be parsed is never written (the controller retries it forever).
 *
 * Written from Kubernetes' behaviour for the test API server; it shares nothing with the plugin's src/.
 */
import { labelsMatch } from './selectors.js';
import type { Requirement } from './selectors.js';
import type { PolicyRule } from './rbac-rules.js';
import { compareGoStrings, sameRule } from './rbac-rules.js';

type Obj = Record<string, any>;

/** Where the controller reads and writes ClusterRoles. */
export interface ClusterRoleStore {
  /** Every ClusterRole as stored now. */
  list(): readonly Obj[];
  /** Stores a ClusterRole whose rules the controller changed. */
  write(role: Obj): void;
}

const LABEL_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function validKey(key: unknown): key is string {
  if (typeof key !== 'string' || !LABEL_KEY.test(key)) return false;
  const slash = key.indexOf('/');
  return (slash < 0 || slash <= 253) && key.length - slash - 1 <= 63;
}

function validValue(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 63 && LABEL_VALUE.test(value);
}

/**
 * metav1.LabelSelectorAsSelector: a ClusterRole selector as requirements, or undefined when the API's label
 * rules reject it (unknown operator, values where none belong or none where some must, invalid keys or values).
 */
export function selectorRequirements(selector: unknown): Requirement[] | undefined {
  if (selector === null || selector === undefined) return [];
  if (typeof selector !== 'object') return undefined;
  const s = selector as Obj;
  const out: Requirement[] = [];
  for (const [key, value] of Object.entries((s.matchLabels ?? {}) as Obj)) {
    if (!validKey(key) || !validValue(value)) return undefined;
    out.push({ key, op: 'eq', value });
  }
  for (const expr of (s.matchExpressions ?? []) as Obj[]) {
    const values = (expr.values ?? []) as unknown[];
    if (!validKey(expr.key) || !values.every(validValue)) return undefined;
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) return undefined;
        out.push({ key: expr.key, op: expr.operator === 'In' ? 'in' : 'notin', values });
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) return undefined;
        out.push({ key: expr.key, op: expr.operator === 'Exists' ? 'exists' : 'notexists' });
        break;
      default:
        return undefined;
    }
  }
  return out;
}

function rulesOf(role: Obj | undefined): readonly PolicyRule[] {
  return Array.isArray(role?.rules) ? (role.rules as PolicyRule[]) : [];
}

function sameRules(a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean {
  return a.length === b.length && a.every((rule, i) => sameRule(rule, b[i] ?? {}));
}

/** A rule's identity under semantic equality, to find duplicates without comparing every pair. */
function ruleIdentity(rule: PolicyRule): string {
  const l = (v: readonly string[] | null | undefined): readonly string[] => v ?? [];
  return JSON.stringify([
    l(rule.verbs),
    l(rule.apiGroups),
    l(rule.resources),
    l(rule.resourceNames),
    l(rule.nonResourceURLs),
  ]);
}

/** What one run of the controller did. */
export interface AggregationRun {
  /** Syncs of single roles, written or not. */
  readonly syncs: number;
  /** Roles written, in order (a role may be written more than once). */
  readonly writes: readonly string[];
  /** Set when the roles still changed after the sync budget: selectors that feed each other without end. */
  readonly gaveUp: boolean;
}

/**
 * Runs the controller until its queue is empty: every aggregated role is queued once, and every write queues them
 * all again (a role already waiting is not queued twice). Roles are first queued in name order.
 */
export function runAggregation(store: ClusterRoleStore): AggregationRun {
  const byName = new Map<string, Obj>();
  for (const role of store.list()) byName.set(String(role.metadata?.name), role);
  const names = [...byName.keys()].sort(compareGoStrings);
  const aggregated = names.filter((n) => {
    const rule = byName.get(n)?.aggregationRule;
    return rule !== undefined && rule !== null;
  });

  // Labels are not changed by the controller, so what each selector matches is fixed for the whole run (and the
  // same selector, used by many roles, is matched once).
  const matches = new Map<string, readonly (readonly string[])[] | undefined>();
  const bySelector = new Map<string, readonly string[]>();
  const matching = (reqs: readonly Requirement[]): readonly string[] => {
    const key = JSON.stringify(reqs);
    let found = bySelector.get(key);
    if (found === undefined) {
      found = names.filter((other) => labelsMatch(reqs, byName.get(other)?.metadata?.labels));
      bySelector.set(key, found);
    }
    return found;
  };
  for (const name of aggregated) {
    const selectors = (byName.get(name)?.aggregationRule?.clusterRoleSelectors ?? []) as unknown[];
    const compiled = selectors.map(selectorRequirements);
    if (compiled.some((c) => c === undefined)) {
      matches.set(name, undefined);
      continue;
    }
    matches.set(
      name,
      compiled.map((reqs) => matching(reqs ?? []).filter((other) => other !== name)),
    );
  }
  // A rule's identity, computed once per rule object: the controller never changes a rule in place.
  const identities = new WeakMap<PolicyRule, string>();
  const identityOf = (rule: PolicyRule): string => {
    let id = identities.get(rule);
    if (id === undefined) {
      id = ruleIdentity(rule);
      identities.set(rule, id);
    }
    return id;
  };

  const queue = [...aggregated];
  const queued = new Set(queue);
  const writes: string[] = [];
  const budget = 20 * aggregated.length + 100;
  let syncs = 0;
  while (queue.length > 0 && syncs < budget) {
    const name = queue.shift() ?? '';
    queued.delete(name);
    syncs++;
    const perSelector = matches.get(name);
    const role = byName.get(name);
    if (perSelector === undefined || role === undefined) continue;
    const next: PolicyRule[] = [];
    const seen = new Set<string>();
    for (const matched of perSelector) {
      for (const other of matched) {
        for (const rule of rulesOf(byName.get(other))) {
          const id = identityOf(rule);
          if (seen.has(id)) continue;
          seen.add(id);
          next.push(rule);
        }
      }
    }
    if (sameRules(next, rulesOf(role))) continue;
    const updated = structuredClone(role);
    updated.rules = structuredClone(next);
    byName.set(name, updated);
    store.write(updated);
    writes.push(name);
    for (const n of aggregated) {
      if (queued.has(n)) continue;
      queued.add(n);
      queue.push(n);
    }
  }
  return { syncs, writes, gaveUp: queue.length > 0 };
}

/**
 * When the controller runs. With no delay, a write only marks the roles stale and the next read of RBAC objects
 * runs the controller first: every read sees converged rules, and a burst of writes costs one run. With a delay,
 * the controller runs that long after the first unhandled write, and reads in between see stale rules, as they
 * can on a real cluster.
 */
export class AggregationController {
  private stale = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: ClusterRoleStore,
    private enabled: boolean,
    private readonly delayMs: number,
  ) {}

  /** A ClusterRole was written or deleted. */
  changed(): void {
    if (!this.enabled) return;
    if (this.delayMs <= 0) {
      this.stale = true;
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.runNow();
    }, this.delayMs);
  }

  /** Runs a pending immediate run; called before anything reads ClusterRoles. */
  flush(): void {
    if (!this.stale) return;
    this.stale = false;
    this.runNow();
  }

  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (enabled) this.runNow();
  }

  runNow(): void {
    if (this.enabled) runAggregation(this.store);
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
