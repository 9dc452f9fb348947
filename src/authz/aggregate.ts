/**
 * What Kubernetes' clusterrole-aggregation controller stores in `.rules`
 * (pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go, syncClusterRole):
 * for each selector in order, the ClusterRoles it matches sorted by name (byte order), the role itself skipped;
 * each of their current rules appended unless a semantically equal rule is already there (list order inside a
 * rule counts, nil equals empty); the role's own rules discarded; no compaction.
 */
import type { ClusterRole, PolicyRule } from '../kube/types.js';
import { compileSelector, requirementMatchesMap } from '../kube/selector.js';
import type { CompiledRequirement } from '../kube/selector.js';
import { sortNames, compareNames } from '../kube/order.js';
import { RuleInterner, listsOf, sameIds, type RuleList } from './rule-interner.js';

const keyCache = new WeakMap<PolicyRule, string>();

/** A canonical key: equal keys iff the controller's semantic DeepEqual holds (nil and empty lists alike). */
export function ruleKey(rule: PolicyRule): string {
  let key = keyCache.get(rule);
  if (key === undefined) {
    key = JSON.stringify(listsOf(rule));
    keyCache.set(rule, key);
  }
  return key;
}

/** The selectors of every aggregated role resolved against all ClusterRoles. */
export interface AggregationGraph {
  /** Roles by name (the last one wins when a name repeats). */
  readonly byName: ReadonlyMap<string, ClusterRole>;
  /** All role names in byte order. */
  readonly names: readonly string[];
  /** Per aggregated role, per selector: the matched roles in byte order, the role itself left out. */
  readonly matches: ReadonlyMap<string, readonly (readonly string[])[]>;
}

interface LabelIndex {
  readonly maps: readonly ReadonlyMap<string, string>[];
  readonly byKeyValue: Map<string, Map<string, number[]>>;
  readonly byKey: Map<string, number[]>;
}

function indexLabels(roles: readonly ClusterRole[]): LabelIndex {
  const byKeyValue = new Map<string, Map<string, number[]>>();
  const byKey = new Map<string, number[]>();
  const maps: Map<string, string>[] = [];
  roles.forEach((role, i) => {
    const map = new Map<string, string>();
    maps.push(map);
    const labels = role.metadata.labels ?? {};
    for (const k in labels) {
      if (!Object.hasOwn(labels, k)) continue;
      const v = labels[k] as string;
      map.set(k, v);
      let values = byKeyValue.get(k);
      if (values === undefined) byKeyValue.set(k, (values = new Map<string, number[]>()));
      let list = values.get(v);
      if (list === undefined) values.set(v, (list = []));
      list.push(i);
      let keyList = byKey.get(k);
      // Stryker disable next-line ArrayDeclaration: a candidate entry that is no index is skipped (sorted[i] is undefined)
      if (keyList === undefined) byKey.set(k, (keyList = []));
      keyList.push(i);
    }
  });
  return { maps, byKeyValue, byKey };
}

/**
 * The smallest list of role indexes (ascending) that surely holds every match, and the requirement that list
 * already guarantees; undefined for "every role".
 */
function candidates(
  reqs: readonly CompiledRequirement[],
  index: LabelIndex,
): { list: readonly number[]; satisfied: CompiledRequirement } | undefined {
  let best: { list: readonly number[]; satisfied: CompiledRequirement } | undefined;
  // Stryker disable next-line BlockStatement: performance only; no candidate list means every role is checked against every requirement
  for (const req of reqs) {
    let list: readonly number[] | undefined;
    // Stryker disable next-line StringLiteral,LogicalOperator,BlockStatement: performance only; no candidate list means every role is checked against every requirement
    if (req.operator === 'Equals' || req.operator === 'In') {
      const values = index.byKeyValue.get(req.key);
      // Stryker disable next-line ArrayDeclaration: a non-index entry sorts first (NaN compares as not less) and is skipped (sorted[i] is undefined)
      const lists: number[][] = [];
      for (const v of req.values) {
        const l = values?.get(v);
        if (l !== undefined) lists.push(l);
      }
      // Stryker disable next-line ArrayDeclaration: a candidate entry that is no index is skipped (sorted[i] is undefined)
      list = lists.length === 0 ? [] : lists.length === 1 ? lists[0] : lists.flat().sort((a, b) => a - b);
      // Stryker disable next-line StringLiteral,BlockStatement: performance only; no candidate list means every role is checked against every requirement
    } else if (req.operator === 'Exists') {
      // Stryker disable next-line ArrayDeclaration: a candidate entry that is no index is skipped (sorted[i] is undefined)
      list = index.byKey.get(req.key) ?? [];
    }
    if (list !== undefined && (best === undefined || list.length < best.list.length))
      best = { list, satisfied: req };
  }
  return best;
}

/** Resolves every aggregated role's selectors. Throws InvalidSelectorError on a selector the API would refuse. */
export function buildAggregationGraph(roles: readonly ClusterRole[]): AggregationGraph {
  const byName = new Map<string, ClusterRole>();
  for (const role of roles) byName.set(role.metadata.name, role);
  const names = sortNames([...byName.keys()]);
  const sorted = names.map((n) => byName.get(n) as ClusterRole);
  const index = indexLabels(sorted);
  const matches = new Map<string, string[][]>();
  for (const role of sorted) {
    if (role.aggregationRule === undefined) continue;
    const perSelector: string[][] = [];
    for (const selector of role.aggregationRule.clusterRoleSelectors ?? []) {
      const reqs = compileSelector(selector);
      const cands = candidates(reqs, index);
      // Stryker disable next-line MethodExpression: checking the requirement the candidate list already guarantees again changes nothing
      const rest = cands === undefined ? reqs : reqs.filter((r) => r !== cands.satisfied);
      const matched: string[] = [];
      const consider = (i: number): void => {
        const other = sorted[i];
        const labels = index.maps[i];
        if (other === undefined || labels === undefined || other.metadata.name === role.metadata.name) return;
        for (const req of rest) if (!requirementMatchesMap(req, labels)) return;
        matched.push(other.metadata.name);
      };
      if (cands === undefined) for (let i = 0; i < sorted.length; i++) consider(i);
      else for (const i of cands.list) consider(i);
      perSelector.push(matched);
    }
    matches.set(role.metadata.name, perSelector);
  }
  return { byName, names, matches };
}

/** Semantic equality of two rule lists (order counts). */
export function sameRules(a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined || ruleKey(x) !== ruleKey(y)) return false;
  }
  return true;
}

/**
 * One controller step for one role, from the rules the other roles store right now.
 * A role without an aggregationRule is left alone by the controller: its own rules are returned.
 */
export function aggregateRole(role: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] {
  if (role.aggregationRule === undefined) return [...(role.rules ?? [])];
  // Stryker disable next-line MethodExpression: the role is added again last below, and the last of a name wins in the graph
  const others = all.filter((r) => r.metadata.name !== role.metadata.name);
  const graph = buildAggregationGraph([...others, { ...role, rules: [] }]);
  const interner = new RuleInterner();
  const lists = new Map<string, RuleList>();
  for (const [name, r] of graph.byName) lists.set(name, interner.list(r.rules ?? []));
  return [...interner.step(graph.matches.get(role.metadata.name) ?? [], (n) => lists.get(n)).rules];
}

/** The outcome of running the controller until nothing changes. */
export interface Convergence {
  readonly graph: AggregationGraph;
  /** Effective rules of every role: computed for aggregated roles, their own for the others. */
  readonly rules: ReadonlyMap<string, readonly PolicyRule[]>;
  /** Strongly connected groups of aggregated roles that select each other (each sorted by name). */
  readonly cycles: readonly (readonly string[])[];
  /** Cycles whose rules still moved when the round cap was reached (an order-dependent oscillation). */
  readonly unconverged: readonly (readonly string[])[];
}

/** Iterative Tarjan over the aggregated roles; components come out dependencies first. */
function components(graph: AggregationGraph): string[][] {
  const deps = (name: string): string[] => {
    const out = new Set<string>();
    // Stryker disable next-line ArrayDeclaration: deps is asked only of aggregated roles, which the graph holds matches for
    for (const matched of graph.matches.get(name) ?? [])
      for (const m of matched) if (graph.matches.has(m)) out.add(m);
    return [...out].sort(compareNames);
  };
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  // Stryker disable next-line ArrayDeclaration: an extra bottom entry is never popped: a component ends at its root, above it
  const stack: string[] = [];
  const result: string[][] = [];
  let counter = 0;
  for (const root of graph.names) {
    if (!graph.matches.has(root) || indexOf.has(root)) continue;
    const work: { name: string; next: string[]; i: number }[] = [];
    const visit = (name: string): void => {
      indexOf.set(name, counter);
      low.set(name, counter);
      counter++;
      stack.push(name);
      onStack.add(name);
      work.push({ name, next: deps(name), i: 0 });
    };
    visit(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as (typeof work)[number];
      if (frame.i < frame.next.length) {
        const m = frame.next[frame.i++] as string;
        if (!indexOf.has(m)) visit(m);
        else if (onStack.has(m)) low.set(frame.name, Math.min(low.get(frame.name) ?? 0, indexOf.get(m) ?? 0));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined)
        low.set(parent.name, Math.min(low.get(parent.name) ?? 0, low.get(frame.name) ?? 0));
      if (low.get(frame.name) === indexOf.get(frame.name)) {
        const comp: string[] = [];
        let top: string | undefined;
        do {
          top = stack.pop();
          if (top === undefined) break;
          onStack.delete(top);
          comp.push(top);
        } while (top !== frame.name);
        result.push(comp.sort(compareNames));
      }
    }
  }
  return result;
}

/**
 * Runs the controller over every aggregated role until nothing changes. Roles are synced dependencies first; inside a
 * cycle, in name order, round after round, starting from the rules the cycle's members store now (so rules that once
 * entered a cycle keep circulating, as in a real cluster). A cycle that still changes after a bounded number of rounds
 * is reported in `unconverged` with the state of its last round.
 */
export function convergeClusterRoles(roles: readonly ClusterRole[]): Convergence {
  const graph = buildAggregationGraph(roles);
  const interner = new RuleInterner();
  const current = new Map<string, RuleList>();
  // Interned when a step first reads the role: a role no aggregated one matches keeps its rules as they are, so the
  // stored view (no aggregationRule at all) and the roles no selector matches cost no interning.
  const listOf = (n: string): RuleList | undefined => {
    let list = current.get(n);
    if (list === undefined) {
      const role = graph.byName.get(n);
      if (role === undefined) return undefined;
      current.set(n, (list = interner.list(role.rules ?? [])));
    }
    return list;
  };
  const cycles: string[][] = [];
  const unconverged: string[][] = [];
  for (const comp of components(graph)) {
    const [only] = comp;
    if (comp.length === 1 && only !== undefined) {
      // Stryker disable next-line ArrayDeclaration: components hold aggregated roles only, which the graph holds matches for
      current.set(only, interner.step(graph.matches.get(only) ?? [], listOf));
      continue;
    }
    cycles.push(comp);
    const cap = 2 * comp.length + 10;
    let changed = true;
    for (let round = 0; round < cap && changed; round++) {
      changed = false;
      for (const name of comp) {
        // Stryker disable next-line ArrayDeclaration: components hold aggregated roles only, which the graph holds matches for
        const next = interner.step(graph.matches.get(name) ?? [], listOf);
        // Stryker disable next-line OptionalChaining,ArrayDeclaration: every role of the graph has a current list
        if (!sameIds(next.ids, listOf(name)?.ids ?? [])) changed = true;
        current.set(name, next);
      }
    }
    if (changed) unconverged.push(comp);
  }
  const rules = new Map<string, readonly PolicyRule[]>();
  for (const [name, role] of graph.byName) rules.set(name, current.get(name)?.rules ?? role.rules ?? []);
  return { graph, rules, cycles, unconverged };
}

/** For every role with an aggregationRule, the rules the controller converges to. */
export function aggregateClusterRoles(roles: readonly ClusterRole[]): Map<string, PolicyRule[]> {
  const { graph, rules } = convergeClusterRoles(roles);
  const out = new Map<string, PolicyRule[]>();
  for (const name of graph.names) if (graph.matches.has(name)) out.set(name, [...(rules.get(name) ?? [])]);
  return out;
}

/** Every role the given one draws from, directly or not (itself excluded unless in a cycle). */
export function sourceClosure(graph: AggregationGraph, name: string): Set<string> {
  const seen = new Set<string>();
  const todo = [name];
  for (let n = todo.pop(); n !== undefined; n = todo.pop()) {
    for (const matched of graph.matches.get(n) ?? []) {
      for (const m of matched) {
        if (seen.has(m)) continue;
        seen.add(m);
        todo.push(m);
      }
    }
  }
  return seen;
}

/** Per rule key, the roles NAME draws from (not aggregating ones) that hold it as their own, sorted by name. */
export function ownRuleHolders(
  graph: AggregationGraph,
  name: string,
  rulesOf: (n: string) => readonly PolicyRule[],
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const sources = [...sourceClosure(graph, name)].filter((r) => !graph.matches.has(r)).sort(compareNames);
  for (const role of sources) {
    for (const key of new Set(rulesOf(role).map(ruleKey))) {
      const list = out.get(key);
      if (list === undefined) out.set(key, [role]);
      else list.push(role);
    }
  }
  return out;
}
