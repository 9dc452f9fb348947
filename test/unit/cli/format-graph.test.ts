// who-can's and explain --subject's graphs as DOT and Mermaid: hand-written expectations for a small answer, and
// names that try to break out of the syntax. Every DOT output is also read by real Graphviz (its WebAssembly build,
// @hpcc-js/wasm-graphviz, a devDependency): the SVG it draws must show each label line exactly as expected, so a
// name can neither end a quoted string nor become one of Graphviz's `\N`/`\G`/`\l` escapes.
import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatGraphDot, formatGraphMermaid } from '../../../src/cli/output/format-graph.js';
import { subjectGraph, whoCanGraph } from '../../../src/cli/output/graph-model.js';
import type { SubjectExplanation } from '../../../src/explain/explain-subject.js';
import type { WhoCanResult } from '../../../src/who-can/who-can.js';

const BUCKETS = { verbs: ['*'], apiGroups: ['s3.aws.upbound.io'], resources: ['buckets'] };

/** Three subjects: system:masters, a group through a RoleBinding whose role lags, Crossplane's account. */
const SMALL: WhoCanResult = {
  request: { verb: 'delete', apiGroup: 's3.aws.upbound.io', resource: 'buckets', namespace: 'team-a' },
  resource: { kind: 'Bucket', namespaced: false },
  allNamespaces: false,
  drift: ['edit'],
  subjects: [
    { kind: 'Group', name: 'system:masters', always: true, paths: [] },
    {
      kind: 'Group',
      name: 'team-a-devs',
      always: false,
      paths: [
        {
          binding: { kind: 'RoleBinding', name: 'devs', namespace: 'team-a' },
          role: { kind: 'ClusterRole', name: 'edit' },
          chain: ['edit', 'aggregate-to-edit'],
          rule: BUCKETS,
          ruleIndex: 0,
          stored: false,
        },
      ],
    },
    {
      kind: 'ServiceAccount',
      name: 'crossplane',
      namespace: 'crossplane-system',
      always: false,
      paths: [
        {
          binding: { kind: 'ClusterRoleBinding', name: 'crossplane' },
          role: { kind: 'ClusterRole', name: 'crossplane' },
          chain: ['crossplane', 'aggregate-to-edit'],
          rule: BUCKETS,
          ruleIndex: 3,
          stored: true,
        },
      ],
    },
  ],
};

const DOT_HEAD = [
  'digraph rbac {',
  '  rankdir=LR;',
  '  label="who-can delete s3.aws.upbound.io/buckets in namespace team-a";',
  '  labelloc=t;',
  '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=11];',
  '  edge [color="#6b7280", fontname="Helvetica", fontsize=9];',
];
const SUBJECT = 'fillcolor="#dbeafe", color="#1d4ed8"';
const BINDING = 'fillcolor="#e5e7eb", color="#4b5563"';
const ROLE = 'fillcolor="#dcfce7", color="#15803d"';
const SOURCE = 'fillcolor="#f0fdf4", color="#65a30d"';
const RULE = 'fillcolor="#fef9c3", color="#a16207", shape=note, style=filled';
const CLASSDEFS = [
  '  classDef subject fill:#dbeafe,stroke:#1d4ed8;',
  '  classDef binding fill:#e5e7eb,stroke:#4b5563;',
  '  classDef role fill:#dcfce7,stroke:#15803d;',
  '  classDef source fill:#f0fdf4,stroke:#65a30d;',
  '  classDef rule fill:#fef9c3,stroke:#a16207;',
];

let graphviz: Graphviz;
beforeAll(async () => {
  graphviz = await Graphviz.load();
});

/** The SVG's text, as XML reads it back (Graphviz writes `-` as &#45;). */
function xmlText(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Each node Graphviz drew: the lines of its label, in order. */
function drawnLabels(dot: string): string[][] {
  const svg = graphviz.dot(dot, 'svg');
  return [...svg.matchAll(/<g id="node\d+" class="node">([\s\S]*?)<\/g>/g)].map((m) =>
    [...(m[1] ?? '').matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((t) => xmlText(t[1] ?? '')),
  );
}

describe('graph as DOT', () => {
  it('SmallWhoCan', () => {
    expect(formatGraphDot(whoCanGraph(SMALL)).split('\n')).toStrictEqual([
      ...DOT_HEAD,
      `  "Group/system:masters" [label="Group\\nsystem:masters\\nallowed before RBAC is asked", ${SUBJECT}];`,
      `  "Group/team-a-devs" [label="Group\\nteam-a-devs", ${SUBJECT}];`,
      `  "RoleBinding/team-a/devs" [label="RoleBinding\\nteam-a/devs", ${BINDING}];`,
      `  "ClusterRole/edit" [label="ClusterRole\\nedit", ${ROLE}];`,
      `  "ClusterRole/aggregate-to-edit" [label="ClusterRole\\naggregate-to-edit", ${SOURCE}];`,
      `  "ClusterRole/aggregate-to-edit/rule-1" [label="rule\\n* s3.aws.upbound.io/buckets", ${RULE}, tooltip="* s3.aws.upbound.io/buckets"];`,
      `  "ServiceAccount/crossplane-system/crossplane" [label="ServiceAccount\\ncrossplane-system/crossplane", ${SUBJECT}];`,
      `  "ClusterRoleBinding/crossplane" [label="ClusterRoleBinding\\ncrossplane", ${BINDING}];`,
      `  "ClusterRole/crossplane" [label="ClusterRole\\ncrossplane", ${ROLE}];`,
      '  "Group/team-a-devs" -> "RoleBinding/team-a/devs";',
      '  "RoleBinding/team-a/devs" -> "ClusterRole/edit";',
      '  "ClusterRole/edit" -> "ClusterRole/aggregate-to-edit" [label="not stored yet", style=dashed];',
      '  "ClusterRole/aggregate-to-edit" -> "ClusterRole/aggregate-to-edit/rule-1";',
      '  "ServiceAccount/crossplane-system/crossplane" -> "ClusterRoleBinding/crossplane";',
      '  "ClusterRoleBinding/crossplane" -> "ClusterRole/crossplane";',
      '  "ClusterRole/crossplane" -> "ClusterRole/aggregate-to-edit";',
      '}',
      '',
    ]);
  });

  it('GraphvizDrawsEveryNodeOnce', () => {
    const labels = drawnLabels(formatGraphDot(whoCanGraph(SMALL)));
    expect(labels).toHaveLength(9);
    expect(labels).toContainEqual(['rule', '* s3.aws.upbound.io/buckets']);
    expect(labels).toContainEqual(['Group', 'system:masters', 'allowed before RBAC is asked']);
  });

  it('NamesCannotBreakTheSyntax', () => {
    const hostile: WhoCanResult = {
      ...SMALL,
      subjects: [
        {
          kind: 'Group',
          // A quote, a backslash before Graphviz's node-name escape, and one before the closing quote.
          name: 'dev"s\\N\\',
          always: false,
          paths: [
            {
              binding: { kind: 'ClusterRoleBinding', name: 'b\\l' },
              role: { kind: 'ClusterRole', name: 'a\\"b' },
              chain: ['a\\"b'],
              rule: BUCKETS,
              ruleIndex: 0,
              stored: true,
            },
          ],
        },
        // An OSC sequence that would retitle a terminal the graph is printed on.
        { kind: 'User', name: 'esc\u001b]0;pwned\u0007', always: false, paths: [] },
      ],
    };
    const dot = formatGraphDot(whoCanGraph(hostile));
    expect(dot.split('\n').slice(6, -1)).toStrictEqual([
      `  "Group/dev\\"s\\\\\\\\N\\\\\\\\" [label="Group\\ndev\\"s\\\\N\\\\", ${SUBJECT}];`,
      `  "ClusterRoleBinding/b\\\\\\\\l" [label="ClusterRoleBinding\\nb\\\\l", ${BINDING}];`,
      `  "ClusterRole/a\\\\\\\\\\"b" [label="ClusterRole\\na\\\\\\"b", ${ROLE}];`,
      `  "ClusterRole/a\\\\\\\\\\"b/rule-1" [label="rule\\n* s3.aws.upbound.io/buckets", ${RULE}, tooltip="* s3.aws.upbound.io/buckets"];`,
      `  "User/esc\\\\x1b]0;pwned\\\\a" [label="User\\nesc\\\\x1b]0;pwned\\\\a", ${SUBJECT}];`,
      '  "Group/dev\\"s\\\\\\\\N\\\\\\\\" -> "ClusterRoleBinding/b\\\\\\\\l";',
      '  "ClusterRoleBinding/b\\\\\\\\l" -> "ClusterRole/a\\\\\\\\\\"b";',
      '  "ClusterRole/a\\\\\\\\\\"b" -> "ClusterRole/a\\\\\\\\\\"b/rule-1";',
      '}',
    ]);
    expect(dot).not.toContain('\u001b');
    // Graphviz reads five nodes, each label exactly as the terminal output shows the name.
    expect(drawnLabels(dot)).toStrictEqual([
      ['Group', 'dev"s\\N\\'],
      ['ClusterRoleBinding', 'b\\l'],
      ['ClusterRole', 'a\\"b'],
      ['rule', '* s3.aws.upbound.io/buckets'],
      ['User', 'esc\\x1b]0;pwned\\a'],
    ]);
  });

  it('LongRulesAreCutOnTheNodeAndWholeInTheTooltip', () => {
    const resources = Array.from({ length: 30 }, (_v, i) => `resource${String(i)}`);
    const long: WhoCanResult = {
      ...SMALL,
      subjects: [
        {
          kind: 'User',
          name: 'alice',
          always: false,
          paths: [
            {
              binding: { kind: 'ClusterRoleBinding', name: 'b' },
              role: { kind: 'ClusterRole', name: 'r' },
              chain: ['r'],
              rule: { verbs: ['get'], apiGroups: ['g'], resources },
              ruleIndex: 0,
              stored: true,
            },
          ],
        },
      ],
    };
    const whole = `get g/${resources.join(',')}`;
    const dot = formatGraphDot(whoCanGraph(long));
    expect(dot).toContain(`tooltip="${whole}"`);
    const shown = drawnLabels(dot).find((l) => l[0] === 'rule')?.[1] ?? '';
    expect(Array.from(shown)).toHaveLength(80);
    expect(shown).toBe(`${whole.slice(0, 79)}…`);
  });
});

describe('graph as Mermaid', () => {
  it('SmallWhoCan', () => {
    expect(formatGraphMermaid(whoCanGraph(SMALL)).split('\n')).toStrictEqual([
      'flowchart LR',
      '  %% who-can delete s3.aws.upbound.io/buckets in namespace team-a',
      '  n0["Group<br/>system:masters<br/>allowed before RBAC is asked"]:::subject;',
      '  n1["Group<br/>team-a-devs"]:::subject;',
      '  n2["RoleBinding<br/>team-a/devs"]:::binding;',
      '  n3["ClusterRole<br/>edit"]:::role;',
      '  n4["ClusterRole<br/>aggregate-to-edit"]:::source;',
      '  n5["rule<br/>* s3.aws.upbound.io/buckets"]:::rule;',
      '  n6["ServiceAccount<br/>crossplane-system/crossplane"]:::subject;',
      '  n7["ClusterRoleBinding<br/>crossplane"]:::binding;',
      '  n8["ClusterRole<br/>crossplane"]:::role;',
      '  n1 --> n2;',
      '  n2 --> n3;',
      '  n3 -.->|"not stored yet"| n4;',
      '  n4 --> n5;',
      '  n6 --> n7;',
      '  n7 --> n8;',
      '  n8 --> n4;',
      ...CLASSDEFS,
      '',
    ]);
  });

  it('NamesAreEntityCodes', () => {
    // Mermaid turns `#NN;` into `&#NN;` (mermaid-js/mermaid packages/mermaid/src/utils.ts
    // @df032c942c32f805a7f4cd1cf30a565e610bc4f1 encodeEntities/decodeEntities; documented in
    // packages/mermaid/src/docs/syntax/flowchart.md, "Entity codes to escape characters"): a quote cannot end the
    // label, markup stays text, `%%{` cannot start a directive, a `#quot;` in a name is shown as written.
    const names = [
      'x"]; click n0 call alert()',
      '</b><img src=x onerror=alert(1)>',
      '%%{init: {}}%% #quot; `md`',
    ];
    const graph = whoCanGraph({
      ...SMALL,
      subjects: names.map((name) => ({ kind: 'Group', name, always: false, paths: [] })),
    });
    expect(formatGraphMermaid(graph).split('\n').slice(1, 5)).toStrictEqual([
      '  %% who-can delete s3.aws.upbound.io/buckets in namespace team-a',
      '  n0["Group<br/>x#34;]; click n0 call alert()"]:::subject;',
      '  n1["Group<br/>#60;/b#62;#60;img src=x onerror=alert(1)#62;"]:::subject;',
      '  n2["Group<br/>#37;#37;{init: {}}#37;#37; #35;quot; #96;md#96;"]:::subject;',
    ]);
  });
});

describe('explain --subject as a graph', () => {
  const explanation = (access: SubjectExplanation['access']): SubjectExplanation => ({
    subject: { kind: 'User', name: 'alice' },
    user: { name: 'alice', groups: ['team-a-devs', 'system:authenticated'] },
    namespace: 'team-a',
    bindings: [
      {
        binding: { kind: 'RoleBinding', name: 'devs', namespace: 'team-a' },
        via: [{ kind: 'Group', name: 'team-a-devs', apiGroup: 'rbac.authorization.k8s.io' }],
        role: { kind: 'ClusterRole', name: 'edit', found: true, aggregated: true, drift: false },
        rules: [
          { rule: BUCKETS, chain: ['edit', 'aggregate-to-edit'], stored: true },
          {
            rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
            chain: ['edit', 'pods'],
            stored: true,
          },
        ],
      },
      {
        binding: { kind: 'ClusterRoleBinding', name: 'gone' },
        via: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }],
        role: { kind: 'ClusterRole', name: 'missing', found: false, aggregated: false, drift: false },
        rules: [],
      },
    ],
    access,
  });

  it('EveryRuleWithoutARequest', () => {
    expect(formatGraphDot(subjectGraph(explanation(null))).split('\n')).toStrictEqual([
      'digraph rbac {',
      '  rankdir=LR;',
      '  label="explain --subject User:alice (namespace team-a and cluster-wide)";',
      ...DOT_HEAD.slice(3),
      `  "User/alice" [label="User\\nalice", ${SUBJECT}];`,
      `  "RoleBinding/team-a/devs" [label="RoleBinding\\nteam-a/devs", ${BINDING}];`,
      `  "ClusterRole/edit" [label="ClusterRole\\nedit\\naggregated", ${ROLE}];`,
      `  "ClusterRole/aggregate-to-edit" [label="ClusterRole\\naggregate-to-edit", ${SOURCE}];`,
      `  "ClusterRole/aggregate-to-edit/rule-1" [label="rule\\n* s3.aws.upbound.io/buckets", ${RULE}, tooltip="* s3.aws.upbound.io/buckets"];`,
      `  "ClusterRole/pods" [label="ClusterRole\\npods", ${SOURCE}];`,
      `  "ClusterRole/pods/rule-1" [label="rule\\nget core/pods", ${RULE}, tooltip="get core/pods"];`,
      `  "ClusterRoleBinding/gone" [label="ClusterRoleBinding\\ngone", ${BINDING}];`,
      `  "ClusterRole/missing" [label="ClusterRole\\nmissing\\nnot found: grants nothing", ${ROLE}];`,
      '  "User/alice" -> "RoleBinding/team-a/devs" [label="via Group team-a-devs"];',
      '  "RoleBinding/team-a/devs" -> "ClusterRole/edit";',
      '  "ClusterRole/edit" -> "ClusterRole/aggregate-to-edit";',
      '  "ClusterRole/aggregate-to-edit" -> "ClusterRole/aggregate-to-edit/rule-1";',
      '  "ClusterRole/edit" -> "ClusterRole/pods";',
      '  "ClusterRole/pods" -> "ClusterRole/pods/rule-1";',
      '  "User/alice" -> "ClusterRoleBinding/gone";',
      '  "ClusterRoleBinding/gone" -> "ClusterRole/missing";',
      '}',
      '',
    ]);
  });

  it('WithARequestOnlyTheGrantingRules', () => {
    const request = {
      verb: 'delete',
      apiGroup: 's3.aws.upbound.io',
      resource: 'buckets',
      namespace: 'team-a',
    };
    const graph = subjectGraph(
      explanation({
        request,
        allowed: true,
        privileged: false,
        grants: [
          {
            rule: BUCKETS,
            chain: ['edit', 'aggregate-to-edit'],
            stored: true,
            binding: { kind: 'RoleBinding', name: 'devs', namespace: 'team-a' },
            role: { kind: 'ClusterRole', name: 'edit' },
          },
        ],
        whyNot: [],
      }),
    );
    expect(graph.title).toBe(
      'explain --subject User:alice (namespace team-a and cluster-wide): delete s3.aws.upbound.io/buckets in namespace team-a: allowed',
    );
    expect(graph.nodes.filter((n) => n.column === 'rule').map((n) => n.name)).toStrictEqual([
      '* s3.aws.upbound.io/buckets',
    ]);
    // The bindings are all drawn, the one that grants nothing too.
    expect(graph.nodes.filter((n) => n.column === 'binding').map((n) => n.id)).toStrictEqual([
      'RoleBinding/team-a/devs',
      'ClusterRoleBinding/gone',
    ]);
    expect(drawnLabels(formatGraphDot(graph))).toHaveLength(7);
  });
});
