// explain's three modes are modules of their own, each loaded when its mode runs: the built binary, run through real
// kubectl with a module-loading hook of Node's (module.register, given by NODE_OPTIONS) that logs every file Node
// loads, must load the role's explanation for `explain ROLE` and never the subject's or the matrix's (nor their
// printers); and the other way round. What a loaded file holds is read from the file itself: the bundle keeps every
// function's name (esbuild's keepNames writes it as a string), so a chunk that defines explainSubject says so.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, kubectl, repoRoot, tempDir } from './harness.js';

const EXAMPLES = join(repoRoot, 'examples', 'cluster');

/** The functions whose definitions tell which mode's code a file holds: the explanations and their printers. */
const MARKERS = {
  roleExplanation: 'explainRole',
  roleTree: 'formatExplainTree',
  subjectExplanation: 'explainSubject',
  subjectText: 'formatSubjectText',
  whyNot: 'reasons',
  matrix: 'accessMatrix',
  matrixTable: 'formatMatrix',
} as const;
type Marker = keyof typeof MARKERS;

let hookDir = '';

beforeAll(() => {
  assertBuilt();
  hookDir = tempDir('xrbac-module-log-');
  writeFileSync(
    join(hookDir, 'register.mjs'),
    "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
  );
  writeFileSync(
    join(hookDir, 'hooks.mjs'),
    [
      "import { appendFileSync } from 'node:fs';",
      'export async function load(url, context, next) {',
      '  appendFileSync(process.env.XRBAC_MODULE_LOG, `${url}\\n`);',
      '  return next(url, context);',
      '}',
      '',
    ].join('\n'),
  );
});

/** Runs ARGS and returns the markers of the bundle's files it loaded. */
async function loadedMarkers(args: readonly string[]): Promise<Set<Marker>> {
  const log = join(hookDir, `log-${String(Date.now())}-${String(Math.random()).slice(2)}`);
  writeFileSync(log, '');
  const r = await kubectl(['crossplane-rbac', ...args, '-f', EXAMPLES], {
    env: {
      XRBAC_MODULE_LOG: log,
      NODE_OPTIONS: `--import=${pathToFileURL(join(hookDir, 'register.mjs')).href}`,
    },
  });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const files = readFileSync(log, 'utf8')
    .split('\n')
    .filter((u) => u.startsWith('file:') && u.includes('/dist/bin/'))
    .map((u) => readFileSync(fileURLToPath(u), 'utf8'));
  expect(files.length, 'the hook saw the bundle load').toBeGreaterThan(1);
  const found = new Set<Marker>();
  for (const [marker, name] of Object.entries(MARKERS) as [Marker, string][]) {
    if (files.some((f) => f.includes(`"${name}"`))) found.add(marker);
  }
  return found;
}

describe('explain loads only the mode it runs', () => {
  it('explain ROLE: the role explanation and its tree, nothing of --subject or --matrix', async () => {
    expect([...(await loadedMarkers(['explain', 'crossplane-edit']))].sort()).toEqual([
      'roleExplanation',
      'roleTree',
    ]);
  });

  it('explain --subject: the subject explanation, its reasons and its text, nothing of a role or the matrix', async () => {
    const found = await loadedMarkers(['explain', '--subject', 'Group:crossplane:masters']);
    expect([...found].sort()).toEqual(['subjectExplanation', 'subjectText', 'whyNot']);
  });

  it('explain --subject --matrix: the matrix and its table, nothing of a role or the subject explanation', async () => {
    const found = await loadedMarkers(['explain', '--subject', 'Group:crossplane:masters', '--matrix']);
    expect([...found].sort()).toEqual(['matrix', 'matrixTable']);
  });
});
