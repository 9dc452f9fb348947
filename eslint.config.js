import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// The layers of src/, lowest first (ARCHITECTURE.md draws them). A folder may import its own layer and those
// below it, never one above; the use cases (one folder per command) do not import each other.
/** @type {string[][]} */
const LAYERS = [
  ['kube'],
  ['crossplane', 'authz'],
  ['plan'],
  ['sync', 'bind', 'enable-xrd', 'explain', 'who-can', 'lookup', 'composed', 'audit'],
  ['port', 'input'],
  ['cluster', 'app'],
  ['cli'],
];
// Pure: no I/O, no process, no console. The port is types and pure translation (the adapter in cluster/ does I/O).
const CORE = [...LAYERS.slice(0, 4).flat(), 'port'];
// The CLI reaches a cluster only through the application layer: it imports neither the adapter nor the port.
const CLI_ONLY_THROUGH_APP = ['cluster', 'port'];

// The files directly in src/ below every layer (see their rule below); the others (main.ts, composition-root.ts) are
// the entry points above every layer.
const BELOW_LAYERS = ['src/errors.ts', 'src/escape.ts'];
const TOP_FILES = ['main.ts', 'composition-root.ts'];

// A folder of src/ that is in no layer would escape these rules: place every new folder in LAYERS. So would a file
// directly in src/ that is neither below nor above every layer.
const unplacedFiles = readdirSync(join(import.meta.dirname, 'src'), { withFileTypes: true })
  .filter((e) => e.isFile() && !BELOW_LAYERS.includes(`src/${e.name}`) && !TOP_FILES.includes(e.name))
  .map((e) => `src/${e.name}`);
if (unplacedFiles.length > 0)
  throw new Error(`eslint.config.js: place ${unplacedFiles.join(', ')} in BELOW_LAYERS or TOP_FILES`);

// A folder of src/ that is in no layer would escape these rules: place every new folder in LAYERS.
const unplaced = readdirSync(join(import.meta.dirname, 'src'), { withFileTypes: true })
  .filter((e) => e.isDirectory() && !LAYERS.flat().includes(e.name))
  .map((e) => `src/${e.name}`);
if (unplaced.length > 0) throw new Error(`eslint.config.js: put ${unplaced.join(', ')} in a layer of LAYERS`);
const NO_IO = {
  group: ['node:*', 'fs', 'path', 'http', 'https', 'child_process', 'net', 'tls', 'os'],
  message: 'the core is pure: no I/O',
};
const CLIENT = {
  group: ['@kubernetes/client-node'],
  message: 'only src/cluster may import the client library',
};

/**
 * The folders FOLDER may not import: every layer above its own, its siblings (folders of one layer do not depend on
 * each other), and for the CLI the cluster adapter and port (it reaches them through src/app).
 * @param {string} folder @param {number} level
 */
function unreachable(folder, level) {
  const above = LAYERS.slice(level + 1).flat();
  const siblings = LAYERS[level].filter((f) => f !== folder);
  return [...above, ...siblings, ...(folder === 'cli' ? CLI_ONLY_THROUGH_APP : [])];
}

/** @param {string} folder @param {number} level */
function forbidden(folder, level) {
  return unreachable(folder, level).map((f) => ({
    group: [`**/${f}/*`, `**/${f}/**`],
    message: `src/${folder} must not import src/${f} (see ARCHITECTURE.md)`,
  }));
}

/**
 * The same rules for `import()` expressions, which no-restricted-imports does not see: one no-restricted-syntax
 * selector per forbidden group of modules, on the literal the expression imports.
 * @param {string} folder @param {number} level
 */
function forbiddenDynamic(folder, level) {
  /** @type {{ selector: string, message: string }[]} */
  const out = unreachable(folder, level).map((f) => ({
    selector: `ImportExpression[source.value=/(^|\\/)${f.replace('-', '\\-')}\\//]`,
    message: `src/${folder} must not import src/${f}, not even with import() (see ARCHITECTURE.md)`,
  }));
  if (CORE.includes(folder)) {
    out.push({
      selector: `ImportExpression[source.value=/^(node:|(fs|path|http|https|child_process|net|tls|os)$)/]`,
      message: 'the core is pure: no I/O, not even with import()',
    });
  }
  if (folder !== 'cluster') {
    out.push({
      selector: "ImportExpression[source.value='@kubernetes/client-node']",
      message: 'only src/cluster may import the client library, not even with import()',
    });
  }
  return out;
}

function layerRules() {
  return LAYERS.flatMap((folders, level) =>
    folders.map((folder) => ({
      files: [`src/${folder}/**/*.ts`],
      rules: {
        'no-restricted-syntax': ['error', ...forbiddenDynamic(folder, level)],
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              ...forbidden(folder, level),
              ...(CORE.includes(folder) ? [NO_IO] : []),
              ...(folder === 'cluster' ? [] : [CLIENT]),
            ],
          },
        ],
        ...(CORE.includes(folder) ? { 'no-restricted-globals': ['error', 'process', 'console'] } : {}),
      },
    })),
  );
}

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'examples/'] },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', 'stryker.config.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // Dropping fields by destructuring into `_names` is the idiom for "everything but".
      '@typescript-eslint/no-unused-vars': [
        'error',
        { varsIgnorePattern: '^_', argsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  ...layerRules(),
  {
    files: ['src/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT] }] },
  },
  {
    // errors.ts and escape.ts sit below every layer (the core throws UserError, every presenter escapes): they import
    // nothing of src/ but each other, and are pure. main.ts and composition-root.ts sit above every layer.
    files: [...BELOW_LAYERS],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...LAYERS.flat().map((f) => ({
              group: [`**/${f}/*`, `**/${f}/**`],
              message: `src/errors.ts and src/escape.ts sit below every layer: they must not import src/${f}`,
            })),
            {
              group: ['./main.js', './composition-root.js'],
              message: 'the entry points import these, not the reverse',
            },
            NO_IO,
            CLIENT,
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression', message: 'no import() below every layer' },
      ],
      'no-restricted-globals': ['error', 'process', 'console'],
    },
  },
  {
    // client-node's request bodies are model classes; we hand it plain objects built from our own types.
    files: ['src/cluster/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-class-instance-assignment': 'off' },
  },
  {
    // The test API server is the oracle the plugin is tested against: it must not share the plugin's code.
    files: ['test/apiserver/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/src/**'], message: 'the test API server imports nothing from src/' }] },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
