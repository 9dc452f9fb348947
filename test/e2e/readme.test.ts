/**
 * README.md's commands, run as a reader would (markdown-run.ts has the rules), and how pages are read
 * (readme-blocks.ts). docs.test.ts runs the pages under docs/.
 */
import { describe, expect, it } from 'vitest';
import { documentationPages, pageBlocks, runPages } from './markdown-run.js';
import { outputMatches, readmeBlocks } from './readme-blocks.js';
import { EXIT, SERVE, SKIP, TERMINAL } from './readme-exceptions.js';

describe('how the README test reads blocks (readme-blocks.ts)', () => {
  const md = [
    '# Title',
    '```sh',
    '# a comment',
    'kubectl crossplane-rbac explain admin \\',
    '  -f examples/cluster',
    '',
    "cat > roles.yaml <<'EOF'",
    '- {kind: ClusterRole, name: view}',
    'EOF',
    '```',
    '',
    '```',
    'output',
    '```',
    '```',
    '$ kubectl crossplane-rbac synk',
    'error: unknown command',
    '$ kubectl crossplane-rbac version',
    '```',
  ].join('\n');

  it('joins continued lines, keeps here-documents whole, and gives the last command the output below it', () => {
    expect(readmeBlocks(md)).toEqual([
      {
        line: 2,
        heading: 'Title',
        commands: [
          { line: 4, text: 'kubectl crossplane-rbac explain admin -f examples/cluster' },
          {
            line: 7,
            text: "cat > roles.yaml <<'EOF'\n- {kind: ClusterRole, name: view}\nEOF",
            expected: { line: 12, text: 'output' },
          },
        ],
      },
      {
        line: 15,
        heading: 'Title',
        commands: [
          {
            line: 16,
            text: 'kubectl crossplane-rbac synk',
            expected: { line: 17, text: 'error: unknown command' },
          },
          { line: 18, text: 'kubectl crossplane-rbac version', expected: { line: 19, text: '' } },
        ],
      },
    ]);
  });

  it('refuses a block that is never closed (a later fence would open inside it)', () => {
    expect(() => readmeBlocks('```json\n{}\n\n```sh\nkubectl version\n```\n')).toThrow(
      'README.md:4: a code block opens inside the one of line 1',
    );
  });

  it('matches output exactly, with ... for lines and a trailing " ..." for the rest of a line', () => {
    expect(outputMatches('a\nb', 'a\nb\n')).toBe(true);
    expect(outputMatches('a\nb', 'a\nc\n')).toBe(false);
    expect(outputMatches('a\n...\nd', 'a\nb\nc\nd\n')).toBe(true);
    expect(outputMatches('a\n...\nd', 'a\nd\n')).toBe(false);
    expect(outputMatches('error: at ...', 'error: at https://127.0.0.1:1 (ECONNREFUSED)')).toBe(true);
    expect(outputMatches('error: at ...', 'error: in https://127.0.0.1:1')).toBe(false);
    expect(outputMatches('a', 'a\nmore\n')).toBe(false);
  });
});

describe('the documentation pages', () => {
  it('have commands, and every exception names one of them', () => {
    const texts = new Set(
      documentationPages().flatMap((page) => pageBlocks(page).flatMap((b) => b.commands.map((c) => c.text))),
    );
    expect(texts.size).toBeGreaterThan(40);
    for (const list of [SKIP, TERMINAL, SERVE, EXIT])
      for (const key of Object.keys(list)) expect(texts, `not a command of any page: ${key}`).toContain(key);
  });
});

runPages(['README.md']);
