// The HTML graph page as text: one file with nothing to load, no name in it as markup, and the layout's layers.
// How it renders, pans, zooms and searches is checked in a real browser (test/e2e/graph-browser.test.ts).
import { describe, expect, it } from 'vitest';
import { formatGraphHtml, layoutGraph, scriptJson } from '../../../src/cli/output/format-graph-html.js';
import { whoCanGraph } from '../../../src/cli/output/graph-model.js';
import type { WhoCanResult } from '../../../src/who-can/who-can.js';

const RULE = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };

function answer(names: readonly string[], podName?: string): WhoCanResult {
  return {
    request: {
      verb: 'get',
      apiGroup: '',
      resource: 'pods',
      namespace: 'team-a',
      ...(podName ? { name: podName } : {}),
    },
    resource: { kind: 'Pod', namespaced: true },
    allNamespaces: false,
    drift: [],
    subjects: names.map((name, i) => ({
      kind: 'User',
      name,
      always: false,
      paths: [
        {
          binding: { kind: 'ClusterRoleBinding', name: `b${String(i)}` },
          role: { kind: 'ClusterRole', name: 'view' },
          chain: ['view', 'aggregate-to-view'],
          rule: RULE,
          ruleIndex: 0,
          stored: true,
        },
      ],
    })),
  };
}

/** The JSON block's text, as the page script reads it. */
function dataBlock(html: string): string {
  return /<script type="application\/json" id="graph-data">([^<]*)<\/script>/.exec(html)?.[1] ?? '';
}

describe('graph as HTML', () => {
  const HOSTILE = [
    '</script><script>alert(1)</script>',
    '<img src=x onerror=alert(2)>',
    'line\u2028separator',
    'bidi\u202eoverride',
    '&amp; "quoted" \'single\'',
    'emoji 😀 日本',
  ];

  it('NoNameBecomesMarkup', () => {
    const html = formatGraphHtml(whoCanGraph(answer(HOSTILE, '<b>pod</b>')));
    // The two script elements are the page's own: the JSON block and the script.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html.match(/<\/script/g)).toHaveLength(2);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    const block = dataBlock(html);
    expect(block).toMatch(/^[\x20-\x7e]+$/);
    expect(block).not.toMatch(/[<>&]/);
    // The page title is the one text in the markup, escaped.
    expect(html).toContain(
      '<title>who-can get core/pods &#60;b&#62;pod&#60;/b&#62; in namespace team-a</title>',
    );
  });

  it('TheDataHoldsTheNamesAsTheTerminalShowsThem', () => {
    const html = formatGraphHtml(whoCanGraph(answer(HOSTILE)));
    const data = JSON.parse(dataBlock(html)) as { nodes: { id: string; lines: string[]; full: string }[] };
    const users = data.nodes.filter((n) => n.id.startsWith('User/')).map((n) => n.lines[1]);
    // Invisible and reordering characters are written as Go's strconv.Quote writes them (docs/reference/terminal-safety.md).
    expect(users).toStrictEqual([
      '</script><script>alert(1)</script>',
      '<img src=x onerror=alert(2)>',
      'line\\u2028separator',
      'bidi\\u202eoverride',
      '&amp; "quoted" \'single\'',
      'emoji 😀 日本',
    ]);
  });

  it('ScriptJsonEscapesAsJsonReadsBack', () => {
    const value = { s: '</script>\u2028\u2029<!--&😀\u0000"\\' };
    const text = scriptJson(value);
    expect(text).toBe(
      '{"s":"\\u003c/script\\u003e\\u2028\\u2029\\u003c!--\\u0026\\ud83d\\ude00\\u0000\\"\\\\"}',
    );
    expect(JSON.parse(text)).toStrictEqual(value);
  });

  it('LoadsNothing', () => {
    const html = formatGraphHtml(whoCanGraph(answer(['alice'])));
    // Its own policy forbids every load; nothing in it names a source to load from.
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">`,
    );
    expect(html).not.toMatch(/\b(src|href)\s*=/i);
    expect(html).not.toMatch(/@import|url\(\s*['"]?(?!#)/i);
    const urls = html.match(/https?:\/\/[^\s'"<>]+/g) ?? [];
    expect(new Set(urls)).toStrictEqual(new Set(['http://www.w3.org/2000/svg']));
  });
});

describe('layout', () => {
  it('LayersLeftToRightAndNoOverlap', () => {
    const layout = layoutGraph(whoCanGraph(answer(['alice', 'bob', 'carol'])));
    const byLayer = new Map<number, { x: number; y: number; h: number; id: string }[]>();
    for (const n of layout.nodes) byLayer.set(n.layer, [...(byLayer.get(n.layer) ?? []), n]);
    // subject, binding, role, aggregated from, rule.
    expect([...byLayer.keys()]).toStrictEqual([0, 1, 2, 3, 4]);
    expect(layout.columns.map((c) => c.title)).toStrictEqual([
      'subject',
      'binding',
      'role',
      'aggregated from',
      'rule',
    ]);
    const xs = [...byLayer.values()].map((nodes) => nodes[0]?.x ?? 0);
    expect(xs).toStrictEqual([...xs].sort((a, b) => a - b));
    for (const nodes of byLayer.values()) {
      expect(new Set(nodes.map((n) => n.x)).size).toBe(1);
      const sorted = [...nodes].sort((a, b) => a.y - b.y);
      sorted.slice(1).forEach((n, i) => {
        const above = sorted[i];
        expect(n.y, n.id).toBeGreaterThanOrEqual((above?.y ?? 0) + (above?.h ?? 0));
      });
    }
  });

  it('ANodeStandsBesideWhatLeadsToIt', () => {
    const layout = layoutGraph(whoCanGraph(answer(['alice', 'bob', 'carol'])));
    const centre = (id: string): number => {
      const n = layout.nodes.find((m) => m.id === id);
      return (n?.y ?? 0) + (n?.h ?? 0) / 2;
    };
    expect(centre('ClusterRoleBinding/b2')).toBe(centre('User/carol'));
    // The one role all three bindings lead to stands at their mean height.
    expect(centre('ClusterRole/view')).toBe(centre('ClusterRoleBinding/b1'));
  });
});
