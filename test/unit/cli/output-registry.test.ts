import { describe, expect, it } from 'vitest';
import { commandFormats, parseFormat, toPrinter } from '../../../src/cli/output/registry.js';
import { RESULT_FORMATS, type ResultKind } from '../../../src/cli/output/output-formats.js';
import type { PrintedKind } from '../../../src/cli/output/printer.js';
import { UsageError } from '../../../src/errors.js';

// The registry: every format a kind of result lists has its printer, -o is checked against the kind's list, and
// completion offers what the command's kinds list. What each printer prints is held byte for byte by the output
// corpus (test/integration/output-corpus.test.ts; a sample through kubectl in test/e2e/output-corpus.test.ts).

const PRINTED: readonly PrintedKind[] = [
  'plan',
  'who-can',
  'lookup',
  'composed',
  'audit',
  'explain-role',
  'explain-subject',
  'explain-matrix',
];

describe('the printer registry', () => {
  for (const kind of PRINTED) {
    it(`has a printer for each format of ${kind}`, async () => {
      const formats: readonly string[] = RESULT_FORMATS[kind].formats;
      expect(formats.length).toBeGreaterThan(0);
      for (const f of formats) {
        const printer = await toPrinter(kind, f as never);
        expect(typeof printer, `${kind} -o ${f}`).toBe('function');
      }
    });
  }

  it.each([
    { kind: 'who-can', value: undefined, want: 'table', reason: 'the default is the first format' },
    { kind: 'explain-role', value: undefined, want: 'tree', reason: "explain ROLE's default is its tree" },
    {
      kind: 'explain-subject',
      value: undefined,
      want: 'text',
      reason: "explain --subject's default is text",
    },
    { kind: 'explain-subject', value: 'html', want: 'html', reason: 'a graph format of the subject mode' },
    { kind: 'plan', value: 'diff', want: 'diff', reason: 'the writing commands take diff' },
  ] as const)('-o $value for $kind: $want ($reason)', ({ kind, value, want }) => {
    expect(parseFormat(kind as ResultKind, value, kind)).toBe(want);
  });

  it.each([
    { kind: 'explain-matrix', value: 'wide', reason: 'the matrix has no wide form' },
    { kind: 'explain-role', value: 'html', reason: 'only who-can and explain --subject draw an HTML page' },
    { kind: 'plan', value: 'wide', reason: 'the writing commands have no wide table' },
  ] as const)('refuses -o $value for $kind ($reason)', ({ kind, value }) => {
    expect(() => parseFormat(kind, value, kind)).toThrow(UsageError);
    expect(() => parseFormat(kind, value, kind)).toThrow(`unknown output format "${value}" for ${kind}`);
  });

  it.each([
    { command: 'who-can', words: [], want: ['table', 'wide', 'json', 'yaml', 'dot', 'mermaid', 'html'] },
    { command: 'sync', words: [], want: ['table', 'yaml', 'json', 'name', 'diff'] },
    {
      command: 'explain',
      words: ['crossplane-edit'],
      want: ['tree', 'table', 'wide', 'yaml', 'json', 'dot', 'mermaid'],
    },
    {
      command: 'explain',
      words: ['--subject', 'Group:g'],
      want: ['text', 'wide', 'yaml', 'json', 'dot', 'mermaid', 'html'],
    },
    { command: 'explain', words: ['--subject=Group:g', '--matrix'], want: ['table', 'json', 'yaml'] },
    { command: 'no-such-command', words: [], want: [] },
  ])('completes -o of $command $words with its mode only', ({ command, words, want }) => {
    expect(commandFormats(command, words)).toEqual(want);
  });
});
