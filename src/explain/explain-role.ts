/**
 * Explains one ClusterRole: the rules the aggregation controller would store, where each came from, what its
 * selectors match, cycles, drift from the stored rules, the aggregated roles it feeds and the bindings that grant it.
 */
import { UserError } from '../errors.js';
import { ruleAllows } from '../authz/authorize.js';
import type { AccessAttributes } from '../authz/authorize.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, RoleBinding, Subject } from '../kube/types.js';
import {
  convergeClusterRoles,
  ownRuleHolders,
  ruleKey,
  sameRules,
  sourceClosure,
} from '../authz/aggregate.js';
import type { AggregationGraph } from '../authz/aggregate.js';
import { formatSelector } from '../kube/selector.js';
import { compareNames } from '../kube/order.js';
import { closeMatches } from '../kube/did-you-mean.js';

/** The role asked for does not exist; `suggestions` holds up to three close names. */
export class UnknownRoleError extends UserError {
  override readonly name = 'UnknownRoleError';
  readonly suggestions: readonly string[];

  constructor(role: string, suggestions: readonly string[]) {
    super(`clusterrole "${role}" not found`, {
      hint:
        suggestions.length > 0 ? `did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : undefined,
    });
    this.suggestions = suggestions;
  }
}

/** One hop of a rule's way into the explained role. */
export interface ProvenanceHop {
  /** A role holding the rule: the first hop is the role that wrote it (or a cycle member, see `source`). */
  readonly role: string;
  /** The index of the selector of the next role in the chain (the explained role for the last hop) that matched `role`. */
  readonly selector: number;
}

export interface RuleProvenance {
  /** The rule's position in `effectiveRules`. */
  readonly index: number;
  readonly rule: PolicyRule;
  /** The role that holds the rule as hand-written rules; null when the rule only survives by circulating in a cycle. */
  readonly source: string | null;
  /** From the source to the role just before the explained one; empty for the explained role's own rules. */
  readonly chain: readonly ProvenanceHop[];
  /**
   * The other roles the explained one draws from that hold the same rule as their own (a provider family's members
   * all carry the family's rules), sorted; absent when none does.
   */
  readonly sharedWith?: readonly string[];
  /** The provider family all of `source` and `sharedWith` belong to, when they do (and it is known). */
  readonly family?: string;
}

export interface SelectorMatch {
  readonly index: number;
  /** kubectl's string form; '' for an empty selector, which matches every ClusterRole. */
  readonly selector: string;
  readonly matched: readonly string[];
}

export interface Drift {
  readonly stored: number;
  readonly computed: number;
  /** Computed rules absent from the stored ones. */
  readonly missing: readonly PolicyRule[];
  /** Stored rules the controller would remove. */
  readonly extra: readonly PolicyRule[];
  /** Same rules, different order (or repeated). */
  readonly reordered: boolean;
}

export interface FeedPath {
  /** An aggregated role whose selectors pick up the explained role, directly or through others. */
  readonly role: string;
  /** From the explained role to `role`. */
  readonly path: readonly string[];
}

export interface BindingRef {
  readonly kind: 'ClusterRoleBinding' | 'RoleBinding';
  readonly name: string;
  readonly namespace?: string;
  readonly subjects: readonly Subject[];
}

export interface AggregationTreeNode {
  readonly role: string;
  readonly ruleCount: number;
  readonly aggregated: boolean;
  /** The parent's selector that matched this role; null at the root. */
  readonly selector: number | null;
  /** The role is already on the path from the root: a cycle, not expanded again. */
  readonly cycle: boolean;
  /** The role was expanded elsewhere in the tree, not expanded again. */
  readonly repeated: boolean;
  /** The tree is cut here, deeper than any real aggregation goes. */
  readonly truncated: boolean;
  readonly unmatchedSelectors: readonly number[];
  readonly children: readonly AggregationTreeNode[];
}

export interface AccessExplanation {
  readonly request: AccessAttributes;
  readonly allowed: boolean;
  readonly matchingRules: readonly PolicyRule[];
  readonly provenance: readonly RuleProvenance[];
}

/** The machine-readable answer of `explain`; plain JSON (no Maps, no undefined values). */
export interface Explanation {
  readonly role: {
    readonly name: string;
    readonly aggregated: boolean;
    readonly selectors: number;
    readonly storedRules: number;
  };
  /** Exactly the list the controller would store, in its order; a role's own rules when it does not aggregate. */
  readonly effectiveRules: readonly PolicyRule[];
  readonly provenance: readonly RuleProvenance[];
  readonly selectors: readonly SelectorMatch[];
  readonly unmatchedSelectors: readonly number[];
  /** Groups of aggregated roles that select each other, reachable from this role (each sorted by name). */
  readonly cycles: readonly (readonly string[])[];
  /** False when a cycle reachable from this role keeps changing in the controller's model. */
  readonly converged: boolean;
  readonly drift: Drift | null;
  readonly feedsInto: readonly FeedPath[];
  readonly boundBy: readonly BindingRef[];
  readonly tree: AggregationTreeNode;
  readonly access: AccessExplanation | null;
}

export interface ExplainSnapshot {
  readonly clusterRoles: readonly ClusterRole[];
  readonly clusterRoleBindings: readonly ClusterRoleBinding[];
  readonly roleBindings: readonly RoleBinding[];
}

function attrsForJson(attrs: AccessAttributes): AccessAttributes {
  const out: AccessAttributes = { verb: attrs.verb };
  if (attrs.apiGroup !== undefined) out.apiGroup = attrs.apiGroup;
  if (attrs.resource !== undefined) out.resource = attrs.resource;
  if (attrs.subresource !== undefined) out.subresource = attrs.subresource;
  if (attrs.name !== undefined) out.name = attrs.name;
  if (attrs.namespace !== undefined) out.namespace = attrs.namespace;
  if (attrs.path !== undefined) out.path = attrs.path;
  return out;
}

function computeDrift(stored: readonly PolicyRule[], computed: readonly PolicyRule[]): Drift | null {
  if (sameRules(stored, computed)) return null;
  const storedKeys = new Set(stored.map(ruleKey));
  const computedKeys = new Set(computed.map(ruleKey));
  const missing = computed.filter((r) => !storedKeys.has(ruleKey(r)));
  const extra = stored.filter((r) => !computedKeys.has(ruleKey(r)));
  return {
    stored: stored.length,
    computed: computed.length,
    missing,
    extra,
    reordered: missing.length === 0 && extra.length === 0,
  };
}

/** Explains one ClusterRole. Throws UnknownRoleError, or InvalidSelectorError for a selector the API would refuse. */
export function explainRole(
  name: string,
  snapshot: ExplainSnapshot,
  opts?: { for?: AccessAttributes; families?: ReadonlyMap<string, string> },
): Explanation {
  const { graph, rules, cycles, unconverged } = convergeClusterRoles(snapshot.clusterRoles);
  const role = graph.byName.get(name);
  if (role === undefined) throw new UnknownRoleError(name, closeMatches(name, graph.names));

  const rulesOf = (n: string): readonly PolicyRule[] => rules.get(n) ?? [];
  const keySets = new Map<string, Set<string>>();
  const keysOf = (n: string): Set<string> => {
    let set = keySets.get(n);
    if (set === undefined) keySets.set(n, (set = new Set(rulesOf(n).map(ruleKey))));
    return set;
  };

  /** Per aggregated role: for each rule key, the first (selector, matched role) holding it, as the controller meets it. */
  const firstHolderIndex = new Map<string, Map<string, ProvenanceHop>>();
  const firstHolders = (
    holder: string,
    perSelector: readonly (readonly string[])[],
  ): Map<string, ProvenanceHop> => {
    let index = firstHolderIndex.get(holder);
    if (index !== undefined) return index;
    index = new Map();
    for (let i = 0; i < perSelector.length; i++) {
      for (const m of perSelector[i] ?? []) {
        for (const k of keysOf(m)) if (!index.has(k)) index.set(k, { role: m, selector: i });
      }
    }
    firstHolderIndex.set(holder, index);
    return index;
  };

  /** Follows a rule from the explained role back to the role that wrote it, first occurrence at each hop. */
  const trace = (target: string, key: string): { source: string | null; chain: ProvenanceHop[] } => {
    const hops: ProvenanceHop[] = [];
    const visited = new Set<string>([target]);
    let holder = target;
    for (;;) {
      const perSelector = graph.matches.get(holder);
      if (perSelector === undefined) return { source: holder, chain: hops.reverse() };
      const found = firstHolders(holder, perSelector).get(key);
      if (found === undefined) return { source: null, chain: hops.reverse() };
      hops.push(found);
      if (!graph.matches.has(found.role)) return { source: found.role, chain: hops.reverse() };
      if (visited.has(found.role)) return { source: null, chain: hops.reverse() };
      visited.add(found.role);
      holder = found.role;
    }
  };

  const effectiveRules = [...rulesOf(name)];
  const holders = ownRuleHolders(graph, name, rulesOf);
  const provenance: RuleProvenance[] = effectiveRules.map((rule, index) => {
    const key = ruleKey(rule);
    const traced = trace(name, key);
    const others = (holders.get(key) ?? []).filter((r) => r !== traced.source);
    if (others.length === 0 || traced.source === null) return { index, rule, ...traced };
    const family = opts?.families?.get(traced.source);
    const oneFamily = family !== undefined && others.every((r) => opts?.families?.get(r) === family);
    return { index, rule, ...traced, sharedWith: others, ...(oneFamily ? { family } : {}) };
  });

  const perSelector = graph.matches.get(name) ?? [];
  const selectorList = role.aggregationRule?.clusterRoleSelectors ?? [];
  const selectors: SelectorMatch[] = selectorList.map((sel, index) => ({
    index,
    selector: formatSelector(sel),
    matched: [...(perSelector[index] ?? [])],
  }));
  const unmatchedSelectors = selectors.filter((s) => s.matched.length === 0).map((s) => s.index);

  const closure = sourceClosure(graph, name);
  closure.add(name);
  const inClosure = (c: readonly string[]): boolean => c.some((n) => closure.has(n));
  const reachableCycles = cycles.filter(inClosure).map((c) => [...c]);

  const drift = role.aggregationRule === undefined ? null : computeDrift(role.rules ?? [], effectiveRules);

  const access =
    opts?.for === undefined
      ? null
      : ((request: AccessAttributes): AccessExplanation => {
          const matching = provenance.filter((p) => ruleAllows(p.rule, request));
          return {
            request: attrsForJson(request),
            allowed: matching.length > 0,
            matchingRules: matching.map((p) => p.rule),
            provenance: matching,
          };
        })(opts.for);

  return {
    role: {
      name,
      aggregated: role.aggregationRule !== undefined,
      selectors: selectorList.length,
      storedRules: (role.rules ?? []).length,
    },
    effectiveRules,
    provenance,
    selectors,
    unmatchedSelectors,
    cycles: reachableCycles,
    converged: !unconverged.some(inClosure),
    drift,
    feedsInto: feedsInto(graph, name),
    boundBy: boundBy(name, snapshot),
    tree: buildTree(graph, name, rulesOf),
    access,
  };
}

function feedsInto(graph: AggregationGraph, name: string): FeedPath[] {
  const reverse = new Map<string, string[]>();
  for (const aggregated of graph.names) {
    for (const matched of graph.matches.get(aggregated) ?? []) {
      for (const m of matched) {
        let list = reverse.get(m);
        if (list === undefined) reverse.set(m, (list = []));
        if (list[list.length - 1] !== aggregated) list.push(aggregated);
      }
    }
  }
  const out: FeedPath[] = [];
  const seen = new Set<string>([name]);
  let frontier: FeedPath[] = [{ role: name, path: [name] }];
  while (frontier.length > 0) {
    const next: FeedPath[] = [];
    for (const from of frontier) {
      for (const to of reverse.get(from.role) ?? []) {
        if (seen.has(to)) continue;
        seen.add(to);
        next.push({ role: to, path: [...from.path, to] });
      }
    }
    next.sort((a, b) => compareNames(a.role, b.role));
    out.push(...next);
    frontier = next;
  }
  return out;
}

function boundBy(name: string, snapshot: ExplainSnapshot): BindingRef[] {
  const refs: BindingRef[] = [];
  for (const b of snapshot.clusterRoleBindings) {
    if (b.roleRef.kind === 'ClusterRole' && b.roleRef.name === name) {
      refs.push({ kind: 'ClusterRoleBinding', name: b.metadata.name, subjects: [...(b.subjects ?? [])] });
    }
  }
  for (const b of snapshot.roleBindings) {
    if (b.roleRef.kind === 'ClusterRole' && b.roleRef.name === name) {
      refs.push({
        kind: 'RoleBinding',
        name: b.metadata.name,
        namespace: b.metadata.namespace ?? 'default',
        subjects: [...(b.subjects ?? [])],
      });
    }
  }
  return refs.sort(
    (a, b) =>
      compareNames(a.kind, b.kind) ||
      compareNames(a.namespace ?? '', b.namespace ?? '') ||
      compareNames(a.name, b.name),
  );
}

/** Deeper than any real aggregation; keeps the tree (and its renderings) small and recursion shallow. */
const MAX_TREE_DEPTH = 32;

function buildTree(
  graph: AggregationGraph,
  root: string,
  rulesOf: (n: string) => readonly PolicyRule[],
): AggregationTreeNode {
  const expanded = new Set<string>();
  const onPath = new Set<string>();
  const node = (name: string, selector: number | null, depth: number): AggregationTreeNode => {
    const perSelector = graph.matches.get(name);
    const leaf = {
      role: name,
      ruleCount: rulesOf(name).length,
      aggregated: perSelector !== undefined,
      selector,
      cycle: false,
      repeated: false,
      truncated: false,
      unmatchedSelectors: (perSelector ?? []).flatMap((m, i) => (m.length === 0 ? [i] : [])),
      children: [],
    };
    if (onPath.has(name)) return { ...leaf, cycle: true };
    if (expanded.has(name)) return { ...leaf, repeated: perSelector !== undefined };
    if (depth >= MAX_TREE_DEPTH) return { ...leaf, truncated: perSelector !== undefined };
    expanded.add(name);
    onPath.add(name);
    const children = (perSelector ?? []).flatMap((matched, i) => matched.map((m) => node(m, i, depth + 1)));
    onPath.delete(name);
    return { ...leaf, children };
  };
  return node(root, null, 0);
}
