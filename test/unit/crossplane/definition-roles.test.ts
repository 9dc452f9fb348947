import { describe, expect, it } from 'vitest';
import { fnv1a64Hex, renderXrdRoles, xrdLabelValue } from '../../../src/crossplane/definition/roles.js';
import { findInvalidObjects } from '../../../src/crossplane/validate-input.js';
import type { Xrd } from '../../../src/kube/types.js';
import { loadYaml, realXrdFiles, xrd, xrdOwner } from '../sync/sync-fixtures.js';

const owner = xrdOwner;

describe('renderXrdRoles', () => {
  const cases: Record<string, { reason: string; xrd: Xrd; version: 'v1' | 'v2'; want: unknown[] }> = {
    NoClaims: {
      reason: 'An XRD without claimNames gets XR rules only, in the order Crossplane renders them.',
      xrd: xrd('composites.example.org'),
      version: 'v2',
      want: [
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: {
            labels: { 'rbac.crossplane.io/aggregate-to-crossplane': 'true' },
            name: 'crossplane:composite:composites.example.org:aggregate-to-crossplane',
            ownerReferences: owner('composites.example.org'),
          },
          rules: [
            { apiGroups: ['example.org'], resources: ['composites', 'composites/status'], verbs: ['*'] },
            { apiGroups: ['example.org'], resources: ['composites/finalizers'], verbs: ['update'] },
          ],
        },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: {
            labels: {
              'rbac.crossplane.io/aggregate-to-admin': 'true',
              'rbac.crossplane.io/aggregate-to-edit': 'true',
              'rbac.crossplane.io/aggregate-to-ns-admin': 'true',
              'rbac.crossplane.io/aggregate-to-ns-edit': 'true',
            },
            name: 'crossplane:composite:composites.example.org:aggregate-to-edit',
            ownerReferences: owner('composites.example.org'),
          },
          rules: [
            { apiGroups: ['example.org'], resources: ['composites', 'composites/status'], verbs: ['*'] },
          ],
        },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: {
            labels: {
              'rbac.crossplane.io/aggregate-to-ns-view': 'true',
              'rbac.crossplane.io/aggregate-to-view': 'true',
            },
            name: 'crossplane:composite:composites.example.org:aggregate-to-view',
            ownerReferences: owner('composites.example.org'),
          },
          rules: [
            {
              apiGroups: ['example.org'],
              resources: ['composites', 'composites/status'],
              verbs: ['get', 'list', 'watch'],
            },
          ],
        },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: {
            labels: { 'rbac.crossplane.io/aggregate-to-browse': 'true' },
            name: 'crossplane:composite:composites.example.org:aggregate-to-browse',
            ownerReferences: owner('composites.example.org'),
          },
          rules: [
            {
              apiGroups: ['example.org'],
              resources: ['composites', 'composites/status'],
              verbs: ['get', 'list', 'watch'],
            },
          ],
        },
      ],
    },
    WithClaims: {
      reason:
        'Claims add claim and claim/finalizers rules to the system role, claim rules to edit/view, never to browse.',
      xrd: xrd('composites.example.org', { claimNames: { kind: 'C', plural: 'claims' } }),
      version: 'v2',
      want: [
        expect.objectContaining({
          rules: [
            { apiGroups: ['example.org'], resources: ['composites', 'composites/status'], verbs: ['*'] },
            { apiGroups: ['example.org'], resources: ['composites/finalizers'], verbs: ['update'] },
            { apiGroups: ['example.org'], resources: ['claims', 'claims/status'], verbs: ['*'] },
            { apiGroups: ['example.org'], resources: ['claims/finalizers'], verbs: ['update'] },
          ],
        }),
        expect.objectContaining({
          rules: [
            { apiGroups: ['example.org'], resources: ['composites', 'composites/status'], verbs: ['*'] },
            { apiGroups: ['example.org'], resources: ['claims', 'claims/status'], verbs: ['*'] },
          ],
        }),
        expect.objectContaining({
          rules: [
            {
              apiGroups: ['example.org'],
              resources: ['composites', 'composites/status'],
              verbs: ['get', 'list', 'watch'],
            },
            {
              apiGroups: ['example.org'],
              resources: ['claims', 'claims/status'],
              verbs: ['get', 'list', 'watch'],
            },
          ],
        }),
        expect.objectContaining({
          rules: [
            {
              apiGroups: ['example.org'],
              resources: ['composites', 'composites/status'],
              verbs: ['get', 'list', 'watch'],
            },
          ],
        }),
      ],
    },
    V1AddsXrdLabel: {
      reason:
        'Crossplane v1.x labelled edit, view and browse (not the system role) with rbac.crossplane.io/xrd.',
      xrd: xrd('composites.example.org'),
      version: 'v1',
      want: [
        expect.objectContaining({
          metadata: expect.objectContaining({
            labels: { 'rbac.crossplane.io/aggregate-to-crossplane': 'true' },
          }),
        }),
        expect.objectContaining({
          metadata: expect.objectContaining({
            labels: expect.objectContaining({ 'rbac.crossplane.io/xrd': 'composites.example.org' }),
          }),
        }),
        expect.objectContaining({
          metadata: expect.objectContaining({
            labels: expect.objectContaining({ 'rbac.crossplane.io/xrd': 'composites.example.org' }),
          }),
        }),
        expect.objectContaining({
          metadata: expect.objectContaining({
            labels: {
              'rbac.crossplane.io/aggregate-to-browse': 'true',
              'rbac.crossplane.io/xrd': 'composites.example.org',
            },
          }),
        }),
      ],
    },
  };

  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(renderXrdRoles(tc.xrd, { crossplaneVersion: tc.version }), tc.reason).toStrictEqual(tc.want);
  });

  it('prints keys in kubectl order (alphabetical), so -o yaml matches the live object', () => {
    const [role] = renderXrdRoles(xrd('composites.example.org'), { crossplaneVersion: 'v2' });
    expect(Object.keys(role!)).toEqual(['apiVersion', 'kind', 'metadata', 'rules']);
    expect(Object.keys(role!.metadata)).toEqual(['labels', 'name', 'ownerReferences']);
    expect(Object.keys(role!.metadata.ownerReferences![0]!)).toEqual([
      'apiVersion',
      'blockOwnerDeletion',
      'controller',
      'kind',
      'name',
      'uid',
    ]);
    expect(Object.keys(role!.rules![0]!)).toEqual(['apiGroups', 'resources', 'verbs']);
  });

  const bad: Record<string, { reason: string; xrd: Xrd; field: string }> = {
    NoGroup: {
      reason: 'spec.group is needed for every rule.',
      xrd: xrd('as.example.org', { group: '' }),
      field: 'spec.group',
    },
    NoPlural: {
      reason: 'names.plural is needed for every rule.',
      xrd: xrd('as.example.org', { names: { kind: 'A' } }),
      field: 'spec.names.plural',
    },
    ClaimWithoutPlural: {
      reason: 'claimNames without plural cannot be rendered.',
      xrd: xrd('as.example.org', { claimNames: { kind: 'C' } }),
      field: 'spec.claimNames.plural',
    },
  };
  // What the renderer needs is checked once, by the schema, when the XRD is read: it never renders from one of these.
  it.each(Object.entries(bad))('the schema rejects %s before any rendering', (_name, tc) => {
    const invalid = findInvalidObjects([tc.xrd], ['xrds']);
    expect(
      invalid.map((i) => i.field),
      tc.reason,
    ).toStrictEqual([tc.field]);
    expect(invalid[0]?.object.metadata.name, tc.reason).toBe('as.example.org');
  });

  it.each(realXrdFiles())('renders the real XRD %s', (file) => {
    const [obj] = loadYaml(`xrds/${file}`) as unknown as Xrd[];
    const roles = renderXrdRoles(obj!, { crossplaneVersion: 'v2' });
    const plural = obj!.spec.names.plural!;
    const claim = obj!.spec.claimNames?.plural;
    expect(roles.map((r) => r.metadata.name)).toEqual(
      ['aggregate-to-crossplane', 'aggregate-to-edit', 'aggregate-to-view', 'aggregate-to-browse'].map(
        (s) => `crossplane:composite:${obj!.metadata.name}:${s}`,
      ),
    );
    expect(roles[1]!.rules!.flatMap((r) => r.resources)).toEqual(
      claim === undefined
        ? [plural, `${plural}/status`]
        : [plural, `${plural}/status`, claim, `${claim}/status`],
    );
    expect(roles.every((r) => r.rules!.every((x) => x.apiGroups![0] === obj!.spec.group))).toBe(true);
  });
});

// The label value of long XRD names: a label value is at most 63 characters of [-A-Za-z0-9_.], starting and ending
// with a letter or digit (apimachinery IsValidLabelValue). The hashes below are FNV-1a 64 (offset basis
// 0xcbf29ce484222325, prime 0x100000001b3) of the full names, computed independently of the product.
describe('xrdLabelValue of names that are no label value', () => {
  const cases: Record<string, { reason: string; name: string; want: string }> = {
    Exactly63: {
      reason: '63 characters are a valid label value.',
      name: 'a'.repeat(63),
      want: 'a'.repeat(63),
    },
    Long64: {
      reason: 'The first 46 characters, "-", then the 16 hex digits: 63 in all.',
      name: 'a'.repeat(64),
      want: `${'a'.repeat(46)}-db007849f35ebbe5`,
    },
    DotsInside: {
      reason: 'Dots inside the kept prefix stay.',
      name: `x.${'y'.repeat(70)}`,
      want: `x.${'y'.repeat(44)}-f045b939cbdfbca1`,
    },
    LeadingDots: {
      reason: 'Every leading character that is no letter or digit goes.',
      name: `..${'b'.repeat(70)}`,
      want: `${'b'.repeat(44)}-2bc279b7f53a20ed`,
    },
    TrailingDots: {
      reason: 'Every trailing character that is no letter or digit goes.',
      name: `${'a'.repeat(44)}..${'b'.repeat(30)}`,
      want: `${'a'.repeat(44)}-35ebeedd37ab42e9`,
    },
    NothingLeft: {
      reason: 'With nothing left of the prefix the value is the hash alone.',
      name: '.'.repeat(70),
      want: '1c1edcfac2c0e4fd',
    },
    InvalidCharacter: {
      reason: 'A character a label value may not hold becomes "-".',
      name: `a b${'c'.repeat(70)}`,
      want: `a-b${'c'.repeat(43)}-edb2ef8e0619d3fc`,
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(xrdLabelValue(tc.name), tc.reason).toBe(tc.want);
  });

  it('pads the hash to 16 hex digits', () => {
    expect(fnv1a64Hex('x1')).toBe('08f10707b58d70c2');
  });
});
