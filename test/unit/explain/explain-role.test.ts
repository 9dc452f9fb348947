import { describe, expect, it } from 'vitest';
import { explainRole, UnknownRoleError, type ExplainSnapshot } from '../../../src/explain/explain-role.js';
import { InvalidSelectorError } from '../../../src/kube/selector.js';
import type { ClusterRole, ClusterRoleBinding, RoleBinding } from '../../../src/kube/types.js';
import { fixturePath } from '../../support/fixtures.js';
import { readClusterRoles, readObjects, role, rule } from './helpers.js';
import { closeMatches } from '../../../src/kube/did-you-mean.js';

const snap = (clusterRoles: ClusterRole[], more: Partial<ExplainSnapshot> = {}): ExplainSnapshot => ({
  clusterRoles,
  clusterRoleBindings: [],
  roleBindings: [],
  ...more,
});

// top <- [0] mid <- [1] leaf-b ; top <- [1] leaf-a ; mid <- [0] leaf-a
const chain = [
  role('top', { feeds: 'outer' }, [], [{ matchLabels: { to: 'top' } }, { matchLabels: { kind: 'a' } }]),
  role('mid', { to: 'top' }, [], [{ matchLabels: { kind: 'a' } }, { matchLabels: { kind: 'b' } }]),
  role('leaf-a', { kind: 'a' }, [rule('get', 'a')]),
  role('leaf-b', { kind: 'b' }, [rule('get', 'b'), rule('get', 'a')]),
  role('outer', {}, [], [{ matchLabels: { feeds: 'outer' } }, { matchLabels: { nothing: 'here' } }]),
];

describe('explainRole', () => {
  it('ProvenanceChains', () => {
    const e = explainRole('top', snap(chain));
    expect(e.effectiveRules).toStrictEqual([rule('get', 'a'), rule('get', 'b')]);
    expect(e.provenance.map((p) => ({ index: p.index, source: p.source, chain: p.chain }))).toStrictEqual([
      // get a: leaf-a wrote it, mid's selector 0 took it, top's selector 0 took mid (first occurrence wins).
      {
        index: 0,
        source: 'leaf-a',
        chain: [
          { role: 'leaf-a', selector: 0 },
          { role: 'mid', selector: 0 },
        ],
      },
      {
        index: 1,
        source: 'leaf-b',
        chain: [
          { role: 'leaf-b', selector: 1 },
          { role: 'mid', selector: 0 },
        ],
      },
    ]);
    expect(e.role).toStrictEqual({ name: 'top', aggregated: true, selectors: 2, storedRules: 0 });
    expect(e.selectors).toStrictEqual([
      { index: 0, selector: 'to=top', matched: ['mid'] },
      { index: 1, selector: 'kind=a', matched: ['leaf-a'] },
    ]);
    expect(e.unmatchedSelectors).toStrictEqual([]);
    expect(e.feedsInto).toStrictEqual([{ role: 'outer', path: ['top', 'outer'] }]);
    expect(e.drift).toStrictEqual({
      stored: 0,
      computed: 2,
      missing: [rule('get', 'a'), rule('get', 'b')],
      extra: [],
      reordered: false,
    });
  });

  it('UnmatchedSelectorAndTransitiveFeeds', () => {
    const e = explainRole('outer', snap(chain));
    expect(e.unmatchedSelectors).toStrictEqual([1]);
    expect(explainRole('leaf-a', snap(chain)).feedsInto).toStrictEqual([
      { role: 'mid', path: ['leaf-a', 'mid'] },
      { role: 'top', path: ['leaf-a', 'top'] },
      { role: 'outer', path: ['leaf-a', 'top', 'outer'] },
    ]);
  });

  it('NonAggregatedRoleShowsItsOwnRules', () => {
    const e = explainRole('leaf-b', snap(chain));
    expect(e.role.aggregated).toBe(false);
    expect(e.effectiveRules).toStrictEqual([rule('get', 'b'), rule('get', 'a')]);
    expect(e.provenance[0]).toStrictEqual({ index: 0, rule: rule('get', 'b'), source: 'leaf-b', chain: [] });
    expect(e.drift).toBeNull();
    expect(e.tree).toMatchObject({ role: 'leaf-b', ruleCount: 2, aggregated: false, children: [] });
  });

  it('NoDriftWhenStoredEqualsComputed', () => {
    const stored = chain.map((r) =>
      r.metadata.name === 'mid' ? { ...r, rules: [rule('get', 'a'), rule('get', 'b')] } : r,
    );
    expect(explainRole('mid', snap(stored)).drift).toBeNull();
    const reordered = chain.map((r) =>
      r.metadata.name === 'mid' ? { ...r, rules: [rule('get', 'b'), rule('get', 'a')] } : r,
    );
    expect(explainRole('mid', snap(reordered)).drift).toMatchObject({
      reordered: true,
      missing: [],
      extra: [],
    });
    const extra = chain.map((r) =>
      r.metadata.name === 'mid' ? { ...r, rules: [rule('get', 'a'), rule('get', 'b'), rule('x', 'y')] } : r,
    );
    expect(explainRole('mid', snap(extra)).drift).toMatchObject({
      stored: 3,
      computed: 2,
      missing: [],
      extra: [rule('x', 'y')],
    });
  });

  it('Tree', () => {
    const e = explainRole('top', snap(chain));
    const shape = (n: typeof e.tree): unknown => [
      n.role,
      n.selector,
      n.ruleCount,
      n.cycle,
      n.repeated,
      n.children.map(shape),
    ];
    expect(shape(e.tree)).toStrictEqual([
      'top',
      null,
      2,
      false,
      false,
      [
        [
          'mid',
          0,
          2,
          false,
          false,
          [
            ['leaf-a', 0, 1, false, false, []],
            ['leaf-b', 1, 2, false, false, []],
          ],
        ],
        ['leaf-a', 1, 1, false, false, []],
      ],
    ]);
  });

  it('CycleReported', () => {
    const roles = [
      role('p', { ring: 'q' }, [], [{ matchLabels: { ring: 'p' } }]),
      role('q', { ring: 'p' }, [], [{ matchLabels: { ring: 'q' } }, { matchLabels: { feeds: 'q' } }]),
      role('leaf', { feeds: 'q' }, [rule('get', 'leaf')]),
      role('ghost-keeper', { ring: 'p' }, [rule('get', 'ghost')], [{ matchLabels: { ring: 'q' } }]),
    ];
    const e = explainRole('p', snap(roles));
    expect(e.cycles).toStrictEqual([['ghost-keeper', 'p', 'q']]);
    expect(e.converged).toBe(true);
    expect(e.tree.children[0]?.children.map((c) => [c.role, c.cycle])).toContainEqual(['p', true]);
    expect(explainRole('leaf', snap(roles)).cycles).toStrictEqual([]);
  });

  it('RuleThatOnlyLivesInACycle', () => {
    // y stores a rule whose source is gone; x (synced first) takes it from y and keeps it circulating.
    const roles = [
      role('x', { ring: 'y' }, [], [{ matchLabels: { ring: 'x' } }]),
      role('y', { ring: 'x' }, [rule('get', 'ghost')], [{ matchLabels: { ring: 'y' } }]),
    ];
    const e = explainRole('x', snap(roles));
    expect(e.effectiveRules).toStrictEqual([rule('get', 'ghost')]);
    expect(e.provenance[0]?.source).toBeNull();
    expect(e.provenance[0]?.chain).toStrictEqual([
      { role: 'x', selector: 0 },
      { role: 'y', selector: 0 },
    ]);
  });

  it('BoundBy', () => {
    const crb: ClusterRoleBinding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'z-crb' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'top' },
      subjects: [{ kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' }],
    };
    const rb: RoleBinding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'a-rb', namespace: 'team' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'top' },
    };
    const roleRb: RoleBinding = {
      ...rb,
      metadata: { name: 'other', namespace: 'team' },
      roleRef: { ...rb.roleRef, kind: 'Role' },
    };
    const e = explainRole('top', snap(chain, { clusterRoleBindings: [crb], roleBindings: [roleRb, rb] }));
    expect(e.boundBy).toStrictEqual([
      { kind: 'ClusterRoleBinding', name: 'z-crb', subjects: crb.subjects },
      { kind: 'RoleBinding', name: 'a-rb', namespace: 'team', subjects: [] },
    ]);
  });

  it('ForAccessKeepsGrantingRules', () => {
    const roles = [
      role('agg', {}, [], [{ matchLabels: { x: 'y' } }]),
      role('apps-admin', { x: 'y' }, [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] }]),
      role('viewer', { x: 'y' }, [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }]),
    ];
    const e = explainRole('agg', snap(roles), {
      for: { verb: 'delete', apiGroup: 'apps', resource: 'deployments' },
    });
    expect(e.access?.allowed).toBe(true);
    expect(e.access?.matchingRules).toStrictEqual([
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] },
    ]);
    expect(e.access?.provenance.map((p) => p.source)).toStrictEqual(['apps-admin']);
    expect(e.access?.request).toStrictEqual({ verb: 'delete', apiGroup: 'apps', resource: 'deployments' });
    const denied = explainRole('agg', snap(roles), {
      for: { verb: 'delete', apiGroup: 'apps', resource: 'deployments', subresource: 'scale' },
    });
    expect(denied.access?.allowed).toBe(false);
    expect(explainRole('agg', snap(roles)).access).toBeNull();
  });

  it('UnknownRoleSuggestsCloseNames', () => {
    const roles = [
      role('crossplane-edit', {}),
      role('crossplane-view', {}),
      role('admin', {}),
      role('edit', {}),
    ];
    let err: unknown;
    try {
      explainRole('crossplane-edti', snap(roles));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UnknownRoleError);
    expect((err as UnknownRoleError).suggestions).toStrictEqual(['crossplane-edit', 'crossplane-view']);
    expect((err as UnknownRoleError).hint).toContain('"crossplane-edit"');
    expect(() => explainRole('nothing-like-it-at-all', snap(roles))).toThrow(UnknownRoleError);
  });

  it('InvalidSelectorThrows', () => {
    const roles = [
      role('bad', {}, [], [{ matchExpressions: [{ key: 'a', operator: 'Equals', values: ['b'] }] }]),
    ];
    expect(() => explainRole('bad', snap(roles))).toThrow(InvalidSelectorError);
  });

  it('IsPlainJson', () => {
    const e = explainRole('top', snap(chain), { for: { verb: 'get', apiGroup: '', resource: 'a' } });
    expect(JSON.parse(JSON.stringify(e))).toStrictEqual(e);
  });

  it('InputOrderDoesNotMatter', () => {
    const a = explainRole('top', snap(chain));
    const b = explainRole('top', snap([...chain].reverse()));
    expect(b).toStrictEqual(a);
  });
});

const bootstrap = fixturePath('kubernetes', 'bootstrap-cluster-roles.yaml');
const computed = fixturePath('kubernetes', 'computed-bootstrap-aggregated-admin-edit-view.yaml');

describe('bootstrap provenance', () => {
  it('LastHopMatchesTheFixtureProvenance', () => {
    const roles = readClusterRoles(bootstrap);
    const byName = new Map(roles.map((r) => [r.metadata.name, r]));
    for (const doc of readObjects(computed)) {
      const name = (doc.metadata as { name: string }).name;
      const xprov = doc['x-provenance'] as [number, string, number][];
      const e = explainRole(name, snap(roles));
      expect(e.provenance).toHaveLength(xprov.length);
      e.provenance.forEach((p, i) => {
        const [selector, sourceRole, sourceIndex] = xprov[i] as [number, string, number];
        const last = p.chain[p.chain.length - 1];
        expect(last, `${name} rule ${i}`).toStrictEqual({ role: sourceRole, selector });
        // The source rule index refers to the source's effective rules (its own when it does not aggregate).
        const sourceRules = byName.get(sourceRole)?.aggregationRule
          ? explainRole(sourceRole, snap(roles)).effectiveRules
          : (byName.get(sourceRole)?.rules ?? []);
        expect(sourceRules[sourceIndex], `${name} rule ${i}`).toStrictEqual(p.rule);
        expect(p.source?.startsWith('system:aggregate-to-'), `${name} rule ${i}`).toBe(true);
      });
    }
  });
});

describe('closeMatches (the "did you mean" of unknown names)', () => {
  const xrds = [
    'xsqlinstances.aws.platform.upbound.io',
    'xnetworks.aws.platform.upbound.io',
    'eks.aws.platform.upbound.io',
    'xpostgresqlinstances.database.platform.acme.io',
  ];

  it('offers the one name a typo away, not every name of similar length', () => {
    expect(closeMatches('xsqlinstance.aws.platform.upbound.io', xrds)).toStrictEqual([
      'xsqlinstances.aws.platform.upbound.io',
    ]);
  });

  it('offers names that contain what was typed', () => {
    expect(closeMatches('xnetworks', xrds)).toStrictEqual(['xnetworks.aws.platform.upbound.io']);
  });

  it('offers nothing when nothing is close', () => {
    expect(closeMatches('buckets.storage.example.org', xrds)).toStrictEqual([]);
  });
});
