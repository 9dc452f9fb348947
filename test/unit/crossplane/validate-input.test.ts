import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/errors.js';
import type { KubeObject } from '../../../src/kube/types.js';
import { apiGroupProblem, dns1035LabelProblem, dnsLabelProblem } from '../../../src/kube/name-rules.js';
import {
  checkedOnce,
  findInvalidField,
  findInvalidObjects,
  InvalidInputError,
  invalidInputError,
} from '../../../src/crossplane/validate-input.js';
import { ALL_PARTS, readExamples } from './example-objects.js';

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

  it('CheckedOnceAnswersAsFindInvalidFieldAndWalksEachObjectOnce', () => {
    const role = (verbs: unknown): KubeObject => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'r' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs }],
    });
    // Each read of `rules` counted: the memo walks an object's rules once, whatever asks again.
    let reads = 0;
    const counted = (o: KubeObject): KubeObject => {
      const { rules, ...rest } = o as KubeObject & { rules: unknown };
      return Object.defineProperty(rest, 'rules', {
        enumerable: true,
        get: () => {
          reads++;
          return rules;
        },
      });
    };
    const good = counted(role(['get']));
    const bad = counted(role('get'));
    const check = checkedOnce();
    for (const o of [good, bad, good, bad]) {
      expect(check(o)).toStrictEqual(findInvalidField(role(o === good ? ['get'] : 'get')));
    }
    expect(check(bad)?.field).toBe('rules[0].verbs');
    expect(reads).toBe(2);
  });
});
