import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_SCHEMA, loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { convergeClusterRoles } from '../../../src/authz/aggregate.js';
import { UserError } from '../../../src/errors.js';
import { findPrivilegedBindings } from '../../../src/bind/privileged-rules.js';
import { renderSync } from '../../../src/sync/render.js';
import { snapshotFromObjects } from '../../../src/crossplane/snapshot.js';
import type { KubeObject } from '../../../src/kube/types.js';
import { apiGroupProblem, dns1035LabelProblem, dnsLabelProblem } from '../../../src/kube/name-rules.js';
import {
  findInvalidField,
  findInvalidObjects,
  InvalidInputError,
  invalidInputError,
} from '../../../src/crossplane/validate-input.js';
import { exampleCluster } from '../cli/bind-fakes.js';

describe('names as Kubernetes validates them', () => {
  const groups: Record<string, { group: string; valid: boolean; reason: string }> = {
    Domain: { group: 'aws.platform.upbound.io', valid: true, reason: 'an ordinary custom group' },
    Star: { group: '*', valid: false, reason: 'a wildcard is never a group' },
    Empty: { group: '', valid: false, reason: 'the core group is not a custom group' },
    NoDot: { group: 'apps', valid: false, reason: 'a custom group is a domain' },
    UpperCase: { group: 'Example.org', valid: false, reason: 'groups are lower case' },
    LeadingDot: { group: '.example.org', valid: false, reason: 'labels start with a letter or digit' },
    DoubleDot: { group: 'example..org', valid: false, reason: 'an empty label' },
    TrailingDash: { group: 'example-.org', valid: false, reason: 'labels end with a letter or digit' },
    Max: {
      group: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`,
      valid: true,
      reason: '253 characters',
    },
    TooLong: {
      group: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`,
      valid: false,
      reason: '254 characters',
    },
    Slash: { group: 'example.org/v1', valid: false, reason: 'a group/version is not a group' },
  };
  it.each(Object.entries(groups))('group %s', (_n, tc) => {
    expect(apiGroupProblem(tc.group) === undefined, tc.reason).toBe(tc.valid);
  });

  const plurals: Record<string, { plural: string; valid: boolean; reason: string }> = {
    Plain: { plural: 'xsqlinstances', valid: true, reason: 'an ordinary plural' },
    Dashed: { plural: 'x-sql-instances', valid: true, reason: 'dashes inside' },
    Star: { plural: '*', valid: false, reason: 'a wildcard' },
    Empty: { plural: '', valid: false, reason: 'empty' },
    Digit: { plural: '3things', valid: false, reason: 'DNS-1035 starts with a letter' },
    Dot: { plural: 'things.x', valid: false, reason: 'a plural has no dot' },
    Slash: { plural: 'pods/exec', valid: false, reason: 'a subresource is not a plural' },
    Long: { plural: 'a'.repeat(64), valid: false, reason: 'at most 63 characters' },
  };
  it.each(Object.entries(plurals))('plural %s', (_n, tc) => {
    expect(dns1035LabelProblem(tc.plural) === undefined, tc.reason).toBe(tc.valid);
  });

  it('namespace names are DNS-1123 labels (a leading digit is fine)', () => {
    expect(dnsLabelProblem('team-a')).toBeUndefined();
    expect(dnsLabelProblem('1team')).toBeUndefined();
    expect(dnsLabelProblem('team_a')).toBeDefined();
    expect(dnsLabelProblem('Team')).toBeDefined();
  });
});

function readExamples(): KubeObject[] {
  const out: KubeObject[] = [];
  for (const f of readdirSync(exampleCluster).sort()) {
    const docs = loadAll(readFileSync(join(exampleCluster, f), 'utf8'), null, { schema: CORE_SCHEMA });
    for (const d of docs) if (d !== null && d !== undefined) out.push(d as KubeObject);
  }
  return out;
}

const ALL_PARTS = [
  'xrds',
  'providerRevisions',
  'deployments',
  'namespaces',
  'clusterRoles',
  'clusterRoleBindings',
  'roleBindings',
  'configMaps',
  'rootSyncs',
] as const;

describe('findInvalidObjects', () => {
  it('ExampleClusterIsValid', () => {
    expect(findInvalidObjects(readExamples(), ALL_PARTS)).toStrictEqual([]);
  });

  it('OnlyThePartsACommandReadsAreChecked', () => {
    const bad: KubeObject = {
      apiVersion: 'apiextensions.crossplane.io/v1',
      kind: 'CompositeResourceDefinition',
      metadata: { name: 'x' },
      spec: { group: '*', names: { plural: '*', kind: 'X' } },
    };
    const snap = [bad];
    expect(findInvalidObjects(snap, ['clusterRoles', 'clusterRoleBindings', 'roleBindings'])).toStrictEqual(
      [],
    );
    expect(findInvalidObjects(snap, ['xrds'])).toHaveLength(1);
  });

  it('OneErrorNamesTheFirstObjectInFullAndCountsTheRest', () => {
    const ns = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    const invalid = findInvalidObjects(['A', 'B_', 'C ', 'D.', 'E!'].map(ns), ['namespaces']);
    const err = invalidInputError(invalid, () => 'in.yaml');
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toBe(
      'in.yaml: Namespace "A": metadata.name "A" is not a valid namespace name: only lower-case letters, digits and "-", starting and ending with a letter or digit; also invalid: Namespace "B_" (metadata.name), Namespace "C " (metadata.name), Namespace "D." (metadata.name) and 1 more',
    );
  });

  it('NullFieldsAreAbsentAndUnknownKindsAreNotLookedAt', () => {
    expect(
      findInvalidField({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: 5 }),
    ).toBeUndefined();
  });
});

/** Every path of an object, lists followed into their first two entries. */
function pathsOf(
  v: unknown,
  at: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  if (at.length > 0) out.push(at);
  if (Array.isArray(v)) v.slice(0, 2).forEach((x: unknown, i) => pathsOf(x, [...at, i], out));
  else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
  }
  return out;
}

function withValueAt(o: KubeObject, at: readonly (string | number)[], value: unknown): KubeObject {
  const copy = structuredClone(o) as unknown as Record<string | number, unknown>;
  let cur: Record<string | number, unknown> = copy;
  for (const k of at.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  cur[at[at.length - 1] ?? ''] = value;
  return copy as unknown as KubeObject;
}

describe('wrong types in every field the plugin reads', () => {
  // One object of each kind (and an aggregated ClusterRole) from the example cluster; every path in it gets a
  // number, a string and a list of an empty mapping in turn. Either the validator refuses the object, or the
  // renderers, the aggregation and the privileged check work on it: a TypeError ("e.map is not a function") never
  // reaches the user.
  const examples = readExamples();
  const picks = new Map<string, number>();
  examples.forEach((o, i) => {
    const key = `${o.kind}${(o as { aggregationRule?: unknown }).aggregationRule !== undefined ? '+aggregated' : ''}`;
    if (!picks.has(key)) picks.set(key, i);
  });
  const cases: [string, number, (string | number)[], unknown][] = [];
  for (const [key, index] of picks) {
    const obj = examples[index];
    if (obj === undefined) continue;
    for (const at of pathsOf(obj)) {
      // apiVersion, kind and metadata.name are checked while reading (the corpus covers them).
      if (['apiVersion', 'kind', 'metadata', 'metadata.name'].includes(at.join('.'))) continue;
      for (const value of [7, 'x', [{}]]) cases.push([key, index, at, value]);
    }
  }

  it('covers hundreds of mutations', () => {
    expect(cases.length).toBeGreaterThan(500);
  });

  it('every mutation is refused or harmless', () => {
    const crashes: string[] = [];
    for (const [key, index, at, value] of cases) {
      const objects = examples.map((o, i) => (i === index ? withValueAt(o, at, value) : o));
      if (findInvalidObjects(objects, ALL_PARTS).length > 0) continue;
      const snapshot = snapshotFromObjects(objects);
      try {
        renderSync(snapshot);
        convergeClusterRoles(snapshot.clusterRoles);
        findPrivilegedBindings([], { clusterRoles: snapshot.clusterRoles, roles: new Map() });
      } catch (err) {
        if (!(err instanceof UserError))
          crashes.push(`${key} ${at.join('.')} = ${JSON.stringify(value)}: ${String(err)}`);
      }
    }
    expect(crashes).toStrictEqual([]);
  }, 60_000);
});
