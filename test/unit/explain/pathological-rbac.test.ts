/**
 * Issue 37 item 4: someone who may create bindings must not be able to make an administrator's read command slow.
 * The work explain --subject, who-can, lookup and the matrix do must grow with the roles bound, not with the
 * bindings that name them, and not with the square of a role's aggregated sources.
 *
 * Two kinds of checks, neither timed: the work counted (every read of a field of a bound role's rules, through a
 * Proxy: the same with 10,000 bindings of one role as with 10), and inputs ten times the sizes of the issue (a
 * subject bound 10,000 times to one role aggregating 20,000; 100,000 ClusterRoleBindings for the matrix) answered
 * within the unit tests' timeout, which an answer costing bindings x sources² (or bindings x rules in memory)
 * cannot meet.
 */
import { describe, expect, it } from 'vitest';
import { explainSubject } from '../../../src/explain/explain-subject.js';
import { accessMatrix } from '../../../src/explain/matrix.js';
import { lookup } from '../../../src/lookup/lookup.js';
import { whoCan } from '../../../src/who-can/who-can.js';
import type { SubjectSnapshot } from '../../../src/explain/subject-types.js';
import type { ResolvedResource } from '../../../src/crossplane/resolve-resource.js';
import type { KnownResource } from '../../../src/crossplane/resource-names.js';
import { BOMB_ROLE, bombObjects, VICTIM, type BombOptions } from '../../support/pathological-rbac.js';

type Obj = Record<string, any>;

/** The graph as a snapshot, each rule behind a Proxy that counts the reads of its fields. */
function counted(o: BombOptions): { snapshot: SubjectSnapshot; reads: () => number } {
  let reads = 0;
  const proxies = new Map<object, object>();
  const wrap = (rule: object): object => {
    let p = proxies.get(rule);
    if (p === undefined) {
      p = new Proxy(rule, {
        get(target, key, receiver) {
          reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      proxies.set(rule, p);
    }
    return p;
  };
  const objects = bombObjects(o) as Obj[];
  for (const obj of objects) if (obj.kind === 'ClusterRole') obj.rules = (obj.rules as object[]).map(wrap);
  const snapshot = {
    clusterRoles: objects.filter((x) => x.kind === 'ClusterRole'),
    clusterRoleBindings: objects.filter((x) => x.kind === 'ClusterRoleBinding'),
    roleBindings: objects.filter((x) => x.kind === 'RoleBinding'),
    roles: [],
    namespaces: [],
  } as unknown as SubjectSnapshot;
  return { snapshot, reads: () => reads };
}

const SECRETS: ResolvedResource = {
  group: '',
  resource: 'secrets',
  namespaced: true,
  kind: 'Secret',
  source: 'builtin',
};
const VICTIM_USER = { kind: 'User', name: VICTIM } as const;

/** The reads one answer makes of the rules, for a graph of SOURCES bound BINDINGS times (other options alike). */
function readsFor(
  answer: (snapshot: SubjectSnapshot) => unknown,
  o: BombOptions,
): { reads: number; result: unknown } {
  const { snapshot, reads } = counted(o);
  const result = answer(snapshot);
  return { reads: reads(), result };
}

describe('the work grows with the roles bound, not with the bindings (reads of the rules counted)', () => {
  const cases: [string, Omit<BombOptions, 'bindings'>][] = [
    ['cluster-wide, denied', { sources: 200 }],
    ['cluster-wide, allowed', { sources: 200, grantSecrets: true }],
    ['cluster-wide, not stored yet', { sources: 200, grantSecrets: true, unconverged: true }],
    ['RoleBindings in a namespace, denied', { sources: 200, namespace: 'team' }],
  ];

  it.each(cases)('explain --subject --for secrets --verb get: %s', (_name, o) => {
    const ns = o.namespace;
    const run = (s: SubjectSnapshot) =>
      explainSubject(VICTIM_USER, [], ns, s, { verb: 'get', resource: SECRETS });
    const few = readsFor(run, { ...o, bindings: 10 });
    const many = readsFor(run, { ...o, bindings: 10_000 });
    const answer = many.result as ReturnType<typeof explainSubject>;
    expect(answer.bindings).toHaveLength(10_000);
    expect(answer.access?.allowed).toBe(o.grantSecrets === true);
    if (o.grantSecrets === true) expect(answer.access?.grants).toHaveLength(10_000);
    expect(many.reads).toBe(few.reads);
  });

  it.each(cases)('who-can get secrets: %s', (_name, o) => {
    const run = (s: SubjectSnapshot) =>
      whoCan({ verb: 'get', resource: SECRETS, namespace: o.namespace ?? 'default', converged: true }, s);
    const few = readsFor(run, { ...o, bindings: 10 });
    const many = readsFor(run, { ...o, bindings: 10_000 });
    const victim = (many.result as ReturnType<typeof whoCan>).subjects.find((s) => s.name === VICTIM);
    const expected = o.grantSecrets === true && o.namespace === undefined ? 10_000 : undefined;
    expect(victim?.paths.length).toBe(expected);
    expect(many.reads).toBe(few.reads);
  });

  it.each(cases)('lookup -o wide: %s', (_name, o) => {
    const run = (s: SubjectSnapshot) =>
      lookup({ pattern: undefined, kind: undefined, namespace: undefined }, s);
    const few = readsFor(run, { ...o, bindings: 10 });
    const many = readsFor(run, { ...o, bindings: 10_000 });
    const [subject] = (many.result as ReturnType<typeof lookup>).subjects;
    expect(subject?.grants).toHaveLength(10_000);
    expect(subject?.grants[0]?.chains).toHaveLength(200);
    expect(many.reads).toBe(few.reads);
  });

  it.each(cases)('explain --subject --matrix: %s', (_name, o) => {
    const run = (s: SubjectSnapshot) =>
      accessMatrix(
        { subject: VICTIM_USER, groups: [], namespace: o.namespace, all: false },
        { rbac: s, resources: MATRIX_RESOURCES, providerRevisions: [] },
      );
    const few = readsFor(run, { ...o, bindings: 10 });
    const many = readsFor(run, { ...o, bindings: 10_000 });
    expect(many.result).toEqual(few.result);
    expect(many.reads).toBe(few.reads);
  });
});

const known = (group: string, plural: string, kind: string, namespaced: boolean): KnownResource => ({
  group,
  versions: ['v1'],
  plural,
  singular: kind.toLowerCase(),
  kind,
  shortNames: [],
  namespaced,
  source: 'builtin',
});

/** A few served resources: secrets, and the resources of three of the sources. */
const MATRIX_RESOURCES: KnownResource[] = [
  known('', 'secrets', 'Secret', true),
  known('', 'nodes', 'Node', false),
  ...[0, 7, 199].map((i) =>
    known(
      `g${String(i).padStart(6, '0')}.example.org`,
      `things${String(i).padStart(6, '0')}`,
      'Thing',
      false,
    ),
  ),
];

describe('ten times the sizes of issue 37 within the test timeout', () => {
  it('explain --subject: bound 10,000 times to one role aggregating 20,000 roles, every rule with its chain', () => {
    const { snapshot } = counted({ sources: 20_000, bindings: 10_000, grantSecrets: true });
    const e = explainSubject(VICTIM_USER, [], undefined, snapshot, { verb: 'get', resource: SECRETS });
    expect(e.bindings).toHaveLength(10_000);
    const first = e.bindings[0];
    expect(first?.rules).toHaveLength(20_001);
    // Each rule's chain: the bound role, then the source holding it.
    expect(first?.rules[20_000]?.chain).toEqual([BOMB_ROLE, 'part-019999']);
    expect(e.access?.allowed).toBe(true);
    expect(e.access?.grants.map((g) => g.chain)[9_999]).toEqual([BOMB_ROLE, 'part-000000']);
  });

  it('explain --subject, denied: the reasons for the denial too', () => {
    const { snapshot } = counted({ sources: 20_000, bindings: 10_000, grantSecrets: true });
    const e = explainSubject(VICTIM_USER, [], undefined, snapshot, { verb: 'delete', resource: SECRETS });
    expect(e.access?.allowed).toBe(false);
    expect(e.access?.whyNot.map((r) => r.message)).toEqual([
      "the subject's roles allow get on secrets, not delete",
    ]);
  });

  it('who-can and lookup on the same graph', () => {
    const { snapshot } = counted({ sources: 20_000, bindings: 10_000, grantSecrets: true });
    const w = whoCan({ verb: 'get', resource: SECRETS, namespace: undefined, converged: true }, snapshot);
    expect(w.subjects.find((s) => s.name === VICTIM)?.paths).toHaveLength(10_000);
    const l = lookup({ pattern: undefined, kind: undefined, namespace: undefined }, snapshot);
    expect(l.subjects[0]?.grants[9_999]?.chains).toHaveLength(20_000);
  });

  it('explain --subject --matrix over 100,000 ClusterRoleBindings', () => {
    const { snapshot } = counted({ sources: 2_000, bindings: 100_000 });
    const m = accessMatrix(
      { subject: VICTIM_USER, groups: [], namespace: undefined, all: false },
      { rbac: snapshot, resources: MATRIX_RESOURCES, providerRevisions: [] },
    );
    expect(m.groups.flatMap((g) => g.resources.map((r) => r.resource))).toEqual([
      'things000000',
      'things000007',
      'things000199',
    ]);
    expect(m.hidden).toBe(2);
  });
});
