// main.ts answers `version` and the top-level --help before loading the parser (src/cli/fast-start.ts). Each early
// answer must be what the whole path (runCli) prints for the same words, byte for byte; anything else must be left
// to the whole path, which checks it.
import { describe, expect, it } from 'vitest';
import { answerEarly } from '../../../src/cli/fast-start.js';
import { runCaptured } from '../../support/run-cli.js';

const VERSION = 'v0.0.0-test'; // what runCaptured gives the CLI

describe('answerEarly', () => {
  it.each([
    [['version']],
    [['version', '-o', 'json']],
    [['version', '-o', 'yaml']],
    [['version', '-o', 'text']],
    [['version', '-o', 'short']],
    [['version', '--output', 'json']],
    [['version', '-o=yaml']],
    [['version', '--output=json']],
    [['--help']],
    [['help']],
    [[]],
  ])('%j: what runCli prints, exit 0', async (argv) => {
    const help = await runCaptured(['--help']);
    expect(help.code).toBe(0);
    const whole = await runCaptured(argv);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stderr).toBe('');
    expect(answerEarly(argv, { version: VERSION, help: () => help.stdout })).toBe(whole.stdout);
  });

  it.each([
    [['version', '-o', 'bogus'], 'an unknown format is an error the parser words'],
    [['version', '-o'], 'a flag with no value'],
    [['version', '-o', 'json', '-o', 'yaml'], 'a repeated flag'],
    [['version', '--kubeconfig', '/nonexistent'], "kubectl's flags are checked by the parser"],
    [['version', 'extra'], 'an unexpected argument'],
    [['version', '--help'], "version's own help"],
    [['sync', '--help'], "a command's help"],
    [['--help', 'sync'], 'help with more words'],
    [['help', 'sync'], "a command's help, asked with help"],
    [['-h'], 'the shorthand, wrapped like any parser help'],
    [['sync'], 'a command'],
  ])('%j is left to the parser (%s)', (argv) => {
    let asked = false;
    const help = (): string => ((asked = true), 'HELP');
    expect(answerEarly(argv, { version: VERSION, help })).toBeUndefined();
    // Only the top-level help asks whether stdout is a terminal.
    expect(asked).toBe(false);
  });

  it('leaves the help to the parser when there is none rendered (on a terminal: it wraps to the width)', () => {
    expect(answerEarly(['--help'], { version: VERSION })).toBeUndefined();
    expect(answerEarly([], { version: VERSION })).toBeUndefined();
    const none = (): undefined => undefined;
    expect(answerEarly(['--help'], { version: VERSION, help: none })).toBeUndefined();
  });
});
