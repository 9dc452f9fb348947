/**
 * The test API server's RBAC authorizer and escalation check against Kubernetes' own test tables, transcribed in
 * test/fixtures/kubernetes/ (each file names its upstream source and commit).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { fixturePath } from '../support/fixtures.js';
import type { PolicySource, UserInfo } from './authz.js';
import { authorize, checkRbacWrite, rulesFor, subjectIndex } from './authz.js';
import { compactRules, compactString, covers } from './covers.js';
import type { PolicyRule } from './rbac-rules.js';
import {
  nonResourceUrlCovers,
  pathAttributes,
  resourceAttributes,
  ruleAllows,
  sameRule,
} from './rbac-rules.js';

const RBAC = 'rbac.authorization.k8s.io';

/** A transcribed table; its shape is the interface the caller names. */
function table(file: string): unknown {
  return YAML.parse(readFileSync(fixturePath('kubernetes', file), 'utf8'));
}

type Subject = Record<string, string>;

interface Objects {
  roles?: { namespace: string; name: string; rules: PolicyRule[] }[];
  clusterRoles?: { name: string; rules: PolicyRule[] }[];
  roleBindings?: { namespace: string; roleRef: Record<string, string>; subjects: Subject[] }[];
  clusterRoleBindings?: { roleRef: Record<string, string>; subjects: Subject[] }[];
}

/** One request of TestAuthorizer: a resource request, or a non-resource one when `path` is set. */
interface AuthorizerRequest {
  user: string;
  groups: string[];
  verb: string;
  path?: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
}

interface AuthorizerCase extends Objects {
  shouldPass: AuthorizerRequest[];
  shouldFail: AuthorizerRequest[];
}

interface RuleMatchesCase {
  name: string;
  rule: PolicyRule;
  /** [verb, apiGroup, resource, subresource, want] or [verb, path, want]. */
  requests: (string | boolean)[][];
}

interface CoversCase {
  name: string;
  owner: PolicyRule[];
  servant: PolicyRule[];
  covered: boolean;
  uncovered: PolicyRule[];
}

interface CompactCase {
  name: string;
  rules: PolicyRule[];
  expected: PolicyRule[];
}

interface EscalationTable extends Objects {
  role: Record<string, any>;
  old: Record<string, any>;
  cases: { name: string; user: UserInfo; expectAllowed: boolean }[];
}

/** The objects of a table as the authorizer reads them from a store (bindings named after their position). */
function source(o: Objects): PolicySource {
  const ref = (r: Record<string, string>): Record<string, string> => ({ apiGroup: RBAC, ...r });
  const stored = {
    roles: (o.roles ?? []).map((r) => ({
      metadata: { name: r.name, namespace: r.namespace },
      rules: r.rules,
    })),
    clusterroles: (o.clusterRoles ?? []).map((r) => ({ metadata: { name: r.name }, rules: r.rules })),
    rolebindings: (o.roleBindings ?? []).map((b, i) => ({
      metadata: { name: `binding-${i}`, namespace: b.namespace },
      roleRef: ref(b.roleRef),
      subjects: b.subjects,
    })),
    clusterrolebindings: (o.clusterRoleBindings ?? []).map((b, i) => ({
      metadata: { name: `binding-${i}` },
      roleRef: ref(b.roleRef),
      subjects: b.subjects,
    })),
  };
  return {
    list: (resource, namespace) =>
      stored[resource].filter((x: any) => namespace === undefined || x.metadata.namespace === namespace),
    get: (resource, name, namespace) =>
      stored[resource].find(
        (x: any) =>
          x.metadata.name === name && (namespace === undefined || x.metadata.namespace === namespace),
      ),
  };
}

/** Two rule lists hold the same rules, in any order (upstream's rulesMatch, with semantic equality). */
function sameRuleSet(got: readonly PolicyRule[], want: readonly PolicyRule[]): boolean {
  return (
    got.length === want.length &&
    want.every((w) => got.some((g) => sameRule(g, w))) &&
    got.every((g) => want.some((w) => sameRule(g, w)))
  );
}

describe('RuleAllows (rbac_test.go TestRuleMatches)', () => {
  const { cases } = table('authorizer-rule-matches.yaml') as { cases: RuleMatchesCase[] };
  it.each(cases.map((c): [string, RuleMatchesCase] => [c.name, c]))('%s', (_name, c) => {
    expect(c.requests.length).toBeGreaterThan(0);
    for (const r of c.requests) {
      const want = r[r.length - 1] as boolean;
      const req =
        r.length === 3
          ? pathAttributes(String(r[0]), String(r[1]))
          : resourceAttributes({
              verb: String(r[0]),
              apiGroup: String(r[1]),
              resource: String(r[2]),
              subresource: String(r[3]),
            });
      expect(ruleAllows(c.rule, req), JSON.stringify(r)).toBe(want);
    }
  });
});

describe('the authorizer (rbac_test.go TestAuthorizer)', () => {
  const { cases } = table('authorizer-cases.yaml') as { cases: AuthorizerCase[] };
  it.each(cases.map((c, i): [number, AuthorizerCase] => [i, c]))('case %i', (_i, c) => {
    const policy = source(c);
    const decide = (a: AuthorizerRequest): boolean => {
      const user: UserInfo = { name: a.user, groups: a.groups };
      const req =
        a.path !== undefined
          ? pathAttributes(a.verb, a.path)
          : resourceAttributes({
              verb: a.verb,
              apiGroup: a.apiGroup,
              resource: a.resource,
              subresource: a.subresource,
              namespace: a.namespace,
            });
      return authorize(policy, user, req).allowed;
    };
    for (const a of c.shouldPass) expect(decide(a), `incorrectly restricted ${JSON.stringify(a)}`).toBe(true);
    for (const a of c.shouldFail) expect(decide(a), `incorrectly passed ${JSON.stringify(a)}`).toBe(false);
  });
});

describe('rule resolution (rule_test.go)', () => {
  interface ResolverCase {
    user: UserInfo;
    namespace: string;
    effectiveRules: PolicyRule[];
  }
  interface AppliesToCase {
    testCase: string;
    subjects: Subject[];
    user: UserInfo;
    namespace: string;
    index: number;
  }
  const { defaultRuleResolver, appliesTo } = table('rule-resolver.yaml') as {
    defaultRuleResolver: Objects & { cases: ResolverCase[] };
    appliesTo: AppliesToCase[];
  };

  it.each(defaultRuleResolver.cases.map((c, i): [number, ResolverCase] => [i, c]))(
    'TestDefaultRuleResolver case %i',
    (_i, c) => {
      const got = rulesFor(source(defaultRuleResolver), c.user, c.namespace);
      expect(sameRuleSet(got, c.effectiveRules), JSON.stringify(got)).toBe(true);
    },
  );

  it.each(appliesTo.map((c): [string, AppliesToCase] => [c.testCase, c]))('TestAppliesTo: %s', (_name, c) => {
    expect(subjectIndex(c.user, c.subjects, c.namespace)).toBe(c.index);
  });
});

describe('Covers (policy_comparator_test.go)', () => {
  const { cases, nonResourceURLCovers } = table('covers.yaml') as {
    cases: CoversCase[];
    nonResourceURLCovers: [string, string, boolean][];
  };

  it.each(cases.map((c): [string, CoversCase] => [c.name, c]))('TestCovers%s', (_name, c) => {
    const got = covers(c.owner, c.servant);
    expect(got.covered).toBe(c.covered);
    expect(sameRuleSet(got.uncovered, c.uncovered), JSON.stringify(got.uncovered)).toBe(true);
  });

  it.each(nonResourceURLCovers)('TestNonResourceURLCovers: %j covers %j: %s', (owner, requested, want) => {
    expect(nonResourceUrlCovers(owner, requested)).toBe(want);
  });
});

describe('CompactRules (policy_compact_test.go TestCompactRules)', () => {
  const { cases } = table('compact-rules.yaml') as { cases: CompactCase[] };
  const sorted = (rules: readonly PolicyRule[]): PolicyRule[] =>
    [...rules].sort((a, b) => {
      const x = `PolicyRule${compactString(a)}`;
      const y = `PolicyRule${compactString(b)}`;
      return x < y ? -1 : x > y ? 1 : 0;
    });

  it.each(cases.map((c): [string, CompactCase] => [c.name, c]))('%s', (_name, c) => {
    const original = structuredClone(c.rules);
    const compacted = compactRules(c.rules);
    expect(c.rules, 'CompactRules mutated its input').toStrictEqual(original);
    expect(covers(compacted, c.rules).covered).toBe(true);
    expect(covers(c.rules, compacted).covered).toBe(true);
    expect(sorted(compacted)).toStrictEqual(sorted(c.expected));
  });
});

describe('ClusterRole escalation check (clusterrole/policybased/storage_test.go TestEscalation)', () => {
  const t = table('clusterrole-escalation.yaml') as EscalationTable;
  const policy = source(t);

  it.each(t.cases.map((c): [string, EscalationTable['cases'][number]] => [c.name, c]))('%s', (_name, c) => {
    const create = checkRbacWrite(policy, c.user, 'clusterroles', '', '', t.role, undefined);
    expect(create.ok, 'create').toBe(c.expectAllowed);
    const update = checkRbacWrite(
      policy,
      c.user,
      'clusterroles',
      '',
      String(t.role.metadata.name),
      t.role,
      t.old,
    );
    expect(update.ok, 'update').toBe(c.expectAllowed);
    if (!c.expectAllowed) expect(create).toMatchObject({ status: 403 });
  });
});

/** Behaviour read from Kubernetes' source where its tests have no table; each case names the function. */
describe('behaviour without an upstream table', () => {
  const hank: UserInfo = { name: 'hank', groups: ['system:authenticated'] };
  const aggregated = {
    metadata: { name: 'agg' },
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] },
    rules: [],
  };
  const policy = source({
    clusterRoles: [
      { name: 'cm-reader', rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] },
      { name: 'secret-reader', rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] },
      {
        name: 'binder',
        rules: [
          {
            apiGroups: [RBAC],
            resources: ['clusterroles'],
            verbs: ['bind'],
            resourceNames: ['secret-reader'],
          },
        ],
      },
    ],
    clusterRoleBindings: [
      { roleRef: { kind: 'ClusterRole', name: 'cm-reader' }, subjects: [{ kind: 'User', name: 'hank' }] },
      { roleRef: { kind: 'ClusterRole', name: 'binder' }, subjects: [{ kind: 'User', name: 'hank' }] },
      { roleRef: { kind: 'ClusterRole', name: 'gone' }, subjects: [{ kind: 'User', name: 'hank' }] },
    ],
  });
  const binding = (role: string): Record<string, any> => ({
    metadata: { name: 'b' },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects: [{ kind: 'User', name: 'ivy' }],
  });

  it('NonResourceURLMatches trims every trailing "*" (strings.TrimRight)', () => {
    expect(nonResourceUrlCovers('/a**', '/a')).toBe(true);
    expect(ruleAllows({ verbs: ['get'], nonResourceURLs: ['/a**'] }, pathAttributes('get', '/a/b'))).toBe(
      true,
    );
  });

  it('clusterrole Update: keeping an aggregationRule still takes full authority', () => {
    const renamed = { ...aggregated, metadata: { name: 'agg', labels: { x: 'y' } } };
    expect(checkRbacWrite(policy, hank, 'clusterroles', '', 'agg', renamed, aggregated)).toStrictEqual({
      ok: false,
      status: 403,
      message: 'must have cluster-admin privileges to use the aggregationRule',
    });
  });

  it('IsOnlyMutatingGCFields: an update of owner references and finalizers only needs no rules', () => {
    const owned = { ...aggregated, metadata: { name: 'agg', finalizers: ['x'], ownerReferences: [] } };
    expect(checkRbacWrite(policy, hank, 'clusterroles', '', 'agg', owned, aggregated).ok).toBe(true);
  });

  it('BindingAuthorized: bind on the role lets you bind rules you do not hold', () => {
    expect(
      checkRbacWrite(policy, hank, 'rolebindings', 'ns1', '', binding('secret-reader'), undefined).ok,
    ).toBe(true);
  });

  it('ConfirmNoEscalation: the 403 lists the missing rules, then the role references it could not resolve', () => {
    const denied = checkRbacWrite(
      policy,
      hank,
      'clusterroles',
      '',
      '',
      { metadata: { name: 'r' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['list', 'get'] }] },
      undefined,
    );
    expect(denied).toStrictEqual({
      ok: false,
      status: 403,
      message:
        'user "hank" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["list" "get"]}; resolution errors: [clusterroles.rbac.authorization.k8s.io "gone" not found]',
    });
  });

  it('RBACAuthorizer: says which binding allowed, or which role it could not find', () => {
    const get = (resource: string): ReturnType<typeof authorize> =>
      authorize(policy, hank, resourceAttributes({ verb: 'get', resource, namespace: 'ns1' }));
    expect(get('configmaps')).toStrictEqual({
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "binding-0" of ClusterRole "cm-reader" to User "hank"',
    });
    expect(get('secrets')).toStrictEqual({
      allowed: false,
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
    });
  });
});
