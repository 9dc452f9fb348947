/**
 * Rules interned for the aggregation controller's steps (aggregate.ts): semantically equal rules (the five lists
 * equal list by list, nil as empty) get one small integer id, so that a step dedupes and compares rules by id.
 */
import type { PolicyRule } from '../kube/types.js';

/** A role's rules with their interned ids (equal ids iff equal rules). */
export interface RuleList {
  readonly rules: readonly PolicyRule[];
  readonly ids: readonly number[];
}

/** The five lists of a rule, nil as empty: two rules are semantically equal iff these are equal list by list. */
export function listsOf(rule: PolicyRule): readonly (readonly unknown[])[] {
  return [
    rule.apiGroups ?? [],
    rule.resources ?? [],
    rule.verbs ?? [],
    rule.resourceNames ?? [],
    rule.nonResourceURLs ?? [],
  ];
}

/** Equal lists: same length, same elements in the same order (strings compare by value, as in ruleKey). */
function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  // Stryker disable next-line BooleanLiteral,ConditionalExpression: rules compared share a fingerprint, which holds every list's length; kept so that the function means what its name says
  if (a.length !== b.length) return false;
  // Stryker disable next-line EqualityOperator: the lengths are equal, so one step more compares undefined with undefined
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// Stryker disable all: performance only. Any fingerprint, even a constant one, gives the same ids: rules that share
// one are compared in full.
/** A cheap key every pair of equal rules shares (lengths, first and last elements); unequal rules may share it. */
function fingerprint(lists: readonly (readonly unknown[])[]): string {
  let out = '';
  for (const l of lists)
    out += `${String(l.length)}\u0000${String(l[0])}\u0000${String(l[l.length - 1])}\u0001`;
  return out;
}
// Stryker restore all

/** More rules than this under one fingerprint are keyed in full (ruleKey) instead of compared one by one. */
const BUCKET_LIMIT = 8;

/**
 * Interns rules: semantically equal rules get one small integer id. A provider family's roles repeat the same large
 * rules hundreds of times, so a rule is first looked up by a cheap fingerprint and compared element by element with
 * the few rules that share it; serialising every rule (ruleKey) cost more than parsing them.
 */
export class RuleInterner {
  private readonly buckets = new Map<string, { lists: (readonly (readonly unknown[])[])[]; ids: number[] }>();
  private readonly byKey = new Map<string, number>();
  private readonly byObject = new Map<PolicyRule, number>();
  private size = 0;
  private seen = new Int32Array(64);
  private epoch = 0;

  id(rule: PolicyRule): number {
    let id = this.byObject.get(rule);
    // Stryker disable next-line ConditionalExpression: performance only; looking a rule up again gives its id again
    if (id === undefined) {
      id = this.lookUp(rule);
      this.byObject.set(rule, id);
    }
    return id;
  }

  private lookUp(rule: PolicyRule): number {
    const lists = listsOf(rule);
    const print = fingerprint(lists);
    let bucket = this.buckets.get(print);
    if (bucket === undefined) this.buckets.set(print, (bucket = { lists: [], ids: [] }));
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: performance only; comparing one by one and keying in full give the same ids (a bucket is indexed in full when it fills)
    if (bucket.ids.length < BUCKET_LIMIT) {
      for (let i = 0; i < bucket.lists.length; i++) {
        const other = bucket.lists[i] as readonly (readonly unknown[])[];
        if (lists.every((l, j) => sameList(l, other[j] as readonly unknown[])))
          return bucket.ids[i] as number;
      }
      const id = this.size++;
      bucket.lists.push(lists);
      bucket.ids.push(id);
      if (bucket.ids.length === BUCKET_LIMIT) {
        // From now on this fingerprint is keyed in full: index what the bucket holds.
        // Stryker disable next-line EqualityOperator: one step more indexes the key "undefined", which no rule has
        for (let i = 0; i < bucket.lists.length; i++)
          this.byKey.set(JSON.stringify(bucket.lists[i]), bucket.ids[i] as number);
      }
      return id;
    }
    const key = JSON.stringify(lists);
    let id = this.byKey.get(key);
    if (id === undefined) this.byKey.set(key, (id = this.size++));
    return id;
  }

  list(rules: readonly PolicyRule[]): RuleList {
    return { rules, ids: rules.map((r) => this.id(r)) };
  }

  /** One controller step: the rules of the matched roles, selector by selector, first occurrence kept. */
  step(matches: readonly (readonly string[])[], listOf: (name: string) => RuleList | undefined): RuleList {
    let seen = this.grown();
    // Stryker disable next-line UpdateOperator: counting down gives distinct non-zero epochs too, never the 0 a fresh array holds
    const epoch = ++this.epoch;
    const rules: PolicyRule[] = [];
    const ids: number[] = [];
    for (const matched of matches) {
      for (const name of matched) {
        const list = listOf(name);
        if (list === undefined) continue;
        // LIST_OF may intern a role's rules on first reading it (aggregate.ts): new ids need room.
        seen = this.grown();
        for (let j = 0; j < list.ids.length; j++) {
          const id = list.ids[j] as number;
          if (seen[id] === epoch) continue;
          seen[id] = epoch;
          ids.push(id);
          rules.push(list.rules[j] as PolicyRule);
        }
      }
    }
    return { rules, ids };
  }

  /** The step's marks, with room for every id interned so far (the marks made in this step kept). */
  private grown(): Int32Array {
    if (this.seen.length < this.size) {
      const more = new Int32Array(this.size * 2);
      more.set(this.seen);
      this.seen = more;
    }
    return this.seen;
  }
}

export function sameIds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
