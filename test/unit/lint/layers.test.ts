// The layer rule of eslint.config.js (ARCHITECTURE.md's map) must see every import: static imports, and the
// `import()` expressions the commands use for lazy loading. Each probe is linted as if it were the named file of
// src/: a forbidden import must be reported, an allowed one must not.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
// The repository's own config, run for the two rules the layers are made of. Both read the syntax tree alone, so
// the probes are parsed without type information: with it, the parser built the TypeScript program of the whole
// repository and the type-aware rules checked it, which `npm run lint` does anyway (measured 2026-11-28, this file
// alone: 13.1 -> 2.7 CPU-s).
const LAYER_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => LAYER_RULES.has(ruleId),
});

/** The messages of the layer rules for TEXT linted as the file at REL (an existing file of src/). */
async function layerMessages(rel: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: join(root, rel) });
  // A probe that does not parse would have no rule's message: a pass for the allowed imports that proves nothing.
  const fatal = (result?.messages ?? []).filter((m) => m.fatal === true);
  if (fatal.length > 0) throw new Error(`${rel}: ${fatal.map((m) => m.message).join('; ')}`);
  return (result?.messages ?? [])
    .filter((m) => m.ruleId !== null && LAYER_RULES.has(m.ruleId))
    .map((m) => m.message);
}

describe('the layer rule sees every import', () => {
  const cases: Record<string, { file: string; text: string; want: RegExp | undefined; reason: string }> = {
    ErrorsImportNoLayer: {
      file: 'src/errors.ts',
      text: "import { readInput } from './app/read-input.js';\nexport const x = readInput;\n",
      want: /src\/errors.ts and src\/escape.ts sit below every layer: they must not import src\/app/,
      reason:
        'errors.ts is below every layer (the core throws its errors): an import of app/ would climb back up',
    },
    EscapeDoesNoIo: {
      file: 'src/escape.ts',
      text: "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
      want: /the core is pure: no I\/O/,
      reason: 'the escaping below every layer is pure, as the core that uses it',
    },
    ErrorsMayImportEscape: {
      file: 'src/errors.ts',
      text: "import { escapeTerminal } from './escape.js';\nexport const x = escapeTerminal;\n",
      want: undefined,
      reason: 'the two files below every layer may import each other',
    },
    StaticUpward: {
      file: 'src/kube/order.ts',
      text: "import { runCli } from '../cli/app.js';\nexport const x = runCli;\n",
      want: /src\/kube must not import src\/cli/,
      reason: 'a static import from the core into the CLI',
    },
    DynamicUpward: {
      file: 'src/kube/order.ts',
      text: "export async function f(): Promise<unknown> {\n  return import('../cli/app.js');\n}\n",
      want: /src\/kube must not import src\/cli, not even with import\(\)/,
      reason: 'the same through import(): no-restricted-imports alone does not see it',
    },
    DynamicSiblingUseCase: {
      file: 'src/bind/render.ts',
      text: "export async function f(): Promise<unknown> {\n  return import('../sync/render.js');\n}\n",
      want: /src\/bind must not import src\/sync, not even with import\(\)/,
      reason: 'use cases do not import each other',
    },
    DynamicNodeInTheCore: {
      file: 'src/plan/plan.ts',
      text: "export async function f(): Promise<unknown> {\n  return import('node:fs');\n}\n",
      want: /the core is pure: no I\/O, not even with import\(\)/,
      reason: 'the core does no I/O',
    },
    DynamicClientOutsideCluster: {
      file: 'src/cli/app.ts',
      text: "export async function f(): Promise<unknown> {\n  return import('@kubernetes/client-node');\n}\n",
      want: /only src\/cluster may import the client library, not even with import\(\)/,
      reason: 'only the Cluster port talks to the client library',
    },
    CliReachesTheClusterOnlyThroughApp: {
      file: 'src/cli/app.ts',
      text: "export async function f(): Promise<unknown> {\n  return import('../cluster/connect.js');\n}\n",
      want: /src\/cli must not import src\/cluster, not even with import\(\)/,
      reason: 'the CLI reaches a cluster through src/app, not the adapter',
    },
    CliDoesNotImportThePort: {
      file: 'src/cli/context.ts',
      text: "import type { Cluster } from '../port/cluster.js';\nexport type C = Cluster;\n",
      want: /src\/cli must not import src\/port/,
      reason: 'nor the port: what the CLI needs of it, src/app gives',
    },
    AppIsGivenTheAdapter: {
      file: 'src/app/sync.ts',
      text: "import { connect } from '../cluster/connect.js';\nexport const c = connect;\n",
      want: /src\/app must not import src\/cluster/,
      reason: 'use cases are given a connected Cluster (AppDeps.connect), they never build one',
    },
    AppUsesThePort: {
      file: 'src/app/sync.ts',
      text: "import type { Cluster } from '../port/cluster.js';\nexport type C = Cluster;\n",
      want: undefined,
      reason: 'the port sits below the application layer',
    },
    DynamicDownwardIsFine: {
      file: 'src/cli/app.ts',
      text: "export async function f(): Promise<unknown> {\n  return import('../sync/render.js');\n}\n",
      want: undefined,
      reason: 'the CLI may load a use case lazily',
    },
  };
  it.each(Object.entries(cases))(
    '%s',
    async (_name, tc) => {
      const messages = await layerMessages(tc.file, tc.text);
      if (tc.want === undefined) expect(messages, tc.reason).toStrictEqual([]);
      else
        expect(
          messages.some((m) => tc.want?.test(m) === true),
          `${tc.reason}: ${messages.join('; ')}`,
        ).toBe(true);
    },
    60_000,
  );
});
