import { describe, expect, it } from 'vitest';
import { EffectiveRoles, type ResolvedRole } from '../../../src/authz/effective-roles.js';
import type { ClusterRole, PolicyRule, Role, RoleRef } from '../../../src/kube/types.js';
import { role, rule } from '../explain/helpers.js';

const RBAC = 'rbac.authorization.k8s.io';
const pods = rule('get', 'pods');
const secrets = rule('list', 'secrets');
const nodes = rule('watch', 'nodes');

const nsRole = (namespace: string, name: string, rules?: PolicyRule[]): Role => ({
  apiVersion: `${RBAC}/v1`,
  kind: 'Role',
  metadata: { name, namespace },
  ...(rules !== undefined ? { rules } : {}),
});
const ref = (kind: string, name: string): RoleRef => ({ apiGroup: RBAC, kind, name });

describe('EffectiveRoles.clusterRole', () => {
  interface Case {
    reason: string;
    roles: ClusterRole[];
    name: string;
    want: ResolvedRole;
  }
  const cases: Record<string, Case> = {
    Missing: {
      reason:
        'A roleRef may name a ClusterRole that does not exist: GetRoleReferenceRules fails and it grants nothing.',
      roles: [role('other', {}, [pods])],
      name: 'gone',
      want: {
        kind: 'ClusterRole',
        name: 'gone',
        found: false,
        aggregated: false,
        effective: [],
        stored: [],
        drift: false,
      },
    },
    Plain: {
      reason:
        'The aggregation controller leaves a role without an aggregationRule alone: its own rules are effective.',
      roles: [role('plain', { agg: 'true' }, [pods, secrets])],
      name: 'plain',
      want: {
        kind: 'ClusterRole',
        name: 'plain',
        found: true,
        aggregated: false,
        effective: [pods, secrets],
        stored: [pods, secrets],
        drift: false,
      },
    },
    PlainWithoutRules: {
      reason: 'A ClusterRole with nil rules grants nothing (nil is empty).',
      roles: [{ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'empty' } }],
      name: 'empty',
      want: {
        kind: 'ClusterRole',
        name: 'empty',
        found: true,
        aggregated: false,
        effective: [],
        stored: [],
        drift: false,
      },
    },
    AggregatedCaughtUp: {
      reason: 'The stored rules equal what syncClusterRole would write: no drift.',
      roles: [
        role('src', { agg: 'true' }, [pods]),
        role('agg', {}, [pods], [{ matchLabels: { agg: 'true' } }]),
      ],
      name: 'agg',
      want: {
        kind: 'ClusterRole',
        name: 'agg',
        found: true,
        aggregated: true,
        effective: [pods],
        stored: [pods],
        drift: false,
      },
    },
    AggregatedBehind: {
      reason:
        "The controller will replace the stored rules with the selected roles' rules (its own are discarded): drift.",
      roles: [
        role('src', { agg: 'true' }, [pods]),
        role('agg', {}, [secrets], [{ matchLabels: { agg: 'true' } }]),
      ],
      name: 'agg',
      want: {
        kind: 'ClusterRole',
        name: 'agg',
        found: true,
        aggregated: true,
        effective: [pods],
        stored: [secrets],
        drift: true,
      },
    },
    AggregatedOrderDiffers: {
      reason:
        'The controller compares rule lists in order (equality.Semantic.DeepEqual): another order is drift.',
      roles: [
        role('a', { agg: 'true' }, [pods]),
        role('b', { agg: 'true' }, [secrets]),
        role('agg', {}, [secrets, pods], [{ matchLabels: { agg: 'true' } }]),
      ],
      name: 'agg',
      want: {
        kind: 'ClusterRole',
        name: 'agg',
        found: true,
        aggregated: true,
        effective: [pods, secrets],
        stored: [secrets, pods],
        drift: true,
      },
    },
    AggregatedNothingSelected: {
      reason: 'A selector that matches nothing makes the controller store no rules; stored rules are drift.',
      roles: [role('agg', {}, [pods], [{ matchLabels: { agg: 'true' } }])],
      name: 'agg',
      want: {
        kind: 'ClusterRole',
        name: 'agg',
        found: true,
        aggregated: true,
        effective: [],
        stored: [pods],
        drift: true,
      },
    },
  };
  it.each(Object.entries(cases))('%s', (_name, c) => {
    expect(new EffectiveRoles(c.roles, []).clusterRole(c.name), c.reason).toStrictEqual(c.want);
  });

  it('treats nil and empty lists of a rule alike when judging drift', () => {
    // The controller's DeepEqual is equality.Semantic: a nil resourceNames equals an empty one.
    const stored: PolicyRule = { apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: [] };
    const roles = [
      role('src', { agg: 'true' }, [pods]),
      role('agg', {}, [stored], [{ matchLabels: { agg: 'true' } }]),
    ];
    expect(new EffectiveRoles(roles, []).clusterRole('agg').drift).toBe(false);
  });
});

describe('EffectiveRoles.resolve', () => {
  const clusterRoles = [role('view', {}, [pods]), role('edit', {}, [secrets])];
  const roles = [nsRole('a', 'reader', [nodes]), nsRole('b', 'reader', [secrets]), nsRole('a', 'bare')];
  const er = new EffectiveRoles(clusterRoles, roles);

  interface Case {
    reason: string;
    ref: RoleRef;
    namespace: string;
    want: ResolvedRole;
  }
  const cases: Record<string, Case> = {
    ClusterRoleFromRoleBinding: {
      reason: 'A RoleBinding may name a ClusterRole: its rules, with no namespace on the resolved role.',
      ref: ref('ClusterRole', 'edit'),
      namespace: 'a',
      want: {
        kind: 'ClusterRole',
        name: 'edit',
        found: true,
        aggregated: false,
        effective: [secrets],
        stored: [secrets],
        drift: false,
      },
    },
    RoleInBindingNamespace: {
      reason:
        "A Role is looked up in the binding's namespace (GetRoleReferenceRules: GetRole(bindingNamespace, name)).",
      ref: ref('Role', 'reader'),
      namespace: 'b',
      want: {
        kind: 'Role',
        name: 'reader',
        namespace: 'b',
        found: true,
        aggregated: false,
        effective: [secrets],
        stored: [secrets],
        drift: false,
      },
    },
    RoleOtherNamespace: {
      reason: 'A Role of the same name in another namespace is not the one referenced: nothing is granted.',
      ref: ref('Role', 'reader'),
      namespace: 'c',
      want: {
        kind: 'Role',
        name: 'reader',
        namespace: 'c',
        found: false,
        aggregated: false,
        effective: [],
        stored: [],
        drift: false,
      },
    },
    RoleWithoutRules: {
      reason: 'A Role with nil rules exists and grants nothing.',
      ref: ref('Role', 'bare'),
      namespace: 'a',
      want: {
        kind: 'Role',
        name: 'bare',
        namespace: 'a',
        found: true,
        aggregated: false,
        effective: [],
        stored: [],
        drift: false,
      },
    },
    UnknownKind: {
      reason: 'GetRoleReferenceRules refuses any kind but Role and ClusterRole: nothing is granted.',
      ref: ref('Group', 'reader'),
      namespace: 'a',
      want: {
        kind: 'Role',
        name: 'reader',
        namespace: 'a',
        found: false,
        aggregated: false,
        effective: [],
        stored: [],
        drift: false,
      },
    },
  };
  it.each(Object.entries(cases))('%s', (_name, c) => {
    expect(er.resolve(c.ref, c.namespace), c.reason).toStrictEqual(c.want);
  });

  it('keys Roles by namespace and name together', () => {
    // "a/b" + "c" and "a" + "b/c" must not collide; neither may a Role without a namespace and one in "".
    const tricky = new EffectiveRoles([], [nsRole('x', 'r', [pods])]);
    expect(tricky.resolve(ref('Role', 'r'), 'x').found).toBe(true);
    expect(tricky.resolve(ref('Role', 'r'), '').found).toBe(false);
    expect(tricky.resolve(ref('Role', 'x/r'), '').found).toBe(false);
    const noNamespace: Role = {
      apiVersion: `${RBAC}/v1`,
      kind: 'Role',
      metadata: { name: 'r' },
      rules: [pods],
    };
    const loose = new EffectiveRoles([], [noNamespace]);
    expect(loose.resolve(ref('Role', 'r'), '').effective).toStrictEqual([pods]);
    expect(loose.resolve(ref('Role', 'r'), 'x').found).toBe(false);
  });
});

describe('EffectiveRoles.isStored', () => {
  const sel = [{ matchLabels: { agg: 'true' } }];
  it('says every rule of a role without drift is stored', () => {
    const er = new EffectiveRoles([role('plain', {}, [pods])], []);
    // Without drift the stored rules are the effective ones; the question is only asked of effective rules.
    expect(er.isStored(er.clusterRole('plain'), pods)).toBe(true);
    expect(er.isStored(er.resolve(ref('Role', 'missing'), 'a'), secrets)).toBe(true);
  });

  it('tells the rules the controller has stored from those only its next sync will write', () => {
    const er = new EffectiveRoles(
      [
        role('a', { agg: 'true' }, [pods, secrets]),
        role('agg1', {}, [pods], sel),
        role('agg2', {}, [secrets], sel),
      ],
      [],
    );
    const agg1 = er.clusterRole('agg1');
    const agg2 = er.clusterRole('agg2');
    expect([agg1.drift, agg2.drift]).toStrictEqual([true, true]);
    expect(er.isStored(agg1, pods)).toBe(true);
    expect(er.isStored(agg1, secrets)).toBe(false);
    // Asked again, and of another drifting role: each role answers from its own stored rules.
    expect(er.isStored(agg1, pods)).toBe(true);
    expect(er.isStored(agg2, pods)).toBe(false);
    expect(er.isStored(agg2, secrets)).toBe(true);
    expect(er.isStored(agg1, secrets)).toBe(false);
    // Semantic equality: a copy of the rule with an empty resourceNames is the same rule.
    expect(er.isStored(agg1, { ...pods, resourceNames: [] })).toBe(true);
  });
});

describe('EffectiveRoles.chain', () => {
  interface Case {
    reason: string;
    roles: ClusterRole[];
    role: string;
    rule: PolicyRule;
    want: string[];
  }
  const cases: Record<string, Case> = {
    NotAggregated: {
      reason: 'A role without an aggregationRule holds its rules itself.',
      roles: [role('plain', {}, [pods])],
      role: 'plain',
      rule: pods,
      want: ['plain'],
    },
    MissingRole: {
      reason: 'A role that does not exist has no sources.',
      roles: [],
      role: 'gone',
      rule: pods,
      want: ['gone'],
    },
    OneHop: {
      reason: 'The selected role that holds the rule is its source.',
      roles: [
        role('src-a', { agg: 'true' }, [pods]),
        role('src-b', { agg: 'true' }, [secrets]),
        role('agg', {}, [], [{ matchLabels: { agg: 'true' } }]),
      ],
      role: 'agg',
      rule: secrets,
      want: ['agg', 'src-b'],
    },
    HolderAmongOtherRules: {
      reason: 'A source holds the rule among others.',
      roles: [
        role('src', { agg: 'true' }, [pods, secrets, nodes]),
        role('agg', {}, [], [{ matchLabels: { agg: 'true' } }]),
      ],
      role: 'agg',
      rule: secrets,
      want: ['agg', 'src'],
    },
    FirstByName: {
      reason:
        'The controller walks the matched roles sorted by name: the first holder in byte order is the source.',
      roles: [
        role('b', { agg: 'true' }, [pods]),
        role('a', { agg: 'true' }, [pods]),
        role('agg', {}, [], [{ matchLabels: { agg: 'true' } }]),
      ],
      role: 'agg',
      rule: pods,
      want: ['agg', 'a'],
    },
    FirstBySelector: {
      reason:
        'Selectors are walked in order before names: a holder of the first selector wins over an earlier name.',
      roles: [
        role('a', { second: 'true' }, [pods]),
        role('b', { first: 'true' }, [pods]),
        role('agg', {}, [], [{ matchLabels: { first: 'true' } }, { matchLabels: { second: 'true' } }]),
      ],
      role: 'agg',
      rule: pods,
      want: ['agg', 'b'],
    },
    LaterSelector: {
      reason: 'A rule only a later selector brings comes from that selector.',
      roles: [
        role('a', { second: 'true' }, [pods]),
        role('b', { first: 'true' }, [secrets]),
        role('agg', {}, [], [{ matchLabels: { first: 'true' } }, { matchLabels: { second: 'true' } }]),
      ],
      role: 'agg',
      rule: pods,
      want: ['agg', 'a'],
    },
    Nested: {
      reason: 'An aggregated source is followed to the role that holds the rule as its own.',
      roles: [
        role('leaf', { tier: 'leaf' }, [nodes]),
        role('mid', { tier: 'mid' }, [], [{ matchLabels: { tier: 'leaf' } }]),
        role('top', {}, [], [{ matchLabels: { tier: 'mid' } }]),
      ],
      role: 'top',
      rule: nodes,
      want: ['top', 'mid', 'leaf'],
    },
    SemanticallyEqual: {
      reason: 'Rules are matched as the controller compares them: nil and empty lists alike.',
      roles: [
        role('src', { agg: 'true' }, [{ ...pods, resourceNames: [], nonResourceURLs: [] }]),
        role('agg', {}, [], [{ matchLabels: { agg: 'true' } }]),
      ],
      role: 'agg',
      rule: pods,
      want: ['agg', 'src'],
    },
    NotGranted: {
      reason: 'A rule no selected role holds has no source.',
      roles: [
        role('src', { agg: 'true' }, [pods]),
        role('agg', {}, [nodes], [{ matchLabels: { agg: 'true' } }]),
      ],
      role: 'agg',
      rule: nodes,
      want: ['agg'],
    },
    Cycle: {
      reason:
        'Two roles that select each other pass a stored rule round for ever: the chain ends at the cycle.',
      roles: [
        role('c1', { ring: '1' }, [], [{ matchLabels: { ring: '2' } }]),
        role('c2', { ring: '2' }, [pods], [{ matchLabels: { ring: '1' } }]),
      ],
      role: 'c1',
      rule: pods,
      want: ['c1', 'c2'],
    },
  };
  it.each(Object.entries(cases))('%s', (_name, c) => {
    expect(new EffectiveRoles(c.roles, []).chain(c.role, c.rule), c.reason).toStrictEqual(c.want);
  });
});
