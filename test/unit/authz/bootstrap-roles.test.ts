import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { convergeClusterRoles } from '../../../src/authz/aggregate.js';
import { bootstrapClusterRoles, withBootstrapRoles } from '../../../src/authz/bootstrap-roles.js';
import type { ClusterRole } from '../../../src/kube/types.js';
import { fixturePath } from '../../support/fixtures.js';

// The product's copy of Kubernetes' bootstrap ClusterRoles against Kubernetes' own golden file
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/testdata/cluster-roles.yaml @ 025f2834a128798cef30018a5e6a6ae82b5ad885,
// test/fixtures/kubernetes/bootstrap-cluster-roles.yaml), so the two cannot drift.
interface FixtureRole {
  metadata: { name: string; labels?: Record<string, string> };
  aggregationRule?: unknown;
  rules: unknown[] | null;
}

function fixture(file: string): FixtureRole[] {
  const docs = parseAllDocuments(readFileSync(fixturePath('kubernetes', file), 'utf8')).map(
    (d) => d.toJS() as FixtureRole | { items: FixtureRole[] } | null,
  );
  return docs.flatMap((d) => (d === null ? [] : 'items' in d ? d.items : [d]));
}

describe('bootstrapClusterRoles', () => {
  const golden = fixture('bootstrap-cluster-roles.yaml');
  const ours = bootstrapClusterRoles();

  it('holds the roles of Kubernetes golden file, in its order', () => {
    expect(golden.length).toBeGreaterThan(30);
    expect(ours.map((r) => r.metadata.name)).toStrictEqual(golden.map((r) => r.metadata.name));
  });

  it.each(golden.map((r) => [r.metadata.name, r] as const))(
    '%s has the labels, aggregation rule and rules of the golden file',
    (name, want) => {
      const got = ours.find((r) => r.metadata.name === name);
      expect(got?.metadata.labels).toStrictEqual(want.metadata.labels);
      expect(got?.aggregationRule).toStrictEqual(want.aggregationRule);
      // The golden file stores an aggregated role's rules as null (the controller fills them).
      expect(got?.rules).toStrictEqual(want.rules ?? []);
    },
  );

  it('aggregates admin, edit and view to the rules of the computed fixture', () => {
    const computed = fixture('computed-bootstrap-aggregated-admin-edit-view.yaml');
    const { rules } = convergeClusterRoles(ours);
    for (const want of computed) {
      const strip = (want.rules ?? []).map((r) => {
        const { 'x-provenance': _p, ...rule } = r as Record<string, unknown>;
        return rule;
      });
      expect(rules.get(want.metadata.name), want.metadata.name).toStrictEqual(strip);
    }
  });
});

describe('withBootstrapRoles', () => {
  const own: ClusterRole = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'view' },
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
  };

  it('InputRoleWins', () => {
    // A role the input holds is taken as stored, never replaced by its bootstrap copy.
    const out = withBootstrapRoles([own]);
    expect(out.filter((r) => r.metadata.name === 'view')).toStrictEqual([own]);
    expect(out).toHaveLength(fixture('bootstrap-cluster-roles.yaml').length);
  });

  it('MissingBootstrapRolesAdded', () => {
    // Every bootstrap role the input lacks is added, once.
    expect(withBootstrapRoles([]).map((r) => r.metadata.name)).toStrictEqual(
      fixture('bootstrap-cluster-roles.yaml').map((r) => r.metadata.name),
    );
  });
});
