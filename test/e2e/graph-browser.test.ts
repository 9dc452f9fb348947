/**
 * The HTML graph in a real browser: Debian's chromium, driven headless by playwright-core. The page is made by the
 * built plugin through kubectl (`who-can update compositions -f examples/cluster --converged -o html`) and opened from disk: it
 * must load nothing, draw the paths examples/cluster/20-crossplane.yaml declares (ClusterRoleBinding crossplane-admin
 * binds Group crossplane:masters to ClusterRole crossplane-admin, which aggregates crossplane:aggregate-to-admin,
 * whose rule grants `*` on apiextensions.crossplane.io/*), highlight what the search finds, zoom and pan, and show a
 * hostile name as text. The screenshot is written to docs/graph-who-can.png with UPDATE_SCREENSHOT=1 (docs/commands/explain-subject.md
 * shows it), to a temporary directory otherwise.
 *
 * Skipped, with the reason printed, where no chromium is installed (`apt-get install chromium`; or set CHROMIUM to
 * a Chromium or Chrome binary): playwright-core brings no browser of its own.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, kubectl, repoRoot, tempDir } from './harness.js';

function findBrowser(): string | undefined {
  const given = process.env.CHROMIUM;
  if (given !== undefined && given !== '') return given;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      if (dir !== '' && existsSync(join(dir, name))) return join(dir, name);
    }
  }
  return undefined;
}

const browserPath = findBrowser();
if (browserPath === undefined) {
  console.log(
    'skipping the HTML graph browser tests: no chromium on PATH (apt-get install chromium, or set CHROMIUM)',
  );
}

// What runs in the page is written as JavaScript text: this project's TypeScript has no DOM types.

/** The text lines of each element SELECTOR finds (each node's lines: kind, name, note). */
function texts(page: Page, selector = '#viewport .node'): Promise<string[][]> {
  return page.evaluate<string[][]>(
    `Array.from(document.querySelectorAll(${JSON.stringify(selector)}), (n) =>
      Array.from(n.querySelectorAll('text'), (t) => t.textContent))`,
  );
}

/** How many elements SELECTOR finds. */
function count(page: Page, selector: string): Promise<number> {
  return page.evaluate<number>(`document.querySelectorAll(${JSON.stringify(selector)}).length`);
}

const nodeTexts = (page: Page): Promise<string[][]> => texts(page);

async function transform(page: Page): Promise<string> {
  return (await page.getAttribute('#viewport', 'transform')) ?? '';
}

function scaleOf(t: string): number {
  return Number(/scale\(([^)]+)\)/.exec(t)?.[1] ?? 'NaN');
}

describe.skipIf(browserPath === undefined)('the HTML graph in chromium', () => {
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const errors: string[] = [];
  const dir = tempDir('xrbac-graph-');
  const file = join(dir, 'who-can.html');

  beforeAll(async () => {
    assertBuilt();
    const r = await kubectl([
      'crossplane-rbac',
      'who-can',
      'update',
      'compositions',
      '-f',
      join(repoRoot, 'examples', 'cluster'),
      // The aggregation hop to crossplane:aggregate-to-admin is drawn by the convergence view.
      '--converged',
      '-o',
      'html',
    ]);
    expect(r.code, r.stderr).toBe(0);
    writeFileSync(file, r.stdout);
    browser = await chromium.launch({
      executablePath: browserPath ?? '',
      // Chromium's sandbox refuses to start as root (as in a container); the page is our own file.
      args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    });
    page = await browser.newPage({ viewport: { width: 1600, height: 560 } });
    page.on('request', (req) => requests.push(req.url()));
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('#viewport .node');
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('renders every path, loading nothing', async () => {
    expect(errors).toStrictEqual([]);
    expect(requests).toStrictEqual([pathToFileURL(file).href]);
    expect(await page.textContent('#title')).toBe('who-can update apiextensions.crossplane.io/compositions');
    const texts = await nodeTexts(page);
    for (const lines of [
      ['Group', 'system:masters', 'allowed before RBAC is asked'],
      ['Group', 'crossplane:masters'],
      ['ClusterRoleBinding', 'crossplane-admin'],
      ['ClusterRole', 'crossplane-admin'],
      ['ClusterRole', 'crossplane:aggregate-to-admin'],
      ['rule', '* apiextensions.crossplane.io/*'],
    ]) {
      expect(texts).toContainEqual(lines);
    }
    expect(
      await page.evaluate<string[]>(
        `Array.from(document.querySelectorAll('svg text.column-title'), (t) => t.textContent)`,
      ),
    ).toStrictEqual(['subject', 'binding', 'role', 'aggregated from', 'rule']);
    // Each edge is drawn, and every name fits inside its box.
    expect(await count(page, '#viewport .edge path')).toBeGreaterThanOrEqual(9);
    const clipped = await page.evaluate<number>(
      `Array.from(document.querySelectorAll('#viewport .node')).filter((n) => {
        const width = Number(n.querySelector('rect').getAttribute('width'));
        return Array.from(n.querySelectorAll('text')).some((t) => t.getComputedTextLength() + 10 > width);
      }).length`,
    );
    expect(clipped).toBe(0);
  });

  it('search highlights the matching node and dims the rest', async () => {
    await page.fill('#search', 'aggregate-to-admin');
    expect(await texts(page, '#viewport .node.match')).toStrictEqual([
      ['ClusterRole', 'crossplane:aggregate-to-admin'],
    ]);
    expect(await page.textContent('#count')).toBe('1 match');
    expect(await count(page, '#viewport .node.dim')).toBe((await nodeTexts(page)).length - 1);
    // The match's border is the highlight colour.
    const stroke = await page.evaluate<string>(
      `getComputedStyle(document.querySelector('#viewport .node.match rect')).stroke`,
    );
    expect(stroke).toBe('rgb(234, 88, 12)');
    await page.fill('#search', '');
    expect(await count(page, '#viewport .node.match, #viewport .node.dim')).toBe(0);
  });

  it('zooms with the buttons and the wheel, and pans by dragging', async () => {
    const before = await transform(page);
    await page.click('#zoom-in');
    const zoomed = await transform(page);
    expect(scaleOf(zoomed)).toBeCloseTo(scaleOf(before) * 1.25, 5);
    await page.mouse.move(800, 300);
    await page.mouse.wheel(0, 400);
    expect(scaleOf(await transform(page))).toBeLessThan(scaleOf(zoomed));
    const beforeDrag = await transform(page);
    await page.mouse.move(700, 300);
    await page.mouse.down();
    await page.mouse.move(600, 250, { steps: 5 });
    await page.mouse.up();
    const dragged = await transform(page);
    expect(dragged).not.toBe(beforeDrag);
    expect(scaleOf(dragged)).toBe(scaleOf(beforeDrag));
    await page.click('#fit');
  });

  it('a clicked node lights the paths through it', async () => {
    await page.click('#viewport .node.binding >> nth=0');
    expect(await count(page, '#viewport .edge.lit')).toBeGreaterThanOrEqual(3);
    await page.keyboard.press('Escape');
    expect(await count(page, '#viewport .edge.lit, #viewport .dim')).toBe(0);
  });

  it('the screenshot shows the nodes', async () => {
    // As high as the graph needs, fitted.
    await page.setViewportSize({ width: 1600, height: 330 });
    await page.click('#fit');
    const out =
      process.env.UPDATE_SCREENSHOT === '1'
        ? join(repoRoot, 'docs', 'graph-who-can.png')
        : join(dir, 'graph.png');
    await page.screenshot({ path: out });
    const png = readFileSync(out);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(png.length).toBeGreaterThan(20_000);
    // Every node is inside the window once fitted.
    const outside = await page.evaluate<number>(
      `Array.from(document.querySelectorAll('#viewport .node')).filter((n) => {
        const b = n.getBoundingClientRect();
        return b.left < 0 || b.top < 0 || b.right > window.innerWidth || b.bottom > window.innerHeight;
      }).length`,
    );
    expect(outside).toBe(0);
  });

  it('a hostile name is text, not markup', async () => {
    const hostile = '</script><img src=x onerror="window.pwned=1">';
    const input = join(dir, 'hostile.yaml');
    writeFileSync(
      input,
      [
        'apiVersion: rbac.authorization.k8s.io/v1',
        'kind: ClusterRole',
        'metadata: {name: reader}',
        'rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]',
        '---',
        'apiVersion: rbac.authorization.k8s.io/v1',
        'kind: ClusterRoleBinding',
        'metadata: {name: readers}',
        'roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: reader}',
        `subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: ${JSON.stringify(hostile)}}]`,
        '',
      ].join('\n'),
    );
    const r = await kubectl(['crossplane-rbac', 'who-can', 'get', 'pods', '-f', input, '-o', 'html']);
    expect(r.code, r.stderr).toBe(0);
    const file2 = join(dir, 'hostile.html');
    writeFileSync(file2, r.stdout);
    const other = await browser.newPage();
    const loads: string[] = [];
    other.on('request', (req) => loads.push(req.url()));
    await other.goto(pathToFileURL(file2).href);
    await other.waitForSelector('#viewport .node');
    expect(await other.evaluate<string>('typeof window.pwned')).toBe('undefined');
    expect(await count(other, 'img')).toBe(0);
    expect(await nodeTexts(other)).toContainEqual(['Group', hostile]);
    expect(loads).toStrictEqual([pathToFileURL(file2).href]);
    await other.close();
  });

  it('audit: labels of edges between the same two nodes do not overlap', async () => {
    // examples/audit: crossplane-edit leads to Crossplane's account by two steps (compose- and operate-as-crossplane).
    const r = await kubectl([
      'crossplane-rbac',
      'audit',
      '-f',
      join(repoRoot, 'examples', 'cluster'),
      '-f',
      join(repoRoot, 'examples', 'audit'),
      '-o',
      'html',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const file3 = join(dir, 'audit.html');
    writeFileSync(file3, r.stdout);
    const other = await browser.newPage({ viewport: { width: 1600, height: 560 } });
    await other.goto(pathToFileURL(file3).href);
    await other.waitForSelector('#viewport .node');
    const labels = await other.evaluate<{ text: string; box: number[] }[]>(
      `Array.from(document.querySelectorAll('#viewport .edge text'), (t) => {
        const b = t.getBoundingClientRect();
        return { text: t.textContent, box: [b.left, b.top, b.right, b.bottom] };
      })`,
    );
    expect(labels.map((l) => l.text)).toContain(
      'compose-as-crossplane: create compositions.apiextensions.crossplane.io',
    );
    expect(labels.map((l) => l.text)).toContain('operate-as-crossplane: create operations.ops.crossplane.io');
    const overlapping = labels.flatMap((a, i) =>
      labels
        .slice(i + 1)
        .filter(
          (b) =>
            (a.box[0] ?? 0) < (b.box[2] ?? 0) &&
            (b.box[0] ?? 0) < (a.box[2] ?? 0) &&
            (a.box[1] ?? 0) < (b.box[3] ?? 0) &&
            (b.box[1] ?? 0) < (a.box[3] ?? 0),
        )
        .map((b) => `${a.text ?? ''} / ${b.text ?? ''}`),
    );
    await other.screenshot({ path: join(dir, 'audit.png') });
    expect(overlapping).toStrictEqual([]);
    await other.close();
  });
});
