// The short text for a long list of missing rules: each rule broken down into one (verb, resource) pair as
// Kubernetes' BreakdownRule does (pkg/registry/rbac/validation), pairs counted once, verbs that cover the same
// resources listed together, the widest first, at most four verb sets and three examples each.
import { describe, expect, it } from 'vitest';
import { renderMissingRulesRole, summarizeRules } from '../../../src/authz/summarize-rules.js';
import type { PolicyRule } from '../../../src/kube/types.js';

const core = (verbs: string[], resources: string[]): PolicyRule => ({ apiGroups: [''], resources, verbs });

describe('summarizeRules', () => {
  const cases: Record<string, { rules: PolicyRule[]; count: number; text: string }> = {
    Nothing: { rules: [], count: 0, text: '' },
    VerbsOfOneResource: { rules: [core(['list', 'get'], ['pods'])], count: 2, text: 'get, list on pods' },
    GroupNamed: {
      rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }],
      count: 1,
      text: 'get on deployments.apps',
    },
    ResourceNames: {
      rules: [{ apiGroups: [''], resources: ['secrets'], resourceNames: ['a', 'b'], verbs: ['get'] }],
      count: 2,
      text: 'get on 2 resources (secrets/a, secrets/b)',
    },
    NonResourceUrl: {
      rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
      count: 1,
      text: 'get on /healthz',
    },
    CountedOnce: { rules: [core(['get'], ['pods']), core(['get'], ['pods'])], count: 1, text: 'get on pods' },
    ThreeExamples: {
      rules: [core(['get'], ['d', 'c', 'b', 'a'])],
      count: 4,
      text: 'get on 4 resources (a, b, c, …)',
    },
    ExactlyThree: { rules: [core(['get'], ['c', 'b', 'a'])], count: 3, text: 'get on 3 resources (a, b, c)' },
    WidestFirstAtMostFour: {
      rules: [
        core(['get'], ['a']),
        core(['list'], ['a', 'b']),
        core(['watch'], ['a', 'b', 'c']),
        core(['create'], ['a', 'b', 'c', 'd']),
        core(['delete'], ['a', 'b', 'c', 'd', 'e']),
      ],
      count: 15,
      text:
        'delete on 5 resources (a, b, c, …); create on 4 resources (a, b, c, …); watch on 3 resources (a, b, c); ' +
        'list on 2 resources (a, b); and 1 more verb sets',
    },
    FourIsAll: {
      rules: [
        core(['get'], ['a']),
        core(['list'], ['a', 'b']),
        core(['watch'], ['c']),
        core(['create'], ['d']),
      ],
      count: 5,
      text: 'list on 2 resources (a, b); create on d; get on a; watch on c',
    },
    SameTextOtherResources: {
      rules: [core(['get'], ['a', 'b']), core(['list'], ['ab'])],
      count: 3,
      text: 'get on 2 resources (a, b); list on ab',
    },
    TiesByVerb: {
      rules: [core(['list'], ['b']), core(['get'], ['a'])],
      count: 2,
      text: 'get on a; list on b',
    },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(summarizeRules(tc.rules)).toStrictEqual({ count: tc.count, text: tc.text });
  });

  it('ThousandsSeparated: counts are written with a comma every three digits', () => {
    const resources = Array.from({ length: 1200 }, (_, i) => `r${String(i).padStart(4, '0')}`);
    expect(summarizeRules([core(['get'], resources)])).toStrictEqual({
      count: 1200,
      text: 'get on 1,200 resources (r0000, r0001, r0002, …)',
    });
  });
});

describe('renderMissingRulesRole', () => {
  it('TheRulesWithEachVerbOnce', () => {
    expect(renderMissingRulesRole([core(['get', 'get', 'list'], ['pods'])])).toStrictEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'crossplane-rbac-missing-permissions' },
      rules: [core(['get', 'list'], ['pods'])],
    });
  });
});
