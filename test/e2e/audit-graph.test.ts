/**
 * `audit -o dot|mermaid|html` through the real kubectl, on examples/cluster and examples/audit read with -f: the
 * paths as the graph view draws them. The DOT is read by real Graphviz (Debian's `dot`, where installed; its
 * WebAssembly build otherwise): every finding's subject, each step's edge (mechanism and trigger, from `-o json` of
 * the same run) and the capability must be drawn. The HTML page is opened in chromium (skipped, with the reason
 * printed, where none is installed: `apt-get install chromium`). DOT and Mermaid are also compared with goldens in
 * test/e2e/golden/ (UPDATE_GOLDEN=1 writes them).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, findOnPath, kubectl, repoRoot, tempDir } from './harness.js';

interface Finding {
  readonly capability: string;
  readonly subject: { kind: string; name: string; namespace?: string };
  readonly steps: readonly {
    mechanism: string;
    trigger: { verb: string; resource: string; namespace?: string; name?: string };
  }[];
}

const GOLDEN = join(repoRoot, 'test', 'e2e', 'golden');
const browserPath = ['chromium', 'chromium-browser', 'google-chrome'].map(findOnPath).find((p) => p);
if (browserPath === undefined) console.log('skipping audit -o html in chromium: no chromium on PATH');

async function audit(output: string): Promise<string> {
  const args = ['crossplane-rbac', 'audit', '-f', join(repoRoot, 'examples', 'cluster')];
  const r = await kubectl([...args, '-f', join(repoRoot, 'examples', 'audit'), '-o', output]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/** The SVG Graphviz draws of DOT: Debian's dot when installed, else its WebAssembly build. */
async function svgOf(dot: string): Promise<string> {
  if (findOnPath('dot') !== undefined)
    return execFileSync('dot', ['-Tsvg'], { input: dot, encoding: 'utf8' });
  return (await Graphviz.load()).dot(dot, 'svg');
}

function xmlText(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

function golden(name: string, text: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, text);
  expect(existsSync(file), `${file}: run with UPDATE_GOLDEN=1 to write it`).toBe(true);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

let findings: readonly Finding[];
let dot: string;

beforeAll(async () => {
  assertBuilt();
  findings = (JSON.parse(await audit('json')) as { findings: Finding[] }).findings;
  dot = await audit('dot');
}, 60_000);

const edgeLabel = (s: Finding['steps'][number]): string => {
  const t = s.trigger;
  const name = t.name !== undefined ? ` ${t.name}` : '';
  return `${s.mechanism}: ${t.verb} ${t.resource}${name}${t.namespace !== undefined ? ` -n ${t.namespace}` : ''}`;
};

describe('audit -o dot|mermaid', () => {
  it('Graphviz draws every finding: its subject, each step as a labelled edge, the capability', async () => {
    expect(findings.length).toBeGreaterThan(0);
    const svg = await svgOf(dot);
    const nodes = [...svg.matchAll(/<g id="node\d+" class="node">([\s\S]*?)<\/g>/g)].map((m) =>
      [...(m[1] ?? '').matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((t) => xmlText(t[1] ?? '')),
    );
    const edges = [...svg.matchAll(/<g id="edge\d+" class="edge">([\s\S]*?)<\/g>/g)].map((m) =>
      [...(m[1] ?? '').matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((t) => xmlText(t[1] ?? '')).join(''),
    );
    for (const f of findings) {
      const s = f.subject;
      expect(nodes).toContainEqual([s.kind, s.namespace !== undefined ? `${s.namespace}/${s.name}` : s.name]);
      expect(nodes.some((n) => n[0] === 'capability' && n[1] === f.capability)).toBe(true);
      for (const step of f.steps) expect(edges).toContain(edgeLabel(step));
    }
    expect(edges).toContain('holds');
  });

  it('matches the goldens', async () => {
    golden('audit-graph.dot', dot);
    golden('audit-graph.mmd', await audit('mermaid'));
  });
});

describe.skipIf(browserPath === undefined)('audit -o html in chromium', () => {
  it('draws every finding’s subject and capability, loading nothing', async () => {
    const file = join(tempDir('xrbac-audit-graph-'), 'audit.html');
    writeFileSync(file, await audit('html'));
    const browser = await chromium.launch({
      executablePath: browserPath ?? '',
      args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1600, height: 700 } });
      const requests: string[] = [];
      const errors: string[] = [];
      page.on('request', (req) => requests.push(req.url()));
      page.on('pageerror', (err) => errors.push(err.message));
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('#viewport .node');
      expect(errors).toStrictEqual([]);
      expect(requests).toStrictEqual([pathToFileURL(file).href]);
      expect(await page.textContent('#title')).toBe(`audit: ${String(findings.length)} findings`);
      const texts = await page.evaluate<string[][]>(
        `Array.from(document.querySelectorAll('#viewport .node'), (n) =>
          Array.from(n.querySelectorAll('text'), (t) => t.textContent))`,
      );
      for (const f of findings) {
        const s = f.subject;
        expect(texts).toContainEqual([
          s.kind,
          s.namespace !== undefined ? `${s.namespace}/${s.name}` : s.name,
        ]);
      }
      expect(texts).toContainEqual(['capability', 'cluster-admin', 'critical']);
      const titles = await page.evaluate<string[]>(
        `Array.from(document.querySelectorAll('svg text.column-title'), (t) => t.textContent)`,
      );
      expect(titles[0]).toBe('subject or identity');
      expect(titles[titles.length - 1]).toBe('capability');
      await page.screenshot({ path: join(tempDir('xrbac-audit-shot-'), 'audit.png') });
    } finally {
      await browser.close();
    }
  });
});
