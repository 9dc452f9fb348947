/**
 * The test API server's clusterrole-aggregation controller against Kubernetes' own controller test table and the
 * bootstrap admin/edit/view roles (test/fixtures/kubernetes/, each file naming its source).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { fixturePath } from '../support/fixtures.js';
import type { ClusterRoleStore } from './aggregation.js';
import { runAggregation, selectorRequirements } from './aggregation.js';

type Obj = Record<string, any>;

/** An in-memory ClusterRole store that records what the controller writes. */
function memoryStore(roles: readonly Obj[]): ClusterRoleStore & { roles: Map<string, Obj> } {
  const byName = new Map(roles.map((r) => [String(r.metadata.name), structuredClone(r)]));
  return {
    roles: byName,
    list: () => [...byName.values()],
    write: (role) => {
      byName.set(String(role.metadata.name), role);
    },
  };
}

function readObjects(...file: string[]): Obj[] {
  return YAML.parseAllDocuments(readFileSync(fixturePath(...file), 'utf8')).flatMap((d) => {
    const v = d.toJS() as Obj | null;
    return v === null ? [] : Array.isArray(v.items) ? (v.items as Obj[]) : [v];
  });
}

describe('syncClusterRole (clusterroleaggregation_controller_test.go TestSyncClusterRole)', () => {
  const { cases } = YAML.parse(
    readFileSync(fixturePath('kubernetes', 'aggregation-controller.yaml'), 'utf8'),
  ) as { cases: Obj[] };

  it.each(cases.map((c): [string, Obj] => [String(c.name), c]))('%s', (_name, c) => {
    const combined = {
      metadata: { name: 'combined' },
      aggregationRule: {
        clusterRoleSelectors: (c.combined.selectors as Obj[]).map((matchLabels) => ({ matchLabels })),
      },
      rules: c.combined.rules,
    };
    const roles = (c.roles as Obj[]).map((r) => ({
      metadata: { name: r.name, labels: r.labels },
      rules: r.rules,
    }));
    const store = memoryStore([...roles, combined]);
    const run = runAggregation(store);
    if (c.expectedRules === undefined) {
      expect(run.writes).toStrictEqual([]);
    } else {
      expect(run.writes).toStrictEqual(['combined']);
      expect(store.roles.get('combined')?.rules).toStrictEqual(c.expectedRules);
    }
    expect(run.gaveUp).toBe(false);
  });
});

describe('the bootstrap admin, edit and view roles', () => {
  const bootstrap = readObjects('kubernetes', 'bootstrap-cluster-roles.yaml');
  const computed = readObjects('kubernetes', 'computed-bootstrap-aggregated-admin-edit-view.yaml');

  it('converge to the rules of the computed fixture, rule for rule', () => {
    const store = memoryStore(bootstrap);
    const run = runAggregation(store);
    expect(computed.map((r) => String(r.metadata.name))).toStrictEqual(['admin', 'edit', 'view']);
    for (const want of computed) {
      expect(want.rules.length, want.metadata.name).toBeGreaterThan(5);
      expect(store.roles.get(want.metadata.name)?.rules, want.metadata.name).toStrictEqual(want.rules);
    }
    expect(run.gaveUp).toBe(false);
    // Once converged, a second run writes nothing.
    expect(runAggregation(store).writes).toStrictEqual([]);
  });

  it('converge to the same rules whatever order the store lists the roles in', () => {
    const want = memoryStore(bootstrap);
    runAggregation(want);
    const reversed = memoryStore([...bootstrap].reverse());
    runAggregation(reversed);
    for (const name of ['admin', 'edit', 'view'])
      expect(reversed.roles.get(name)?.rules).toStrictEqual(want.roles.get(name)?.rules);
  });
});

describe('the controller', () => {
  const role = (name: string, labels: Obj, rules: Obj[] = [], selectors?: Obj[]): Obj => ({
    metadata: { name, labels },
    rules,
    ...(selectors !== undefined ? { aggregationRule: { clusterRoleSelectors: selectors } } : {}),
  });
  const rule = (resource: string): Obj => ({ apiGroups: [''], resources: [resource], verbs: ['get'] });

  it('sorts matched roles in Go string order (bytes), not by UTF-16 code units', () => {
    // As UTF-16 code units U+1F600 (a surrogate pair, 0xD83D first) sorts before U+FF5E; as UTF-8 bytes, after.
    const store = memoryStore([
      role('p', {}, [], [{ matchLabels: { a: 'b' } }]),
      role('x\u{1F600}', { a: 'b' }, [rule('emoji')]),
      role('x\uFF5E', { a: 'b' }, [rule('fullwidth')]),
    ]);
    runAggregation(store);
    const rules = (store.roles.get('p')?.rules ?? []) as Obj[];
    expect(rules.map((r) => String(r.resources[0]))).toStrictEqual(['fullwidth', 'emoji']);
  });

  it('treats nil and empty lists as equal when it removes duplicates and before it writes', () => {
    const store = memoryStore([
      role('p', {}, [{ ...rule('a'), resourceNames: [] }], [{ matchLabels: { a: 'b' } }]),
      role('c1', { a: 'b' }, [rule('a')]),
      role('c2', { a: 'b' }, [{ ...rule('a'), resourceNames: [] }]),
    ]);
    expect(runAggregation(store).writes).toStrictEqual([]);
  });

  it('follows chains of aggregated roles to the end', () => {
    const store = memoryStore([
      role('top', {}, [], [{ matchLabels: { to: 'top' } }]),
      role('mid', { to: 'top' }, [], [{ matchLabels: { to: 'mid' } }]),
      role('leaf', { to: 'mid' }, [rule('leaf')]),
    ]);
    runAggregation(store);
    expect(store.roles.get('top')?.rules).toStrictEqual([rule('leaf')]);
  });

  it('never writes a role whose selectors the API would refuse', () => {
    const store = memoryStore([
      role('p', {}, [rule('kept')], [{ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }]),
      role('c', { a: 'b' }, [rule('c')]),
    ]);
    expect(runAggregation(store).writes).toStrictEqual([]);
    expect(selectorRequirements({ matchExpressions: [{ key: 'a', operator: 'Near' }] })).toBeUndefined();
    expect(selectorRequirements({ matchLabels: { 'bad key!': 'x' } })).toBeUndefined();
    expect(
      selectorRequirements({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }),
    ).toBeUndefined();
  });

  it('settles roles that select each other', () => {
    // Each of a and b selects the other and the leaf: the leaf's rule reaches both, then nothing changes.
    const store = memoryStore([
      role('a', { ring: 'x' }, [], [{ matchLabels: { ring: 'x' } }]),
      role('b', { ring: 'x' }, [], [{ matchLabels: { ring: 'x' } }]),
      role('leaf', { ring: 'x' }, [rule('leaf')]),
    ]);
    const run = runAggregation(store);
    expect(run.gaveUp).toBe(false);
    expect(store.roles.get('a')?.rules).toStrictEqual([rule('leaf')]);
    expect(store.roles.get('b')?.rules).toStrictEqual([rule('leaf')]);
  });
});
