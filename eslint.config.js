import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'examples/', '**/*.mjs'] },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js'] },
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
  {
    // The pure core takes data in and returns data: no I/O, no client, no process.
    files: ['src/rbac/**/*.ts', 'src/diff/**/*.ts', 'src/explain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'http', 'https', 'child_process'],
              message: 'pure core: no I/O',
            },
            { group: ['@kubernetes/client-node'], message: 'only src/k8s may import the client' },
            {
              group: ['**/k8s/*', '**/cli/*', '**/cli/**'],
              message: 'pure core must not depend on I/O layers',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'process', 'console'],
    },
  },
  {
    // client-node's request bodies are model classes; we hand it plain objects built from our own types.
    files: ['src/k8s/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-class-instance-assignment': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/k8s/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@kubernetes/client-node'], message: 'only src/k8s may import the client' }] },
      ],
    },
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
