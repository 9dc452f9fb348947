import { describe, expect, it } from 'vitest';
import {
  breakdownRule,
  compactRules,
  coversRules,
  formatRuleForStatus,
  requestAttributes,
  ruleAllows,
  ruleCovers,
  rulesAllow,
  type AccessAttributes,
} from '../../../src/authz/authorize.js';
import type { PolicyRule } from '../../../src/kube/types.js';

interface AllowCase {
  reason: string;
  rule: PolicyRule;
  attrs: AccessAttributes;
  want: boolean;
}

describe('ruleAllows (RuleAllows and the evaluation helpers)', () => {
  const cases: Record<string, AllowCase> = {
    StarMatchesEverything: {
      reason: 'A rule of all wildcards allows any resource request.',
      rule: { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      attrs: { verb: 'delete', apiGroup: 'apps', resource: 'deployments', subresource: 'scale', name: 'x' },
      want: true,
    },
    ExactMatch: {
      reason: 'Group, resource and verb all listed.',
      rule: { apiGroups: ['apps'], resources: ['deployments'], verbs: ['delete'] },
      attrs: { verb: 'delete', apiGroup: 'apps', resource: 'deployments' },
      want: true,
    },
    VerbMismatch: {
      reason: 'The verb must be listed or *.',
      rule: { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] },
      attrs: { verb: 'delete', apiGroup: 'apps', resource: 'deployments' },
      want: false,
    },
    GroupMismatch: {
      reason: 'The core group is the empty string, not a wildcard.',
      rule: { apiGroups: [''], resources: ['deployments'], verbs: ['get'] },
      attrs: { verb: 'get', apiGroup: 'apps', resource: 'deployments' },
      want: false,
    },
    MissingGroupsMatchNothing: {
      reason: 'A resource rule without apiGroups matches no resource request.',
      rule: { resources: ['pods'], verbs: ['get'] },
      attrs: { verb: 'get', resource: 'pods' },
      want: false,
    },
    ResourceDoesNotCoverSubresource: {
      reason: 'deployments does not grant deployments/scale.',
      rule: { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] },
      attrs: { verb: 'get', apiGroup: 'apps', resource: 'deployments', subresource: 'scale' },
      want: false,
    },
    ExactSubresource: {
      reason: 'resource/subresource matches the combined name.',
      rule: { apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['get'] },
      attrs: { verb: 'get', apiGroup: 'apps', resource: 'deployments', subresource: 'scale' },
      want: true,
    },
    StarSlashSubresource: {
      reason: '*/scale matches the scale subresource of any resource.',
      rule: { apiGroups: ['apps'], resources: ['*/scale'], verbs: ['get'] },
      attrs: { verb: 'get', apiGroup: 'apps', resource: 'replicasets', subresource: 'scale' },
      want: true,
    },
    StarSlashSubresourceNotTheResource: {
      reason: '*/scale does not match the resource itself.',
      rule: { apiGroups: ['apps'], resources: ['*/scale'], verbs: ['get'] },
      attrs: { verb: 'get', apiGroup: 'apps', resource: 'replicasets' },
      want: false,
    },
    StarSlashMultiSegment: {
      reason: '*/other/segment matches a subresource with a slash in it.',
      rule: { apiGroups: [''], resources: ['*/other/segment'], verbs: ['get'] },
      attrs: { verb: 'get', apiGroup: '', resource: 'foo', subresource: 'other/segment' },
      want: true,
    },
    PartialSubresourceNoMatch: {
      reason: '*/other does not match the subresource other/segment.',
      rule: { apiGroups: [''], resources: ['foo/bar', '*/other'], verbs: ['get'] },
      attrs: { verb: 'get', apiGroup: '', resource: 'foo', subresource: 'other/segment' },
      want: false,
    },
    StarPrefixIsNotAWildcard: {
      reason: 'Only the exact form */sub is special; *something/sub is a plain name.',
      rule: { apiGroups: [''], resources: ['*something/other/segment', '*/', '/', ''], verbs: ['get'] },
      attrs: { verb: 'get', apiGroup: '', resource: 'foo', subresource: 'other/segment' },
      want: false,
    },
    ResourceNameMatch: {
      reason: 'A listed name matches.',
      rule: { apiGroups: [''], resources: ['secrets'], resourceNames: ['a', 'b'], verbs: ['get'] },
      attrs: { verb: 'get', apiGroup: '', resource: 'secrets', name: 'b' },
      want: true,
    },
    ResourceNameMismatch: {
      reason: 'An unlisted name does not match.',
      rule: { apiGroups: [''], resources: ['secrets'], resourceNames: ['a'], verbs: ['get'] },
      attrs: { verb: 'get', apiGroup: '', resource: 'secrets', name: 'c' },
      want: false,
    },
    ResourceNamesNeedAName: {
      reason: 'A rule limited to names does not allow a list (no name).',
      rule: { apiGroups: [''], resources: ['secrets'], resourceNames: ['a'], verbs: ['list'] },
      attrs: { verb: 'list', apiGroup: '', resource: 'secrets' },
      want: false,
    },
    NonResourceExact: {
      reason: 'A non-resource URL listed exactly.',
      rule: { nonResourceURLs: ['/healthz'], verbs: ['get'] },
      attrs: { verb: 'get', path: '/healthz' },
      want: true,
    },
    NonResourceTrailingStar: {
      reason: 'A trailing * matches by prefix.',
      rule: { nonResourceURLs: ['/apis/*'], verbs: ['get'] },
      attrs: { verb: 'get', path: '/apis/apps/v1' },
      want: true,
    },
    NonResourceStarNotInMiddle: {
      reason: 'A * that is not trailing is literal.',
      rule: { nonResourceURLs: ['/apis/*/v1'], verbs: ['get'] },
      attrs: { verb: 'get', path: '/apis/apps/v1' },
      want: false,
    },
    NonResourceRuleDoesNotGrantResources: {
      reason: 'A rule with only URLs grants no resource request.',
      rule: { nonResourceURLs: ['*'], verbs: ['*'] },
      attrs: { verb: 'get', apiGroup: '', resource: 'pods' },
      want: false,
    },
    StarSlashAloneIsNoWildcard: {
      reason:
        'ResourceMatches tries */sub only for a request with a subresource: */ matches no plain resource.',
      rule: { apiGroups: [''], resources: ['*/'], verbs: ['get'] },
      attrs: { verb: 'get', apiGroup: '', resource: 'pods' },
      want: false,
    },
    StarSlashNeedsTheWholeSubresource: {
      reason: 'Only "*/" followed by exactly the subresource matches: not */xscale, not x/scale.',
      rule: { apiGroups: ['apps'], resources: ['*/xscale', 'x/scale'], verbs: ['get'] },
      attrs: { verb: 'get', apiGroup: 'apps', resource: 'deployments', subresource: 'scale' },
      want: false,
    },
    NoApiGroupIsTheCoreGroup: {
      reason: 'A request without an API group is in the core group "".',
      rule: { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      attrs: { verb: 'get', resource: 'pods' },
      want: true,
    },
    EmptyResourceAndName: {
      reason: 'A request without resource or name carries "" for both: a rule listing "" matches them.',
      rule: { apiGroups: ['*'], resources: [''], resourceNames: [''], verbs: ['get'] },
      attrs: { verb: 'get', apiGroup: 'x' },
      want: true,
    },
    NoResourcesMatchNothing: {
      reason: 'A rule without resources matches no resource request.',
      rule: { apiGroups: ['*'], verbs: ['*'] },
      attrs: { verb: 'get', apiGroup: '', resource: 'pods' },
      want: false,
    },
    NonResourceNoPrefixWithoutStar: {
      reason: 'Without a trailing * a URL matches only itself, not the paths below it.',
      rule: { nonResourceURLs: ['/healthz'], verbs: ['get'] },
      attrs: { verb: 'get', path: '/healthz/ready' },
      want: false,
    },
    ResourceRuleDoesNotGrantUrls: {
      reason: 'A resource rule grants no non-resource request.',
      rule: { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      attrs: { verb: 'get', path: '/healthz' },
      want: false,
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(ruleAllows(tc.rule, tc.attrs), tc.reason).toBe(tc.want);
  });

  it('RulesAllowIsAnyRule', () => {
    const rules: PolicyRule[] = [
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['delete'] },
    ];
    expect(rulesAllow(rules, { verb: 'delete', apiGroup: 'apps', resource: 'deployments' })).toBe(true);
    expect(rulesAllow(rules, { verb: 'delete', apiGroup: '', resource: 'pods' })).toBe(false);
    expect(rulesAllow([], { verb: 'get', path: '/' })).toBe(false);
  });
});

interface CoverCase {
  reason: string;
  owner: PolicyRule[];
  requested: PolicyRule[];
  covered: boolean;
  missing?: string[];
}

describe('coversRules (Covers, BreakdownRule, ruleCovers)', () => {
  const cases: Record<string, CoverCase> = {
    SameRule: {
      reason: 'A rule covers itself.',
      owner: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
      requested: [{ apiGroups: [''], resources: ['pods'], verbs: ['list', 'get'] }],
      covered: true,
    },
    SplitAcrossOwnerRules: {
      reason: 'Atomic rules may be covered by different owner rules.',
      owner: [
        { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
      ],
      requested: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
      covered: true,
    },
    StarCoversAnything: {
      reason: 'Owner wildcards cover any group, resource and verb.',
      owner: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
      requested: [{ apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['patch'] }],
      covered: true,
    },
    WildcardOnlyCoveredByWildcard: {
      reason: 'Requesting verb * needs * in the owner; listing every verb is not enough.',
      owner: [
        {
          apiGroups: [''],
          resources: ['pods'],
          verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
        },
      ],
      requested: [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }],
      covered: false,
      missing: ['{APIGroups:[""], Resources:["pods"], Verbs:["*"]}'],
    },
    ResourceDoesNotCoverSubresource: {
      reason: 'pods does not cover pods/log.',
      owner: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      requested: [{ apiGroups: [''], resources: ['pods/log'], verbs: ['get'] }],
      covered: false,
      missing: ['{APIGroups:[""], Resources:["pods/log"], Verbs:["get"]}'],
    },
    StarSlashCoversSubresource: {
      reason: '*/status covers pods/status.',
      owner: [{ apiGroups: [''], resources: ['*/status'], verbs: ['get'] }],
      requested: [{ apiGroups: [''], resources: ['pods/status'], verbs: ['get'] }],
      covered: true,
    },
    NamesLimitTheOwner: {
      reason: 'An owner limited to names does not cover the whole resource.',
      owner: [{ apiGroups: [''], resources: ['secrets'], resourceNames: ['a'], verbs: ['get'] }],
      requested: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
      covered: false,
      missing: ['{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}'],
    },
    UnlimitedOwnerCoversNames: {
      reason: 'An owner without names covers any name.',
      owner: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
      requested: [{ apiGroups: [''], resources: ['secrets'], resourceNames: ['a', 'b'], verbs: ['get'] }],
      covered: true,
    },
    UrlPrefixCovers: {
      reason: 'A trailing * in the owner covers longer URLs; a plain URL does not cover a starred one.',
      owner: [{ nonResourceURLs: ['/apis/*', '/healthz'], verbs: ['get'] }],
      requested: [{ nonResourceURLs: ['/apis/apps', '/healthz/*'], verbs: ['get'] }],
      covered: false,
      missing: ['{NonResourceURLs:["/healthz/*"], Verbs:["get"]}'],
    },
    MissingListCompactedAndSorted: {
      reason: 'The 403 lists uncovered verbs of one group/resource in one entry, entries sorted.',
      owner: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      requested: [
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['delete'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
      ],
      covered: false,
      missing: [
        '{APIGroups:[""], Resources:["pods"], Verbs:["list" "watch"]}',
        '{APIGroups:["apps"], Resources:["deployments"], Verbs:["delete"]}',
      ],
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    const got = coversRules(tc.owner, tc.requested);
    expect(got.covered, tc.reason).toBe(tc.covered);
    expect(got.missing.map(formatRuleForStatus), tc.reason).toStrictEqual(tc.missing ?? []);
  });

  it('BreakdownIsTheCrossProduct', () => {
    const atoms = breakdownRule({
      apiGroups: ['', 'apps'],
      resources: ['a'],
      verbs: ['get', 'list'],
      resourceNames: ['x'],
      nonResourceURLs: ['/u'],
    });
    expect(atoms).toHaveLength(2 * 1 * 2 * 1 + 2);
    expect(atoms[0]).toStrictEqual({
      apiGroups: [''],
      resources: ['a'],
      verbs: ['get'],
      resourceNames: ['x'],
    });
    expect(atoms[5]).toStrictEqual({ nonResourceURLs: ['/u'], verbs: ['list'] });
  });

  it('RuleCoversIsDirectional', () => {
    const wide: PolicyRule = { apiGroups: ['*'], resources: ['pods'], verbs: ['get'] };
    const narrow: PolicyRule = { apiGroups: [''], resources: ['pods'], verbs: ['get'] };
    expect(ruleCovers(wide, narrow)).toBe(true);
    expect(ruleCovers(narrow, { ...narrow, apiGroups: ['*'] })).toBe(false);
  });

  it('CompactMergesOnlySimpleRules', () => {
    const got = compactRules([
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
    ]);
    expect(got).toStrictEqual([
      { apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
    ]);
  });
});

describe('formatRuleForStatus (CompactString)', () => {
  const cases: Record<string, { reason: string; rule: PolicyRule; want: string }> = {
    Resource: {
      reason: 'Fields in Go order, lists quoted and space separated.',
      rule: { apiGroups: ['apps'], resources: ['deployments'], verbs: ['delete'] },
      want: '{APIGroups:["apps"], Resources:["deployments"], Verbs:["delete"]}',
    },
    ManyVerbsAndNames: {
      reason: 'ResourceNames come after Resources and before Verbs.',
      rule: { apiGroups: [''], resources: ['secrets'], resourceNames: ['a'], verbs: ['get', 'list'] },
      want: '{APIGroups:[""], Resources:["secrets"], ResourceNames:["a"], Verbs:["get" "list"]}',
    },
    NonResource: {
      reason: 'Empty fields are left out.',
      rule: { nonResourceURLs: ['/healthz'], verbs: ['get'] },
      want: '{NonResourceURLs:["/healthz"], Verbs:["get"]}',
    },
    ControlCharacters: {
      reason: 'Go %q escapes \\n, \\r and \\x7f and keeps a space; CompactString leaves out an empty Verbs.',
      rule: { apiGroups: ['a\nb\rc d\u007f~'], verbs: [] },
      want: '{APIGroups:["a\\nb\\rc d\\x7f~"]}',
    },
    Quoting: {
      reason: 'Strings are quoted as Go %q does.',
      rule: { apiGroups: ['a"b\\c'], resources: ['x\ty'], verbs: ['\u0001'] },
      want: '{APIGroups:["a\\"b\\\\c"], Resources:["x\\ty"], Verbs:["\\x01"]}',
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(formatRuleForStatus(tc.rule), tc.reason).toBe(tc.want);
  });
});

describe('requestAttributes', () => {
  const deployments = { group: 'apps', resource: 'deployments' };
  it.each([
    [
      'a resource',
      deployments,
      undefined,
      undefined,
      { verb: 'get', apiGroup: 'apps', resource: 'deployments' },
    ],
    [
      'a subresource, a name and a namespace',
      { ...deployments, subresource: 'scale' },
      'web',
      'team-a',
      {
        verb: 'get',
        apiGroup: 'apps',
        resource: 'deployments',
        subresource: 'scale',
        name: 'web',
        namespace: 'team-a',
      },
    ],
    // The empty namespace is no namespace: a cluster-wide request.
    [
      'the empty namespace',
      deployments,
      undefined,
      '',
      { verb: 'get', apiGroup: 'apps', resource: 'deployments' },
    ],
    [
      'a URL (no resource attributes)',
      { ...deployments, path: '/healthz' },
      'x',
      'ns',
      { verb: 'get', path: '/healthz' },
    ],
  ] as const)('%s', (_what, target, name, namespace, expected) => {
    expect(requestAttributes(target, 'get', name, namespace)).toStrictEqual(expected);
  });
});
