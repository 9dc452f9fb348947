import { describe, expect, it } from 'vitest';
import {
  formatChain,
  formatExplainDot,
  formatExplainMermaid,
  formatExplainTable,
  formatExplainTree,
  formatRuleShort,
} from '../../../src/cli/output/format-explain.js';
import { explainRole, type ExplainSnapshot } from '../../../src/explain/explain-role.js';
import type { ClusterRole } from '../../../src/kube/types.js';
import { role, rule } from '../explain/helpers.js';

const snap = (clusterRoles: ClusterRole[]): ExplainSnapshot => ({
  clusterRoles,
  clusterRoleBindings: [],
  roleBindings: [],
});

const roles = [
  role('top', {}, [], [{ matchLabels: { to: 'top' } }, { matchLabels: { none: 'x' } }]),
  role('mid', { to: 'top' }, [], [{ matchLabels: { kind: 'a' } }]),
  role('leaf-a', { kind: 'a' }, [
    rule('get', 'pods'),
    { apiGroups: ['apps'], resources: ['deployments'], verbs: ['delete'] },
  ]),
  role('p', { ring: 'q', to: 'top' }, [], [{ matchLabels: { ring: 'p' } }]),
  role('q', { ring: 'p' }, [], [{ matchLabels: { ring: 'q' } }]),
];
const ESC = '\u001b';

describe('format-explain', () => {
  it('TreeDrawsTheAggregation', () => {
    const text = formatExplainTree(explainRole('top', snap(roles)));
    expect(text.split('\n').slice(0, 6)).toStrictEqual([
      'top (aggregated, 2 rules) selector [1] matches nothing',
      '├─ [0] mid (aggregated, 2 rules)',
      '│  └─ [0] leaf-a (2 rules)',
      '└─ [0] p (aggregated, 0 rules)',
      '   └─ [0] q (aggregated, 0 rules)',
      '      └─ [0] p (aggregated, 0 rules) ↻ cycle',
    ]);
    expect(text).toContain('[1] none=x → matches nothing');
    expect(text).toContain('p ⇄ q');
    expect(text).toContain('drift: stored 0 rules, computed 2: 2 rules missing, 0 extra rules');
    expect(text).not.toContain(ESC);
  });

  it('TreeShowsAccessAndFeeds', () => {
    const e = explainRole('leaf-a', snap(roles), {
      for: { verb: 'delete', apiGroup: 'apps', resource: 'deployments' },
    });
    const text = formatExplainTree(e);
    expect(text).toContain('not aggregated');
    expect(text).toContain('feeds into:\n  mid\n  top (via mid)');
    expect(text).toContain('delete apps/deployments: allowed by 1 rule');
  });

  it('TreePutsTheAnswerAndItsRulesFirst', () => {
    const e = explainRole('top', snap(roles), {
      for: { verb: 'delete', apiGroup: 'apps', resource: 'deployments' },
    });
    expect(formatExplainTree(e).split('\n').slice(0, 4)).toStrictEqual([
      'delete apps/deployments: allowed by 1 rule',
      '  apps: deployments [delete]',
      '    from leaf-a →[0] mid →[0] top',
      '',
    ]);
  });

  // A provider role lists each resource of a family twice (Crossplane appends every member's resources).
  const many = Array.from({ length: 60 }, (_, i) => `kind${String(i).padStart(2, '0')}s`);
  const wideRoles = [
    role('wide', {}, [{ apiGroups: ['s3.aws.upbound.io'], resources: [...many, ...many], verbs: ['*'] }]),
  ];
  const asked = { for: { verb: 'delete', apiGroup: 's3.aws.upbound.io', resource: 'kind42s' } };

  it('RulesPrintEachResourceOnceAndFoldToTheTerminal', () => {
    const e = explainRole('wide', snap(wideRoles), asked);
    const piped = formatExplainTree(e).split('\n')[1] ?? '';
    expect(piped).toBe(`  s3.aws.upbound.io: ${many.join(',')} [*]`);
    const folded = formatExplainTree(e, undefined, 80).split('\n')[1] ?? '';
    expect(folded.length).toBeLessThanOrEqual(80);
    // The resource asked about stays in sight; the count says how many are not shown.
    const m = /^ {2}s3\.aws\.upbound\.io: (kind42s(?:,kind\d\ds)*) … and (\d+) more \[\*\]$/.exec(folded);
    expect(m, folded).not.toBeNull();
    expect((m?.[1] ?? '').split(',').length + Number(m?.[2])).toBe(60);
  });

  it('TableFitsTheTerminalAndWideStaysComplete', () => {
    const e = explainRole('wide', snap(wideRoles));
    for (const width of [60, 80, 120]) {
      const lines = formatExplainTable(e, false, true, width).trimEnd().split('\n');
      for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(width);
    }
    expect(formatExplainTable(e, false, true, 80)).toMatch(
      /^0\s+s3\.aws\.upbound\.io\s+\*\s+wide\s+kind00s,.* … and \d+ more$/m,
    );
    // Piped: complete, the long resource list last, so no column after it is padded to its width.
    const piped = formatExplainTable(e, false).trimEnd().split('\n');
    expect(piped[1]).toMatch(
      new RegExp(`^0\\s+s3\\.aws\\.upbound\\.io\\s+\\*\\s+wide\\s+${many.join(',')}$`),
    );
    expect(piped[0]).toMatch(/^#\s+API GROUPS\s+VERBS\s+SOURCE\s+RESOURCES$/);
    expect(piped[0]?.length).toBeLessThan(80);
    expect(formatExplainTable(e, true, true)).toContain(`${many.join(',')} `);
    expect(formatExplainTable(e, true, true)).not.toContain(`${many.join(',')},kind00s`);
  });

  it('TableHasNoColourAndOneRowPerRule', () => {
    const e = explainRole('top', snap(roles));
    const lines = formatExplainTable(e, false).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]?.split(/\s{2,}/)).toStrictEqual(['#', 'API GROUPS', 'VERBS', 'SOURCE', 'RESOURCES']);
    expect(lines[2]?.split(/\s{2,}/)).toStrictEqual(['1', 'apps', 'delete', 'leaf-a', 'deployments']);
    const wide = formatExplainTable(e, true);
    expect(wide).toContain('leaf-a →[0] mid →[0] top');
    expect(wide).not.toContain(ESC);
  });

  it('TableWithAccessThatNothingGrants', () => {
    const e = explainRole('top', snap(roles), {
      for: { verb: 'create', apiGroup: 'apps', resource: 'deployments' },
    });
    expect(formatExplainTable(e, false)).toContain('no rule of top grants create apps/deployments');
  });

  it('DotAndMermaid', () => {
    const e = explainRole('top', snap(roles));
    const dot = formatExplainDot(e);
    expect(dot).toMatch(/^digraph aggregation \{/);
    expect(dot).toContain('"mid" -> "top" [label="[0]"];');
    expect(dot).toContain('"p" -> "q" [label="[0]", style=dashed, color=orange];');
    expect(dot).toContain('label="leaf-a\\n2 rules"');
    const mermaid = formatExplainMermaid(e);
    expect(mermaid.split('\n')[0]).toBe('flowchart BT');
    expect(mermaid).toContain('n1 -->|"[0]"| n0');
    expect(mermaid).toContain('-.->');
  });

  it('RuleAndChainText', () => {
    expect(
      formatRuleShort({
        apiGroups: [''],
        resources: ['secrets'],
        resourceNames: ['a'],
        verbs: ['get', 'list'],
      }),
    ).toBe('core: secrets names=a [get list]');
    expect(formatRuleShort({ nonResourceURLs: ['/healthz'], verbs: ['get'] })).toBe('urls=/healthz [get]');
    expect(
      formatChain(
        {
          index: 0,
          rule: rule('get', 'x'),
          source: 'a',
          chain: [
            { role: 'a', selector: 2 },
            { role: 'b', selector: 0 },
          ],
        },
        'c',
      ),
    ).toBe('a →[2] b →[0] c');
  });
});

describe('a rule many roles carry', () => {
  const edit = { 'rbac.crossplane.io/aggregate-to-edit': 'true' };
  const bucketRule = rule('*', 'buckets', 's3.aws.upbound.io');
  const members = ['p-s3', 'p-acm', 'p-ec2', 'p-rds', 'p-iam'].map((n) => role(n, edit, [bucketRule]));
  const top = role('edit-top', {}, [], [{ matchLabels: edit }]);
  const ask = { verb: 'delete', apiGroup: 's3.aws.upbound.io', resource: 'buckets' };

  it('names every carrier: the first as the source, the others folded with their family', () => {
    const families = new Map(members.map((m) => [m.metadata.name, 'provider-family-aws']));
    const e = explainRole('edit-top', snap([top, ...members]), { for: ask, families });
    const p = e.access?.provenance[0];
    // The source is the controller's first (selector order, then name order); the other four are named, sorted.
    expect(p?.source).toBe('p-acm');
    expect(p?.sharedWith).toStrictEqual(['p-ec2', 'p-iam', 'p-rds', 'p-s3']);
    expect(p?.family).toBe('provider-family-aws');
    const tree = formatExplainTree(e);
    expect(tree).toContain(
      '    from p-acm →[0] edit-top\n    and 4 more roles of the provider-family-aws family: provider families share their rules\n',
    );
    expect(formatExplainTable(e, false)).toMatch(/\sp-acm \+4 more \(provider-family-aws\)\s/);
  });

  it('without a common family, up to three are named, more are counted', () => {
    const e = explainRole('edit-top', snap([top, ...members]), { for: ask });
    expect(e.access?.provenance[0]?.family).toBeUndefined();
    expect(formatExplainTree(e)).toContain(
      '    and p-ec2, p-iam and 2 more roles, which carry the same rule\n',
    );
    const three = explainRole('edit-top', snap([top, ...members.slice(0, 3)]), { for: ask });
    expect(formatExplainTree(three)).toContain('    and p-ec2, p-s3, which carry the same rule\n');
  });

  it('a rule only one role carries names no others', () => {
    const e = explainRole('edit-top', snap([top, members[0] as ClusterRole]), { for: ask });
    expect(e.access?.provenance[0]?.sharedWith).toBeUndefined();
    expect(JSON.stringify(e)).not.toContain('sharedWith');
  });
});
