/**
 * Colour on stdout and on stderr's warnings, one rule, kubectl's: cli-runtime's printers.AllowsColorOutput
 * (kubernetes staging/src/k8s.io/cli-runtime/pkg/printers/terminal.go@cb6ff2d8ce3595f88570f82c7d0e6d98910afd3c: a
 * terminal, TERM not `dumb`, NO_COLOR not set at all: os.LookupEnv, so an empty value turns colour off too). Checked
 * against kubectl v1.32 on a pseudo-terminal: `NO_COLOR= kubectl get --raw /api` from a server that sends a Warning
 * prints `Warning:` without colour, as NO_COLOR=1 does.
 */
import { describe, expect, it } from 'vitest';
import { useColor } from '../../../src/cli/output/terminal.js';
import { allowsWarningColor } from '../../../src/cli/server-warnings.js';

const cases: Record<
  string,
  { env: Record<string, string>; tty: boolean; flag?: boolean; want: boolean; reason: string }
> = {
  Unset: { env: { TERM: 'xterm' }, tty: true, want: true, reason: 'a terminal, nothing asks for no colour' },
  Empty: {
    env: { TERM: 'xterm', NO_COLOR: '' },
    tty: true,
    want: false,
    reason: 'LookupEnv: set, even empty',
  },
  One: { env: { TERM: 'xterm', NO_COLOR: '1' }, tty: true, want: false, reason: 'set' },
  Zero: {
    env: { TERM: 'xterm', NO_COLOR: '0' },
    tty: true,
    want: false,
    reason: 'any value is set, "0" too',
  },
  Dumb: { env: { TERM: 'dumb' }, tty: true, want: false, reason: 'a dumb terminal has no colour' },
  NotATerminal: {
    env: { TERM: 'xterm' },
    tty: false,
    want: false,
    reason: 'a pipe or a file gets no escapes',
  },
  NoTerm: { env: {}, tty: true, want: true, reason: 'TERM unset is not dumb' },
  NoColorFlag: { env: { TERM: 'xterm' }, tty: true, flag: true, want: false, reason: '--no-color' },
};

describe('colour: one rule for stdout and for warnings, kubectl’s AllowsColorOutput', () => {
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    const flag = tc.flag ?? false;
    expect(useColor({ env: tc.env }, tc.tty, flag), tc.reason).toBe(tc.want);
    expect(allowsWarningColor({ env: tc.env, stderrIsTTY: tc.tty }, flag), tc.reason).toBe(tc.want);
  });
});
