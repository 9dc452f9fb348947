import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { selectContexts } from '../../../src/app/fleet.js';
import { UsageError } from '../../../src/errors.js';

const NAMES = [
  'prod-a',
  'prod-b',
  'eu-1',
  'eu-x',
  'a]b',
  'x-y',
  'xay',
  '[lit]',
  'p\u00e9q',
  'a.b',
  'axb',
  '!x',
  '^x',
];

/**
 * The NAMES bash's own pattern matching (`[[ $name == $pattern ]]`, the pattern unquoted) accepts for PATTERN, in
 * order: the reference for --contexts globs, which say they are shell-style.
 */
function bashMatches(pattern: string): string[] {
  const script = 'p=$1; shift; for n in "$@"; do [[ $n == $p ]] && printf "%s\\n" "$n"; done; true';
  const out = execFileSync('bash', ['-c', script, 'bash', pattern, ...NAMES], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', LC_ALL: 'C.UTF-8' },
  });
  return out.split('\n').filter((l) => l !== '');
}

function select(pattern: string): string[] | string {
  try {
    return selectContexts({ contexts: [pattern], all: false, parallel: 1 }, NAMES);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
}

describe('selectContexts: shell globs', () => {
  const cases: Record<string, { reason: string; pattern: string }> = {
    Star: { reason: '* is any run of characters.', pattern: 'prod-*' },
    Class: { reason: 'A class matches one of its characters.', pattern: '[ab]*' },
    Negated: { reason: '! first negates the class.', pattern: '[!pe]*' },
    Caret: { reason: 'bash also takes ^ first as a negation.', pattern: '[^pe]*' },
    LiteralBracketFirst: { reason: 'A ] right after [ is a member, not the end.', pattern: '[]]*' },
    BracketInName: { reason: 'Then the class ends at the next ].', pattern: 'a[]x]b' },
    DashAlone: { reason: 'A - first or last in a class is literal.', pattern: 'x[-]y' },
    DashLast: { reason: 'A - before the closing ] is literal.', pattern: 'x[a-]y' },
    OpenBracketMember: { reason: '[ inside a class is an ordinary member.', pattern: '[[]lit]' },
    Range: { reason: 'A range matches every character between its ends.', pattern: 'eu-[0-9]' },
    QuestionMark: { reason: '? is one character, é included (one code point).', pattern: 'p?q' },
    Dot: { reason: 'A dot is literal, not any character.', pattern: 'a.b' },
    RegexpCharacters: {
      reason: 'Characters a regular expression treats specially are literal.',
      pattern: '^x',
    },
    NegatedCaretMember: { reason: 'After !, ^ is an ordinary member.', pattern: '[!^]x' },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    const want = bashMatches(tc.pattern);
    expect(select(tc.pattern), tc.reason).toStrictEqual(
      want.length > 0 ? want : `--contexts "${tc.pattern}" matches no context`,
    );
  });

  it('refuses a pattern that is not one as a usage error, before anything is read', () => {
    expect(select('[z-a]')).toBe('invalid --contexts pattern "[z-a]": range z-a is out of order');
    expect(select('prod-[ab')).toBe('invalid --contexts pattern "prod-[ab": unclosed [');
    expect(select('[!]')).toBe('invalid --contexts pattern "[!]": unclosed [');
  });
});
