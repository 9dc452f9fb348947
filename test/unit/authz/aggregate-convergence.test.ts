// More of the clusterrole-aggregation controller (pkg/controller/clusterroleaggregation, syncClusterRole): the role
// itself is never one of its sources, labels are the role's own map, `In` selectors take every listed value, and
// the controller syncs until nothing changes (each sync re-queues the roles that select the changed one).
// test/unit/authz/aggregate.test.ts holds the controller's own test table.
import { describe, expect, it } from 'vitest';
import { aggregateClusterRoles, aggregateRole, convergeClusterRoles } from '../../../src/authz/aggregate.js';
import type { ClusterRole } from '../../../src/kube/types.js';
import { role, rule } from '../explain/helpers.js';

const own = rule('get', 'own');
const pods = rule('get', 'pods');

describe('the role itself is not a source', () => {
  // syncClusterRole: `if selectedClusterRole.Name == clusterRole.Name { continue }`.
  const roles = [
    role('agg', { agg: 'true' }, [own], [{ matchLabels: { agg: 'true' } }]),
    role('src', { agg: 'true' }, [pods]),
  ];

  it('aggregateClusterRoles drops the rules the role stores even when its labels match its selector', () => {
    expect(aggregateClusterRoles(roles)).toStrictEqual(new Map([['agg', [pods]]]));
  });

  it('convergeClusterRoles reports no cycle for a role that matches itself', () => {
    const c = convergeClusterRoles(roles);
    expect(c.graph.matches.get('agg')).toStrictEqual([['src']]);
    expect(c.rules.get('agg')).toStrictEqual([pods]);
    expect(c.cycles).toStrictEqual([]);
  });

  it('aggregateRole (one sync) likewise', () => {
    expect(aggregateRole(roles[0] as ClusterRole, roles)).toStrictEqual([pods]);
  });

  it('a selected role without rules adds none', () => {
    const bare: ClusterRole = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'bare', labels: { agg: 'true' } },
    };
    expect(aggregateRole(roles[0] as ClusterRole, [bare, ...roles])).toStrictEqual([pods]);
    expect(aggregateClusterRoles([bare, ...roles]).get('agg')).toStrictEqual([pods]);
  });
});

describe('labels', () => {
  it("are the role's own: an inherited property is no label", () => {
    const inherited = Object.create({ agg: 'true' }) as Record<string, string>;
    const roles: ClusterRole[] = [
      role('agg', {}, [], [{ matchLabels: { agg: 'true' } }]),
      role('a', inherited, [own]),
      role('b', { agg: 'true' }, [pods]),
    ];
    expect(convergeClusterRoles(roles).graph.matches.get('agg')).toStrictEqual([['b']]);
    expect(aggregateClusterRoles(roles).get('agg')).toStrictEqual([pods]);
  });
});

describe('selectors of several requirements and values', () => {
  const r = (name: string, tier: string, extra: Record<string, string> = {}) =>
    role(name, { tier, ...extra }, [rule('get', name)]);
  const roles: ClusterRole[] = [
    r('r4', 'a'),
    r('r1', 'b', { keep: 'yes' }),
    r('r3', 'b'),
    r('r2', 'a', { keep: 'yes' }),
    r('r5', 'c', { keep: 'yes' }),
  ];
  const matched = (selector: Parameters<typeof role>[3]) =>
    convergeClusterRoles([...roles, role('agg', {}, [], selector)]).graph.matches.get('agg');

  it.each([
    [
      'In takes every value, roles in name order whatever value matched them',
      [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] }],
      [['r1', 'r2', 'r3', 'r4']],
    ],
    [
      'In of values no role has matches nothing',
      [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['x', 'y'] }] }],
      [[]],
    ],
    [
      'every requirement must hold (labels.Selector is an AND)',
      [
        {
          matchLabels: { keep: 'yes' },
          matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b', 'x'] }],
        },
      ],
      [['r1', 'r2']],
    ],
    [
      'Exists and NotIn together',
      [
        {
          matchExpressions: [
            { key: 'keep', operator: 'Exists' },
            { key: 'tier', operator: 'NotIn', values: ['a'] },
          ],
        },
      ],
      [['r1', 'r5']],
    ],
    [
      'a requirement on a key no role has',
      [{ matchExpressions: [{ key: 'missing', operator: 'Exists' }] }],
      [[]],
    ],
    [
      'DoesNotExist alone checks every role (the role itself left out)',
      [{ matchExpressions: [{ key: 'keep', operator: 'DoesNotExist' }] }],
      [['r3', 'r4']],
    ],
    [
      'one list per selector, in selector order',
      [{ matchLabels: { tier: 'c' } }, { matchLabels: { tier: 'a' } }],
      [['r5'], ['r2', 'r4']],
    ],
  ] as const)('%s', (_what, selector, want) => {
    expect(matched(selector)).toStrictEqual(want);
  });
});

describe('an aggregationRule without selectors', () => {
  it('selects nothing: the controller stores no rules', () => {
    const roles: ClusterRole[] = [
      { ...role('agg', {}, [own]), aggregationRule: {} },
      role('src', { agg: 'true' }, [pods]),
    ];
    const c = convergeClusterRoles(roles);
    expect(c.graph.matches.get('agg')).toStrictEqual([]);
    expect(c.rules.get('agg')).toStrictEqual([]);
  });
});

describe('a role without an aggregationRule', () => {
  it('is left alone: its rules, none when it has none', () => {
    const bare: ClusterRole = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'bare' },
    };
    expect(aggregateRole(bare, [bare, role('src', {}, [pods])])).toStrictEqual([]);
  });
});

describe('cycles and convergence', () => {
  it('finds no cycle in a chain, and converges', () => {
    const roles = [
      role('top', {}, [], [{ matchLabels: { to: 'top' } }]),
      role('mid', { to: 'top' }, [], [{ matchLabels: { to: 'mid' } }]),
      role('leaf', { to: 'mid' }, [pods]),
    ];
    const c = convergeClusterRoles(roles);
    expect(c.cycles).toStrictEqual([]);
    expect(c.unconverged).toStrictEqual([]);
    expect(c.rules.get('top')).toStrictEqual([pods]);
  });

  it('reports only the roles of the cycle, not a role that selects into it', () => {
    // a -> b <-> c: a is synced after the cycle and is no part of it.
    const roles = [
      role('a', {}, [], [{ matchLabels: { n: 'b' } }]),
      role('b', { n: 'b' }, [pods], [{ matchLabels: { n: 'c' } }]),
      role('c', { n: 'c' }, [pods], [{ matchLabels: { n: 'b' } }]),
    ];
    const c = convergeClusterRoles(roles);
    expect(c.cycles).toStrictEqual([['b', 'c']]);
    expect(c.unconverged).toStrictEqual([]);
    expect(c.rules.get('a')).toStrictEqual([pods]);
  });

  it('reports two cycles under one root apart', () => {
    const roles = [
      role('a', {}, [], [{ matchLabels: { n: 'y1' } }, { matchLabels: { n: 'x1' } }]),
      role('x1', { n: 'x1' }, [own], [{ matchLabels: { n: 'x2' } }]),
      role('x2', { n: 'x2' }, [own], [{ matchLabels: { n: 'x1' } }]),
      role('y1', { n: 'y1' }, [pods], [{ matchLabels: { n: 'y2' } }]),
      role('y2', { n: 'y2' }, [pods], [{ matchLabels: { n: 'y1' } }]),
    ];
    const c = convergeClusterRoles(roles);
    expect(c.cycles).toStrictEqual([
      ['x1', 'x2'],
      ['y1', 'y2'],
    ]);
    // Cycles come out in name order; a's rules in its selectors' order.
    expect(c.rules.get('a')).toStrictEqual([pods, own]);
  });

  it('converges a long ring that a rule must travel against name order', () => {
    // r00 <- r01 <- ... <- r11 <- r00, and r11 also selects a leaf. Synced in name order, the leaf's rule moves one
    // role down the ring per round: 12 rounds, then one without change. The controller gets there too (it re-queues).
    const n = 12;
    const name = (i: number) => `r${String(i).padStart(2, '0')}`;
    const roles: ClusterRole[] = [role('leaf', { feeds: 'ring' }, [pods])];
    for (let i = 0; i < n; i++) {
      const selectors =
        i === n - 1
          ? [{ matchLabels: { n: name(0) } }, { matchLabels: { feeds: 'ring' } }]
          : [{ matchLabels: { n: name(i + 1) } }];
      roles.push(role(name(i), { n: name(i) }, [], selectors));
    }
    const c = convergeClusterRoles(roles);
    expect(c.cycles).toStrictEqual([Array.from({ length: n }, (_, i) => name(i))]);
    expect(c.unconverged).toStrictEqual([]);
    for (let i = 0; i < n; i++) expect(c.rules.get(name(i)), name(i)).toStrictEqual([pods]);
  });
});
