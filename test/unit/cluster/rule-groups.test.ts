/**
 * mayAllowGroup tells from a role's undecoded JSON whether one of its rules may allow a request of an API group. It
 * must never say "no" for a role that has such a rule: the oracle decodes the body (JSON.parse) and applies the
 * authorizer's group match as Kubernetes writes it (APIGroupMatches: a rule's apiGroups holds "*" or the group,
 * kubernetes/kubernetes@03bf11a309fd1369f5c2dc7f3b31d63a97a14d66 pkg/apis/rbac/v1/evaluation_helpers.go), written here
 * from that source, not imported from src/.
 */
import { describe, expect, it } from 'vitest';
import { mayAllowGroup } from '../../../src/cluster/rule-groups.js';

interface Rule {
  apiGroups?: string[] | null;
  resources?: string[];
  verbs: string[];
  nonResourceURLs?: string[];
}

/** Some rule's apiGroups holds "*" or GROUP (APIGroupMatches over each rule of the decoded body). */
function oracle(body: string, group: string): boolean {
  const role = JSON.parse(body) as { rules?: Rule[] | null };
  return (role.rules ?? []).some((r) => (r.apiGroups ?? []).some((g) => g === '*' || g === group));
}

function role(rules: Rule[], metadata: object = {}): object {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'r', resourceVersion: '7', ...metadata },
    rules,
  };
}

const G = 'platform.acme.io';

/** A role's answer as the server may spell it: compact (as the API server writes it) and indented (as kubectl -o json). */
function spellings(obj: object): string[] {
  return [JSON.stringify(obj), JSON.stringify(obj, null, 2), JSON.stringify(obj, null, '\t')];
}

function says(body: string, group: string): boolean {
  return mayAllowGroup(Buffer.from(body, 'utf8'), group);
}

describe('mayAllowGroup: a role may allow a request of a group only if some rule names the group or "*"', () => {
  const cases: { name: string; rules: Rule[]; allows: boolean }[] = [
    {
      name: 'the group itself',
      rules: [{ apiGroups: [G], resources: ['accounts'], verbs: ['get'] }],
      allows: true,
    },
    {
      name: 'every group ("*")',
      rules: [{ apiGroups: ['*'], resources: ['accounts'], verbs: ['get'] }],
      allows: true,
    },
    {
      name: 'the group after others in the same apiGroups',
      rules: [{ apiGroups: ['', 'apps', 'acme.io', G], resources: ['x'], verbs: ['get'] }],
      allows: true,
    },
    {
      name: 'the group in another rule than the resource (decoded: the authorizer decides the rest)',
      rules: [
        { apiGroups: [G], resources: ['other'], verbs: ['get'] },
        { apiGroups: ['apps'], resources: ['accounts'], verbs: ['get'] },
      ],
      allows: true,
    },
    {
      name: 'the group in the last of many rules',
      rules: [
        ...Array.from({ length: 50 }, (_, i) => ({
          apiGroups: [`g${String(i)}.io`],
          resources: ['a'],
          verbs: ['*'],
        })),
        { apiGroups: [G], resources: ['accounts'], verbs: ['create'] },
      ],
      allows: true,
    },
    {
      name: 'a prefix of the group',
      rules: [{ apiGroups: ['platform.acme'], resources: ['*'], verbs: ['*'] }],
      allows: false,
    },
    {
      name: 'a suffix of the group',
      rules: [{ apiGroups: ['acme.io'], resources: ['*'], verbs: ['*'] }],
      allows: false,
    },
    {
      name: 'the group inside a longer group',
      rules: [
        { apiGroups: ['xplatform.acme.io', 'platform.acme.io.example'], resources: ['*'], verbs: ['*'] },
      ],
      allows: false,
    },
    {
      name: '"*" as a verb and a resource, not a group',
      rules: [{ apiGroups: ['other.io'], resources: ['*'], verbs: ['*'] }],
      allows: false,
    },
    {
      name: 'a "*" group spelled with more',
      rules: [{ apiGroups: ['*.io', '**'], resources: ['a'], verbs: ['get'] }],
      allows: false,
    },
    {
      name: 'the group as a resource name, not a group',
      rules: [{ apiGroups: ['apps'], resources: [G], verbs: ['get'] }],
      allows: false,
    },
    { name: 'a non-resource rule only', rules: [{ nonResourceURLs: ['*'], verbs: ['get'] }], allows: false },
    { name: 'no apiGroups', rules: [{ resources: ['accounts'], verbs: ['get'] }], allows: false },
    {
      name: 'empty apiGroups',
      rules: [{ apiGroups: [], resources: ['accounts'], verbs: ['get'] }],
      allows: false,
    },
    { name: 'no rules at all', rules: [], allows: false },
    {
      name: 'a group string holding "]" and "," before the group',
      rules: [{ apiGroups: ['a],[b', G], resources: ['accounts'], verbs: ['get'] }],
      allows: true,
    },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.allows ? 'may allow' : 'does not'}`, () => {
      for (const body of spellings(role(c.rules))) {
        expect(oracle(body, G), body).toBe(c.allows);
        expect(says(body, G), body).toBe(c.allows);
      }
    });
  }

  it('the core group ("") is a group like another', () => {
    const core = role([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
    const apps = role([{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }]);
    for (const body of spellings(core)) expect(says(body, '')).toBe(true);
    for (const body of spellings(apps)) expect(says(body, '')).toBe(false);
    // "" elsewhere in the body (an empty label value) is not a group.
    for (const body of spellings({ ...apps, metadata: { name: 'r', labels: { a: '' } } }))
      expect(says(body, '')).toBe(false);
  });

  it('unsure, so "may allow", where the bytes could spell the group another way', () => {
    const plain = role([{ apiGroups: ['other.io'], resources: ['a'], verbs: ['get'] }]);
    const unsure = [
      // An escape anywhere: the group spelled \u0070..., or only some other string escaped.
      JSON.stringify(plain).replace('"other.io"', '"\\u0070latform.acme.io"'),
      JSON.stringify(
        role([{ apiGroups: ['other.io'], resources: ['a'], verbs: ['get'] }], { annotations: { a: 'x"y' } }),
      ),
      // Go's encoder escapes <, > and & (encoding/json's HTML escaping) in any string.
      JSON.stringify(plain).replace('"7"', '"\\u003c7"'),
    ];
    for (const body of unsure) expect(says(body, G), body).toBe(true);
    // A group that is not a plain name (its bytes could decode from invalid UTF-8, or start where a string ends).
    for (const group of ['gr\u00fcn.io', 'a"b', '*', ',x', ' x'])
      expect(says(JSON.stringify(plain), group)).toBe(true);
    expect(says(JSON.stringify(plain), 'other.io')).toBe(true);
  });

  it('the group or "*" elsewhere than in a rule\'s apiGroups', () => {
    const elsewhere = [
      role([{ apiGroups: null, resources: ['a'], verbs: ['get'] }]),
      role([{ apiGroups: ['other.io'], resources: ['a'], verbs: ['get'] }], {
        labels: { k: 'apiGroups', [G]: '*' },
      }),
      role([{ apiGroups: ['other.io'], resources: ['apiGroups', '*', G], verbs: ['*'] }]),
      { ...role([]), apiGroups: 'platform.acme.io' },
    ];
    for (const obj of elsewhere) for (const body of spellings(obj)) expect(says(body, G), body).toBe(false);
    // An apiGroups that is not a rule's (a field the server would not send) is taken as one: decoded, never missed.
    const nested = {
      ...role([{ apiGroups: ['other.io'], resources: ['a'], verbs: ['get'] }]),
      x: { apiGroups: ['*'] },
    };
    for (const body of spellings(nested)) expect(says(body, G), body).toBe(true);
  });

  it('never says no where the decoded rules name the group or "*": 2,000 random roles against the oracle', () => {
    // A fixed-seed generator (mulberry32), so that a failure repeats.
    let seed = 41;
    const random = (): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = seed;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const groups = [
      '',
      '*',
      G,
      'acme.io',
      'platform.acme',
      `x${G}`,
      `${G}.x`,
      'apps',
      '**',
      'a]b',
      'a,b',
      ' ',
      'ü.io',
      'a-b.io',
    ];
    const words = ['*', 'get', 'accounts', G, 'apiGroups', '', 'a"b', 'c\\d', '<x>'];
    let narrowed = 0;
    for (let n = 0; n < 2000; n++) {
      const rules: Rule[] = Array.from({ length: Math.floor(random() * 5) }, () => ({
        ...(random() < 0.9
          ? { apiGroups: Array.from({ length: Math.floor(random() * 4) }, () => pick(groups)) }
          : {}),
        resources: [pick(words)],
        verbs: [pick(words)],
      }));
      const body = pick(
        spellings(
          role(rules, random() < 0.2 ? { labels: { k: pick(words), [pick(groups)]: pick(groups) } } : {}),
        ),
      );
      const group = pick([G, '', 'apps', 'a-b.io']);
      const grants = oracle(body, group);
      const maybe = says(body, group);
      if (grants) expect(maybe, `${group} in ${body}`).toBe(true);
      // Exact where no string is escaped: then "may allow" is the oracle's answer.
      if (!body.includes('\\')) expect(maybe, `${group} in ${body}`).toBe(grants);
      if (!maybe) narrowed++;
    }
    // The generator reaches both answers (a filter that never narrows would pass the first check alone).
    expect(narrowed).toBeGreaterThan(200);
  });
});
