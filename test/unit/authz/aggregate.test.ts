import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  aggregateClusterRoles,
  aggregateRole,
  convergeClusterRoles,
  ruleKey,
} from '../../../src/authz/aggregate.js';
import { InvalidSelectorError } from '../../../src/kube/selector.js';
import type { ClusterRole, LabelSelector, PolicyRule } from '../../../src/kube/types.js';
import { fixturePath } from '../../support/fixtures.js';
import { prng, readClusterRoles, role, rule } from '../explain/helpers.js';
import { compareNames } from '../../../src/kube/order.js';

// The controller's own fixtures (TestSyncClusterRole): rules without an API group.
const hammer: PolicyRule[] = [
  { verbs: ['hammer'], resources: ['nails'] },
  { verbs: ['hammer'], resources: ['wedges'] },
];
const chisel: PolicyRule[] = [{ verbs: ['chisel'], resources: ['mortises'] }];
const saw: PolicyRule[] = [{ verbs: ['saw'], resources: ['boards'] }];
const combined = (selectors: Record<string, string>[], rules: PolicyRule[] = []): ClusterRole =>
  role(
    'combined',
    {},
    rules,
    selectors.map((matchLabels) => ({ matchLabels })),
  );

interface StepCase {
  reason: string;
  roles: ClusterRole[];
  want: PolicyRule[];
}

describe('aggregateRole: the controller test cases', () => {
  const cases: Record<string, StepCase> = {
    RemoveDeadRules: {
      reason: 'Rules the aggregated role stores but no selected role has are dropped.',
      roles: [role('hammer', { foo: 'bar' }, hammer), combined([{ foo: 'bar' }], saw)],
      want: hammer,
    },
    StripRules: {
      reason: 'When nothing matches, the stored rules are all removed.',
      roles: [role('hammer', { foo: 'not-bar' }, hammer), combined([{ foo: 'bar' }], hammer)],
      want: [],
    },
    SelectProperlyAndPutInOrder: {
      reason: 'Only matching roles contribute, sorted by name (chisel before hammer).',
      roles: [
        role('hammer', { foo: 'bar' }, hammer),
        role('chisel', { foo: 'bar' }, chisel),
        role('saw', { foo: 'not-bar' }, saw),
        combined([{ foo: 'bar' }]),
      ],
      want: [...chisel, ...hammer],
    },
    SelectProperlyWithMultipleSelectors: {
      reason: 'Each selector adds its roles after those of the previous selector.',
      roles: [
        role('hammer', { foo: 'bar' }, hammer),
        role('chisel', { foo: 'bar' }, chisel),
        role('saw', { foo: 'not-bar' }, saw),
        combined([{ foo: 'bar' }, { foo: 'not-bar' }]),
      ],
      want: [...chisel, ...hammer, ...saw],
    },
    SelectProperlyRemoveDuplicates: {
      reason: 'A rule already taken through an earlier selector is not added again.',
      roles: [
        role('hammer', { foo: 'bar' }, hammer),
        role('chisel', { foo: 'bar' }, chisel),
        role('saw', { foo: 'bar' }, saw),
        role('other-saw', { foo: 'not-bar' }, saw),
        combined([{ foo: 'bar' }, { foo: 'not-bar' }]),
      ],
      want: [...chisel, ...hammer, ...saw],
    },
    NoDiffSkip: {
      reason: 'When the stored rules already equal the computed ones, the result equals them.',
      roles: [role('hammer', { foo: 'bar' }, hammer), combined([{ foo: 'bar' }], hammer)],
      want: hammer,
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    const target = tc.roles.find((r) => r.metadata.name === 'combined') as ClusterRole;
    expect(aggregateRole(target, tc.roles), tc.reason).toStrictEqual(tc.want);
  });
});

describe('aggregateRole: edge cases', () => {
  const agg = (selectors: LabelSelector[], rules: PolicyRule[] = []): ClusterRole =>
    role('agg', {}, rules, selectors);
  const cases: Record<string, StepCase & { target?: string }> = {
    EmptySelectorMatchesEverything: {
      reason: 'An empty selector selects every ClusterRole (labels.Everything), the role itself excepted.',
      roles: [
        role('b', {}, [rule('get', 'b')]),
        role('a', { x: 'y' }, [rule('get', 'a')]),
        agg([{}], [rule('own', 'own')]),
      ],
      want: [rule('get', 'a'), rule('get', 'b')],
    },
    NotInMatchesRolesWithoutTheLabel: {
      reason: 'NotIn and DoesNotExist select roles that do not carry the key at all.',
      roles: [
        role('with-other', { tier: 'gold' }, [rule('get', 'gold')]),
        role('with-excluded', { tier: 'bronze' }, [rule('get', 'bronze')]),
        role('without', {}, [rule('get', 'none')]),
        agg([{ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['bronze'] }] }]),
      ],
      // 'with-other' < 'without': '-' sorts before 'o'.
      want: [rule('get', 'gold'), rule('get', 'none')],
    },
    SelectorOrderBeatsNameOrder: {
      reason: 'All roles of selector 0 come before those of selector 1, whatever their names.',
      roles: [
        role('a-second', { s: '1' }, [rule('get', 'second')]),
        role('z-first', { s: '0' }, [rule('get', 'first')]),
        agg([{ matchLabels: { s: '0' } }, { matchLabels: { s: '1' } }]),
      ],
      want: [rule('get', 'first'), rule('get', 'second')],
    },
    OrderSensitiveDedup: {
      reason:
        'Rules equal up to list order are different rules and both stay; nil and empty lists are equal.',
      roles: [
        role('a', { x: 'y' }, [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]),
        role('b', { x: 'y' }, [
          { apiGroups: [''], resources: ['pods'], verbs: ['list', 'get'] },
          { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'], resourceNames: [] },
        ]),
        agg([{ matchLabels: { x: 'y' } }]),
      ],
      want: [
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['list', 'get'] },
      ],
    },
    NoCompaction: {
      reason: 'Rules that could be merged are kept as written.',
      roles: [
        role('a', { x: 'y' }, [rule('get', 'pods'), rule('list', 'pods')]),
        agg([{ matchLabels: { x: 'y' } }]),
      ],
      want: [rule('get', 'pods'), rule('list', 'pods')],
    },
    AndInsideOneSelector: {
      reason: 'matchLabels and matchExpressions of one selector must all hold.',
      roles: [
        role('both', { a: '1', b: '2' }, [rule('get', 'both')]),
        role('only-a', { a: '1' }, [rule('get', 'only-a')]),
        role('only-b', { b: '2' }, [rule('get', 'only-b')]),
        agg([{ matchLabels: { a: '1' }, matchExpressions: [{ key: 'b', operator: 'Exists' }] }]),
      ],
      want: [rule('get', 'both')],
    },
    SelfSkipped: {
      reason: 'A role matching its own selector does not take its own rules.',
      roles: [
        role('agg', { x: 'y' }, [rule('own', 'own')], [{ matchLabels: { x: 'y' } }]),
        role('other', { x: 'y' }, [rule('get', 'o')]),
      ],
      want: [rule('get', 'o')],
    },
    ByteOrderWithUpperCaseAndColon: {
      reason: "Names sort by bytes: ':' (0x3a) before 'A' (0x41) before 'a' (0x61); '-' (0x2d) before ':'.",
      roles: [
        role('a', { x: 'y' }, [rule('get', 'lower')]),
        role('A', { x: 'y' }, [rule('get', 'upper')]),
        role(':', { x: 'y' }, [rule('get', 'colon')]),
        role('x:a', { x: 'y' }, [rule('get', 'x-colon')]),
        role('x-a', { x: 'y' }, [rule('get', 'x-dash')]),
        agg([{ matchLabels: { x: 'y' } }]),
      ],
      want: [
        rule('get', 'colon'),
        rule('get', 'upper'),
        rule('get', 'lower'),
        rule('get', 'x-dash'),
        rule('get', 'x-colon'),
      ],
    },
    UsesStoredRulesOfAggregatedSources: {
      reason: 'One step reads what an aggregated source stores now, not what it would converge to.',
      roles: [
        role('leaf', { l: 'v' }, [rule('get', 'leaf')]),
        role('mid', { m: 'v' }, [rule('get', 'stale')], [{ matchLabels: { l: 'v' } }]),
        agg([{ matchLabels: { m: 'v' } }]),
      ],
      want: [rule('get', 'stale')],
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    const target = tc.roles.find((r) => r.metadata.name === 'agg') as ClusterRole;
    expect(aggregateRole(target, tc.roles), tc.reason).toStrictEqual(tc.want);
  });

  it('InvalidOperatorThrows', () => {
    const roles = [agg([{ matchExpressions: [{ key: 'a', operator: 'Equals', values: ['b'] }] }])];
    expect(() => aggregateClusterRoles(roles)).toThrow(InvalidSelectorError);
  });

  it('NonAggregatedRoleKeepsItsRules', () => {
    const plain = role('plain', {}, [rule('get', 'pods')]);
    expect(aggregateRole(plain, [plain])).toStrictEqual([rule('get', 'pods')]);
    expect(aggregateClusterRoles([plain]).has('plain')).toBe(false);
  });
});

describe('aggregateClusterRoles: equal rules counted once, however many look alike', () => {
  // The controller keeps the first of semantically equal rules (nil equals empty, order inside a list counts). Rules
  // that share their lists' lengths and first and last elements differ only inside: each must stay, also past the
  // point where the interner stops comparing such rules one by one (more than 8 alike).
  const alike = (i: number): PolicyRule => ({
    apiGroups: ['example.org'],
    resources: ['first', `middle-${String(i).padStart(2, '0')}`, 'last'],
    verbs: ['get'],
  });
  const cases: { reason: string; children: PolicyRule[][]; want: PolicyRule[] }[] = [
    {
      reason: 'twenty rules alike but for a middle element: all kept, in selection order',
      children: Array.from({ length: 20 }, (_, i) => [alike(i)]),
      want: Array.from({ length: 20 }, (_, i) => alike(i)),
    },
    {
      reason:
        'a repeat of an early rule after many alike ones is dropped; one with nil lists equals its empty twin',
      children: [
        ...Array.from({ length: 12 }, (_, i) => [alike(i)]),
        [{ ...alike(3), resourceNames: [], nonResourceURLs: [] }],
        [alike(11)],
        [alike(7)],
        [{ apiGroups: ['example.org'], resources: ['first', 'last'], verbs: ['get'] }],
      ],
      want: [
        ...Array.from({ length: 12 }, (_, i) => alike(i)),
        { apiGroups: ['example.org'], resources: ['first', 'last'], verbs: ['get'] },
      ],
    },
    {
      reason: 'each list left out equals it given empty, and only that: no list stands for another',
      children: [
        [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
        [{ apiGroups: [], resources: [], nonResourceURLs: ['/healthz'], verbs: ['get'], resourceNames: [] }],
        // Without verbs: the API refuses such a rule, but the controller's equality still treats nil as empty.
        [{ apiGroups: [''], resources: ['pods'] } as unknown as PolicyRule],
        [{ apiGroups: [''], resources: ['pods'], verbs: [] }],
        [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
        [{ apiGroups: [''], verbs: ['get'] }],
      ],
      want: [
        { nonResourceURLs: ['/healthz'], verbs: ['get'] },
        { apiGroups: [''], resources: ['pods'] } as unknown as PolicyRule,
        { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
        { apiGroups: [''], verbs: ['get'] },
      ],
    },
    {
      reason: 'the same elements in another order is another rule',
      children: [[alike(1)], [{ ...alike(1), resources: ['first', 'last', 'middle-01'] }]],
      want: [alike(1), { ...alike(1), resources: ['first', 'last', 'middle-01'] }],
    },
  ];
  for (const c of cases) {
    it(c.reason, () => {
      const children = c.children.map((rules, i) =>
        role(`child-${String(i).padStart(2, '0')}`, { pick: 'me' }, rules),
      );
      const parent = role('parent', {}, [], [{ matchLabels: { pick: 'me' } }]);
      expect(aggregateClusterRoles([parent, ...children]).get('parent')).toStrictEqual(c.want);
    });
  }
});

describe('compareNames and ruleKey', () => {
  it('SortsAsGoDoes', () => {
    const names = ['b', 'a:b', 'A', 'a-b', 'a', '\u{1F600}', '\uFFFD'];
    expect([...names].sort(compareNames)).toStrictEqual(['A', 'a', 'a-b', 'a:b', 'b', '\uFFFD', '\u{1F600}']);
  });
  it('NilEqualsEmpty', () => {
    expect(ruleKey({ verbs: ['get'] })).toBe(ruleKey({ verbs: ['get'], apiGroups: [], resourceNames: [] }));
    expect(ruleKey({ verbs: ['get', 'list'] })).not.toBe(ruleKey({ verbs: ['list', 'get'] }));
  });
});

describe('aggregateClusterRoles: transitive and to a fixpoint', () => {
  it('ChainAgainstNameOrder', () => {
    // a aggregates b aggregates c aggregates leaf: names sort against the dependency direction.
    const roles = [
      role('a', {}, [], [{ matchLabels: { to: 'a' } }]),
      role('b', { to: 'a' }, [], [{ matchLabels: { to: 'b' } }]),
      role('c', { to: 'b' }, [], [{ matchLabels: { to: 'c' } }]),
      role('leaf', { to: 'c' }, [rule('get', 'x')]),
    ];
    const got = aggregateClusterRoles(roles);
    expect([...got.keys()]).toStrictEqual(['a', 'b', 'c']);
    for (const name of ['a', 'b', 'c']) expect(got.get(name), name).toStrictEqual([rule('get', 'x')]);
  });

  it('CycleKeepsRulesThatEnteredIt', () => {
    // x and y select each other; only x stores a rule (from a leaf that has since been deleted).
    const roles = [
      role('x', { ring: 'y' }, [rule('get', 'ghost')], [{ matchLabels: { ring: 'x' } }]),
      role('y', { ring: 'x' }, [], [{ matchLabels: { ring: 'y' } }]),
    ];
    const c = convergeClusterRoles(roles);
    expect(c.cycles).toStrictEqual([['x', 'y']]);
    expect(c.unconverged).toStrictEqual([]);
    // x syncs first (name order) from y's empty list, then y from x: the ghost rule is lost; had y stored it, it would stay.
    expect(c.rules.get('x')).toStrictEqual([]);
    const roles2 = [
      role('x', { ring: 'y' }, [], [{ matchLabels: { ring: 'x' } }]),
      role('y', { ring: 'x' }, [rule('get', 'ghost')], [{ matchLabels: { ring: 'y' } }]),
    ];
    const c2 = aggregateClusterRoles(roles2);
    expect(c2.get('x')).toStrictEqual([rule('get', 'ghost')]);
    expect(c2.get('y')).toStrictEqual([rule('get', 'ghost')]);
  });

  it('CycleFedByALeaf', () => {
    const roles = [
      role('p', { ring: 'q' }, [], [{ matchLabels: { ring: 'p' } }]),
      role('q', { ring: 'p' }, [], [{ matchLabels: { ring: 'q' } }, { matchLabels: { feeds: 'q' } }]),
      role('leaf', { feeds: 'q' }, [rule('get', 'leaf')]),
    ];
    const got = aggregateClusterRoles(roles);
    expect(got.get('p')).toStrictEqual([rule('get', 'leaf')]);
    expect(got.get('q')).toStrictEqual([rule('get', 'leaf')]);
  });

  it('OscillatingCycleTerminates', () => {
    // a<-b<-c<-a with distinct stored rules: synced in name order this rotates forever; the round cap stops it.
    const roles = [
      role('a', { n: 'a' }, [rule('get', '1')], [{ matchLabels: { n: 'b' } }]),
      role('b', { n: 'b' }, [rule('get', '2')], [{ matchLabels: { n: 'c' } }]),
      role('c', { n: 'c' }, [rule('get', '3')], [{ matchLabels: { n: 'a' } }]),
    ];
    const c = convergeClusterRoles(roles);
    expect(c.cycles).toStrictEqual([['a', 'b', 'c']]);
    expect(c.unconverged).toStrictEqual([['a', 'b', 'c']]);
    for (const name of ['a', 'b', 'c']) expect(c.rules.get(name)).toHaveLength(1);
  });
});

const bootstrap = fixturePath('kubernetes', 'bootstrap-cluster-roles.yaml');
const computed = fixturePath('kubernetes', 'computed-bootstrap-aggregated-admin-edit-view.yaml');

describe('bootstrap admin/edit/view', () => {
  it('MatchesTheComputedFixtureRuleForRule', () => {
    const got = aggregateClusterRoles(readClusterRoles(bootstrap));
    const want = readClusterRoles(computed);
    expect(want.map((r) => r.metadata.name)).toStrictEqual(['admin', 'edit', 'view']);
    for (const w of want) {
      expect(w.rules?.length, w.metadata.name).toBeGreaterThan(5);
      expect(got.get(w.metadata.name), w.metadata.name).toStrictEqual(w.rules);
    }
  });

  it('InputOrderDoesNotMatter', () => {
    const roles = readClusterRoles(bootstrap);
    const shuffled = [...roles].reverse();
    const r = prng(7);
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j] as ClusterRole, shuffled[i] as ClusterRole];
    }
    expect(aggregateClusterRoles(shuffled)).toStrictEqual(aggregateClusterRoles(roles));
  });
});

const chart = fixturePath('real', 'crossplane-chart-rbac.yaml');

describe('Crossplane chart roles with rendered XRD and provider roles', () => {
  const xrdEdit = role(
    'crossplane:composite:xpostgresqlinstances.example.org:aggregate-to-edit',
    { 'rbac.crossplane.io/aggregate-to-edit': 'true', 'rbac.crossplane.io/aggregate-to-admin': 'true' },
    [
      {
        apiGroups: ['example.org'],
        resources: ['xpostgresqlinstances', 'xpostgresqlinstances/status'],
        verbs: ['*'],
      },
      {
        apiGroups: ['example.org'],
        resources: ['postgresqlinstances', 'postgresqlinstances/status'],
        verbs: ['*'],
      },
    ],
  );
  const xrdView = role(
    'crossplane:composite:xpostgresqlinstances.example.org:aggregate-to-view',
    { 'rbac.crossplane.io/aggregate-to-view': 'true' },
    [
      {
        apiGroups: ['example.org'],
        resources: ['xpostgresqlinstances', 'xpostgresqlinstances/status'],
        verbs: ['get', 'list', 'watch'],
      },
    ],
  );
  const providerEdit = role(
    'crossplane:provider:provider-aws-s3-0f0e1d2c3b4a:aggregate-to-edit',
    { 'rbac.crossplane.io/aggregate-to-edit': 'true', 'rbac.crossplane.io/aggregate-to-admin': 'true' },
    [{ apiGroups: ['s3.aws.upbound.io'], resources: ['buckets', 'buckets/status'], verbs: ['*'] }],
  );

  it('EditAndAdminTakeChartThenXrdThenProviderRoles', () => {
    const roles = [providerEdit, ...readClusterRoles(chart), xrdView, xrdEdit];
    const byName = new Map(roles.map((r) => [r.metadata.name, r]));
    const own = (n: string): readonly PolicyRule[] => byName.get(n)?.rules ?? [];
    const got = aggregateClusterRoles(roles);
    expect(got.get('crossplane-edit')).toStrictEqual([
      ...own('crossplane:aggregate-to-edit'),
      ...own(xrdEdit.metadata.name),
      ...own(providerEdit.metadata.name),
    ]);
    expect(got.get('crossplane-admin')).toStrictEqual([
      ...own('crossplane:aggregate-to-admin'),
      ...own(xrdEdit.metadata.name),
      ...own(providerEdit.metadata.name),
    ]);
    expect(got.get('crossplane-view')).toStrictEqual([
      ...own('crossplane:aggregate-to-view'),
      ...own(xrdView.metadata.name),
    ]);
    expect(got.get('crossplane')).toStrictEqual(own('crossplane:system:aggregate-to-crossplane'));
    expect(got.get('crossplane:allowed-provider-permissions')).toStrictEqual([]);
  });
});

/** An independent, slow model: sync every aggregated role in name order, full scans, until nothing changes. */
function naiveFixpoint(roles: readonly ClusterRole[]): Map<string, PolicyRule[]> {
  const matches = (sel: LabelSelector, labels: Readonly<Record<string, string>> = {}): boolean =>
    Object.entries(sel.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
    (sel.matchExpressions ?? []).every((e) => {
      if (e.operator !== 'In') throw new Error('test model handles In only');
      const v = labels[e.key];
      return v !== undefined && (e.values ?? []).includes(v);
    });
  const norm = (r: PolicyRule): unknown => [
    r.apiGroups ?? [],
    r.resources ?? [],
    r.verbs,
    r.resourceNames ?? [],
    r.nonResourceURLs ?? [],
  ];
  const sorted = [...roles].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  const current = new Map(sorted.map((r) => [r.metadata.name, [...(r.rules ?? [])]]));
  const keys = new Map<PolicyRule, string>();
  // Matching does not depend on rules: resolve each selector once, by full scan.
  const matched = new Map<string, ClusterRole[][]>();
  for (const r of sorted) {
    if (r.aggregationRule === undefined) continue;
    matched.set(
      r.metadata.name,
      (r.aggregationRule.clusterRoleSelectors ?? []).map((sel) =>
        sorted.filter((o) => o.metadata.name !== r.metadata.name && matches(sel, o.metadata.labels)),
      ),
    );
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const r of sorted) {
      if (r.aggregationRule === undefined) continue;
      const next: PolicyRule[] = [];
      const seen = new Set<string>();
      for (const roles of matched.get(r.metadata.name) ?? []) {
        for (const o of roles) {
          for (const pr of current.get(o.metadata.name) ?? []) {
            let k = keys.get(pr);
            if (k === undefined) keys.set(pr, (k = JSON.stringify(norm(pr))));
            if (!seen.has(k)) {
              seen.add(k);
              next.push(pr);
            }
          }
        }
      }
      const prev = current.get(r.metadata.name) ?? [];
      if (
        prev.length !== next.length ||
        prev.some((p, i) => !isDeepStrictEqual(norm(p), norm(next[i] as PolicyRule)))
      ) {
        changed = true;
        current.set(r.metadata.name, next);
      }
    }
  }
  const out = new Map<string, PolicyRule[]>();
  for (const r of sorted)
    if (r.aggregationRule !== undefined) out.set(r.metadata.name, current.get(r.metadata.name) ?? []);
  return out;
}

/** 5,000 roles: 4,700 leaves in 60 groups, 250 mid roles taking 1-3 groups, 50 top roles taking mid tiers. */
function generateRoles(seed: number): ClusterRole[] {
  const r = prng(seed);
  const pick = (n: number): number => Math.floor(r() * n);
  const verbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', '*'];
  const rulePool: PolicyRule[] = Array.from({ length: 400 }, (_, i) => ({
    apiGroups: [`g${i % 37}.example.org`],
    resources: [`res${i % 53}`],
    verbs: [verbs[i % verbs.length] as string, verbs[(i * 3) % verbs.length] as string],
  }));
  const roles: ClusterRole[] = [];
  const hex = (): string => pick(0xffffff).toString(16).padStart(6, '0');
  for (let i = 0; i < 4700; i++) {
    const rules = Array.from({ length: 1 + pick(4) }, () => rulePool[pick(rulePool.length)] as PolicyRule);
    roles.push(
      role(
        `leaf-${hex()}-${i}`,
        { group: `g${pick(60)}`, ...(pick(5) === 0 ? { extra: 'yes' } : {}) },
        rules,
      ),
    );
  }
  for (let i = 0; i < 250; i++) {
    const groups = Array.from({ length: 1 + pick(3) }, () => `g${pick(60)}`);
    const selectors: LabelSelector[] = [
      { matchLabels: { group: groups[0] as string } },
      { matchExpressions: [{ key: 'group', operator: 'In', values: groups }] },
    ];
    roles.push(
      role(`Mid-${hex()}-${i}`, { tier: `t${pick(10)}` }, [rulePool[pick(400)] as PolicyRule], selectors),
    );
  }
  for (let i = 0; i < 50; i++) {
    const selectors: LabelSelector[] = [
      { matchLabels: { tier: `t${pick(10)}` } },
      { matchExpressions: [{ key: 'tier', operator: 'In', values: [`t${pick(10)}`, `t${pick(10)}`] }] },
    ];
    roles.push(role(`:top-${hex()}-${i}`, {}, [], selectors));
  }
  return roles;
}

describe('generated graph of 5,000 roles', () => {
  it('MatchesTheNaiveModel', () => {
    const roles = generateRoles(42);
    expect(roles).toHaveLength(5000);
    const got = aggregateClusterRoles(roles);
    const want = naiveFixpoint(roles);
    expect(got.size).toBe(300);
    expect([...got.keys()]).toStrictEqual([...want.keys()]);
    // Compare as text: a deep equality over ~60,000 rules is slow in the matcher.
    for (const [name, rules] of want) expect(JSON.stringify(got.get(name)), name).toBe(JSON.stringify(rules));
    // Not trivially empty: the top roles draw from the mid roles, which draw from leaves.
    const top = [...got.entries()].filter(([n]) => n.startsWith(':top'));
    expect(top.some(([, rules]) => rules.length > 20)).toBe(true);
  }, 60_000);
});

describe('convergeClusterRoles: rules interned as the controller first reads each role', () => {
  // The controller appends a source's rule only when no equal rule is there yet (ruleExists in
  // kubernetes/kubernetes pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go
  // @4f6fdb4551e8dd7b783d29e4d936d3756e4813ed): two sources holding the same 100 rules (equal, not the same
  // objects) give 100. A step reads sources never read before, whose rules get ids past those of the step's start.
  const rules = (n: number): PolicyRule[] =>
    Array.from({ length: n }, (_, i) => rule('get', `things${String(i)}`, 'example.org'));

  it('two sources of the same 100 rules aggregate to those 100, once each, in order', () => {
    const first = rules(100);
    const { rules: converged } = convergeClusterRoles([
      role('aggregated', {}, [], [{ matchLabels: { agg: 'yes' } }]),
      role('source-a', { agg: 'yes' }, first),
      role('source-b', { agg: 'yes' }, rules(100)),
      role('unmatched', {}, rules(3)),
    ]);
    expect(converged.get('aggregated')).toStrictEqual(first);
    expect(converged.get('unmatched')).toStrictEqual(rules(3));
    expect(converged.get('source-b')).toStrictEqual(rules(100));
  });
});
