// The escalation check's parts beyond test/unit/authz/authorize.test.ts, as kubernetes/kubernetes writes them:
// pkg/registry/rbac/validation/policy_comparator.go (BreakdownRule, ruleCovers, resourceCoversAll,
// nonResourceURLsCoversAll), compact.go (CompactRules, isSimpleResourceRule) and the 403's list of missing rules in
// pkg/registry/rbac/validation/rule.go (ConfirmNoEscalation: CompactString of each compacted rule, in a sets.String,
// so each text once and sorted).
import { describe, expect, it } from 'vitest';
import {
  breakdownRule,
  compactRules,
  coversRules,
  formatRuleForStatus,
  ruleCovers,
} from '../../../src/authz/authorize.js';
import type { PolicyRule } from '../../../src/kube/types.js';

describe('breakdownRule', () => {
  it.each([
    ['no apiGroups: no resource atoms', { resources: ['pods'], verbs: ['get'] }],
    ['no resources: no resource atoms', { apiGroups: [''], verbs: ['get'] }],
    ['no verbs: nothing', { apiGroups: [''], resources: ['pods'], nonResourceURLs: ['/x'], verbs: [] }],
  ] as const)('%s', (_what, rule: PolicyRule) => {
    expect(breakdownRule(rule)).toStrictEqual([]);
  });
});

describe('ruleCovers', () => {
  interface Case {
    reason: string;
    owner: PolicyRule;
    sub: PolicyRule;
    want: boolean;
  }
  const get = (resources: string[], names?: string[]): PolicyRule => ({
    apiGroups: [''],
    resources,
    verbs: ['get'],
    ...(names !== undefined ? { resourceNames: names } : {}),
  });
  const cases: Record<string, Case> = {
    OtherResource: {
      reason: 'pods does not cover secrets (not a subresource: resourceCoversAll fails at once).',
      owner: get(['pods']),
      sub: get(['secrets']),
      want: false,
    },
    StarSlashIsNoResource: {
      reason: '*/pods names a subresource pods; it does not cover the resource pods.',
      owner: get(['*/pods']),
      sub: get(['pods']),
      want: false,
    },
    ExactAndStarSlashTogether: {
      reason:
        'Each wanted resource may be covered its own way: pods exactly, deployments/status by */status.',
      owner: get(['pods', '*/status']),
      sub: get(['pods', 'deployments/status']),
      want: true,
    },
    StarSlashOfALeadingSlash: {
      reason: 'resourceCoversAll splits at the first "/" wherever it is: "/status" is covered by */status.',
      owner: get(['*/status']),
      sub: get(['/status']),
      want: true,
    },
    StarSlashOfAnotherSubresource: {
      reason: '*/status does not cover pods/log.',
      owner: get(['*/status']),
      sub: get(['pods/log']),
      want: false,
    },
    OwnerNamesCoverListedNames: {
      reason: 'An owner limited to names covers a request for some of those names.',
      owner: get(['secrets'], ['a', 'b']),
      sub: get(['secrets'], ['b']),
      want: true,
    },
    OwnerNamesDoNotCoverOthers: {
      reason: 'An owner limited to names does not cover another name.',
      owner: get(['secrets'], ['a']),
      sub: get(['secrets'], ['b']),
      want: false,
    },
    ExactUrl: {
      reason: 'A URL covers itself (nonResourceURLsCoversAll: exact match).',
      owner: { nonResourceURLs: ['/healthz'], verbs: ['get'] },
      sub: { nonResourceURLs: ['/healthz'], verbs: ['get'] },
      want: true,
    },
    UrlIsNoPrefix: {
      reason: 'A URL without a trailing * does not cover longer ones.',
      owner: { nonResourceURLs: ['/healthz'], verbs: ['get'] },
      sub: { nonResourceURLs: ['/healthzz'], verbs: ['get'] },
      want: false,
    },
  };
  it.each(Object.entries(cases))('%s', (_n, c) => {
    expect(ruleCovers(c.owner, c.sub), c.reason).toBe(c.want);
  });
});

describe('coversRules: the 403 list', () => {
  it('lists each missing rule once, in sorted order', () => {
    const url: PolicyRule = { nonResourceURLs: ['/metrics'], verbs: ['get'] };
    const got = coversRules(
      [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      [
        url,
        { apiGroups: ['z'], resources: ['zs'], verbs: ['get'] },
        { apiGroups: ['b'], resources: ['bs'], verbs: ['get'] },
        url,
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
        { apiGroups: ['a'], resources: ['as'], verbs: ['get'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      ],
    );
    expect(got.covered).toBe(false);
    expect(got.missing.map(formatRuleForStatus)).toStrictEqual([
      '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
      '{APIGroups:["a"], Resources:["as"], Verbs:["get"]}',
      '{APIGroups:["b"], Resources:["bs"], Verbs:["get"]}',
      '{APIGroups:["z"], Resources:["zs"], Verbs:["get"]}',
      '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
    ]);
  });
});

describe('compactRules (CompactRules)', () => {
  const g = (verbs: string[], extra: Partial<PolicyRule> = {}): PolicyRule => ({
    apiGroups: [''],
    resources: ['secrets'],
    verbs,
    ...extra,
  });
  interface Case {
    reason: string;
    rules: PolicyRule[];
    want: PolicyRule[];
  }
  const cases: Record<string, Case> = {
    OneNameIsSimple: {
      reason: 'A rule with one resource name is simple: merged with the rules of the same name, names kept.',
      rules: [
        g(['get'], { resourceNames: ['a'] }),
        g(['list'], { resourceNames: ['a'] }),
        g(['get'], { resourceNames: ['b'] }),
      ],
      want: [g(['get', 'list'], { resourceNames: ['a'] }), g(['get'], { resourceNames: ['b'] })],
    },
    TwoNamesAreNotSimple: {
      reason: 'More than one resource name: kept as it is.',
      rules: [g(['get'], { resourceNames: ['a', 'b'] }), g(['list'], { resourceNames: ['a', 'b'] })],
      want: [g(['get'], { resourceNames: ['a', 'b'] }), g(['list'], { resourceNames: ['a', 'b'] })],
    },
    NoNameIsNotTheEmptyName: {
      reason: 'simpleResource tells "no names" (ResourceNameExist false) from the one name "".',
      rules: [g(['get']), g(['list'], { resourceNames: [''] })],
      want: [g(['get']), g(['list'], { resourceNames: [''] })],
    },
    EmptyNamesAreNoNames: {
      reason: 'An empty resourceNames is no names: merged with a rule without them, the first rule copied.',
      rules: [g(['get'], { resourceNames: [] }), g(['list'])],
      want: [g(['get', 'list'], { resourceNames: [] })],
    },
    UrlsAreNotSimple: {
      reason: 'A rule with non-resource URLs is kept as it is, even with one group and resource.',
      rules: [g(['get'], { nonResourceURLs: ['/x'] }), g(['list'], { nonResourceURLs: ['/x'] })],
      want: [g(['get'], { nonResourceURLs: ['/x'] }), g(['list'], { nonResourceURLs: ['/x'] })],
    },
    TwoGroupsAreNotSimple: {
      reason: 'More than one API group: kept as it is.',
      rules: [g(['get'], { apiGroups: ['a', 'b'] }), g(['list'], { apiGroups: ['a', 'b'] })],
      want: [g(['get'], { apiGroups: ['a', 'b'] }), g(['list'], { apiGroups: ['a', 'b'] })],
    },
    NoGroupIsNotSimple: {
      reason: 'No API group (len(APIGroups) != 1): kept as it is.',
      rules: [
        { resources: ['pods'], verbs: ['get'] },
        { resources: ['pods'], verbs: ['list'] },
      ],
      want: [
        { resources: ['pods'], verbs: ['get'] },
        { resources: ['pods'], verbs: ['list'] },
      ],
    },
    NoResourceIsNotSimple: {
      reason: 'No resource (len(Resources) != 1): kept as it is.',
      rules: [
        { apiGroups: [''], verbs: ['get'] },
        { apiGroups: [''], verbs: ['list'] },
      ],
      want: [
        { apiGroups: [''], verbs: ['get'] },
        { apiGroups: [''], verbs: ['list'] },
      ],
    },
  };
  it.each(Object.entries(cases))('%s', (_n, c) => {
    expect(compactRules(c.rules), c.reason).toStrictEqual(c.want);
  });
});
